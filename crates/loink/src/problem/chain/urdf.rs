//! Reading a serial chain out of a URDF file (native only: the page reads the chain spec a
//! model file stores, never URDF). The reader follows the joints from the tip link up to the
//! base link, folds every fixed joint (and every joint the caller holds at a value) into the
//! next movable joint's origin, and keeps revolute, continuous and prismatic joints as the
//! problem's joints. Anything else on the path (floating, planar joints), a cycle, a link
//! missing, a zero or non-finite axis or origin, or a file over [`MAX_URDF_BYTES`] is a typed
//! error naming what is wrong.
//!
//! The presets, from the files shipped in `robots/` (their licences in `robots/README.md`):
//! `panda` (docs/panda.md: `panda_link0` → `panda_hand_tcp`, joint 7 held at 0, the TCP's
//! position); `panda-pose` and `panda-axis` (docs/pose.md: all seven joints, the hand's full
//! pose about the hand-down chart, or its position and z axis); `tiago` and `tiago-pose`
//! (TIAGo's arm, `torso_lift_link` → `arm_tool_link`, position or full pose).

use std::collections::{HashMap, HashSet};

use roxmltree::{Document, Node};
use sha2::{Digest, Sha256};

use super::frame::{self, Frame};
use super::spec::{ChainJoint, ChainSource, ChainSpec, HeldJoint, JointType, Task};
use super::SerialChain;
use crate::error::{LoinkError, Result};
use crate::problem::JointLimits;
use crate::problem::Kinematics;

/// Largest URDF file read (bytes).
pub const MAX_URDF_BYTES: usize = 10 * 1024 * 1024;
/// Deepest element nesting read (a URDF nests about five deep; the XML parser recurses, so a
/// hostile file nested thousands deep would overflow the stack).
pub const MAX_NESTING: usize = 256;

/// The Panda's URDF (franka_description through example-robot-data 6.0.0; Apache-2.0).
pub const PANDA_URDF: &str = include_str!("../../../../../robots/panda/panda.urdf");
/// TIAGo's URDF without the hand (example-robot-data 6.0.0; licence in `robots/README.md`).
pub const TIAGO_URDF: &str = include_str!("../../../../../robots/tiago/tiago_no_hand.urdf");

/// A chain to read: which file, from which link to which, holding which joints.
#[derive(Debug, Clone, PartialEq)]
pub struct ChainRequest<'a> {
    /// The file's name as the spec records it (no directories).
    pub file: &'a str,
    /// The base link.
    pub base: &'a str,
    /// The tip link.
    pub tip: &'a str,
    /// Joints held at a value.
    pub held: &'a [HeldJoint],
}

/// The chain presets' names.
pub const PRESETS: [&str; 5] = ["panda", "panda-pose", "panda-axis", "tiago", "tiago-pose"];

/// The Panda's hand pointing straight down: the TCP's orientation at the ready pose
/// (docs/pose.md), the pose chart's reference.
pub const HAND_DOWN: [f64; 4] = [0.0, 1.0, 0.0, 0.0];

/// A tabletop pose target with a bent elbow, where a view of the Panda's pose task opens
/// (docs/pose.md's first reference target, `x,y,z,qw,qx,qy,qz`; J* = 0.3116).
pub const PANDA_POSE_TARGET: [f64; 7] = [0.3088, -0.4336, 0.5452, 0.3473, 0.7982, -0.4689, -0.1497];

/// Low and to the side, where the Panda's elbow bends and the optimum is not the mid-range
/// pose: where a view of its position task opens.
pub const PANDA_TARGET: [f64; 3] = [0.45, -0.20, 0.35];

/// A preset chain by name (`None` for another name).
pub fn preset(name: &str) -> Option<Result<SerialChain>> {
    let panda = |held: &[HeldJoint]| {
        read(
            PANDA_URDF.as_bytes(),
            &ChainRequest {
                file: "panda.urdf",
                base: "panda_link0",
                tip: "panda_hand_tcp",
                held,
            },
        )
    };
    let tiago = || {
        read(
            TIAGO_URDF.as_bytes(),
            &ChainRequest {
                file: "tiago_no_hand.urdf",
                base: "torso_lift_link",
                tip: "arm_tool_link",
                held: &[],
            },
        )
    };
    let joint7 = [HeldJoint {
        name: "panda_joint7".into(),
        value: 0.0,
    }];
    let (source, task, chart) = match name {
        "panda" => (panda(&joint7), Task::Position, None),
        "panda-pose" => (panda(&[]), Task::Pose, Some(HAND_DOWN)),
        "panda-axis" => (panda(&[]), Task::Axis, None),
        "tiago" => (tiago(), Task::Position, None),
        "tiago-pose" => (tiago(), Task::Pose, None),
        _ => return None,
    };
    Some(source.and_then(|(mut spec, limits)| {
        spec.task = task;
        spec.chart = chart;
        let chain = SerialChain::new(name, spec, limits)?;
        match name {
            "panda" => chain.with_default_target(PANDA_TARGET.to_vec()),
            "panda-pose" | "panda-axis" => {
                let [x, y, z, qw, qx, qy, qz] = PANDA_POSE_TARGET;
                let columns = match task {
                    Task::Axis => {
                        let r = crate::so3::Quaternion::new(qw, qx, qy, qz).to_matrix();
                        vec![x, y, z, r[2], r[5], r[8]]
                    }
                    _ => PANDA_POSE_TARGET.to_vec(),
                };
                let target = chain.basics().task.from_columns(&columns).map_err(|e| {
                    LoinkError::OutOfRange {
                        what: "the preset's default target".into(),
                        detail: e.to_string(),
                    }
                })?;
                chain.with_default_target(target)
            }
            _ => Ok(chain),
        }
    }))
}

/// Reads the chain `request` names out of the URDF `bytes`: its spec and its joint box.
pub fn read(bytes: &[u8], request: &ChainRequest) -> Result<(ChainSpec, JointLimits)> {
    if bytes.len() > MAX_URDF_BYTES {
        return Err(bad(format!(
            "{} bytes is larger than {MAX_URDF_BYTES}",
            bytes.len()
        )));
    }
    let text = std::str::from_utf8(bytes).map_err(|e| bad(format!("not UTF-8 text ({e})")))?;
    if nesting_exceeds(text, MAX_NESTING) {
        return Err(bad(format!(
            "elements nest more than {MAX_NESTING} deep (not a robot description)"
        )));
    }
    let document = Document::parse(text).map_err(|e| bad(format!("not XML ({e})")))?;
    let robot = document.root_element();
    if robot.tag_name().name() != "robot" {
        return Err(bad(format!(
            "the root element is <{}>, not <robot>",
            robot.tag_name().name()
        )));
    }
    let links: HashSet<&str> = robot
        .children()
        .filter(|n| n.has_tag_name("link"))
        .filter_map(|n| n.attribute("name"))
        .collect();
    for (role, link) in [("base", request.base), ("tip", request.tip)] {
        if !links.contains(link) {
            return Err(bad(format!("no link named '{link}' (the {role})")));
        }
    }
    let mut by_child: HashMap<&str, Node> = HashMap::new();
    for joint in robot.children().filter(|n| n.has_tag_name("joint")) {
        let child = child_link(&joint, "child")?;
        if by_child.insert(child, joint).is_some() {
            return Err(bad(format!(
                "link '{child}' is the child of two joints (not a tree)"
            )));
        }
    }
    // Up from the tip: each link's joint to its parent, until the base.
    let mut path = Vec::new();
    let mut link = request.tip;
    let mut seen = HashSet::from([link]);
    while link != request.base {
        let Some(joint) = by_child.get(link) else {
            return Err(bad(format!(
                "link '{}' is not below link '{}' (the chain stops at '{link}')",
                request.tip, request.base
            )));
        };
        link = child_link(joint, "parent")?;
        if !seen.insert(link) {
            return Err(bad(format!(
                "the joints form a cycle through link '{link}'"
            )));
        }
        path.push(*joint);
    }
    path.reverse();
    fold(&path, bytes, request)
}

/// Folds the path's fixed and held joints into the movable joints' origins.
fn fold(path: &[Node], bytes: &[u8], request: &ChainRequest) -> Result<(ChainSpec, JointLimits)> {
    let mut pending = Frame::IDENTITY;
    let (mut joints, mut lower, mut upper, mut held) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let mut unused: Vec<&HeldJoint> = request.held.iter().collect();
    for node in path {
        let name = node.attribute("name").unwrap_or("(unnamed)");
        pending = pending.then(&origin(node, name)?);
        let joint_type = match node.attribute("type") {
            Some("fixed") => continue,
            Some("revolute") => JointType::Revolute,
            Some("continuous") => JointType::Continuous,
            Some("prismatic") => JointType::Prismatic,
            Some(other) => {
                return Err(bad(format!(
                    "joint '{name}' is of type '{other}' (a chain takes revolute, continuous, prismatic and fixed joints)"
                )))
            }
            None => return Err(bad(format!("joint '{name}' has no type"))),
        };
        let axis = axis(node, name)?;
        let (lo, hi) = limits(node, name, joint_type)?;
        if let Some(k) = unused.iter().position(|h| h.name == name) {
            let hold = unused.remove(k);
            if !(lo..=hi).contains(&hold.value) {
                return Err(bad(format!(
                    "joint '{name}' cannot be held at {} (its limits are [{lo}, {hi}])",
                    hold.value
                )));
            }
            pending = pending.then(&motion(joint_type, axis, hold.value));
            held.push(hold.clone());
            continue;
        }
        joints.push(ChainJoint {
            name: name.to_string(),
            joint_type,
            origin: pending,
            axis,
        });
        lower.push(lo);
        upper.push(hi);
        pending = Frame::IDENTITY;
    }
    if let Some(hold) = unused.first() {
        return Err(bad(format!(
            "no movable joint named '{}' between '{}' and '{}' to hold",
            hold.name, request.base, request.tip
        )));
    }
    if joints.is_empty() {
        return Err(bad(format!(
            "no movable joint between '{}' and '{}'",
            request.base, request.tip
        )));
    }
    let spec = ChainSpec {
        source: ChainSource {
            file: request.file.to_string(),
            sha256: hex(&Sha256::digest(bytes)),
        },
        base: request.base.to_string(),
        tip: request.tip.to_string(),
        task: Task::Position,
        joints,
        tip_origin: pending,
        held,
        chart: None,
        cone: None,
        cover: None,
    };
    Ok((spec, JointLimits::new(lower, upper)?))
}

/// A joint's motion by `value` about or along `axis`.
fn motion(joint_type: JointType, axis: [f64; 3], value: f64) -> Frame {
    if joint_type.rotates() {
        Frame::rotation_about(axis, value)
    } else {
        Frame::translation_along(axis, value)
    }
}

/// The `link` attribute of a joint's `<parent>` or `<child>` element.
fn child_link<'a>(joint: &Node<'a, '_>, role: &str) -> Result<&'a str> {
    let name = joint.attribute("name").unwrap_or("(unnamed)");
    joint
        .children()
        .find(|n| n.has_tag_name(role))
        .and_then(|n| n.attribute("link"))
        .ok_or_else(|| bad(format!("joint '{name}' has no <{role} link=…>")))
}

/// The joint's `<origin xyz rpy>` (identity when absent).
fn origin(joint: &Node, name: &str) -> Result<Frame> {
    let Some(node) = joint.children().find(|n| n.has_tag_name("origin")) else {
        return Ok(Frame::IDENTITY);
    };
    let xyz = triple(node.attribute("xyz"), name, "origin xyz")?;
    let rpy = triple(node.attribute("rpy"), name, "origin rpy")?;
    Ok(Frame::from_xyz_rpy(xyz, rpy))
}

/// The joint's unit axis (URDF's default (1, 0, 0) when absent).
fn axis(joint: &Node, name: &str) -> Result<[f64; 3]> {
    let given = match joint.children().find(|n| n.has_tag_name("axis")) {
        Some(node) => triple(node.attribute("xyz"), name, "axis")?,
        None => [1.0, 0.0, 0.0],
    };
    let norm = frame::length(given);
    if norm.is_nan() || norm <= 1e-9 {
        return Err(bad(format!("joint '{name}' has a zero axis")));
    }
    Ok(given.map(|a| a / norm))
}

/// The joint's limits: `<limit lower upper>` (continuous joints: [−π, π]).
fn limits(joint: &Node, name: &str, joint_type: JointType) -> Result<(f64, f64)> {
    if joint_type == JointType::Continuous {
        return Ok((-std::f64::consts::PI, std::f64::consts::PI));
    }
    let node = joint
        .children()
        .find(|n| n.has_tag_name("limit"))
        .ok_or_else(|| bad(format!("joint '{name}' has no <limit>")))?;
    let value = |key: &str| -> Result<f64> {
        let text = node.attribute(key).unwrap_or("0");
        match text.trim().parse::<f64>() {
            Ok(v) if v.is_finite() => Ok(v),
            _ => Err(bad(format!("joint '{name}' has limit {key}=\"{text}\""))),
        }
    };
    let (lo, hi) = (value("lower")?, value("upper")?);
    if lo > hi {
        return Err(bad(format!(
            "joint '{name}' has lower limit {lo} above upper {hi}"
        )));
    }
    Ok((lo, hi))
}

/// Three finite numbers from an attribute (zeros when absent).
fn triple(text: Option<&str>, name: &str, what: &str) -> Result<[f64; 3]> {
    let Some(text) = text else {
        return Ok([0.0; 3]);
    };
    let values: Vec<f64> = text
        .split_whitespace()
        .map(str::parse)
        .collect::<std::result::Result<_, _>>()
        .map_err(|_| bad(format!("joint '{name}' has {what} \"{text}\"")))?;
    match values[..] {
        [a, b, c] if values.iter().all(|v| v.is_finite()) => Ok([a, b, c]),
        _ => Err(bad(format!(
            "joint '{name}' has {what} \"{text}\" (three finite numbers expected)"
        ))),
    }
}

/// Whether elements nest deeper than `limit`, by a scan of the tags that skips comments,
/// declarations and processing instructions (an over-count only refuses a file early).
fn nesting_exceeds(text: &str, limit: usize) -> bool {
    let mut depth = 0usize;
    let mut rest = text;
    while let Some(at) = rest.find('<') {
        rest = &rest[at + 1..];
        if let Some(after) = rest.strip_prefix("!--") {
            rest = after.find("-->").map_or("", |end| &after[end + 3..]);
            continue;
        }
        let end = rest.find('>').unwrap_or(rest.len());
        let tag = &rest[..end];
        if tag.starts_with('/') {
            depth = depth.saturating_sub(1);
        } else if !(tag.starts_with('?') || tag.starts_with('!') || tag.ends_with('/')) {
            depth += 1;
            if depth > limit {
                return true;
            }
        }
        rest = &rest[end..];
    }
    false
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn bad(detail: String) -> LoinkError {
    LoinkError::RobotFile(detail)
}
