//! Property tests on random BiLipNets of several shapes (proptest): the per-layer monotonicity
//! and Lipschitz bounds, the overall bi-Lipschitz bounds, exact round trips with both inverses,
//! the reported residual bounding ‖G(x) − y‖, the ‖G⁻¹(y) − x‖ ≤ residual/μ certificate, and
//! DYS/Newton agreement.

use loink::nn::{BiLipNet, InverseOptions, MonotoneLayer};
use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

const SHAPES: [&[usize]; 4] = [&[8], &[16, 16], &[8, 16, 8], &[16, 16, 16, 16]];

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}
fn diff(a: &[f64], b: &[f64]) -> Vec<f64> {
    a.iter().zip(b).map(|(x, y)| x - y).collect()
}
fn norm(a: &[f64]) -> f64 {
    dot(a, a).sqrt()
}
fn point(rng: &mut ChaCha8Rng, n: usize, scale: f64) -> Vec<f64> {
    (0..n).map(|_| rng.random_range(-scale..scale)).collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn monotone_layer_is_strongly_monotone_and_lipschitz(
        n in 2usize..=4,
        shape in 0usize..SHAPES.len(),
        mu in 0.05f64..2.0,
        tau in 1.2f64..40.0,
        seed in any::<u64>(),
    ) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let layer = MonotoneLayer::random(n, SHAPES[shape], mu, mu * tau, &mut rng).expect("valid");
        for _ in 0..20 {
            let a = point(&mut rng, n, 3.0);
            // Mix large and tiny differences (the latter probe single linear pieces).
            let scale = if rng.random_bool(0.5) { 2.0 } else { 1e-3 };
            let b: Vec<f64> = a.iter().map(|v| v + rng.random_range(-scale..scale)).collect();
            let (dx, df) = (diff(&a, &b), diff(&layer.forward(&a), &layer.forward(&b)));
            let dx2 = dot(&dx, &dx);
            prop_assert!(dot(&df, &dx) >= layer.mu() * dx2 * (1.0 - 1e-9) - 1e-15);
            prop_assert!(norm(&df) <= layer.nu() * norm(&dx) * (1.0 + 1e-9) + 1e-15);
        }
    }

    #[test]
    fn bilipnet_bounds_and_round_trips(
        n in 2usize..=4,
        depth in 1usize..=4,
        shape in 0usize..SHAPES.len(),
        tau in 1.5f64..30.0,
        seed in any::<u64>(),
    ) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let (mu, nu) = (1.0 / tau.sqrt(), tau.sqrt());
        let net = BiLipNet::random(n, depth, SHAPES[shape], mu, nu, &mut rng).expect("valid");
        prop_assert!((net.mu() - mu).abs() < 1e-12 * mu && (net.nu() - nu).abs() < 1e-12 * nu);
        prop_assert!((net.tau() - tau).abs() < 1e-9 * tau);
        for _ in 0..8 {
            let a = point(&mut rng, n, 2.0);
            let b = point(&mut rng, n, 2.0);
            let ratio = norm(&diff(&net.forward(&a).expect("ok"), &net.forward(&b).expect("ok")))
                / norm(&diff(&a, &b));
            prop_assert!(ratio >= net.mu() * (1.0 - 1e-9) && ratio <= net.nu() * (1.0 + 1e-9),
                "ratio {} outside [{}, {}]", ratio, net.mu(), net.nu());
        }
        let mut state_newton = net.new_state();
        let mut state_dys = net.new_state();
        for _ in 0..4 {
            let x_true = point(&mut rng, n, 2.0);
            let y = net.forward(&x_true).expect("ok");
            let newton = net.inverse_with_state(&y, &mut state_newton, &InverseOptions::NEWTON).expect("ok");
            let dys = net.inverse_with_state(&y, &mut state_dys, &InverseOptions::DAVIS_YIN).expect("ok");
            for (name, inv) in [("newton", &newton), ("dys", &dys)] {
                prop_assert!(inv.converged, "{} did not converge: {:?}", name, inv);
                let replay = norm(&diff(&net.forward(&inv.x).expect("ok"), &y));
                prop_assert!(replay <= 1e-9, "{}: ‖G(G⁻¹(y)) − y‖ = {}", name, replay);
                // The reported residual bounds the replayed one (up to the replay's rounding).
                prop_assert!(replay <= inv.residual * (1.0 + 1e-9) + 1e-14,
                    "{}: replay {} above the bound {}", name, replay, inv.residual);
                prop_assert!(norm(&diff(&inv.x, &x_true)) <= inv.residual / net.mu() * (1.0 + 1e-6) + 1e-13,
                    "{}: certificate violated", name);
            }
            prop_assert!(norm(&diff(&newton.x, &dys.x)) <= (newton.residual + dys.residual) / net.mu() + 1e-13);
        }
    }
}
