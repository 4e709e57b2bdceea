//! Every bad input gets a typed error or an `invalid` status, and nothing panics.

use loink::problem::Problem;
use loink::problem::{planar::PlanarArm, JointLimits};
use loink::report::Status;
use loink::solvers::analytic::{self, Branch};
use loink::solvers::dls::{self, DlsOptions};
use loink::solvers::reference;
use loink::solvers::reference::planar as planar_reference;
use loink::solvers::refine::restore as refine;
use loink::LoinkError;

const BAD_TARGETS: [&[f64]; 9] = [
    &[f64::NAN, 0.5],
    &[0.5, f64::NAN],
    &[f64::INFINITY, 0.0],
    &[0.0, f64::NEG_INFINITY],
    &[1e300, 0.0],
    &[0.0, -1e300],
    &[0.5],
    &[0.5, 0.5, 0.5],
    &[],
];

#[test]
fn bad_targets_are_invalid_for_every_solver() {
    for name in ["planar2", "planar3", "planar3-wide", "planar4"] {
        let problem = Problem::preset(name).unwrap();
        let c = problem.limits().centres();
        for target in BAD_TARGETS {
            let results = [
                dls::solve(&problem, target, &c, &DlsOptions::default()),
                refine(&problem, target, &c, 5),
                reference::solve(&problem, target),
            ];
            for s in results {
                assert_eq!(
                    s.status(),
                    Status::Invalid,
                    "{name} {target:?} {}",
                    s.solver()
                );
                assert!(s.q().is_empty());
            }
            let set = planar_reference::self_motion(&problem, target, 100);
            assert!(set.branches.is_empty() && set.pieces == 0);
            assert_eq!(
                planar_reference::connected_pieces(&problem, target, 10),
                None
            );
            if problem.dof() == 2 {
                let s = analytic::solve(&problem, target, Branch::ElbowUp).unwrap();
                assert_eq!(s.status(), Status::Invalid);
            }
        }
    }
}

#[test]
fn bad_seeds_and_options_are_invalid() {
    let problem = Problem::preset("planar3").unwrap();
    let y = [0.6, 0.3];
    for seed in [
        &[0.1, 0.2][..],
        &[0.0, f64::NAN, 0.0],
        &[f64::INFINITY, 0.0, 0.0],
        &[0.0; 4],
    ] {
        assert_eq!(
            dls::solve(&problem, &y, seed, &DlsOptions::default()).status(),
            Status::Invalid
        );
        assert_eq!(refine(&problem, &y, seed, 3).status(), Status::Invalid);
    }
    let c = problem.limits().centres();
    for opts in [
        DlsOptions {
            damping: f64::NAN,
            ..DlsOptions::default()
        },
        DlsOptions {
            step_clamp: -1.0,
            ..DlsOptions::default()
        },
        DlsOptions {
            nullspace_gain: f64::INFINITY,
            ..DlsOptions::default()
        },
    ] {
        assert_eq!(
            dls::solve(&problem, &y, &c, &opts).status(),
            Status::Invalid
        );
    }
    // Zero iterations or steps: honest, not converged.
    let s = dls::solve(
        &problem,
        &y,
        &c,
        &DlsOptions {
            max_iters: 0,
            ..DlsOptions::default()
        },
    );
    assert_ne!(s.status(), Status::Converged);
    assert_ne!(refine(&problem, &y, &c, 0).status(), Status::Converged);
    // Seeds outside the limits are clamped, not trusted.
    let s = dls::solve(&problem, &y, &[10.0, -10.0, 10.0], &DlsOptions::default());
    assert!(s.margin() >= 0.0);
}

#[test]
fn inverted_or_non_finite_limits_and_lengths_are_typed_errors() {
    for (lower, upper) in [
        (vec![1.0, 0.0], vec![-1.0, 1.0]),
        (vec![0.0, 0.0], vec![0.0, 1.0]),
        (vec![f64::NAN, 0.0], vec![1.0, 1.0]),
        (vec![0.0, f64::NEG_INFINITY], vec![1.0, 1.0]),
    ] {
        assert!(matches!(
            JointLimits::new(lower, upper),
            Err(LoinkError::InvalidLimits { .. })
        ));
    }
    assert!(matches!(
        JointLimits::new(vec![0.0], vec![1.0, 2.0]),
        Err(LoinkError::Dimension { .. })
    ));
    let limits = JointLimits::new(vec![-1.0, -1.0], vec![1.0, 1.0]).unwrap();
    for lengths in [
        vec![1.0],
        vec![1.0, -0.5],
        vec![1.0, f64::NAN],
        vec![1e300, 1.0],
        vec![],
    ] {
        assert!(PlanarArm::new("bad", lengths, limits.clone()).is_err());
    }
    assert!(matches!(
        PlanarArm::preset("planar9"),
        Err(LoinkError::UnknownRobot { .. })
    ));
    let problem = Problem::preset("planar3").unwrap();
    assert!(matches!(
        problem.forward(&[0.0, 0.0]),
        Err(LoinkError::Dimension { .. })
    ));
    assert!(matches!(
        problem.forward(&[0.0, f64::NAN, 0.0]),
        Err(LoinkError::NonFinite { .. })
    ));
    // A cost evaluated at a configuration of the wrong length is NaN, never a partial sum.
    assert!(problem.cost().value(&[0.0; 5]).is_nan());
    assert!(problem.cost().value(&[0.0; 2]).is_nan());
}

#[test]
fn edge_targets_do_not_panic() {
    for name in ["planar2", "planar3", "planar3-wide", "planar4"] {
        let problem = Problem::preset(name).unwrap();
        let reach = problem.planar().unwrap().reach();
        let c = problem.limits().centres();
        for target in [
            [0.0, 0.0],
            [-0.0, 0.0],
            [reach, 0.0],
            [0.0, -reach],
            [1e-300, 1e-300],
            [1e5, 1e5],
        ] {
            for s in [
                dls::solve(
                    &problem,
                    &target,
                    &c,
                    &DlsOptions {
                        max_iters: 50,
                        ..DlsOptions::default()
                    },
                ),
                refine(&problem, &target, &c, 5),
                reference::solve(&problem, &target),
            ] {
                assert_ne!(s.status(), Status::Invalid, "{name} {target:?}");
                assert!(s.residual().is_finite() && s.margin() >= 0.0);
                if s.status() == Status::Converged {
                    assert!(s.residual() <= 1e-6);
                }
            }
        }
    }
}
