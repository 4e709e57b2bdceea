//! The sampled checks of `loink check`: bi-Lipschitz pairs (whole network and per monotone
//! layer), the inverse round trip on task targets and latent samples, and preimage recovery.
//!
//! All in the network's normalised coordinates (where μ and ν are certified): joints x̃ are drawn
//! from [−1.5, 1.5]ⁿ (the joint box maps to [−1, 1]ⁿ, plus a margin outside it), pair offsets
//! in a random direction with length log-uniform in [1e-6, 3]; task targets uniformly from the
//! disk of radius 1.05 · reach, normalised as the solver does.

use std::time::Instant;

use loink::artifact::ValidatedModel;
use loink::nn::linalg::{distance, dot, norm};
use loink::nn::{BiLipNet, InverseOptions};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rand_distr::StandardNormal;

use super::Row;

/// Relative slack on the Lipschitz bounds for floating-point rounding of ΔG at ‖Δx‖ ≥ 1e-6.
const RATIO_SLACK: f64 = 1e-6;
/// Round-trip bar: ‖G(G⁻¹(y)) − y‖ ≤ 1e-9 in f64 within the cap.
pub const ROUND_TRIP_BAR: f64 = 1e-9;
/// Absolute slack of the recovery bound ‖G⁻¹(G(x)) − x‖ ≤ residual/μ.
const RECOVERY_SLACK: f64 = 1e-12;

fn box_point(rng: &mut ChaCha8Rng, n: usize) -> Vec<f64> {
    (0..n).map(|_| rng.random_range(-1.5..1.5)).collect()
}

/// b = a + δ u with u a uniform random direction and δ log-uniform in [1e-6, 3].
fn partner(rng: &mut ChaCha8Rng, a: &[f64]) -> Vec<f64> {
    let u: Vec<f64> = a.iter().map(|_| rng.sample(StandardNormal)).collect();
    let length = 10f64.powf(rng.random_range(-6.0..0.477));
    let scale = length / norm(&u).max(f64::MIN_POSITIVE);
    a.iter().zip(&u).map(|(ai, ui)| ai + scale * ui).collect()
}

use loink::stats::quantile_sorted as quantile;

fn sorted(mut v: Vec<f64>) -> Vec<f64> {
    v.sort_by(f64::total_cmp);
    v
}

/// μ ≤ ‖G(a) − G(b)‖/‖a − b‖ ≤ ν on `pairs` random pairs.
pub fn bilipschitz(net: &BiLipNet, pairs: usize, seed: u64) -> Row {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let n = net.dim();
    let mut state = net.new_state();
    let (mut ga, mut gb) = (vec![0.0; n], vec![0.0; n]);
    let (mut lo, mut hi) = (f64::INFINITY, 0.0f64);
    for _ in 0..pairs {
        let a = box_point(&mut rng, n);
        let b = partner(&mut rng, &a);
        net.forward_into(&a, &mut state, &mut ga);
        net.forward_into(&b, &mut state, &mut gb);
        let ratio = distance(&ga, &gb) / distance(&a, &b);
        lo = lo.min(ratio);
        hi = hi.max(ratio);
    }
    let (mu, nu) = (net.mu(), net.nu());
    Row {
        check: "G bi-Lipschitz ‖ΔG‖/‖Δx‖".into(),
        samples: pairs,
        measured: format!("min {lo:.6} max {hi:.6}"),
        bound: format!("μ = {mu:.6} … ν = {nu:.6}"),
        holds: lo >= mu * (1.0 - RATIO_SLACK) && hi <= nu * (1.0 + RATIO_SLACK),
    }
}

/// Per monotone layer F_k: ⟨ΔF, Δx⟩ ≥ μ_k‖Δx‖² and ‖ΔF‖ ≤ ν_k‖Δx‖ on `pairs` pairs of its
/// inputs (a drawn as the image of a random joint vector under the layers before it).
pub fn layers(net: &BiLipNet, pairs: usize, seed: u64) -> Vec<Row> {
    let n = net.dim();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut out = Vec::new();
    for (k, layer) in net.monotone().iter().enumerate() {
        let (mut lo, mut hi) = (f64::INFINITY, 0.0f64);
        let mut buf = vec![0.0; n];
        for _ in 0..pairs {
            let mut a = box_point(&mut rng, n);
            for j in 0..=k {
                net.orthogonal()[j].forward_into(&a, &mut buf);
                a = if j < k {
                    net.monotone()[j].forward(&buf)
                } else {
                    buf.clone()
                };
            }
            let b = partner(&mut rng, &a);
            let (fa, fb) = (layer.forward(&a), layer.forward(&b));
            let dx: Vec<f64> = a.iter().zip(&b).map(|(x, y)| x - y).collect();
            let df: Vec<f64> = fa.iter().zip(&fb).map(|(x, y)| x - y).collect();
            let dx2 = dot(&dx, &dx);
            lo = lo.min(dot(&df, &dx) / dx2);
            hi = hi.max(norm(&df) / dx2.sqrt());
        }
        let (mu, nu) = (layer.mu(), layer.nu());
        out.push(Row {
            check: format!("F{k} monotone ⟨ΔF,Δx⟩/‖Δx‖², ‖ΔF‖/‖Δx‖"),
            samples: pairs,
            measured: format!("min {lo:.6}, max {hi:.6}"),
            bound: format!("≥ μ_l = {mu:.6}, ≤ ν_l = {nu:.6}"),
            holds: lo >= mu * (1.0 - RATIO_SLACK) && hi <= nu * (1.0 + RATIO_SLACK),
        });
    }
    out
}

/// A point uniform in the m-ball of `radius` about the origin (for m = 2 by its polar
/// coordinates, the stream the planar checks were always drawn from).
fn in_ball(rng: &mut ChaCha8Rng, m: usize, radius: f64) -> Vec<f64> {
    if m == 2 {
        let r = radius * rng.random::<f64>().sqrt();
        let phi = rng.random_range(0.0..std::f64::consts::TAU);
        return vec![r * phi.cos(), r * phi.sin()];
    }
    let direction: Vec<f64> = (0..m).map(|_| rng.sample(StandardNormal)).collect();
    let length = direction
        .iter()
        .map(|v| v * v)
        .sum::<f64>()
        .sqrt()
        .max(1e-300);
    let r = radius * rng.random::<f64>().powf(1.0 / m.max(1) as f64);
    direction.iter().map(|v| v * r / length).collect()
}

/// Round trip ‖G(G⁻¹(t)) − t‖ from cold starts on `targets` targets of each kind: task targets
/// [ỹ; 0] (what `solve` asks) and latent samples [ỹ; z], z ~ N(0, I) (what `sample` asks).
pub fn round_trip(
    model: &ValidatedModel,
    targets: usize,
    seed: u64,
    options: &InverseOptions,
) -> Vec<Row> {
    let net = model.net();
    let file = model.file();
    let norm_ = &file.normalisation;
    let (n, m) = (net.dim(), file.hyper.task_dim);
    let reach = model.problem().workspace_radius();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut state = net.new_state();
    let mut x = vec![0.0; n];
    let mut rows = Vec::new();
    for (label, latent) in [
        ("task targets [ỹ; 0]", false),
        ("latent samples [ỹ; z~N(0,I)]", true),
    ] {
        let count = targets;
        let (mut residuals, mut iterations, mut micros) = (Vec::new(), Vec::new(), Vec::new());
        let mut failed = 0usize;
        for _ in 0..count {
            let y = in_ball(&mut rng, m, 1.05 * reach);
            let mut t = vec![0.0; n];
            for i in 0..m {
                t[i] = (y[i] - norm_.y_shift[i]) / norm_.y_scale[i];
            }
            if latent {
                t[m..]
                    .iter_mut()
                    .for_each(|v| *v = rng.sample(StandardNormal));
            }
            let start = Instant::now();
            let report = net.inverse_into(&t, &mut state, options, &mut x);
            micros.push(start.elapsed().as_secs_f64() * 1e6);
            let residual = match (report, net.forward(&x)) {
                (Ok(report), Ok(g)) => {
                    iterations.push(report.iterations as f64);
                    if !report.converged() {
                        failed += 1;
                    }
                    distance(&g, &t)
                }
                _ => {
                    failed += 1;
                    f64::INFINITY
                }
            };
            residuals.push(if residual.is_nan() {
                f64::INFINITY
            } else {
                residual
            });
        }
        let (residuals, iterations, micros) =
            (sorted(residuals), sorted(iterations), sorted(micros));
        let max = residuals.last().copied().unwrap_or(0.0);
        rows.push(Row {
            check: format!("round trip ‖G(G⁻¹(t)) − t‖, {label}"),
            samples: count,
            measured: format!(
                "max {max:.2e} median {:.2e} p99 {:.2e}; iterations median {} max {}; {:.1} µs median; {failed} not converged",
                quantile(&residuals, 0.5),
                quantile(&residuals, 0.99),
                quantile(&iterations, 0.5),
                iterations.last().copied().unwrap_or(0.0),
                quantile(&micros, 0.5),
            ),
            bound: format!("≤ {ROUND_TRIP_BAR:.0e}, all converged"),
            holds: count == 0 || (failed == 0 && max <= ROUND_TRIP_BAR),
        });
    }
    rows
}

/// ‖G⁻¹(G(x)) − x‖ ≤ ‖G(x̂) − G(x)‖/μ on `count` random x: the inverse finds *the* preimage.
pub fn recovery(net: &BiLipNet, count: usize, seed: u64, options: &InverseOptions) -> Row {
    let n = net.dim();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut state = net.new_state();
    let mut x_hat = vec![0.0; n];
    let mut worst_error = 0.0f64;
    let mut violations = 0usize;
    for _ in 0..count {
        let x = box_point(&mut rng, n);
        let Ok(t) = net.forward(&x) else {
            violations += 1;
            continue;
        };
        let ok = net
            .inverse_into(&t, &mut state, options, &mut x_hat)
            .is_ok();
        let residual = net
            .forward(&x_hat)
            .map(|g| distance(&g, &t))
            .unwrap_or(f64::INFINITY);
        let error = distance(&x_hat, &x);
        let bound = residual / net.mu() + RECOVERY_SLACK;
        worst_error = worst_error.max(error);
        if !ok || error.is_nan() || error > bound {
            violations += 1;
        }
    }
    Row {
        check: "recovery ‖G⁻¹(G(x)) − x‖ ≤ residual/μ".into(),
        samples: count,
        measured: format!("max error {worst_error:.2e}; {violations} violations"),
        bound: "≤ residual/μ + 1e-12".into(),
        holds: violations == 0,
    }
}
