//! The global reference optimum: cheaper than DLS and than every one of 10⁴ random feasible
//! points of the self-motion set (sampled here independently of the solver's own sweep).

use loink::problem::planar::PlanarArm;
use loink::problem::Problem;
use loink::report::{Solution, Status};
use loink::solvers::analytic;
use loink::solvers::dls::{self, DlsOptions};
use loink::solvers::reference::planar as reference;
use loink::solvers::refine::restore as refine;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn random_q(arm: &PlanarArm, rng: &mut ChaCha8Rng) -> Vec<f64> {
    let l = arm.limits();
    (0..arm.dof())
        .map(|i| rng.random_range(l.lower()[i]..=l.upper()[i]))
        .collect()
}

/// A uniformly random point of planar3's self-motion set for `y` (φ uniform, branch random),
/// if it lies inside the limits. Written from planar3.md, not from the solver's code.
fn random_feasible_point(
    problem: &Problem,
    y: &[f64],
    (lo, hi): (f64, f64),
    rng: &mut ChaCha8Rng,
) -> Option<Vec<f64>> {
    let phi = rng.random_range(lo..=hi);
    feasible_point_at(problem, y, phi, rng.random_bool(0.5))
}

/// The point of planar3's self-motion set at φ on one elbow branch, if inside the limits.
fn feasible_point_at(problem: &Problem, y: &[f64], phi: f64, elbow_up: bool) -> Option<Vec<f64>> {
    use std::f64::consts::TAU;
    let arm = problem.planar().unwrap();
    let (l, lim) = (arm.lengths(), arm.limits());
    let (wx, wy) = (y[0] - l[2] * phi.cos(), y[1] - l[2] * phi.sin());
    let c2 = (wx * wx + wy * wy - l[0] * l[0] - l[1] * l[1]) / (2.0 * l[0] * l[1]);
    if c2.abs() > 1.0 {
        return None;
    }
    let q2 = if elbow_up { -c2.acos() } else { c2.acos() };
    let q1 = wy.atan2(wx) - (l[1] * q2.sin()).atan2(l[0] + l[1] * q2.cos());
    // Every 2π representative of q1 and q2 that fits the limits.
    for k1 in -2..=2 {
        for k2 in -2..=2 {
            let (a, b) = (q1 + TAU * k1 as f64, q2 + TAU * k2 as f64);
            let q = vec![a, b, phi - a - b];
            if lim.margin(&q) >= 0.0 {
                return Some(q);
            }
        }
    }
    None
}

fn assert_reference_ok(s: &Solution) {
    assert_eq!(s.status(), Status::Converged, "{s:?}");
    assert!(s.residual() <= 1e-12, "residual {}", s.residual());
    assert!(s.margin() >= 0.0, "margin {}", s.margin());
}

/// A random reachable target, its reference optimum (checked) and DLS from mid-range.
fn reference_and_dls(problem: &Problem, rng: &mut ChaCha8Rng) -> (Vec<f64>, Solution, Solution) {
    let y = problem
        .forward(&random_q(problem.planar().unwrap(), rng))
        .unwrap();
    let best = reference::solve(problem, &y);
    assert_reference_ok(&best);
    let d = dls::solve(
        problem,
        &y,
        &problem.limits().centres(),
        &DlsOptions::default(),
    );
    (y, best, d)
}

#[test]
fn planar3_reference_beats_dls_and_10k_random_feasible_points_on_200_targets() {
    let problem = Problem::preset("planar3").unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(20);
    let mut dls_compared = 0;
    let mut dls_worse = 0;
    for _ in 0..200 {
        let (y, best, d) = reference_and_dls(&problem, &mut rng);
        // DLS stops within 1e-9 m of the task, where the cost differs from the set's by that
        // order: compare after projecting its answer onto the task (the projection keeps its
        // null-space position).
        let d = refine(&problem, &y, d.q(), 5);
        if d.status() == Status::Converged {
            dls_compared += 1;
            assert!(
                best.cost() <= d.cost() + 1e-9,
                "{y:?}: reference {} > dls {}",
                best.cost(),
                d.cost()
            );
            dls_worse += usize::from(d.cost() > best.cost() + 1e-6);
        }
        // Where to sample: the hull of feasible φ on an independent 4,000-point scan, widened
        // by one scan step (some targets' feasible set is a short arc).
        let lim = problem.limits();
        let (lo, hi) = (
            lim.lower().iter().sum::<f64>(),
            lim.upper().iter().sum::<f64>(),
        );
        let step = (hi - lo) / 4_000.0;
        let feasible_phis: Vec<f64> = (0..=4_000)
            .map(|k| lo + step * k as f64)
            .filter(|&p| {
                [true, false]
                    .iter()
                    .any(|&up| feasible_point_at(&problem, &y, p, up).is_some())
            })
            .collect();
        let hull = match (feasible_phis.first(), feasible_phis.last()) {
            (Some(&a), Some(&b)) => ((a - step).max(lo), (b + step).min(hi)),
            _ => (lo, hi),
        };
        let mut found = 0;
        let mut attempts = 0;
        while found < 10_000 && attempts < 1_000_000 {
            attempts += 1;
            if let Some(q) = random_feasible_point(&problem, &y, hull, &mut rng) {
                found += 1;
                assert!(loink::report::distance(&problem.forward(&q).unwrap(), &y) < 1e-12);
                let c = problem.cost().value(&q);
                assert!(
                    best.cost() <= c + 1e-12,
                    "{y:?}: reference {} > sampled {c} at {q:?}",
                    best.cost()
                );
            }
        }
        assert_eq!(found, 10_000, "{y:?}: only {found} feasible samples");
    }
    assert!(
        dls_compared >= 150,
        "DLS feasible on only {dls_compared}/200"
    );
    // Mid-range DLS lands in a worse local minimum on some targets (as IPOPT does: 98.4%).
    println!("DLS worse than the reference on {dls_worse}/{dls_compared}");
}

#[test]
fn planar2_reference_is_the_cheaper_analytic_branch() {
    let problem = Problem::preset("planar2").unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(21);
    for _ in 0..200 {
        let y = problem
            .forward(&random_q(problem.planar().unwrap(), &mut rng))
            .unwrap();
        let best = reference::solve(&problem, &y);
        assert_reference_ok(&best);
        let [up, down] = analytic::solve_both(&problem, &y).unwrap();
        assert!((best.cost() - up.cost().min(down.cost())).abs() < 1e-12);
    }
}

#[test]
fn planar4_reference_beats_dls_and_random_points() {
    let problem = Problem::preset("planar4").unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(22);
    for _ in 0..3 {
        let (y, best, d) = reference_and_dls(&problem, &mut rng);
        if d.status() == Status::Converged {
            assert!(best.cost() <= d.cost() + 1e-8);
        }
        // Random feasible points: random q₁ and φ, wrist solved in closed form by the
        // analytic two-link solver on a shifted target.
        for _ in 0..2_000 {
            let q = random_q(problem.planar().unwrap(), &mut rng);
            let refined = refine(&problem, &y, &q, 20);
            if refined.status() == Status::Converged {
                assert!(
                    best.cost() <= refined.cost() + 1e-9,
                    "{} > {}",
                    best.cost(),
                    refined.cost()
                );
            }
        }
    }
}

#[test]
fn unreachable_targets_are_labelled() {
    for name in ["planar2", "planar3", "planar3-wide", "planar4"] {
        let problem = Problem::preset(name).unwrap();
        let s = reference::solve(&problem, &[5.0, 0.0]);
        assert_eq!(s.status(), Status::Unreachable, "{name}");
        assert!(s.residual() > 1.0 && s.margin() >= 0.0);
    }
    // Inside planar3's annulus but not reachable within its limits (behind the base, low).
    let problem = Problem::preset("planar3").unwrap();
    let s = reference::solve(&problem, &[-0.05, -0.9]);
    assert_ne!(s.status(), Status::Converged);
}

#[test]
fn self_motion_set_matches_the_reference() {
    let problem = Problem::preset("planar3").unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(23);
    for _ in 0..10 {
        let y = problem
            .forward(&random_q(problem.planar().unwrap(), &mut rng))
            .unwrap();
        let set = reference::self_motion(&problem, &y, 500);
        assert_eq!(set.branches.len(), 2);
        assert!(set.branches.iter().all(|b| b.samples.len() == 500));
        assert!(set.pieces >= 1);
        let best = reference::solve(&problem, &y);
        assert!((set.minima[0].cost - best.cost()).abs() < 1e-12);
        for b in &set.branches {
            for s in &b.samples {
                if s.feasible {
                    assert!(s.cost >= best.cost() - 1e-12);
                    assert!(loink::report::distance(&problem.forward(&s.q).unwrap(), &y) < 1e-9);
                }
            }
        }
    }
    // planar3-wide is the disconnected case: some target has several pieces.
    let wide = Problem::preset("planar3-wide").unwrap();
    let most = (0..20)
        .map(|_| {
            let y = wide
                .forward(&random_q(wide.planar().unwrap(), &mut rng))
                .unwrap();
            reference::self_motion(&wide, &y, 100).pieces
        })
        .max()
        .unwrap();
    assert!(most >= 2, "planar3-wide never disconnected in 20 targets");
}

/// The "done when" check, run in release:
/// `cargo test --release -p loink --test foundation_reference -- --ignored --nocapture`.
/// The default 4·10⁴-sample sweep against a 10⁶-sample sweep on 100 random planar3 targets.
#[test]
#[ignore = "measurement (~1 min in release); run explicitly"]
fn reference_matches_a_25x_denser_sweep_to_1e_9() {
    let problem = Problem::preset("planar3").unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(24);
    let (mut worst_gap, mut worst_residual, mut on_limit) = (0.0f64, 0.0f64, 0);
    for _ in 0..100 {
        let y = problem
            .forward(&random_q(problem.planar().unwrap(), &mut rng))
            .unwrap();
        let best = reference::solve(&problem, &y);
        let dense = reference::solve_with_samples(&problem, &y, 1_000_000);
        assert_reference_ok(&best);
        assert_reference_ok(&dense);
        worst_gap = worst_gap.max(best.cost() - dense.cost());
        worst_residual = worst_residual.max(best.residual());
        on_limit += usize::from(best.margin() < 1e-9);
    }
    println!(
        "100 targets: max (J_default − J_dense) = {worst_gap:e}, max residual = {worst_residual:e}, optima on a limit: {on_limit}"
    );
    assert!(worst_gap <= 1e-9);
    assert!(worst_residual <= 1e-12);
}
