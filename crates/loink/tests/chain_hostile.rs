//! Hostile robot descriptions: every broken URDF is a typed error naming what is wrong, never a
//! panic — truncated files, not XML, cycles, zero or non-finite axes and origins, missing links,
//! no movable joint, unsupported joint types, huge files, and random corruption.

use loink::problem::chain::urdf::{read, ChainRead, ChainRequest, MAX_URDF_BYTES, PANDA_URDF};
use loink::problem::chain::HeldJoint;
use loink::LoinkError;
use proptest::prelude::*;

const PANDA: ChainRequest<'static> = ChainRequest {
    file: "panda.urdf",
    base: "panda_link0",
    tip: "panda_hand_tcp",
    held: &[],
};

/// A two-joint robot; `joints` replaces its joints.
fn robot(joints: &str) -> String {
    format!(
        r#"<?xml version="1.0"?>
<robot name="r">
  <link name="base"/><link name="a"/><link name="b"/><link name="tip"/>
  {joints}
</robot>"#
    )
}

fn joint(name: &str, kind: &str, parent: &str, child: &str, extra: &str) -> String {
    format!(
        r#"<joint name="{name}" type="{kind}"><parent link="{parent}"/><child link="{child}"/>{extra}</joint>"#
    )
}

const LIMIT: &str = r#"<axis xyz="0 0 1"/><limit lower="-1" upper="1"/>"#;

fn simple(extra_a: &str) -> String {
    robot(
        &[
            joint("j1", "revolute", "base", "a", extra_a),
            joint("j2", "revolute", "a", "b", LIMIT),
            joint("tcp", "fixed", "b", "tip", r#"<origin xyz="0 0 0.5"/>"#),
        ]
        .concat(),
    )
}

fn request(held: &[HeldJoint]) -> ChainRequest<'_> {
    ChainRequest {
        file: "r.urdf",
        base: "base",
        tip: "tip",
        held,
    }
}

fn error(text: &str, held: &[HeldJoint]) -> String {
    match read(text.as_bytes(), &request(held)) {
        Err(LoinkError::RobotFile(message)) => message,
        Err(other) => other.to_string(),
        Ok(_) => panic!("accepted:\n{text}"),
    }
}

#[test]
fn a_well_formed_two_joint_robot_reads() {
    let ChainRead { spec, limits, .. } = read(simple(LIMIT).as_bytes(), &request(&[])).unwrap();
    assert_eq!(spec.joints.len(), 2);
    assert_eq!(limits.len(), 2);
    assert_eq!(spec.tip_origin.xyz, [0.0, 0.0, 0.5]);
}

#[test]
fn each_broken_file_names_what_is_wrong() {
    let cases: Vec<(String, &str)> = vec![
        ("not xml at all {".into(), "not XML"),
        ("<robot><link name=\"base\"/>".into(), "not XML"),
        ("<html/>".into(), "<robot>"),
        (
            simple(r#"<axis xyz="0 0 0"/><limit lower="-1" upper="1"/>"#),
            "zero axis",
        ),
        (
            simple(r#"<axis xyz="NaN 0 1"/><limit lower="-1" upper="1"/>"#),
            "axis",
        ),
        (
            simple(r#"<axis xyz="0 1"/><limit lower="-1" upper="1"/>"#),
            "three finite numbers",
        ),
        (
            simple(&format!(r#"<origin xyz="inf 0 0"/>{LIMIT}"#)),
            "origin xyz",
        ),
        (
            simple(&format!(r#"<origin rpy="0 NaN 0"/>{LIMIT}"#)),
            "origin rpy",
        ),
        (simple(r#"<axis xyz="0 0 1"/>"#), "no <limit>"),
        (
            simple(r#"<axis xyz="0 0 1"/><limit lower="1" upper="-1"/>"#),
            "above upper",
        ),
        (
            simple(r#"<axis xyz="0 0 1"/><limit lower="-1" upper="nan"/>"#),
            "limit upper",
        ),
        (
            robot(
                &[
                    joint("j1", "floating", "base", "a", ""),
                    joint("j2", "revolute", "a", "tip", LIMIT),
                ]
                .concat(),
            ),
            "floating",
        ),
        (
            robot(&joint("j1", "fixed", "base", "tip", "")),
            "no movable joint",
        ),
        (
            robot(
                &[
                    joint("j1", "revolute", "tip", "a", LIMIT),
                    joint("j2", "revolute", "a", "tip", LIMIT),
                ]
                .concat(),
            ),
            "cycle",
        ),
        (
            robot(
                &[
                    joint("j1", "revolute", "base", "a", LIMIT),
                    joint("j2", "revolute", "b", "tip", LIMIT),
                ]
                .concat(),
            ),
            "not below",
        ),
        (
            robot(
                &[
                    joint("j1", "revolute", "base", "tip", LIMIT),
                    joint("j2", "revolute", "a", "tip", LIMIT),
                ]
                .concat(),
            ),
            "two joints",
        ),
        (
            robot(&format!(
                r#"<joint name="j" type="revolute"><child link="tip"/>{LIMIT}</joint>"#
            )),
            "<parent",
        ),
    ];
    for (text, needle) in cases {
        let message = error(&text, &[]);
        assert!(message.contains(needle), "'{needle}' not in '{message}'");
        assert!(!message.contains('\n'), "one line: {message}");
    }
}

#[test]
fn missing_links_and_bad_holds_are_named() {
    let text = simple(LIMIT);
    let missing_base = read(
        text.as_bytes(),
        &ChainRequest {
            base: "nowhere",
            ..request(&[])
        },
    );
    assert!(
        matches!(missing_base, Err(LoinkError::RobotFile(m)) if m.contains("'nowhere' (the base)"))
    );
    let missing_tip = read(
        text.as_bytes(),
        &ChainRequest {
            tip: "hand",
            ..request(&[])
        },
    );
    assert!(matches!(missing_tip, Err(LoinkError::RobotFile(m)) if m.contains("'hand' (the tip)")));
    let hold = |name: &str, value: f64| {
        vec![HeldJoint {
            name: name.into(),
            value,
        }]
    };
    assert!(error(&text, &hold("j9", 0.0)).contains("no movable joint named 'j9'"));
    assert!(error(&text, &hold("j2", 2.0)).contains("cannot be held at 2"));
    // Holding every joint leaves none, and the message says why for each.
    let both = [hold("j1", 0.0), hold("j2", 0.5)].concat();
    let message = error(&text, &both);
    assert!(message.contains("nothing moves"), "{message}");
    assert!(message.contains("'j1' is held at 0") && message.contains("'j2' is held at 0.5"));
    // Holding one folds it in: the other is the problem.
    let spec = read(text.as_bytes(), &request(&hold("j1", 0.25)))
        .unwrap()
        .spec;
    assert_eq!(spec.joints.len(), 1);
    assert_eq!(spec.held[0].value, 0.25);
}

#[test]
fn a_file_over_the_cap_is_refused_before_parsing() {
    let huge = vec![b' '; MAX_URDF_BYTES + 1];
    let message = match read(&huge, &PANDA) {
        Err(e) => e.to_string(),
        Ok(_) => panic!("accepted"),
    };
    assert!(message.contains("larger than"), "{message}");
    let deep = "<a>".repeat(200_000);
    assert!(read(deep.as_bytes(), &PANDA).is_err());
    assert!(read(&[0xff, 0xfe, 0x00], &PANDA).is_err());
}

#[test]
fn every_truncation_of_the_panda_file_is_an_error() {
    let bytes = PANDA_URDF.as_bytes();
    for cut in (0..bytes.len()).step_by(97) {
        assert!(read(&bytes[..cut], &PANDA).is_err(), "cut at {cut}");
    }
    assert!(read(bytes, &PANDA).is_ok());
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]
    /// Random corruption of the Panda file: a typed error or a chain that evaluates to finite
    /// positions, never a panic.
    #[test]
    fn corrupted_files_never_panic(
        edits in proptest::collection::vec((0usize..15_000, any::<u8>()), 1..8)
    ) {
        let mut bytes = PANDA_URDF.as_bytes().to_vec();
        for (at, byte) in edits {
            let at = at % bytes.len();
            bytes[at] = byte;
        }
        if let Ok(ChainRead { spec, limits, .. }) = read(&bytes, &PANDA) {
            if let Ok(chain) = loink::problem::chain::SerialChain::new("p", spec, limits) {
                use loink::problem::Kinematics;
                let mut y = [0.0; 3];
                chain.forward_into(&chain.basics().limits.centres(), &mut y);
                prop_assert!(y.iter().all(|v| v.is_finite()));
            }
        }
    }
}
