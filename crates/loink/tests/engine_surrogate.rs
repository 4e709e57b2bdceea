//! The LOInK surrogate on untrained random models: the answer is exactly G⁻¹([ỹ; 0])
//! de-normalised, the surrogate cost there is the value head, sampling is reproducible, warm and
//! cold solves agree, and unreachable or invalid targets are labelled.

use loink::artifact::{load_model, random_model, save_model};
use loink::nn::linalg::distance;
use loink::report::Status;
use loink::surrogate::{Loink, REFINED_SOLVER_NAME, SOLVER_NAME};

mod common;
use common::reachable_targets;

fn solver(robot: &str) -> Loink {
    let file = random_model(robot, 3, &[16; 4], 0.1, 20.0, 5).expect("valid");
    Loink::new(load_model(&save_model(&file)).expect("loads"))
}

#[test]
fn solve_is_the_preimage_of_the_target_at_zero_latent() {
    for robot in ["planar3", "planar4"] {
        let loink = solver(robot);
        let mut state = loink.new_state();
        for y in reachable_targets(&loink, 20, 1) {
            let sol = loink.solve(&mut state, &y);
            assert_eq!(sol.solver(), SOLVER_NAME);
            assert_ne!(sol.status(), Status::Invalid);
            let q = sol.q();
            let z = loink.latent(q).expect("finite");
            assert!(z.iter().all(|v| v.abs() < 1e-8), "{robot}: latent {z:?}");
            let predicted = loink.predicted_task(q).expect("finite");
            assert!(
                distance(&predicted, &y) < 1e-8,
                "{robot}: G₁ gives {predicted:?} for {y:?}"
            );
            // At z = 0 the surrogate cost is the value head b(ỹ).
            let c = loink.surrogate_cost(q).expect("finite");
            let v = loink.value(&y).expect("finite");
            assert!((c - v).abs() < 1e-7 * (1.0 + v.abs()), "ĉ = {c}, b = {v}");
            // The reported residual is the replayed one.
            let reached = loink.problem().position(q);
            assert!((distance(&reached, &y) - sol.residual()).abs() < 1e-15);
        }
    }
}

#[test]
fn warm_and_cold_solves_agree_along_a_path() {
    let loink = solver("planar3");
    let mut state = loink.new_state();
    let mu = loink.model().net().mu();
    for i in 0..100 {
        let t = i as f64 * 0.02;
        let y = [0.6 + 0.2 * t.cos(), 0.4 * t.sin()];
        let warm = loink.solve(&mut state, &y);
        let cold = loink.solve_cold(&y);
        assert!(distance(warm.q(), cold.q()) < 1e-8 / mu);
        assert_eq!(warm.status(), cold.status());
    }
    assert!(state.last_inverse().expect("solved").converged());
}

#[test]
fn surrogate_cost_grows_away_from_zero_latent() {
    let loink = solver("planar3");
    let y = [0.7, 0.3];
    let mut state = loink.new_state();
    let base = loink.solve(&mut state, &y);
    let c0 = loink.surrogate_cost(base.q()).expect("finite");
    for z in [-1.0, -0.1, 0.1, 1.0] {
        let sol = loink.solve_latent(&mut state, &y, &[z]);
        let latent = loink.latent(sol.q()).expect("finite");
        assert!((latent[0] - z).abs() < 1e-8);
        // M ≻ 0 so ĉ(G⁻¹([ỹ; z])) − ĉ(x*) = zᵀMz > 0.
        let m = loink.metric(&y).expect("finite")[[0, 0]];
        let c = loink.surrogate_cost(sol.q()).expect("finite");
        assert!(m > 0.0);
        let scale = loink.model().file().normalisation.cost_scale;
        assert!((c - c0 - m * z * z * scale).abs() < 1e-7 * (1.0 + c.abs()));
    }
}

#[test]
fn sampling_is_reproducible_and_diverse() {
    let loink = solver("planar4");
    let y = [0.5, 0.4];
    let a = loink.sample(&y, 0.5, 16, 99).expect("valid");
    let b = loink.sample(&y, 0.5, 16, 99).expect("valid");
    let c = loink.sample(&y, 0.5, 16, 100).expect("valid");
    // Identical up to the measured solve time.
    let strip = |v: &[loink::report::Solution]| -> Vec<loink::report::Solution> {
        v.iter().map(|s| s.clone().with_micros(0.0)).collect()
    };
    assert_eq!(strip(&a), strip(&b));
    assert_ne!(strip(&a), strip(&c));
    assert_eq!(a.len(), 16);
    let latents: Vec<Vec<f64>> = a.iter().map(|s| loink.latent(s.q()).expect("ok")).collect();
    assert!(latents.iter().all(|z| z.len() == 2));
    assert!(latents
        .iter()
        .any(|z| z.iter().map(|v| v * v).sum::<f64>() > 0.01));
    let zero = loink.sample(&y, 0.0, 3, 1).expect("valid");
    let x_star = loink.solve_cold(&y);
    assert!(zero.iter().all(|s| distance(s.q(), x_star.q()) < 1e-8));
    assert!(loink.sample(&y, f64::NAN, 3, 1).is_err());
    assert!(loink.sample(&y, -1.0, 3, 1).is_err());
    assert!(loink.sample(&y, 1.0, 1_000_000, 1).is_err());
}

#[test]
fn unreachable_and_invalid_targets_are_labelled() {
    let loink = solver("planar3");
    let mut state = loink.new_state();
    for y in [[2.0, 0.0], [0.0, -1.3], [1e5, 3.0]] {
        assert_eq!(
            loink.solve(&mut state, &y).status(),
            Status::Unreachable,
            "{y:?}"
        );
    }
    // Inside the annulus but outside what the joint limits allow (the arm curls left only):
    // the reference sweep proves there is no feasible point.
    let behind = [-0.3, -0.95];
    let problem = loink.problem();
    assert_eq!(
        loink::solvers::reference::planar::connected_pieces(problem, &behind, 64),
        Some(0)
    );
    assert_eq!(
        loink.solve(&mut state, &behind).status(),
        Status::Unreachable
    );
    for y in [
        vec![f64::NAN, 0.0],
        vec![0.5],
        vec![1e9, 0.0],
        vec![0.1, 0.2, 0.3],
    ] {
        assert_eq!(
            loink.solve(&mut state, &y).status(),
            Status::Invalid,
            "{y:?}"
        );
    }
    assert_eq!(
        loink
            .solve_latent(&mut state, &[0.5, 0.5], &[0.0, 0.0])
            .status(),
        Status::Invalid
    );
    assert_eq!(
        loink
            .solve_latent(&mut state, &[0.5, 0.5], &[f64::INFINITY])
            .status(),
        Status::Invalid
    );
    assert!(loink.latent(&[0.0, f64::NAN, 0.0]).is_err());
    assert!(loink.surrogate_cost(&[0.0, 0.0]).is_err());
    assert!(loink.value(&[f64::NAN, 0.0]).is_err());
    // The state still works after bad input.
    assert_ne!(
        loink.solve(&mut state, &[0.6, 0.3]).status(),
        Status::Invalid
    );
}

#[test]
fn refinement_reaches_reachable_targets() {
    let loink = solver("planar3").with_refinement(20);
    let mut reached = 0;
    let targets = reachable_targets(&loink, 30, 3);
    for y in &targets {
        let sol = loink.solve_cold(y);
        assert_eq!(sol.solver(), REFINED_SOLVER_NAME);
        assert_ne!(sol.status(), Status::Invalid);
        assert!(sol.seed().is_some());
        if sol.status() == Status::Converged {
            assert!(sol.residual() <= 1e-6);
            reached += 1;
        }
    }
    println!(
        "refinement reached {reached} of {} targets from an untrained model",
        targets.len()
    );
    assert!(reached > targets.len() / 2);
}
