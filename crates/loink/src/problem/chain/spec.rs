//! The chain spec: a serial robot as a model file stores it, compact and already resolved (no
//! URDF needed to read it). Per movable joint: its name, type, the fixed transform from the
//! previous movable joint's frame to its own (every fixed joint and held joint between them
//! folded in) and its axis; then the fixed transform to the tip; the joints held at a value;
//! the task; and the source file's name and SHA-256, so a model names the robot it learned.
//!
//! The joint limits are the problem spec's `lower`/`upper` (held joints have none there).

use serde::{Deserialize, Serialize};

use super::frame::Frame;

/// How a joint moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum JointType {
    /// A rotation about the axis (rad), within limits.
    Revolute,
    /// A rotation about the axis without limits in the source; the spec bounds it to [−π, π].
    Continuous,
    /// A translation along the axis (m).
    Prismatic,
}

impl JointType {
    /// Whether it rotates (revolute or continuous).
    pub fn rotates(self) -> bool {
        !matches!(self, JointType::Prismatic)
    }
}

/// What the task y is (docs/pose.md for the two that turn the hand).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Task {
    /// The tip's position in the base frame, y ∈ R³ (m).
    #[default]
    Position,
    /// The tip's position and orientation, y ∈ R⁶: the position (m) and the rotation vector
    /// of the orientation about the chart reference (rad).
    Pose,
    /// The tip's position and the direction of its z axis (any turn about it), y ∈ R⁵: the
    /// position (m) and the axis's stereographic coordinates from straight up.
    Axis,
}

impl Task {
    /// The task dimension m.
    pub fn dim(self) -> usize {
        match self {
            Task::Position => 3,
            Task::Pose => 6,
            Task::Axis => 5,
        }
    }

    /// The word (`position`, `pose`, `axis`).
    pub fn as_str(self) -> &'static str {
        match self {
            Task::Position => "position",
            Task::Pose => "pose",
            Task::Axis => "axis",
        }
    }

    /// Parses a word.
    pub fn parse(word: &str) -> Option<Task> {
        [Task::Position, Task::Pose, Task::Axis]
            .into_iter()
            .find(|t| t.as_str() == word)
    }
}

/// One movable joint of the chain.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ChainJoint {
    /// The joint's name in the source.
    pub name: String,
    /// How it moves.
    #[serde(rename = "type")]
    pub joint_type: JointType,
    /// The transform from the previous movable joint's moved frame (or the base) to this
    /// joint's frame at q = 0.
    pub origin: Frame,
    /// The unit axis, in this joint's frame.
    pub axis: [f64; 3],
    /// The joint it follows, when it is no variable of its own (URDF `<mimic>`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mimic: Option<Mimic>,
}

/// A joint that follows another: its value is `multiplier · q_source + offset`, where the
/// source is one of the chain's variables — a free joint of the chain, or a joint off the
/// chain that the first joint following it stands for.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Mimic {
    /// The variable's name: the source joint's name in the file.
    pub source: String,
    /// The factor on the source's value (never 0: a joint that does not move is folded away).
    pub multiplier: f64,
    /// The value at the source's zero (rad or m).
    pub offset: f64,
}

/// How one movable joint takes its value from the chain's variables q.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Drive {
    /// The variable's index in q.
    pub variable: usize,
    /// The factor on it (1 for a free joint).
    pub multiplier: f64,
    /// The offset (0 for a free joint).
    pub offset: f64,
}

impl Drive {
    /// The joint's value at q.
    #[inline]
    pub fn value(&self, q: &[f64]) -> f64 {
        self.multiplier * q[self.variable] + self.offset
    }
}

/// The chain's variables and each movable joint's drive: every joint without a mimic is a
/// variable at its place; a joint that follows one of those takes it; a joint that follows a
/// joint off the chain makes that source a variable at the first joint that uses it. Variables
/// are listed in chain order. An error names the joint whose mimic cannot be resolved.
pub fn drives(joints: &[ChainJoint]) -> std::result::Result<(Vec<String>, Vec<Drive>), String> {
    use std::collections::HashMap;
    let mut free: HashMap<&str, usize> = HashMap::new();
    for (i, joint) in joints.iter().enumerate() {
        if joint.mimic.is_none() && free.insert(joint.name.as_str(), i).is_some() {
            return Err(format!("two movable joints are named '{}'", joint.name));
        }
    }
    let followers: HashMap<&str, &str> = joints
        .iter()
        .filter_map(|j| {
            j.mimic
                .as_ref()
                .map(|m| (j.name.as_str(), m.source.as_str()))
        })
        .collect();
    let mut names: Vec<String> = Vec::new();
    let mut index: HashMap<&str, usize> = HashMap::new();
    for joint in joints {
        let defines = match &joint.mimic {
            None => Some(joint.name.as_str()),
            Some(m) if !free.contains_key(m.source.as_str()) => Some(m.source.as_str()),
            Some(_) => None,
        };
        if let Some(name) = defines.filter(|name| !index.contains_key(name)) {
            index.insert(name, names.len());
            names.push(name.to_string());
        }
    }
    let mut drives = Vec::with_capacity(joints.len());
    for joint in joints {
        let drive = match &joint.mimic {
            None => Drive {
                variable: index[joint.name.as_str()],
                multiplier: 1.0,
                offset: 0.0,
            },
            Some(m) => {
                if let Some(via) = followers.get(m.source.as_str()) {
                    return Err(format!(
                        "joint '{}' follows '{}', which itself follows '{via}' (a mimic must name the joint that moves)",
                        joint.name, m.source
                    ));
                }
                if !(m.multiplier.is_finite() && m.multiplier != 0.0 && m.offset.is_finite()) {
                    return Err(format!(
                        "joint '{}' follows '{}' with multiplier {} and offset {} (finite, the multiplier non-zero)",
                        joint.name, m.source, m.multiplier, m.offset
                    ));
                }
                Drive {
                    variable: index[m.source.as_str()],
                    multiplier: m.multiplier,
                    offset: m.offset,
                }
            }
        };
        drives.push(drive);
    }
    Ok((names, drives))
}

/// A joint of the source held at a fixed value (not a joint of the problem; the cost skips it).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HeldJoint {
    /// The joint's name in the source.
    pub name: String,
    /// The value it is held at (rad or m).
    pub value: f64,
}

/// Where a chain came from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChainSource {
    /// The source file's name (no directories).
    pub file: String,
    /// The source file's SHA-256, lower-case hex.
    pub sha256: String,
}

/// A serial chain from a base link to a tip link (see the module docs).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ChainSpec {
    /// The file it was read from.
    pub source: ChainSource,
    /// The base link: the frame targets are given in.
    pub base: String,
    /// The tip link: the point the task places.
    pub tip: String,
    /// The task.
    #[serde(default)]
    pub task: Task,
    /// The movable joints, base to tip.
    pub joints: Vec<ChainJoint>,
    /// The transform from the last movable joint's moved frame to the tip.
    pub tip_origin: Frame,
    /// Joints of the source held at a value, base to tip.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub held: Vec<HeldJoint>,
    /// The pose task's chart reference R_c as a unit quaternion (w, x, y, z): the orientation
    /// whose rotation vector is 0 (`None`: the tip's orientation at the middle of the box).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chart: Option<[f64; 4]>,
    /// The useful domain, when narrower than the box: the configurations whose tip z axis lies
    /// within this many degrees of straight down (the tabletop set of docs/pose.md).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cone: Option<f64>,
    /// The pose task's domain narrowed further to the orientations within this many degrees
    /// of the chart reference (a chart of several: each covers the orientations near its own
    /// reference, where its rotation vector stays far from its cut at π).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cover: Option<f64>,
    /// The useful domain narrowed to tip positions inside this box (lower and upper corners, m):
    /// the targets a preset is about (under a shelf), its configurations also clear of
    /// everything when the chain has a collision model.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub workspace: Option<[[f64; 3]; 2]>,
    /// The links as spheres, the pairs checked and the scene: what the `self` and `scene` cost
    /// terms keep apart (`None`: the chain knows no geometry).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub collision: Option<super::collision::CollisionSpec>,
}

impl ChainSpec {
    /// Whether this chain is `wider`'s with its domain narrowed (a cone or a cover within the
    /// other's, or added) and, for a pose task, its orientation chart taken about another
    /// reference: the same robot and task, so a model of it answers `wider`'s targets.
    pub fn narrows(&self, wider: &ChainSpec) -> bool {
        let within = |a: Option<f64>, b: Option<f64>| match (a, b) {
            (_, None) => true,
            (Some(a), Some(b)) => a <= b,
            (None, Some(_)) => false,
        };
        let mut same = self.clone();
        same.cone = wider.cone;
        same.cover = wider.cover;
        if self.task == Task::Pose {
            same.chart = wider.chart;
        }
        same == *wider && within(self.cone, wider.cone) && within(self.cover, wider.cover)
    }
}
