//! Optimal-surface resampling *(ours)*: training data drawn where the solver reads the network.
//!
//! The page's unrefined LOInK answer for a target y is x₀ = G⁻¹([ỹ; 0]), and G₁(x₀) = ỹ holds
//! exactly there, so its residual ‖p(x₀) − y‖ is the task error of G₁ *at x₀*. The points x₀ form
//! the learned optimal surface {G⁻¹([ỹ; 0])}: a 2-D subset of the 3-D joint box that uniform data
//! covers no more densely than anywhere else. With `loink train --surface N`, every epoch after
//! the warm-up exports the current network, inverts it with the inference crate (exactly the page's
//! inverse) at N fresh targets, and lets the x₀, labelled by forward kinematics and the cost,
//! take the place of as many uniform samples in that epoch — including the x₀ outside the joint
//! limits, which the page shows too (status "limits") and uniform data never covers.
//!
//! With `--surface-pool K` (K > 1) an epoch inverts K·N targets and keeps the N preimages with
//! the largest residuals: the data goes where the unrefined answer is worst (the tail the
//! page's drag bar is about), while the uniform samples keep covering the rest of the box.

use loink::artifact::Normalisation;
use loink::problem::{JointLimits, Problem};
use loink::surrogate::Loink;
use rand::seq::SliceRandom;
use rand::Rng;
use rand_chacha::ChaCha8Rng;

use super::data::{NormalisedSet, Samples};
use super::export::{exact_model_file, ExportContext};
use super::model::LoinkNet;
use loink::stats::median_p95;

/// One epoch's surface points and what they say about the current network.
#[derive(Debug, Clone, PartialEq)]
pub struct Surface {
    /// The preimages x₀ (within the joint box widened by its smallest half-width on every side),
    /// labelled by FK and cost.
    pub samples: Samples,
    /// Targets inverted (N·K).
    pub targets: usize,
    /// Median of ‖p(x₀) ⊖ y‖ over all targets (m, the task's weighted error): the unrefined
    /// residual right now.
    pub residual_median_m: f64,
}

/// Inverts the current `net` at `count · pool` targets y = p(q), q uniform in `region` (the
/// joint limits, or one chart's sub-box of them), and keeps at most `count` preimages: all of
/// them when `pool` is 1, else the ones with the largest residuals (in draw order).
///
/// Fails only when the inference crate rejects the exported network (a diverged run).
pub fn draw(
    net: &LoinkNet,
    ctx: ExportContext<'_>,
    region: &JointLimits,
    count: usize,
    pool: usize,
    rng: &mut ChaCha8Rng,
) -> Result<Surface, String> {
    let learned = Loink::from_file(exact_model_file(net, ctx)).map_err(|e| e.to_string())?;
    let problem: &Problem = learned.problem();
    let (n, m, limits) = (problem.dof(), problem.task_dim(), region);
    let zero = vec![0.0; learned.latent_dim()];
    let widen = (0..n)
        .map(|i| limits.half_width(i))
        .fold(f64::INFINITY, f64::min);
    let targets = count * pool.max(1);
    let mut samples = Samples::with_capacity(n, m, targets);
    let mut residuals = Vec::with_capacity(targets);
    let mut kept_residuals = Vec::with_capacity(targets);
    // As `Problem::random_targets` (one draw per joint, in order), inside the region and the
    // problem's domain.
    let domain = problem.capabilities().domain;
    let drawn: Vec<Vec<f64>> = (0..targets)
        .filter_map(|_| {
            (0..loink::problem::MAX_DRAWS).find_map(|_| {
                let q: Vec<f64> = (0..n)
                    .map(|i| rng.random_range(region.lower()[i]..=region.upper()[i]))
                    .collect();
                domain
                    .is_none_or(|d| d.contains(&q))
                    .then(|| problem.position(&q))
            })
        })
        .collect();
    for y in drawn {
        // Cold: the targets are unordered, so the last one's warm start would not help.
        let Ok((x0, _)) = learned.preimage(&mut learned.new_state(), &y, &zero) else {
            continue;
        };
        let reached = problem.position(&x0);
        // The task's own error (a pose's angle weighed in metres): a raw difference of
        // rotation vectors would count the same orientation across the chart's cut as far.
        let residual = problem.task().error_norm(&y, &reached);
        residuals.push(residual);
        // Preimages outside the limits are kept: the page answers there too (status
        // "limits"), and uniform data never covers them, so without them G₁ extrapolates —
        // the worst residuals of a model trained on points inside the box alone all sat
        // outside it (13–83 mm, margins down to −0.3 rad). Far-off ones (beyond the box
        // widened by its own size) stay out.
        if x0.iter().all(|v| v.is_finite()) && limits.margin(&x0) >= -widen {
            samples.y.extend_from_slice(&reached);
            samples.cost.push(problem.cost().value(&x0));
            samples.x.extend(x0);
            kept_residuals.push(residual);
        }
    }
    if samples.len() > count {
        samples = worst(&samples, &kept_residuals, count);
    }
    Ok(Surface {
        samples,
        targets,
        residual_median_m: median_p95(&residuals).0,
    })
}

/// The `count` samples with the largest residuals, in their original order.
fn worst(samples: &Samples, residuals: &[f64], count: usize) -> Samples {
    let mut rank: Vec<usize> = (0..samples.len()).collect();
    rank.sort_by(|&a, &b| residuals[b].total_cmp(&residuals[a]).then(a.cmp(&b)));
    rank.truncate(count);
    rank.sort_unstable();
    samples.subset(&rank)
}

/// One epoch's data: `train` followed by the surface points, and `order` (a shuffled
/// permutation of `train`'s indices) cut to make room for them and reshuffled. The points take
/// the place of as many uniform samples, so the epoch keeps its number of steps and the
/// one-cycle schedule its shape.
pub fn mix(
    train: &NormalisedSet,
    drawn: &Surface,
    norm: &Normalisation,
    order: &mut Vec<usize>,
    rng: &mut ChaCha8Rng,
) -> NormalisedSet {
    mix_rows(train, &NormalisedSet::new(&drawn.samples, norm), order, rng)
}

/// [`mix`] for rows already normalised (`train::data_surface`'s rows nearest the surface).
pub fn mix_rows(
    train: &NormalisedSet,
    points: &NormalisedSet,
    order: &mut Vec<usize>,
    rng: &mut ChaCha8Rng,
) -> NormalisedSet {
    let count = points.len().min(train.len());
    order.truncate(train.len() - count);
    order.extend(train.len()..train.len() + count);
    order.shuffle(rng);
    train.concat(points)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::train::data::normalisation;
    use crate::train::model::{cpu_device, Architecture};
    use rand::SeedableRng;

    fn setup() -> (Problem, Architecture, LoinkNet) {
        let problem = Problem::preset("planar3").unwrap();
        let arch = Architecture::small(3, 2);
        let net = LoinkNet::new(&arch, &mut ChaCha8Rng::seed_from_u64(3), &cpu_device());
        (problem, arch, net)
    }

    #[test]
    fn surface_points_are_labelled_preimages_near_the_limits() {
        let (problem, arch, net) = setup();
        let mut rng = ChaCha8Rng::seed_from_u64(4);
        let data = crate::train::data::sample(
            &problem,
            crate::train::data::Sampler::Uniform,
            200,
            &mut rng,
        );
        let norm = normalisation(&problem, &data);
        let about = loink::artifact::About::default();
        let ctx = || ExportContext {
            problem: &problem,
            arch: &arch,
            normalisation: &norm,
            metrics: Default::default(),
            seed: 0,
            about: &about,
        };
        let surface = draw(
            &net,
            ctx(),
            problem.limits(),
            300,
            1,
            &mut ChaCha8Rng::seed_from_u64(5),
        )
        .unwrap();
        assert_eq!(surface.targets, 300);
        let s = &surface.samples;
        assert!(!s.is_empty() && s.len() <= 300, "{} points", s.len());
        assert!(surface.residual_median_m.is_finite() && surface.residual_median_m > 0.0);
        let limits = problem.limits();
        for (i, q) in s.x.chunks(3).enumerate() {
            assert!(
                limits.margin(q)
                    >= -(0..3)
                        .map(|i| limits.half_width(i))
                        .fold(f64::INFINITY, f64::min)
            );
            assert_eq!(&s.y[2 * i..2 * i + 2], &problem.position(q)[..]);
            assert_eq!(s.cost[i], problem.cost().value(q));
        }
        // They are the inference crate's z = 0 preimages: G's latent part vanishes at each x̃₀.
        let learned = Loink::from_file(exact_model_file(&net, ctx())).unwrap();
        for q in s.x.chunks(3) {
            let x: Vec<f64> = q.iter().zip(&norm.x_shift).map(|(v, c)| v - c).collect();
            let g = learned.model().net().forward(&x).unwrap();
            assert!(g[2].abs() < 1e-6, "latent {}", g[2]);
        }
        let again = draw(
            &net,
            ctx(),
            problem.limits(),
            300,
            1,
            &mut ChaCha8Rng::seed_from_u64(5),
        )
        .unwrap();
        assert_eq!(again, surface, "same seed, same points");
        // A pool of 3: 900 targets inverted, at most 300 points kept.
        let pooled = draw(
            &net,
            ctx(),
            problem.limits(),
            300,
            3,
            &mut ChaCha8Rng::seed_from_u64(5),
        )
        .unwrap();
        assert_eq!(pooled.targets, 900);
        assert_eq!(pooled.samples.len(), 300);
        assert_ne!(pooled.samples, surface.samples);
    }

    #[test]
    fn a_pool_keeps_the_worst_residuals_in_draw_order() {
        let samples = Samples {
            dof: 1,
            task_dim: 2,
            x: vec![0.0, 1.0, 2.0, 3.0, 4.0],
            y: (0..10).map(f64::from).collect(),
            cost: vec![10.0, 11.0, 12.0, 13.0, 14.0],
        };
        let kept = worst(&samples, &[0.3, 0.9, 0.1, 0.9, 0.5], 3);
        assert_eq!(kept.x, vec![1.0, 3.0, 4.0]);
        assert_eq!(kept.y, vec![2.0, 3.0, 6.0, 7.0, 8.0, 9.0]);
        assert_eq!(kept.cost, vec![11.0, 13.0, 14.0]);
    }
}
