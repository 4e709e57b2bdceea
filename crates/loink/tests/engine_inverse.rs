//! The BiLipNet inverse: round trips, the μ certificate, DYS against Newton, warm starts along a
//! smooth path, and divergence detection.

use loink::nn::linalg::distance;
use loink::nn::{BiLipNet, InverseMethod, InverseOptions, MonotoneLayer, PathPredictor, Stop};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn random_point(rng: &mut ChaCha8Rng, n: usize, scale: f64) -> Vec<f64> {
    (0..n).map(|_| rng.random_range(-scale..scale)).collect()
}

#[test]
fn newton_and_dys_round_trip_and_agree() {
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    for &(n, depth, ref hidden, tau) in &[
        (3usize, 2usize, vec![16usize; 4], 4.0),
        (3, 3, vec![32; 4], 20.0),
        (4, 4, vec![16, 32], 10.0),
    ] {
        let mu = 0.5;
        let net = BiLipNet::random(n, depth, hidden, mu, mu * tau, &mut rng).expect("valid");
        for _ in 0..10 {
            let x_true = random_point(&mut rng, n, 2.0);
            let y = net.forward(&x_true).expect("finite");
            let newton = net
                .inverse(&y, &InverseOptions::NEWTON)
                .expect("valid input");
            let dys = net
                .inverse(&y, &InverseOptions::DAVIS_YIN)
                .expect("valid input");
            assert!(newton.converged && dys.converged, "{newton:?} {dys:?}");
            let g = net.forward(&newton.x).expect("finite");
            assert!(distance(&g, &y) <= 1e-9);
            assert!(newton.residual <= 1e-10 && dys.residual <= 1e-10);
            assert!(distance(&newton.x, &x_true) <= newton.residual / net.mu() + 1e-12);
            assert!(
                distance(&dys.x, &newton.x) <= (dys.residual + newton.residual) / net.mu() + 1e-12
            );
            println!(
                "n={n} d={depth} hidden={hidden:?} τ={tau}: newton {:?}, dys {:?}",
                newton.layer_iterations, dys.layer_iterations
            );
        }
    }
}

#[test]
fn warm_start_cuts_iterations_along_a_smooth_path() {
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let net = BiLipNet::random(3, 3, &[32; 4], 0.1, 2.0, &mut rng).expect("valid");
    for method in [InverseMethod::Newton, InverseMethod::DavisYin] {
        let warm = InverseOptions::default().with_method(method);
        let cold = InverseOptions {
            warm_start: false,
            ..warm
        };
        let mut warm_state = net.new_state();
        let mut cold_state = net.new_state();
        let (mut warm_total, mut cold_total) = (0, 0);
        let mut x = vec![0.0; 3];
        for step in 0..200 {
            let t = step as f64 * 0.01;
            let y = [t.cos(), t.sin(), 0.3 * (2.0 * t).sin()];
            let w = net
                .inverse_into(&y, &mut warm_state, &warm, &mut x)
                .expect("valid");
            let c = net
                .inverse_into(&y, &mut cold_state, &cold, &mut x)
                .expect("valid");
            assert!(w.converged() && c.converged());
            warm_total += w.iterations;
            cold_total += c.iterations;
        }
        println!(
            "{}: warm {warm_total} vs cold {cold_total} iterations over 200 targets",
            method.as_str()
        );
        assert!(
            warm_total < cold_total,
            "{method:?}: warm {warm_total} cold {cold_total}"
        );
    }
}

#[test]
fn extrapolated_warm_starts_land_on_the_same_points_in_fewer_newton_steps() {
    let mut rng = ChaCha8Rng::seed_from_u64(6);
    let net = BiLipNet::random(3, 3, &[32; 4], 0.1, 2.0, &mut rng).expect("valid");
    let options = InverseOptions::NEWTON;
    let mut plain = net.new_state();
    let mut predicted = net.new_state();
    let mut path = PathPredictor::new();
    let (mut plain_total, mut predicted_total) = (0, 0);
    let (mut a, mut b) = (vec![0.0; 3], vec![0.0; 3]);
    for step in 0..100 {
        // Equally spaced along a line, as the landscape curve walks the latent axis.
        let y = [0.4 + 0.03 * step as f64, -0.2, 0.1 - 0.02 * step as f64];
        path.predict(&mut predicted);
        let p = net
            .inverse_into(&y, &mut plain, &options, &mut a)
            .expect("valid");
        let q = net
            .inverse_into(&y, &mut predicted, &options, &mut b)
            .expect("valid");
        assert!(p.converged() && q.converged(), "{p:?} {q:?}");
        // G is a bijection: both starts must find the one preimage.
        assert!(distance(&a, &b) < 1e-8, "{a:?} vs {b:?}");
        plain_total += p.iterations;
        predicted_total += q.iterations;
    }
    println!("Newton steps over 100 targets: warm {plain_total}, extrapolated {predicted_total}");
    assert!(
        predicted_total < plain_total,
        "extrapolated {predicted_total} vs warm {plain_total}"
    );
    // A previous of the wrong length changes nothing.
    let saved = predicted.clone();
    predicted.extrapolate(&[1.0, 2.0]);
    assert_eq!(predicted, saved);
}

#[test]
fn too_large_dys_step_is_reported_not_nan() {
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let layer = MonotoneLayer::random(3, &[32; 4], 0.1, 10.0, &mut rng).expect("valid");
    let mut state = layer.new_state();
    let options = InverseOptions {
        alpha_factor: 50.0,
        max_iterations: 2_000,
        ..InverseOptions::DAVIS_YIN
    };
    let mut failures = 0;
    for _ in 0..10 {
        let y = random_point(&mut rng, 3, 3.0);
        let mut x = vec![0.0; 3];
        let report = layer.inverse_dys(&y, &mut x, &mut state, &options);
        assert!(x.iter().all(|v| v.is_finite()), "{report:?}");
        assert!(report.residual.is_finite());
        if report.stop != Stop::Converged {
            failures += 1;
            assert!(report.residual > options.tolerance);
        }
    }
    assert!(failures > 0, "α = 50 μ/γ should fail somewhere");
}

#[test]
fn mismatched_slices_and_states_never_panic() {
    let mut rng = ChaCha8Rng::seed_from_u64(8);
    let small = BiLipNet::random(3, 2, &[8, 8], 0.5, 2.0, &mut rng).expect("valid");
    let large = BiLipNet::random(3, 2, &[16, 16], 0.5, 2.0, &mut rng).expect("valid");
    let mut foreign = small.new_state();
    let mut x = vec![0.0; 3];
    let y = [0.1, 0.2, 0.3];
    assert!(large
        .inverse_into(&y, &mut foreign, &InverseOptions::NEWTON, &mut x)
        .is_err());
    assert!(large
        .inverse_into(
            &[0.1, 0.2],
            &mut large.new_state(),
            &InverseOptions::NEWTON,
            &mut x
        )
        .is_err());
    assert!(large
        .inverse(&[f64::NAN, 0.0, 0.0], &InverseOptions::NEWTON)
        .is_err());
    let mut out = vec![0.0; 3];
    large.forward_into(&y, &mut foreign, &mut out);
    assert!(out.iter().all(|v| v.is_nan()));
    let layer = &large.monotone()[0];
    let mut wrong = small.monotone()[0].new_state();
    let report = layer.inverse_newton(&y, &mut x, &mut wrong, &InverseOptions::NEWTON);
    assert_eq!(report.stop, Stop::Invalid);
    let report = layer.inverse_dys(
        &y,
        &mut x[..2],
        &mut layer.new_state(),
        &InverseOptions::DAVIS_YIN,
    );
    assert_eq!(report.stop, Stop::Invalid);
}
