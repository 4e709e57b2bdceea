//! The `chain` kind on its presets: the Panda's forward kinematics against docs/panda.md's
//! reference table, TIAGo's arm read through non-DH origins, and the reach bound that proves a
//! target unreachable (the Jacobian against central differences is in conformance.rs, for every
//! kind).

use std::f64::consts::{FRAC_PI_2, FRAC_PI_4};

use loink::problem::chain::SerialChain;
use loink::problem::{Problem, Reachability};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

fn serial(problem: &Problem) -> &SerialChain {
    problem
        .kinematics()
        .as_any()
        .downcast_ref()
        .expect("a chain problem")
}

#[test]
fn the_panda_tcp_equals_the_reference_table_to_1e_12() {
    let panda = Problem::preset("panda").unwrap();
    assert_eq!((panda.dof(), panda.task_dim()), (6, 3));
    // docs/panda.md: q7 does not move the TCP, so the table's rows hold with joint 7 at 0.
    let rows: [([f64; 6], [f64; 3], f64); 3] = [
        (
            [0.0, -FRAC_PI_4, 0.0, -3.0 * FRAC_PI_4, 0.0, FRAC_PI_2],
            [0.306890566593, 0.0, 0.486882052303],
            // The table's 0.570553507290 less joint 7's term at π/4.
            0.570553507290 - (FRAC_PI_4 / 2.8973f64).powi(2),
        ),
        (
            // The mid-range: joint 4 at (−3.0718 − 0.0698)/2, joint 6 at (−0.0175 + 3.7525)/2.
            [
                0.0,
                0.0,
                0.0,
                (-3.0718 - 0.0698) / 2.0,
                0.0,
                (-0.0175 + 3.7525) / 2.0,
            ],
            [0.612169080132, 0.0, 0.556019908790],
            0.0,
        ),
        (
            [0.3, -0.5, 0.4, -2.0, 0.2, 1.4],
            [0.245199994512, 0.290313098931, 0.521407296066],
            0.301157012581 - (0.6f64 / 2.8973).powi(2),
        ),
    ];
    for (q, tcp, cost) in rows {
        let y = panda.forward(&q).unwrap();
        for (got, want) in y.iter().zip(tcp) {
            assert!((got - want).abs() < 1e-12, "{q:?}: {y:?} vs {tcp:?}");
        }
        let j = panda.cost().value(&q);
        assert!((j - cost).abs() < 1e-11, "{q:?}: J {j} vs {cost}");
    }
    // The flange is 0.1034 m behind the TCP along the hand's axis: at the ready pose straight
    // down, so 0.1034 m above it (docs/panda.md: the flange at (0.30689, 0, 0.59028)).
    let points = serial(&panda).points(&rows[0].0);
    assert_eq!(points.len(), 7);
    let tcp = points[6];
    assert!((tcp[2] + 0.1034 - 0.59028).abs() < 1e-5);
    assert!((tcp[0] - 0.30689).abs() < 1e-5);
}

#[test]
fn the_panda_spec_records_its_source_and_the_held_joint() {
    let panda = Problem::preset("panda").unwrap();
    let spec = panda.spec();
    assert_eq!(spec.kind, "chain");
    let chain = spec.chain.as_ref().unwrap();
    assert_eq!(chain.source.file, "panda.urdf");
    assert_eq!(
        chain.source.sha256,
        "63792d2679f22c4e41cda2c4d9d903644e628970ad0656b9eec8485113941555"
    );
    assert_eq!(
        (chain.base.as_str(), chain.tip.as_str()),
        ("panda_link0", "panda_hand_tcp")
    );
    assert_eq!(chain.held.len(), 1);
    assert_eq!(chain.held[0].name, "panda_joint7");
    let names: Vec<&str> = chain.joints.iter().map(|j| j.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "panda_joint1",
            "panda_joint2",
            "panda_joint3",
            "panda_joint4",
            "panda_joint5",
            "panda_joint6"
        ]
    );
    assert_eq!(spec.lower[3], -3.0718);
    assert_eq!(spec.upper[5], 3.7525);
    // The stored spec rebuilds the same problem, through JSON as a model file keeps it.
    let json = serde_json::to_string(&spec).unwrap();
    let again = Problem::from_spec(
        &serde_json::from_str(&json).unwrap(),
        panda.cost().spec().clone(),
    )
    .unwrap();
    assert_eq!(again, panda);
    let q = [0.3, -0.5, 0.4, -2.0, 0.2, 1.4];
    assert_eq!(again.forward(&q).unwrap(), panda.forward(&q).unwrap());
}

#[test]
fn tiago_reads_seven_joints_through_non_dh_origins() {
    let tiago = Problem::preset("tiago").unwrap();
    assert_eq!((tiago.dof(), tiago.task_dim()), (7, 3));
    let spec = tiago.spec();
    let chain = spec.chain.as_ref().unwrap();
    let names: Vec<&str> = chain.joints.iter().map(|j| j.name.as_str()).collect();
    assert_eq!(
        names,
        (1..=7)
            .map(|i| format!("arm_{i}_joint"))
            .collect::<Vec<_>>()
    );
    assert!((spec.upper[0] - 2.74889357189).abs() < 1e-15);
    // At q = 0 the tool sits where the URDF's origins put it: checked by composing them here
    // by hand would repeat the reader, so the oracle test (chain_oracle.rs) compares with an
    // independent implementation; here the pose is finite and inside the reach bound.
    let y = tiago.forward(&[0.0; 7]).unwrap();
    let c = serial(&tiago);
    let d: f64 = y
        .iter()
        .zip(c.first_origin())
        .map(|(a, b)| (a - b) * (a - b))
        .sum::<f64>()
        .sqrt();
    assert!(d <= c.reach());
}

#[test]
fn beyond_the_reach_bound_is_proved_unreachable() {
    let panda = Problem::preset("panda").unwrap();
    let c = serial(&panda);
    let o = c.first_origin();
    let far = [o[0] + c.reach() * 1.001, o[1], o[2]];
    assert_eq!(
        panda.kinematics().reachability(&far, None),
        Reachability::Unreachable
    );
    let near = [o[0] + c.reach() * 0.5, o[1], o[2]];
    assert_eq!(
        panda.kinematics().reachability(&near, None),
        Reachability::Unknown
    );
    // No uniform-q pose lies beyond the bound.
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    for y in panda.random_targets(2_000, &mut rng) {
        assert_ne!(
            panda.kinematics().reachability(&y, None),
            Reachability::Unreachable
        );
    }
}
