//! Hostile targets: NaN, ±∞, 1e300, −0.0, far outside the workspace, exactly on the
//! boundary, at the base, wrong dimensions — through every solver, classical and learned.
//!
//! Each gets its own clear answer (`invalid` with an empty q for input that cannot be solved,
//! `unreachable` for a finite target out of reach) and changes nothing else: the learned
//! solver's warm-start state is bit-for-bit unchanged after an invalid target, and the next good
//! target still solves exactly as it would have.

use loink::artifact::{load_model, random_model, save_model};
use loink::problem::planar::{PlanarArm, PLANAR_PRESETS};
use loink::problem::registry::preset_names;
use loink::problem::Problem;
use loink::problem::MAX_TARGET_MAGNITUDE;
use loink::report::{Solution, Status};
use loink::solvers::{analytic, dls, reference, refine};
use loink::surrogate::Loink;

/// Targets that cannot be solved at all for a task of dimension m: each must give `invalid`.
fn invalid_targets(m: usize) -> Vec<(&'static str, Vec<f64>)> {
    let with = |index: usize, value: f64| {
        let mut y = vec![0.3; m];
        y[index] = value;
        y
    };
    vec![
        ("NaN first", with(0, f64::NAN)),
        ("NaN last", with(m - 1, f64::NAN)),
        ("+inf", with(0, f64::INFINITY)),
        ("-inf", with(m - 1, f64::NEG_INFINITY)),
        ("1e300", with(0, 1e300)),
        ("-1e300", with(1, -1e300)),
        (
            "just above the magnitude cap",
            with(0, MAX_TARGET_MAGNITUDE * 1.0001),
        ),
        ("empty", vec![]),
        ("one coordinate too few", vec![0.6; m - 1]),
        ("one coordinate too many", vec![0.3; m + 1]),
    ]
}

/// `y` padded with zeros to dimension m.
fn padded(y: &[f64], m: usize) -> Vec<f64> {
    let mut out = y.to_vec();
    out.resize(m, 0.0);
    out
}

/// A named solver closed over its problem.
type NamedSolver<'a> = (&'static str, Box<dyn Fn(&[f64]) -> Solution + 'a>);

/// Every solver the CLI and the page offer, by name, as a closure over one problem.
fn solvers(problem: &Problem) -> Vec<NamedSolver<'_>> {
    let seed = problem.limits().centres();
    let mut list: Vec<NamedSolver<'_>> = vec![
        ("reference", Box::new(move |y| reference::solve(problem, y))),
        (
            "dls",
            Box::new(move |y| dls::solve(problem, y, &seed, &dls::DlsOptions::default())),
        ),
        (
            "refine",
            Box::new(move |y| refine::restore(problem, y, &problem.limits().centres(), 20)),
        ),
    ];
    if problem.dof() == 2 {
        list.push((
            "analytic",
            Box::new(move |y| analytic::solve_best(problem, y).expect("two-link arm")),
        ));
    }
    list
}

/// The contract every report keeps, whatever the input.
fn assert_honest(label: &str, s: &Solution) {
    match s.status() {
        Status::Invalid => {
            assert!(s.q().is_empty(), "{label}: invalid but q = {:?}", s.q());
        }
        status => {
            assert!(
                s.q().iter().all(|v| v.is_finite()),
                "{label}: {status} with non-finite q {:?}",
                s.q()
            );
            assert!(
                s.residual().is_finite() && s.margin().is_finite() && s.cost().is_finite(),
                "{label}: {status} with residual {} margin {} cost {}",
                s.residual(),
                s.margin(),
                s.cost()
            );
        }
    }
}

#[test]
fn classical_solvers_label_unsolvable_targets_invalid() {
    for robot in preset_names() {
        let problem = Problem::preset(robot).unwrap();
        for (solver, solve) in solvers(&problem) {
            for (what, y) in invalid_targets(problem.task_dim()) {
                let s = solve(&y);
                let label = format!("{robot}/{solver}/{what}");
                assert_eq!(s.status(), Status::Invalid, "{label}");
                assert_honest(&label, &s);
            }
        }
    }
}

#[test]
fn classical_solvers_label_far_targets_unreachable() {
    for robot in preset_names() {
        let problem = Problem::preset(robot).unwrap();
        for (solver, solve) in solvers(&problem) {
            for y in [
                [100.0, 100.0],
                [-5.0, 0.0],
                [0.0, 1e5],
                [MAX_TARGET_MAGNITUDE, 0.0],
            ] {
                let y = padded(&y, problem.task_dim());
                let s = solve(&y);
                let label = format!("{robot}/{solver}/{y:?}");
                assert_honest(&label, &s);
                assert_eq!(s.status(), Status::Unreachable, "{label}");
                let radius = y.iter().map(|v| v * v).sum::<f64>().sqrt();
                assert!(
                    s.residual() >= radius - problem.workspace_radius() - 1e-9,
                    "{label}: residual {} below the geometric bound",
                    s.residual()
                );
            }
        }
    }
}

#[test]
fn negative_zero_is_the_same_target_as_zero() {
    for robot in preset_names() {
        let problem = Problem::preset(robot).unwrap();
        for (solver, solve) in solvers(&problem) {
            let m = problem.task_dim();
            let a = solve(&padded(&[0.0, 0.6], m));
            let b = solve(&padded(&[-0.0, 0.6], m));
            let label = format!("{robot}/{solver}");
            assert_honest(&label, &b);
            assert_eq!(a.status(), b.status(), "{label}");
            assert_eq!(a.q(), b.q(), "{label}");
        }
    }
}

#[test]
fn boundary_and_base_targets_get_honest_reports() {
    for robot in PLANAR_PRESETS {
        let problem = Problem::preset(robot).unwrap();
        let reach = problem.planar().unwrap().reach();
        let targets = [
            [reach, 0.0],
            [0.0, reach],
            [0.0, -reach],
            [-reach, 0.0],
            [reach * (1.0 + 1e-12), 0.0],
            [reach * (1.0 - 1e-12), 0.0],
            [0.0, 0.0],
            [-0.0, -0.0],
            [1e-300, 1e-300],
        ];
        for (solver, solve) in solvers(&problem) {
            for y in targets {
                let s = solve(&y);
                let label = format!("{robot}/{solver}/{y:?}");
                assert_honest(&label, &s);
                assert_ne!(
                    s.status(),
                    Status::Invalid,
                    "{label}: a finite target is not invalid"
                );
                if s.status() == Status::Converged {
                    assert!(
                        s.residual() <= 1e-6,
                        "{label}: converged at {}",
                        s.residual()
                    );
                    assert!(
                        s.margin() >= -1e-6,
                        "{label}: converged at margin {}",
                        s.margin()
                    );
                }
            }
        }
    }
}

/// planar3 reaches (1.2, 0) only fully stretched, q = (0, 0, 0), which is inside its limits: the
/// reference must find that exact pose, not call the boundary unreachable.
#[test]
fn planar3_outer_boundary_is_reached_by_the_reference() {
    let problem = Problem::preset("planar3").unwrap();
    let s = reference::solve(&problem, &[problem.planar().unwrap().reach(), 0.0]);
    assert_eq!(s.status(), Status::Converged, "{s:?}");
    assert!(s.residual() <= 1e-6);
}

/// The presets a learned model exists for (planar2 has no latent dimension: n = m = 2).
const LEARNED_ROBOTS: [&str; 3] = ["planar3", "planar3-wide", "planar4"];

fn learned(robot: &str) -> Loink {
    let file = random_model(robot, 2, &[8, 8], 0.1, 4.0, 7).unwrap();
    Loink::from_json(&save_model(&file)).unwrap()
}

#[test]
fn learned_solver_rejects_bad_targets_without_touching_its_state() {
    for robot in LEARNED_ROBOTS {
        let solver = learned(robot);
        let mut state = solver.new_state();
        // Warm the state up on a good target first, so "unchanged" means something.
        let first = solver.solve(&mut state, &[0.5, 0.4]);
        assert_honest(robot, &first);
        let before = state.clone();
        for (what, y) in invalid_targets(2) {
            let s = solver.solve(&mut state, &y);
            let label = format!("{robot}/loink/{what}");
            assert_eq!(s.status(), Status::Invalid, "{label}");
            assert_honest(&label, &s);
            assert_eq!(state, before, "{label}: the warm-start state changed");
            assert!(
                solver.sample(&y, 0.3, 4, 1).is_err() || {
                    let samples = solver.sample(&y, 0.3, 4, 1).unwrap();
                    samples.iter().all(|s| s.status() == Status::Invalid)
                }
            );
        }
        let mut reference_state = before.clone();
        let expected = solver.solve(&mut reference_state, &[0.3, 0.6]);
        let after = solver.solve(&mut state, &[0.3, 0.6]);
        assert_eq!(
            after,
            expected.with_micros(after.micros()),
            "{robot}: next good target"
        );
    }
}

#[test]
fn learned_solver_survives_far_finite_targets() {
    for robot in LEARNED_ROBOTS {
        let solver = learned(robot);
        let cold = solver.solve_cold(&[0.3, 0.6]);
        let mut state = solver.new_state();
        for y in [
            [100.0, 100.0],
            [MAX_TARGET_MAGNITUDE, -MAX_TARGET_MAGNITUDE],
            [-3.0, 0.0],
        ] {
            let s = solver.solve(&mut state, &y);
            let label = format!("{robot}/loink/{y:?}");
            assert_honest(&label, &s);
            assert_eq!(s.status(), Status::Unreachable, "{label}");
        }
        // Whatever the far solves left in the warm start, the next good target lands on the same
        // preimage as a cold solve (G is a bijection; both inverses converge to 1e-10).
        let after = solver.solve(&mut state, &[0.3, 0.6]);
        assert_eq!(after.status(), cold.status(), "{robot}");
        let gap = loink::report::distance(after.q(), cold.q());
        assert!(gap <= 1e-6, "{robot}: warm q differs from cold q by {gap}");
    }
}

#[test]
fn learned_solver_rejects_bad_latents_and_sampling_parameters() {
    let solver = learned("planar4");
    let mut state = solver.new_state();
    solver.solve(&mut state, &[0.5, 0.4]);
    let before = state.clone();
    for z in [
        vec![],
        vec![0.0],
        vec![0.0, 0.0, 0.0],
        vec![f64::NAN, 0.0],
        vec![0.0, f64::INFINITY],
    ] {
        let s = solver.solve_latent(&mut state, &[0.5, 0.4], &z);
        assert_eq!(s.status(), Status::Invalid, "z = {z:?}");
        assert_eq!(state, before, "z = {z:?} changed the state");
        assert!(
            solver.preimage(&mut state, &[0.5, 0.4], &z).is_err(),
            "z = {z:?}"
        );
    }
    for sigma in [f64::NAN, f64::INFINITY, -1.0] {
        assert!(
            solver.sample(&[0.5, 0.4], sigma, 4, 1).is_err(),
            "sigma {sigma}"
        );
    }
    assert!(solver.sample(&[0.5, 0.4], 0.1, usize::MAX, 1).is_err());
    for x in [
        vec![],
        vec![0.0; 3],
        vec![f64::NAN; 4],
        vec![1e308, -1e308, 1e308, 0.0],
    ] {
        assert!(solver.latent(&x).is_err(), "x = {x:?}");
        assert!(solver.surrogate_cost(&x).is_err(), "x = {x:?}");
    }
    for (what, y) in invalid_targets(2) {
        assert!(solver.value(&y).is_err(), "{what}");
        assert!(solver.metric(&y).is_err(), "{what}");
    }
}

#[test]
fn bad_arms_are_typed_errors() {
    let limits = loink::problem::JointLimits::new(vec![-1.0, -1.0], vec![1.0, 1.0]).unwrap();
    for lengths in [
        vec![],
        vec![1.0],
        vec![1.0, f64::NAN],
        vec![1.0, -1.0],
        vec![1.0, 0.0],
    ] {
        assert!(
            PlanarArm::new("bad", lengths.clone(), limits.clone()).is_err(),
            "{lengths:?}"
        );
    }
    assert!(loink::problem::JointLimits::new(vec![1.0], vec![-1.0]).is_err());
    assert!(loink::problem::JointLimits::new(vec![f64::NAN], vec![1.0]).is_err());
    assert!(loink::problem::JointLimits::new(vec![0.0, 0.0], vec![1.0]).is_err());
    assert!(PlanarArm::preset("planar99").is_err());
    assert!(Problem::preset("../../etc/passwd").is_err());
    // And every preset model file round-trips through the loader (so the tests above ran on
    // files, not only on in-memory models).
    for robot in LEARNED_ROBOTS {
        let file = random_model(robot, 1, &[4], 0.2, 3.0, 1).unwrap();
        assert!(load_model(&save_model(&file)).is_ok(), "{robot}");
    }
    // planar2 has no redundancy: latent dimension 0, which the loader accepts (G is a
    // bijection onto the task, M is 0 × 0; the trained web/models/planar2.json is one).
    let planar2 = random_model("planar2", 1, &[4], 0.2, 3.0, 1).unwrap();
    assert_eq!(planar2.hyper.latent_dim, 0);
    assert!(load_model(&save_model(&planar2)).is_ok());
}
