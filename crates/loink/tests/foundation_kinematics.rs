//! Forward kinematics, Jacobians and cost gradients against central finite differences, on
//! every preset at random configurations inside (and a little outside) the limits.

use loink::cost::{CostModel, CostSpec};
use loink::problem::planar::{PlanarArm, PLANAR_PRESETS};
use loink::problem::{finite_difference_jacobian, Kinematics};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

const H: f64 = 1e-6;

fn random_q(arm: &PlanarArm, rng: &mut ChaCha8Rng) -> Vec<f64> {
    let l = arm.limits();
    (0..arm.dof())
        .map(|i| rng.random_range(l.lower()[i] - 0.3..l.upper()[i] + 0.3))
        .collect()
}

#[test]
fn jacobian_matches_finite_differences_on_every_preset() {
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    for name in PLANAR_PRESETS {
        let arm = PlanarArm::preset(name).unwrap();
        for _ in 0..200 {
            let q = random_q(&arm, &mut rng);
            let (mut y, mut jac) = ([0.0; 2], vec![0.0; 2 * arm.dof()]);
            arm.jacobian_into(&q, &mut y, &mut jac);
            assert_eq!(y, arm.position(&q), "{name}: f(q) beside the Jacobian");
            // The interface's default (forward differences) agrees to its step's accuracy.
            let (mut y_fd, mut jac_fd) = ([0.0; 2], vec![0.0; 2 * arm.dof()]);
            finite_difference_jacobian(&arm, &q, &mut y_fd, &mut jac_fd);
            for i in 0..arm.dof() {
                let (mut qp, mut qm) = (q.clone(), q.clone());
                qp[i] += H;
                qm[i] -= H;
                let (pp, pm) = (arm.position(&qp), arm.position(&qm));
                for r in 0..2 {
                    let fd = (pp[r] - pm[r]) / (2.0 * H);
                    let analytic = jac[2 * i + r];
                    assert!(
                        (fd - analytic).abs() < 1e-8,
                        "{name} J[{r},{i}]: {fd} vs {analytic}"
                    );
                    assert!((jac_fd[2 * i + r] - analytic).abs() < 1e-6);
                }
            }
        }
    }
}

#[test]
fn forward_kinematics_matches_the_planar3_formula() {
    let arm = PlanarArm::preset("planar3").unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(2);
    for _ in 0..100 {
        let q = random_q(&arm, &mut rng);
        let (s1, s2, s3) = (q[0], q[0] + q[1], q[0] + q[1] + q[2]);
        let x = 0.5 * s1.cos() + 0.4 * s2.cos() + 0.3 * s3.cos();
        let y = 0.5 * s1.sin() + 0.4 * s2.sin() + 0.3 * s3.sin();
        let p = arm.position(&q);
        assert!((p[0] - x).abs() < 1e-15 && (p[1] - y).abs() < 1e-15);
        // planar3.md's centre-of-mass coefficients.
        let a = [
            0.5 * (0.25 + 0.7) / 1.2,
            0.4 * (0.2 + 0.3) / 1.2,
            0.09 / 2.4,
        ];
        let com_x = a[0] * s1.cos() + a[1] * s2.cos() + a[2] * s3.cos();
        assert!((arm.centre_of_mass(&q)[0] - com_x).abs() < 1e-15);
        let cost = CostModel::new(CostSpec::planar3(), &arm).unwrap();
        let c = [0.0, 1.3, 1.3];
        let h = [std::f64::consts::FRAC_PI_2, 1.3, 1.3];
        let expected: f64 =
            (0..3).map(|i| ((q[i] - c[i]) / h[i]).powi(2)).sum::<f64>() + 4.0 * com_x * com_x;
        assert!((cost.value(&q) - expected).abs() < 1e-12);
    }
}

#[test]
fn cost_gradients_match_finite_differences() {
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let specs = [
        CostSpec::planar3(),
        CostSpec::parse("limits=1").unwrap(),
        CostSpec::parse("com=2.5").unwrap(),
        CostSpec::parse("effort=0.7,limits=0.3,com=1").unwrap(),
        CostSpec::parse("actuation=2,limits=0.5").unwrap(),
    ];
    for name in PLANAR_PRESETS {
        let arm = PlanarArm::preset(name).unwrap();
        for spec in &specs {
            let cost = CostModel::new(spec.clone(), &arm).unwrap();
            for _ in 0..50 {
                let q = random_q(&arm, &mut rng);
                let (value, grad) = cost.value_and_gradient(&q);
                assert!((value - cost.value(&q)).abs() < 1e-15);
                for i in 0..arm.dof() {
                    let (mut qp, mut qm) = (q.clone(), q.clone());
                    qp[i] += H;
                    qm[i] -= H;
                    let fd = (cost.value(&qp) - cost.value(&qm)) / (2.0 * H);
                    assert!(
                        (fd - grad[i]).abs() < 1e-7 * (1.0 + fd.abs()),
                        "{name} {spec:?} ∂J/∂q{i}: {fd} vs {}",
                        grad[i]
                    );
                }
            }
        }
    }
}
