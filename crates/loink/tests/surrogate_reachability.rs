//! The reachability decision behind a LOInK miss (`Problem::reachability`: a refinement witness
//! first, then a 4,096-sample sweep on three links) against the full 40,000-sample reference
//! sweep: the same `unreachable` / not-unreachable verdict on seeded targets all over (and
//! beyond) the arm's annulus, for untrained models that miss nearly everything.

use loink::artifact::{load_model, random_model, save_model};
use loink::problem::Reachability;
use loink::report::Status;
use loink::solvers::reference::planar as reference;
use loink::surrogate::Loink;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn solver(robot: &str) -> Loink {
    let file = random_model(robot, 2, &[8, 8], 0.5, 2.0, 11).expect("valid");
    Loink::new(load_model(&save_model(&file)).expect("loads"))
}

#[test]
fn the_cheap_verdict_on_a_miss_matches_the_full_sweep() {
    for robot in ["planar3", "planar3-wide", "planar4"] {
        let loink = solver(robot);
        let problem = loink.problem().clone();
        let reach = problem.planar().unwrap().reach();
        let mut state = loink.new_state();
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let (mut misses, mut unreachable, mut witnessed) = (0, 0, 0);
        for _ in 0..300 {
            let r = 1.05 * reach * rng.random::<f64>().sqrt();
            let phi = std::f64::consts::TAU * rng.random::<f64>();
            let y = [r * phi.cos(), r * phi.sin()];
            let s = loink.solve(&mut state, &y);
            let inside = r <= reach && r >= problem.planar().unwrap().inner_radius();
            let hit = s.status() == Status::Converged;
            if !inside || hit {
                continue;
            }
            misses += 1;
            let truth = reference::connected_pieces(&problem, &y, 64);
            let grid_pieces = truth.expect("arm and target are covered");
            match s.status() {
                Status::Unreachable => {
                    unreachable += 1;
                    assert_eq!(
                        grid_pieces, 0,
                        "{robot} {y:?}: unreachable, but the sweep finds pieces"
                    );
                }
                Status::Approximate | Status::Capped | Status::Limits => {
                    if grid_pieces == 0 {
                        // Only a concrete in-limits configuration on y may overrule the sweep.
                        assert_eq!(
                            problem.reachability(&y, Some(s.q())),
                            Reachability::Reachable
                        );
                        let refined = loink::solvers::refine::restore(&problem, &y, s.q(), 20);
                        assert!(
                            refined.residual() <= 1e-9 && refined.margin() >= 0.0,
                            "{robot} {y:?}"
                        );
                        witnessed += 1;
                    }
                }
                other => panic!("{robot} {y:?}: a miss labelled {other:?}"),
            }
        }
        assert!(misses > 100, "{robot}: only {misses} misses exercised");
        assert!(unreachable > 0, "{robot}: no unreachable miss exercised");
        assert!(
            witnessed <= 2,
            "{robot}: the witness overruled the sweep {witnessed} times"
        );
    }
}

#[test]
fn a_witness_alone_proves_reachability() {
    let loink = solver("planar3");
    let problem = loink.problem().clone();
    let q = problem.limits().centres();
    let y = problem.planar().unwrap().position(&q).to_vec();
    // Start away from a solution: the witness refines onto y.
    let start: Vec<f64> = q.iter().map(|v| v + 0.2).collect();
    assert_eq!(
        problem.reachability(&y, Some(&start)),
        Reachability::Reachable
    );
    // Inside the annulus, outside what the limits allow (the arm curls left only).
    let behind = [-0.3, -0.95];
    assert_eq!(reference::connected_pieces(&problem, &behind, 64), Some(0));
    assert_eq!(
        problem.reachability(&behind, Some(&q)),
        Reachability::Unreachable
    );
    // Outside the reach ring the cheap test decides; a problem never guesses.
    assert_eq!(
        problem.reachability(&[2.0, 0.0], None),
        Reachability::Unreachable
    );
}
