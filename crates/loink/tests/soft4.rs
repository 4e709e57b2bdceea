//! The soft arm (`soft4`) as a problem: its cost on docs/soft-arm.md's table, the simulator's
//! call count, the reference optimum against four times as many starts, and bad input.

use loink::problem::{Problem, ProblemSpec};
use loink::report::Status;
use loink::solvers::reference;
use rand::SeedableRng;

fn soft4() -> Problem {
    Problem::preset("soft4").expect("the soft4 preset")
}

fn deg(d: [f64; 4]) -> Vec<f64> {
    d.iter().map(|v| v.to_radians()).collect()
}

#[test]
fn the_actuation_cost_matches_the_table() {
    let p = soft4();
    for (phi, j) in [
        ([200.0, 200.0, 0.0, 0.0], 2.0),
        ([200.0, 0.0, 0.0, 0.0], 1.0),
        ([100.0, 100.0, 100.0, 100.0], 1.0),
        ([37.0, 151.0, 12.0, 180.0], 1.41785),
    ] {
        assert!((p.cost().value(&deg(phi)) - j).abs() < 5e-6, "{phi:?}");
    }
    let y = p.forward(&deg([200.0, 200.0, 0.0, 0.0])).unwrap();
    assert!((y[0] - 0.0376072049199).abs() < 1e-9 && (y[1] - 0.118983049542).abs() < 1e-9);
}

#[test]
fn every_simulator_call_is_counted() {
    let p = soft4();
    let k = p.kinematics();
    let simulator = p
        .capabilities()
        .simulator
        .expect("the soft arm counts its calls");
    let before = simulator.calls();
    p.position(&[0.5; 4]);
    assert_eq!(simulator.calls(), before + 1);
    // A finite-difference Jacobian costs n + 1 calls.
    let (mut y, mut jac) = ([0.0; 2], [0.0; 8]);
    k.jacobian_into(&[0.5, 1.0, 1.5, 2.0], &mut y, &mut jac);
    assert_eq!(simulator.calls(), before + 6);
    assert!(!p.profile().analytic_jacobian);
    // Planar arms do not count.
    let planar = Problem::preset("planar3").unwrap();
    assert!(planar.capabilities().simulator.is_none());
}

#[test]
fn the_reference_agrees_with_four_times_as_many_starts() {
    let p = soft4();
    let targets = p.random_targets(12, &mut rand_chacha::ChaCha8Rng::seed_from_u64(4));
    for y in &targets {
        let best = reference::solve(&p, y);
        assert_eq!(best.status(), Status::Converged, "{y:?}");
        assert!(best.residual() <= 1e-9);
        let wider = loink::solvers::reference::multistart::solve_from(&p, y, 64);
        assert!(
            best.cost() <= wider.cost() * (1.0 + 1e-6) + 1e-12,
            "{y:?}: 16 starts {} vs 64 starts {}",
            best.cost(),
            wider.cost()
        );
    }
}

#[test]
fn bad_input_is_refused() {
    let spec = |lower: Vec<f64>, upper: Vec<f64>| ProblemSpec {
        lower,
        upper,
        ..Problem::preset("soft4").unwrap().spec()
    };
    assert!(spec(vec![0.0; 4], vec![3.0; 4]).build().is_ok());
    assert!(
        spec(vec![0.0; 4], vec![4.0; 4]).build().is_err(),
        "beyond φ_max"
    );
    assert!(
        spec(vec![-0.1; 4], vec![3.0; 4]).build().is_err(),
        "negative twist"
    );
    assert!(
        spec(vec![0.0; 3], vec![3.0; 3]).build().is_err(),
        "three rods"
    );
    let p = soft4();
    assert_eq!(
        reference::solve(&p, &[f64::NAN, 0.12]).status(),
        Status::Invalid
    );
    // Outside the disc the end effector never leaves: proved unreachable.
    assert_eq!(
        reference::solve(&p, &[0.0, 0.5]).status(),
        Status::Unreachable
    );
    // Inside it but out of the workspace (which spans about ±36 mm): no start reaches it, and
    // the arm cannot prove it unreachable, so it says it did not find one.
    let off = reference::solve(&p, &[0.1, 0.1]);
    assert_eq!(off.status(), Status::Capped);
    assert!(off.note().is_some_and(|n| n.contains("not decided")));
}
