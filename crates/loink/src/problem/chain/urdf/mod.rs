//! Reading a serial chain out of a URDF file (native only: the page reads the chain spec a
//! model file stores, never URDF). The reader follows the joints from the tip link up to the
//! base link and keeps revolute, continuous and prismatic joints as the problem's joints:
//! - `document.rs`: the text made a tree (bounded; prefixes nobody declared, as in `<gazebo>`
//!   blocks, declared; unexpanded xacro refused with what to run);
//! - `attributes.rs`: a joint's type, origin, axis and limits read, or refused by name;
//! - `joints.rs`: fixed joints folded into the next movable joint's origin, `<mimic>` joints
//!   driven by their source, held joints and zero-width joints fixed.
//!
//! Anything else on the path (floating, planar joints), a cycle, a link missing, a zero or
//! non-finite axis or origin, or a file over [`MAX_URDF_BYTES`] is a typed error naming the
//! joints and links concerned.
//!
//! The presets, from the files shipped in `robots/` (their licences in `robots/README.md`):
//! `panda` (docs/panda.md: `panda_link0` → `panda_hand_tcp`, joint 7 held at 0, the TCP's
//! position); `panda-pose` and `panda-axis` (docs/pose.md: all seven joints, the hand's full
//! pose about the hand-down chart, or its position and z axis); `tiago` and `tiago-pose`
//! (TIAGo's arm, `torso_lift_link` → `arm_tool_link`, position or full pose).

use std::collections::{HashMap, HashSet};

use roxmltree::{Document, Node};
use sha2::{Digest, Sha256};

mod attributes;
mod document;
pub mod geometry;
mod joints;

use super::spec::{ChainSource, ChainSpec, HeldJoint, Task};
use super::SerialChain;
use crate::error::{LoinkError, Result};
use crate::problem::JointLimits;
use crate::problem::Kinematics;
pub use document::{MAX_NESTING, MAX_URDF_BYTES};

/// The Panda's URDF (franka_description through example-robot-data 6.0.0; Apache-2.0).
pub const PANDA_URDF: &str = include_str!("../../../../../../robots/panda/panda.urdf");
/// TIAGo's URDF without the hand (example-robot-data 6.0.0; licence in `robots/README.md`).
pub const TIAGO_URDF: &str = include_str!("../../../../../../robots/tiago/tiago_no_hand.urdf");

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
pub const PRESETS: [&str; 6] = [
    "panda",
    "panda-pose",
    "panda-axis",
    "panda-shelf",
    "tiago",
    "tiago-pose",
];

/// The Panda's links as spheres (`loink spheres` on `robots/panda/panda.urdf` and its SRDF).
pub const PANDA_SPHERES: &str = include_str!("../../../../../../robots/panda/panda-spheres.json");
/// The table and the shelf board of `panda-shelf` (docs/collision.md).
pub const SHELF_SCENE: &str = include_str!("../../../../../../robots/panda/shelf.toml");
/// `panda-shelf`'s margins (m): the `self` term's and the `scene` term's.
pub const SHELF_MARGINS: (f64, f64) = (0.01, 0.02);
/// `panda-shelf`'s targets: the tip under the shelf board (lower and upper corners, m).
pub const SHELF_WORKSPACE: [[f64; 3]; 2] = [[0.4, -0.5, 0.05], [0.85, 0.5, 0.35]];
/// Under the shelf, off-centre, where a view of `panda-shelf` opens.
pub const SHELF_TARGET: [f64; 3] = [0.62, -0.15, 0.2];

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
        "panda-shelf" => (panda(&joint7), Task::Position, None),
        "tiago" => (tiago(), Task::Position, None),
        "tiago-pose" => (tiago(), Task::Pose, None),
        _ => return None,
    };
    Some(source.and_then(
        |ChainRead {
             mut spec, limits, ..
         }| {
            spec.task = task;
            spec.chart = chart;
            if name == "panda-shelf" {
                return shelf(spec, limits);
            }
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
        },
    ))
}

/// `panda-shelf`: the Panda's position chain with its spheres, the table and the shelf, its
/// targets under the shelf.
fn shelf(mut spec: ChainSpec, limits: JointLimits) -> Result<SerialChain> {
    use super::collision::{bind, spheres_file::SpheresFile, Scene};
    let plain = SerialChain::new("panda-shelf", spec.clone(), limits.clone())?;
    let spheres = SpheresFile::from_json(PANDA_SPHERES.as_bytes())?;
    let scene: Scene =
        toml::from_str(SHELF_SCENE).map_err(|e| bad(format!("the shelf scene: {e}")))?;
    let (self_margin, scene_margin) = SHELF_MARGINS;
    let collision = bind::collision_spec(
        &plain,
        PANDA_URDF.as_bytes(),
        &spheres,
        scene.normalised()?,
        self_margin,
        scene_margin,
    )?;
    spec.collision = Some(collision);
    spec.workspace = Some(SHELF_WORKSPACE);
    SerialChain::new("panda-shelf", spec, limits)?.with_default_target(SHELF_TARGET.to_vec())
}

/// A chain read out of a URDF: its spec, its variables' box, and what loading did that the
/// file does not say outright (joints that follow others, joints fixed by their limits, a held
/// angle wrapped), one sentence each.
#[derive(Debug, Clone, PartialEq)]
pub struct ChainRead {
    /// The chain spec (its task the tip's position; the caller sets another).
    pub spec: ChainSpec,
    /// One interval per variable of the problem.
    pub limits: JointLimits,
    /// What loading did, for the user to read.
    pub notes: Vec<String>,
}

/// Reads the chain `request` names out of the URDF `bytes`.
pub fn read(bytes: &[u8], request: &ChainRequest) -> Result<ChainRead> {
    let text = document::text(bytes)?;
    let document = Document::parse(&text).map_err(|e| bad(format!("not XML ({e})")))?;
    let robot = document::robot(&document)?;
    let links: HashSet<&str> = robot
        .children()
        .filter(|n| document::own(&robot, n, "link"))
        .filter_map(|n| n.attribute("name"))
        .collect();
    for (role, link) in [("base", request.base), ("tip", request.tip)] {
        if !links.contains(link) {
            return Err(bad(format!("no link named '{link}' (the {role})")));
        }
    }
    let mut by_child: HashMap<&str, Node> = HashMap::new();
    let mut by_name: HashMap<&str, Node> = HashMap::new();
    for joint in robot
        .children()
        .filter(|n| document::own(&robot, n, "joint"))
    {
        let child = child_link(&joint, "child")?;
        if by_child.insert(child, joint).is_some() {
            return Err(bad(format!(
                "link '{child}' is the child of two joints (not a tree)"
            )));
        }
        if let Some(name) = joint.attribute("name") {
            if by_name.insert(name, joint).is_some() {
                return Err(bad(format!("two joints are named '{name}'")));
            }
        }
    }
    let path = path(&by_child, request)?;
    let mut joints = joints::Path::read(&path, &by_name)?;
    joints.hold(request)?;
    let folded = joints.fold(request)?;
    let spec = ChainSpec {
        source: ChainSource {
            file: request.file.to_string(),
            sha256: hex(&Sha256::digest(bytes)),
        },
        base: request.base.to_string(),
        tip: request.tip.to_string(),
        task: Task::Position,
        joints: folded.joints,
        tip_origin: folded.tip_origin,
        held: folded.held,
        chart: None,
        cone: None,
        cover: None,
        workspace: None,
        collision: None,
    };
    Ok(ChainRead {
        spec,
        limits: JointLimits::new(folded.lower, folded.upper)?,
        notes: joints.notes,
    })
}

/// The joints from the base down to the tip, or an error saying which links to name instead.
fn path<'a, 'input>(
    by_child: &HashMap<&str, Node<'a, 'input>>,
    request: &ChainRequest,
) -> Result<Vec<Node<'a, 'input>>> {
    let mut path = Vec::new();
    let mut link = request.tip;
    let mut seen = HashSet::from([link]);
    while link != request.base {
        let Some(joint) = by_child.get(link) else {
            return Err(wrong_branch(by_child, request));
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
    Ok(path)
}

/// Why the tip is not below the base, and what to name instead: the two swapped, or one of the
/// links above the tip.
fn wrong_branch(by_child: &HashMap<&str, Node>, request: &ChainRequest) -> LoinkError {
    let above = |from: &str| {
        let mut links = vec![from.to_string()];
        let mut link = from.to_string();
        while let Some(parent) = by_child
            .get(link.as_str())
            .and_then(|j| child_link(j, "parent").ok())
        {
            if links.iter().any(|l| l == parent) {
                break;
            }
            links.push(parent.to_string());
            link = parent.to_string();
        }
        links
    };
    let (base, tip) = (request.base, request.tip);
    if above(base).iter().any(|l| l == tip) {
        return bad(format!(
            "link '{tip}' is above link '{base}', not below it: swap them (--base {tip} --tip {base})"
        ));
    }
    let mut chain = above(tip);
    chain.reverse();
    bad(format!(
        "link '{tip}' is not below link '{base}' (they are on different branches): the links above '{tip}' are {}; name one of them as the base",
        chain[..chain.len() - 1].join(" → ")
    ))
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

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn bad(detail: String) -> LoinkError {
    LoinkError::RobotFile(detail)
}
