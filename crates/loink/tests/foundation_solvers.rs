//! Analytic IK, the textbook worked example under DLS, and limit-aware refinement.

use std::f64::consts::PI;

use loink::cost::CostSpec;
use loink::problem::Problem;
use loink::problem::{planar::PlanarArm, JointLimits};
use loink::report::Status;
use loink::solvers::analytic::{self, Branch};
use loink::solvers::dls::{self, DlsOptions};
use loink::solvers::refine::{restore as refine, RESIDUAL_TOL};
use loink::LoinkError;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The textbook example's arm: links (0.5, 0.4), limits ±π.
fn textbook_arm() -> Problem {
    let limits = JointLimits::new(vec![-PI, -PI], vec![PI, PI]).unwrap();
    Problem::new(
        std::sync::Arc::new(PlanarArm::new("textbook", vec![0.5, 0.4], limits).unwrap()),
        CostSpec::planar3(),
    )
    .unwrap()
}

fn random_q(arm: &PlanarArm, rng: &mut ChaCha8Rng) -> Vec<f64> {
    let l = arm.limits();
    (0..arm.dof())
        .map(|i| rng.random_range(l.lower()[i]..=l.upper()[i]))
        .collect()
}

#[test]
fn analytic_replays_both_branches_to_1e_12() {
    let mut rng = ChaCha8Rng::seed_from_u64(10);
    for problem in [Problem::preset("planar2").unwrap(), textbook_arm()] {
        for _ in 0..2000 {
            let q = random_q(problem.planar().unwrap(), &mut rng);
            let y = problem.forward(&q).unwrap();
            let [up, down] = analytic::solve_both(&problem, &y).unwrap();
            for (s, sign) in [(&up, -1.0), (&down, 1.0)] {
                assert_eq!(s.status(), Status::Converged, "{y:?} {s:?}");
                assert!(s.residual() <= 1e-12, "residual {}", s.residual());
                assert!(s.q()[1] * sign >= -1e-12, "branch sign {:?}", s.q());
                assert!(s.margin() >= 0.0);
            }
            // The original q is one of the two branches (mod 2π).
            let matches = |s: &loink::report::Solution| {
                s.q().iter().zip(&q).all(|(a, b)| {
                    let d = (a - b).rem_euclid(2.0 * PI);
                    d.min(2.0 * PI - d) < 1e-6
                })
            };
            assert!(
                matches(&up) || matches(&down),
                "{q:?} not in {:?} / {:?}",
                up.q(),
                down.q()
            );
            let best = analytic::solve_best(&problem, &y).unwrap();
            assert!(best.cost() <= up.cost().min(down.cost()) + 1e-15);
        }
    }
}

#[test]
fn analytic_detects_unreachable_targets_and_wrong_arms() {
    let problem = textbook_arm();
    // Beyond reach: stretched towards the target.
    let far = analytic::solve(&problem, &[0.0, 2.0], Branch::ElbowDown).unwrap();
    assert_eq!(far.status(), Status::Unreachable);
    assert!((far.residual() - 1.1).abs() < 1e-12, "{}", far.residual());
    assert!((far.q()[0] - PI / 2.0).abs() < 1e-12 && far.q()[1].abs() < 1e-12);
    // Inside the hole |l1 − l2| = 0.1: folded.
    let near = analytic::solve(&problem, &[0.05, 0.0], Branch::ElbowUp).unwrap();
    assert_eq!(near.status(), Status::Unreachable);
    assert!((near.residual() - 0.05).abs() < 1e-12);
    // On the boundary: reachable.
    let edge = analytic::solve(&problem, &[0.9, 0.0], Branch::ElbowUp).unwrap();
    assert_eq!(edge.status(), Status::Converged);
    let three = Problem::preset("planar3").unwrap();
    assert!(matches!(
        analytic::solve(&three, &[0.5, 0.5], Branch::ElbowUp),
        Err(LoinkError::UnsupportedSolver { .. })
    ));
}

#[test]
fn analytic_answers_the_closest_pose_when_both_branches_break_a_limit() {
    // planar2's elbow chart q₁ ∈ [−π/2, π/2], q₂ ∈ [0, π]: (−1, −1.2) is in reach but only
    // with q₁ ≈ −168° or −91°.
    let limits = JointLimits::new(vec![-PI / 2.0, 0.0], vec![PI / 2.0, PI]).unwrap();
    let arm = PlanarArm::new("chart", vec![1.0, 1.0], limits).unwrap();
    let problem = Problem::new(std::sync::Arc::new(arm), CostSpec::planar3()).unwrap();
    let target = [-1.0, -1.2];
    for b in Branch::BOTH {
        assert_eq!(
            analytic::solve(&problem, &target, b).unwrap().status(),
            Status::Limits
        );
    }
    let best = analytic::solve_best(&problem, &target).unwrap();
    assert_eq!(best.status(), Status::Unreachable);
    assert!(best.margin() >= -1e-9, "{}", best.margin());
    let closest = problem.closest_pose(&target).unwrap();
    let d = loink::report::distance(&problem.position(&closest), &target);
    assert!(
        (best.residual() - d).abs() < 1e-9,
        "{} vs {d}",
        best.residual()
    );
}

/// The textbook example exactly: λ = 0.05, 0.2 rad clamp, 200 iterations, tolerance 1e-6, seed (10°, 10°),
/// no null-space term.
fn textbook_options() -> DlsOptions {
    DlsOptions {
        damping: 0.05,
        step_clamp: 0.2,
        max_iters: 200,
        residual_tol: 1e-6,
        nullspace_gain: 0.0,
        nullspace_tol: f64::INFINITY,
        ..DlsOptions::default()
    }
}

#[test]
fn textbook_worked_example() {
    let problem = textbook_arm();
    let seed = [10f64.to_radians(), 10f64.to_radians()];
    let reached = dls::solve(&problem, &[0.6, 0.3], &seed, &textbook_options());
    assert_eq!(reached.status(), Status::Converged);
    assert!(reached.residual() < 1e-6);
    assert!(reached.iterations() < 200);
    let replay = problem.forward(reached.q()).unwrap();
    assert!((replay[0] - 0.6).abs() < 1e-6 && (replay[1] - 0.3).abs() < 1e-6);
    assert_eq!(reached.reached(), replay.as_slice());

    let far = dls::solve(&problem, &[1.5, 0.0], &seed, &textbook_options());
    assert_ne!(far.status(), Status::Converged);
    assert_eq!(far.status(), Status::Unreachable);
    // Beyond reach (0.9 m), so at least 0.6 m short. The textbook's own numpy loop ends at
    // 0.670135 m after 200 iterations (the clamped step oscillates); this port reproduces it.
    assert!(far.residual() > 0.6);
    assert!(
        (far.residual() - 0.670_134_558_7).abs() < 1e-6,
        "residual {}",
        far.residual()
    );
    assert_eq!(far.iterations(), 200);
    // The default options (with null-space descent) agree.
    let far = dls::solve(&problem, &[1.5, 0.0], &seed, &DlsOptions::default());
    assert_eq!(far.status(), Status::Unreachable);
}

#[test]
fn dls_never_claims_convergence_above_tolerance() {
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    for name in ["planar3", "planar3-wide", "planar4"] {
        let problem = Problem::preset(name).unwrap();
        let mut converged = 0;
        for _ in 0..100 {
            let y = problem
                .forward(&random_q(problem.planar().unwrap(), &mut rng))
                .unwrap();
            let seed = random_q(problem.planar().unwrap(), &mut rng);
            let opts = DlsOptions {
                max_iters: 60,
                ..DlsOptions::default()
            };
            let s = dls::solve(&problem, &y, &seed, &opts);
            assert!(s.status() != Status::Invalid);
            if s.status() == Status::Converged {
                converged += 1;
                assert!(s.residual() <= opts.residual_tol.max(1e-6), "{s:?}");
                assert!(s.margin() >= -1e-12);
            } else {
                assert!(s.iterations() == opts.max_iters);
            }
            // Whatever the status, it is the one replay gives.
            let r = loink::report::distance(&problem.forward(s.q()).unwrap(), &y);
            assert!((r - s.residual()).abs() < 1e-15);
        }
        assert!(converged > 0, "{name}: DLS never converged");
    }
}

#[test]
fn dls_descends_the_cost_along_the_self_motion() {
    let problem = Problem::preset("planar3").unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(12);
    let mut better = 0;
    for _ in 0..50 {
        let y = problem
            .forward(&random_q(problem.planar().unwrap(), &mut rng))
            .unwrap();
        let seed = problem.limits().centres();
        let plain = dls::solve(
            &problem,
            &y,
            &seed,
            &DlsOptions {
                nullspace_gain: 0.0,
                nullspace_tol: f64::INFINITY,
                ..DlsOptions::default()
            },
        );
        let with_null = dls::solve(&problem, &y, &seed, &DlsOptions::default());
        if with_null.status() == Status::Converged && plain.status() == Status::Converged {
            assert!(with_null.cost() <= plain.cost() + 1e-9);
            better += usize::from(with_null.cost() < plain.cost() - 1e-6);
        }
    }
    assert!(
        better > 25,
        "null-space descent lowered the cost on only {better}/50 targets"
    );
}

#[test]
fn refine_reaches_1e_12_and_respects_limits() {
    let mut rng = ChaCha8Rng::seed_from_u64(13);
    for name in ["planar3", "planar3-wide", "planar4", "planar2"] {
        let problem = Problem::preset(name).unwrap();
        let limits = problem.limits().clone();
        let mut converged = 0;
        let mut clamped_cases = 0;
        for _ in 0..300 {
            let q_true = random_q(problem.planar().unwrap(), &mut rng);
            let y = problem.forward(&q_true).unwrap();
            // A perturbed start, sometimes outside the limits (as a learned solver may give).
            let q0: Vec<f64> = q_true
                .iter()
                .map(|v| v + rng.random_range(-0.08..0.08))
                .collect();
            if limits.margin(&q0) < 0.0 {
                clamped_cases += 1;
            }
            let s = refine(&problem, &y, &q0, 10);
            assert!(s.margin() >= 0.0, "{name}: limits violated {:?}", s.q());
            if s.status() == Status::Converged {
                converged += 1;
                assert!(s.residual() <= RESIDUAL_TOL, "{name}: {}", s.residual());
                assert!(s.iterations() <= 10);
            } else {
                assert!(s.residual() > RESIDUAL_TOL);
            }
        }
        assert!(
            converged >= 290,
            "{name}: only {converged}/300 refined to 1e-12"
        );
        assert!(
            clamped_cases > 3,
            "{name} {clamped_cases}: the test never started outside the limits"
        );
    }
}

#[test]
fn refine_keeps_the_null_space_component() {
    // A start exactly on the task: refinement must not move it.
    let problem = Problem::preset("planar3").unwrap();
    let q = [0.3, 1.0, 0.8];
    let y = problem.forward(&q).unwrap();
    let s = refine(&problem, &y, &q, 3);
    assert_eq!(s.status(), Status::Converged);
    assert_eq!(s.q(), &q);
    // A small task-space offset: the minimum-norm step moves q by O(offset), no self-motion.
    let shifted = [y[0] + 1e-3, y[1] - 1e-3];
    let s = refine(&problem, &shifted, &q, 5);
    assert_eq!(s.status(), Status::Converged);
    let moved: f64 = s
        .q()
        .iter()
        .zip(&q)
        .map(|(a, b)| (a - b).powi(2))
        .sum::<f64>()
        .sqrt();
    assert!(moved < 5e-3, "moved {moved}");
}

#[test]
fn refine_clamps_onto_a_limit_and_resolves_with_the_free_joints() {
    let problem = Problem::preset("planar3").unwrap();
    // Optimum-like pose with q3 on its lower limit; start below the limit.
    let q_true = [0.4, 1.2, 0.0];
    let y = problem.forward(&q_true).unwrap();
    let s = refine(&problem, &y, &[0.41, 1.19, -0.03], 10);
    assert_eq!(s.status(), Status::Converged);
    assert!(s.residual() <= RESIDUAL_TOL);
    assert!(s.q()[2] >= 0.0 && s.margin() >= 0.0);
}
