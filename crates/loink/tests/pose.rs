//! The pose and axis tasks (docs/pose.md): the presets' forward kinematics against the
//! reference table, the task space's columns and measures, and the Jacobian in its tangent
//! coordinates against finite differences.

use std::f64::consts::{FRAC_PI_2, FRAC_PI_4, PI};

use loink::problem::{Measure, Problem};
use loink::so3::Quaternion;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

const READY: [f64; 7] = [
    0.0,
    -FRAC_PI_4,
    0.0,
    -3.0 * FRAC_PI_4,
    0.0,
    FRAC_PI_2,
    FRAC_PI_4,
];

fn quaternion_close(a: Quaternion, b: [f64; 4], tol: f64) -> bool {
    // q and −q are the same orientation.
    let d = |s: f64| {
        (a.w - s * b[0]).abs()
            + (a.x - s * b[1]).abs()
            + (a.y - s * b[2]).abs()
            + (a.z - s * b[3]).abs()
    };
    d(1.0).min(d(-1.0)) < tol
}

/// A configuration, its TCP position, its quaternion (w first) and its cost.
type ReferenceRow = ([f64; 7], [f64; 3], [f64; 4], f64);

#[test]
fn the_panda_pose_matches_the_reference_table() {
    let problem = Problem::preset("panda-pose").unwrap();
    assert_eq!((problem.dof(), problem.task_dim()), (7, 6));
    let task = problem.task();
    assert_eq!(task.columns(), ["x", "y", "z", "qw", "qx", "qy", "qz"]);
    let rows: [ReferenceRow; 3] = [
        (
            READY,
            [0.306890566593, 0.0, 0.486882052303],
            [0.0, 1.0, 0.0, 0.0],
            0.570553507290,
        ),
        (
            problem.limits().centres().try_into().unwrap(),
            [0.612169080132, 0.0, 0.556019908790],
            [0.056563082, 0.913731921, 0.378480154, 0.136555361],
            0.0,
        ),
        (
            [0.3, -0.5, 0.4, -2.0, 0.2, 1.4, -0.6],
            [0.245199994512, 0.290313098931, 0.521407296066],
            [0.029383344, -0.518407967, -0.852469329, 0.060711143],
            f64::NAN,
        ),
    ];
    for (q, position, quaternion, cost) in rows {
        let y = problem.forward(&q).unwrap();
        let columns = task.to_columns(&y);
        for k in 0..3 {
            assert!(
                (columns[k] - position[k]).abs() < 1e-11,
                "{q:?}: {columns:?}"
            );
        }
        let got = Quaternion::new(columns[3], columns[4], columns[5], columns[6]);
        assert!(quaternion_close(got, quaternion, 1e-8), "{q:?}: {got:?}");
        if cost.is_finite() {
            assert!((problem.cost().value(&q) - cost).abs() < 1e-11, "{q:?}");
        }
    }
    // The hand-down chart: the ready pose's orientation is its origin.
    let ready = problem.forward(&READY).unwrap();
    assert!(ready[3..].iter().all(|v| v.abs() < 1e-12), "{ready:?}");
}

#[test]
fn columns_round_trip_and_the_measures_are_geodesic() {
    let mut rng = ChaCha8Rng::seed_from_u64(4);
    for name in ["panda-pose", "panda-axis", "tiago-pose"] {
        let problem = Problem::preset(name).unwrap();
        let task = problem.task();
        for q in problem.random_configurations(200, &mut rng) {
            let y = problem.position(&q);
            let back = task.from_columns(&task.to_columns(&y)).unwrap();
            let miss = task.miss(&y, &back);
            assert!(miss.distance < 1e-15, "{name}");
            assert!(miss.angle.unwrap() < 1e-12, "{name}: {miss:?}");
        }
    }
    // A turn of 0.3 rad about the tool axis is an orientation miss of 0.3 rad, and no axis miss.
    let pose = Problem::preset("panda-pose").unwrap();
    let axis = Problem::preset("panda-axis").unwrap();
    let mut q = READY.to_vec();
    let (a, a_axis) = (pose.position(&q), axis.position(&q));
    q[6] += 0.3;
    let (b, b_axis) = (pose.position(&q), axis.position(&q));
    assert!((pose.miss(&a, &b).angle.unwrap() - 0.3).abs() < 1e-12);
    assert!(axis.miss(&a_axis, &b_axis).angle.unwrap() < 1e-12);
    // Near π the angle keeps its digits.
    let half_turn = Quaternion::new(0.0, 1.0, 0.0, 0.0);
    let almost = Quaternion::from_rotation_vector([PI - 1e-9, 0.0, 0.0]);
    assert!((Quaternion::IDENTITY.angle_to(almost) - (PI - 1e-9)).abs() < 1e-12);
    assert!((Quaternion::IDENTITY.angle_to(half_turn) - PI).abs() < 1e-15);
    assert!(matches!(pose.task().measure(), Measure::Pose { .. }));
}

#[test]
fn the_tangent_jacobians_equal_central_differences() {
    let mut rng = ChaCha8Rng::seed_from_u64(8);
    for name in ["panda-pose", "panda-axis", "tiago-pose"] {
        let problem = Problem::preset(name).unwrap();
        let (n, m) = (problem.dof(), problem.task_dim());
        for q in problem.random_configurations(50, &mut rng) {
            let (mut y, mut jac) = (vec![0.0; m], vec![0.0; m * n]);
            problem.kinematics().jacobian_into(&q, &mut y, &mut jac);
            assert_eq!(y, problem.position(&q));
            let h = 1e-6;
            for i in 0..n {
                let (mut up, mut down) = (q.clone(), q.clone());
                up[i] += h;
                down[i] -= h;
                // Both sides read in the tangent space at the middle configuration.
                let (mut forward, mut backward) = (vec![0.0; m], vec![0.0; m]);
                problem
                    .task()
                    .difference_into(&problem.position(&up), &y, &mut forward);
                problem
                    .task()
                    .difference_into(&problem.position(&down), &y, &mut backward);
                for r in 0..m {
                    let central = (forward[r] - backward[r]) / (2.0 * h);
                    assert!(
                        (jac[i * m + r] - central).abs() < 1e-7,
                        "{name}: ∂{r}/∂q{i}: {} vs {central}",
                        jac[i * m + r]
                    );
                }
            }
        }
    }
}

#[test]
fn a_target_turns_about_its_own_axes_and_keeps_its_position() {
    for name in ["panda-pose", "panda-axis"] {
        let problem = Problem::preset(name).unwrap();
        let task = problem.task();
        let y = problem.position(&READY);
        let frame = task.frame(&y).unwrap();
        let own = |i: usize| [frame[i], frame[3 + i], frame[6 + i]];
        let five = 5f64.to_radians();
        // About its own z: a pose turns by 5°, its z axis stays; an axis does not move.
        let turned = task.turned(&y, own(2), five).unwrap();
        assert_eq!(&turned[..3], &y[..3]);
        let after = task.frame(&turned).unwrap();
        assert!((0..3).all(|r| (after[3 * r + 2] - frame[3 * r + 2]).abs() < 1e-12));
        let angle = task.miss(&y, &turned).angle.unwrap();
        let expected = if name == "panda-pose" { five } else { 0.0 };
        assert!((angle - expected).abs() < 1e-12, "{name}: {angle}");
        // About its own x: both tilt by 5°.
        let tilted = task.turned(&y, own(0), five).unwrap();
        let angle = task.miss(&y, &tilted).angle.unwrap();
        assert!((angle - five).abs() < 1e-12, "{name}: {angle}");
    }
    // A task that does not turn the hand has no frame.
    let panda = Problem::preset("panda").unwrap();
    assert!(panda.task().frame(&[0.3, 0.0, 0.5]).is_none());
}
