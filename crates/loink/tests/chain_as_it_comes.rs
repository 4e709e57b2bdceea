//! Robots as their URDFs come: joints that follow others (`<mimic>`), joints with zero-width
//! limits, held continuous joints, plugin blocks in undeclared namespaces, unexpanded xacro,
//! a tip on another branch, and narrow joints that damped least squares must not oscillate on.

use std::sync::Arc;

use loink::cost::CostSpec;
use loink::problem::chain::urdf::{read, ChainRead, ChainRequest};
use loink::problem::chain::{HeldJoint, SerialChain};
use loink::problem::Problem;
use loink::report::Status;
use loink::solvers::dls::{self, DlsOptions};
use loink::LoinkError;

/// A robot from its joints' XML, with links `base`, `a`, `b`, `c`, `d`, `side` and `tip`.
fn robot(joints: &str) -> String {
    format!(
        r#"<?xml version="1.0"?>
<robot name="r">
  <link name="base"/><link name="a"/><link name="b"/><link name="c"/><link name="d"/>
  <link name="side"/><link name="tip"/>
  {joints}
</robot>"#
    )
}

fn joint(name: &str, kind: &str, parent: &str, child: &str, extra: &str) -> String {
    format!(
        r#"<joint name="{name}" type="{kind}"><parent link="{parent}"/><child link="{child}"/>{extra}</joint>"#
    )
}

const Z: &str = r#"<axis xyz="0 0 1"/>"#;

fn revolute(name: &str, parent: &str, child: &str, limits: (f64, f64), extra: &str) -> String {
    joint(
        name,
        "revolute",
        parent,
        child,
        &format!(
            r#"<origin xyz="0.3 0 0"/>{Z}<limit lower="{}" upper="{}"/>{extra}"#,
            limits.0, limits.1
        ),
    )
}

fn mimic(source: &str, multiplier: f64, offset: f64) -> String {
    format!(r#"<mimic joint="{source}" multiplier="{multiplier}" offset="{offset}"/>"#)
}

fn tcp(parent: &str) -> String {
    joint("tcp", "fixed", parent, "tip", r#"<origin xyz="0.2 0 0"/>"#)
}

fn request(held: &[HeldJoint]) -> ChainRequest<'_> {
    ChainRequest {
        file: "r.urdf",
        base: "base",
        tip: "tip",
        held,
    }
}

fn load(text: &str, held: &[HeldJoint]) -> ChainRead {
    read(text.as_bytes(), &request(held)).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

fn problem(read: ChainRead) -> Problem {
    let chain = SerialChain::new("r", read.spec, read.limits).unwrap();
    Problem::new(Arc::new(chain), CostSpec::joint_centring()).unwrap()
}

fn error(text: &str, held: &[HeldJoint]) -> String {
    match read(text.as_bytes(), &request(held)) {
        Err(LoinkError::RobotFile(message)) => message,
        Err(other) => other.to_string(),
        Ok(_) => panic!("accepted:\n{text}"),
    }
}

fn hold(name: &str, value: f64) -> Vec<HeldJoint> {
    vec![HeldJoint {
        name: name.into(),
        value,
    }]
}

/// The problem's variables' names, in the order of q.
fn variables(problem: &Problem) -> Vec<String> {
    problem
        .kinematics()
        .as_any()
        .downcast_ref::<SerialChain>()
        .unwrap()
        .joint_names()
        .map(str::to_string)
        .collect()
}

fn position(problem: &Problem, q: &[f64]) -> Vec<f64> {
    problem.position(q)
}

fn close(a: &[f64], b: &[f64], tol: f64) -> bool {
    a.iter().zip(b).all(|(x, y)| (x - y).abs() <= tol)
}

/// Three joints in a row, the second following the first (× 2 + 0.1).
fn follower_in_chain() -> String {
    robot(
        &[
            revolute("j1", "base", "a", (-1.0, 1.0), ""),
            revolute("j2", "a", "b", (-3.0, 3.0), &mimic("j1", 2.0, 0.1)),
            revolute("j3", "b", "c", (-1.0, 1.0), ""),
            tcp("c"),
        ]
        .concat(),
    )
}

#[test]
fn a_follower_takes_its_value_from_its_source() {
    let coupled = problem(load(&follower_in_chain(), &[]));
    assert_eq!(coupled.dof(), 2);
    let free = problem(load(
        &follower_in_chain().replace(&mimic("j1", 2.0, 0.1), ""),
        &[],
    ));
    assert_eq!(free.dof(), 3);
    for q in [[0.3, -0.4], [-0.9, 0.8], [0.0, 0.0]] {
        let expanded = [q[0], 2.0 * q[0] + 0.1, q[1]];
        assert!(close(
            &position(&coupled, &q),
            &position(&free, &expanded),
            1e-15
        ));
    }
    assert_eq!(variables(&coupled), ["j1", "j3"]);
}

#[test]
fn a_followers_jacobian_column_is_summed_into_its_source() {
    let coupled = problem(load(&follower_in_chain(), &[]));
    let q = [0.37, -0.52];
    let (m, n) = (coupled.task_dim(), coupled.dof());
    let mut y = vec![0.0; m];
    let mut jac = vec![0.0; m * n];
    coupled.kinematics().jacobian_into(&q, &mut y, &mut jac);
    let h = 1e-7;
    for i in 0..n {
        let (mut up, mut down) = (q, q);
        up[i] += h;
        down[i] -= h;
        let (a, b) = (position(&coupled, &up), position(&coupled, &down));
        for r in 0..m {
            let numeric = (a[r] - b[r]) / (2.0 * h);
            assert!((jac[m * i + r] - numeric).abs() < 1e-7, "column {i}");
        }
    }
}

#[test]
fn a_followers_limits_bound_its_source() {
    // j2 = 2 j1 + 0.1 within [−3, 3]: j1 within [−1.55, 1.45], cut by its own [−1, 1] to
    // nothing new; narrow j2 to [−1, 1] and j1 is bounded to [−0.55, 0.45].
    let text = follower_in_chain().replace(
        r#"<limit lower="-3" upper="3"/>"#,
        r#"<limit lower="-1" upper="1"/>"#,
    );
    let read = load(&text, &[]);
    assert!(close(read.limits.lower(), &[-0.55, -1.0], 1e-12));
    assert!(close(read.limits.upper(), &[0.45, 1.0], 1e-12));
    assert!(read
        .notes
        .iter()
        .any(|n| n.contains("'j2' follows 'j1'") && n.contains("bounded to [-0.55, 0.45]")));
    // Limits that leave no value are refused, naming both joints.
    let none = follower_in_chain().replace(
        r#"<limit lower="-3" upper="3"/>"#,
        r#"<limit lower="5" upper="6"/>"#,
    );
    let message = error(&none, &[]);
    assert!(message.contains("'j2' follows 'j1'") && message.contains("leave no value"));
}

/// A gripper: `g` drives two fingers off the chain's side branch; the chain's tip sits on one
/// finger that follows `g`, through a second follower.
fn follower_of_a_joint_off_the_chain() -> String {
    robot(
        &[
            revolute("j1", "base", "a", (-1.0, 1.0), ""),
            revolute("g", "a", "side", (0.0, 0.8), ""),
            revolute("f1", "a", "b", (-1.0, 0.0), &mimic("g", -1.0, 0.0)),
            revolute("f2", "b", "c", (0.0, 2.0), &mimic("f3", 1.0, 0.0)),
            revolute("f3", "c", "d", (0.0, 2.0), &mimic("g", 1.0, 0.0)),
            tcp("d"),
        ]
        .concat(),
    )
}

#[test]
fn a_joint_off_the_chain_becomes_one_variable_named_after_it() {
    let read = load(&follower_of_a_joint_off_the_chain(), &[]);
    let joints: Vec<(&str, Option<&str>)> = read
        .spec
        .joints
        .iter()
        .map(|j| (j.name.as_str(), j.mimic.as_ref().map(|m| m.source.as_str())))
        .collect();
    // f2 follows f3, which follows g: resolved to g (a mimic of a mimic).
    assert_eq!(
        joints,
        [
            ("j1", None),
            ("f1", Some("g")),
            ("f2", Some("g")),
            ("f3", Some("g"))
        ]
    );
    assert!(close(read.limits.lower(), &[-1.0, 0.0], 0.0));
    assert!(close(read.limits.upper(), &[1.0, 0.8], 0.0));
    let coupled = problem(read);
    assert_eq!(coupled.dof(), 2);
    assert_eq!(variables(&coupled), ["j1", "g"]);
    // Holding the source fixes every follower; holding a follower names the source.
    let held = load(&follower_of_a_joint_off_the_chain(), &hold("g", 0.5));
    assert_eq!(held.spec.joints.len(), 1);
    let message = error(&follower_of_a_joint_off_the_chain(), &hold("f1", 0.1));
    assert!(message.contains("hold 'g' instead"), "{message}");
}

#[test]
fn broken_mimics_name_the_joints() {
    let missing = follower_in_chain().replace(r#"joint="j1""#, r#"joint="ghost""#);
    assert!(
        error(&missing, &[]).contains("follows 'ghost' (<mimic>), which the file does not have")
    );
    let cycle = robot(
        &[
            revolute("j1", "base", "a", (-1.0, 1.0), &mimic("j2", 1.0, 0.0)),
            revolute("j2", "a", "b", (-1.0, 1.0), &mimic("j1", 1.0, 0.0)),
            tcp("b"),
        ]
        .concat(),
    );
    assert!(error(&cycle, &[]).contains("in a cycle"));
    let not_a_number = follower_in_chain().replace(r#"multiplier="2""#, r#"multiplier="two""#);
    assert!(error(&not_a_number, &[]).contains("<mimic multiplier=\"two\">"));
}

#[test]
fn zero_width_joints_are_fixed_and_said() {
    let text = robot(
        &[
            revolute("joint1", "base", "a", (0.0, 0.0), ""),
            revolute("joint2", "a", "b", (-1.0, 1.0), ""),
            tcp("b"),
        ]
        .concat(),
    );
    let read = load(&text, &[]);
    assert_eq!(read.spec.joints.len(), 1);
    assert!(read
        .notes
        .iter()
        .any(|n| n == "joint 'joint1' has zero-width limits [0, 0]: fixed at 0"));
    // Nothing left to move: both joints named, with why.
    let message = error(&text, &hold("joint2", 0.0));
    assert!(message.contains("nothing moves"), "{message}");
    assert!(message.contains("'joint1' has zero-width limits [0, 0]"));
    assert!(message.contains("'joint2' is held at 0"));
}

#[test]
fn a_continuous_joint_is_held_at_its_angle_wrapped() {
    let text = robot(
        &[
            joint("j1", "continuous", "base", "a", Z),
            revolute("j2", "a", "b", (-1.0, 1.0), ""),
            tcp("b"),
        ]
        .concat(),
    );
    let read = load(&text, &hold("j1", 4.0));
    let value = read.spec.held[0].value;
    assert!((value - (4.0 - std::f64::consts::TAU)).abs() < 1e-12);
    assert!(read.notes[0].contains("'j1' is continuous"));
    // A revolute joint is not wrapped: out of its range is refused.
    let message = error(&text, &hold("j2", 4.0));
    assert!(message.contains("'j2' cannot be held at 4 (its limits are [-1, 1])"));
}

#[test]
fn what_the_kinematics_does_not_read_never_stops_a_load() {
    let plugins = follower_in_chain().replace(
        "</robot>",
        r#"<gazebo reference="a"><sensor:camera name="c"><sensor:imageSize>640 480</sensor:imageSize></sensor:camera></gazebo>
<transmission name="t"><type>SimpleTransmission</type><joint name="j1"/></transmission>
<gz:plugin filename="x"/>
</robot>"#,
    );
    assert_eq!(load(&plugins, &[]).spec.joints.len(), 3);
}

#[test]
fn an_unexpanded_template_and_a_wrong_branch_say_what_to_do() {
    let template = follower_in_chain().replace(
        "</robot>",
        r#"<xacro:include filename="$(find arm)/arm.xacro"/></robot>"#,
    );
    assert!(
        error(&template, &[]).contains("expand it first with `xacro FILE.urdf.xacro > FILE.urdf`")
    );
    let expression = follower_in_chain().replace(r#"upper="1""#, r#"upper="${pi/2}""#);
    assert!(error(&expression, &[]).contains("a xacro expression"));
    let text = follower_of_a_joint_off_the_chain();
    let swapped = read(
        text.as_bytes(),
        &ChainRequest {
            base: "tip",
            tip: "base",
            ..request(&[])
        },
    );
    assert!(
        matches!(swapped, Err(LoinkError::RobotFile(m)) if m.contains("swap them (--base base --tip tip)"))
    );
    let branch = read(
        text.as_bytes(),
        &ChainRequest {
            base: "side",
            ..request(&[])
        },
    );
    assert!(matches!(branch, Err(LoinkError::RobotFile(m))
        if m.contains("different branches") && m.contains("base → a → b → c → d")));
}

/// An arm with a wrist of ±0.5 rad and a 2 cm finger, as a Baxter or a Talos has.
fn narrow_arm() -> String {
    let prismatic = joint(
        "finger",
        "prismatic",
        "c",
        "d",
        r#"<origin xyz="0.1 0 0"/><axis xyz="0 1 0"/><limit lower="0" upper="0.02"/>"#,
    );
    robot(
        &[
            revolute("j1", "base", "a", (-2.5, 2.5), ""),
            joint(
                "j2",
                "revolute",
                "a",
                "b",
                r#"<origin xyz="0.3 0 0"/><axis xyz="0 1 0"/><limit lower="-2" upper="2"/>"#,
            ),
            revolute("wrist", "b", "c", (-0.5, 0.5), ""),
            prismatic,
            tcp("d"),
        ]
        .concat(),
    )
}

#[test]
fn dls_settles_on_narrow_joints_without_oscillating() {
    // One run each, no restarts, from the mid-range. With the pull in plain joint units it
    // overshot the finger's and the wrist's mid-range and ran all 40 to the 500-step cap,
    // 0.01–0.9 m from the target; in units of their ranges 34 converge, in 74 steps (median).
    let arm = problem(load(&narrow_arm(), &[]));
    let options = DlsOptions {
        nullspace_gain: 0.5,
        nullspace_tol: 1e-3,
        ..DlsOptions::default()
    };
    let (lower, upper) = (arm.limits().lower().to_vec(), arm.limits().upper().to_vec());
    // 40 targets: the tips of configurations spread over the box.
    let targets: Vec<Vec<f64>> = (0..40)
        .map(|k| {
            let u = (k as f64 + 0.5) / 40.0;
            let q: Vec<f64> = (0..arm.dof())
                .map(|i| lower[i] + (upper[i] - lower[i]) * ((u * (i as f64 + 1.7)) % 1.0))
                .collect();
            position(&arm, &q)
        })
        .collect();
    let mut iterations = Vec::new();
    let mut converged = 0;
    for target in &targets {
        let answer = dls::solve(&arm, target, &arm.limits().centres(), &options);
        converged += usize::from(answer.status() == Status::Converged);
        iterations.push(answer.iterations());
    }
    iterations.sort_unstable();
    let median = iterations[iterations.len() / 2];
    assert!(converged >= 30, "{converged} of 40 converged");
    assert!(median <= 100, "median iterations {median}");
    // With the chain's own restarts (error-damped) every target is reached.
    let own = DlsOptions::for_problem(&arm);
    for (k, target) in targets.iter().enumerate() {
        let answer = dls::solve_restarting(&arm, target, &arm.limits().centres(), &own);
        assert_eq!(answer.status(), Status::Converged, "target {k}");
    }
}

#[test]
fn a_model_file_keeps_the_followers() {
    let read = load(&follower_of_a_joint_off_the_chain(), &[]);
    let json = serde_json::to_string(&read.spec).unwrap();
    assert!(json.contains(r#""mimic":{"source":"g","multiplier":-1.0,"offset":0.0}"#));
    let again: loink::problem::chain::ChainSpec = serde_json::from_str(&json).unwrap();
    let (before, after) = (
        problem(read.clone()),
        problem(ChainRead {
            spec: again,
            ..read
        }),
    );
    for q in [[0.2, 0.7], [-0.9, 0.1]] {
        assert_eq!(position(&before, &q), position(&after, &q));
    }
    // A chain without followers is written as before: no mimic field at all.
    let plain = load(
        &follower_in_chain().replace(&mimic("j1", 2.0, 0.1), ""),
        &[],
    );
    assert!(!serde_json::to_string(&plain.spec)
        .unwrap()
        .contains("mimic"));
    // A spec whose mimic names a follower, or multiplies by 0, is refused by the chain itself.
    let mut chained = load(&follower_in_chain(), &[]);
    chained.spec.joints[2].mimic = Some(loink::problem::chain::Mimic {
        source: "j2".into(),
        multiplier: 1.0,
        offset: 0.0,
    });
    let limits = loink::problem::JointLimits::new(vec![-1.0], vec![1.0]).unwrap();
    let message = SerialChain::new("r", chained.spec.clone(), limits.clone())
        .unwrap_err()
        .to_string();
    assert!(message.contains("which itself follows 'j1'"), "{message}");
    chained.spec.joints[2].mimic = None;
    chained.spec.joints[1].mimic.as_mut().unwrap().multiplier = 0.0;
    let message = SerialChain::new("r", chained.spec, limits)
        .unwrap_err()
        .to_string();
    assert!(message.contains("multiplier 0"), "{message}");
}
