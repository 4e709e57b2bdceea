//! The joints on the path from the base to the tip made a chain spec: fixed joints folded into
//! the next movable joint's origin; joints that follow another (`<mimic joint multiplier
//! offset>`) driven by their source — a free joint of the chain, or a joint off the chain that
//! becomes a variable named after it, at the first joint that uses it; each variable's range
//! cut to what every joint it drives allows; held joints (`--hold`, a continuous joint's value
//! wrapped into [−π, π]) and joints with zero-width limits fixed and folded in. What it did
//! that the file did not say outright comes back as notes; what it cannot do is an error naming
//! the joints.

use std::collections::HashMap;
use std::f64::consts::PI;

use roxmltree::Node;

use super::super::frame::Frame;
use super::super::spec::{self, ChainJoint, HeldJoint, JointType, Mimic};
use super::attributes::{movable, origin};
use super::{bad, ChainRequest};
use crate::error::Result;
use crate::problem::limits::wrap_into;

/// Limits closer than this (rad or m) are one value: the joint cannot move.
const ZERO_WIDTH: f64 = 1e-9;

/// The path's movable joints and variables, read; [`Path::fold`] makes the spec's joints.
pub(super) struct Path<'a> {
    /// Each joint on the path: its name, its origin, and its motion when it moves.
    steps: Vec<(&'a str, Frame, Option<Movable<'a>>)>,
    variables: Vec<Variable<'a>>,
    index: HashMap<&'a str, usize>,
    /// What loading did that the file does not say outright.
    pub(super) notes: Vec<String>,
}

/// A movable joint as the file gives it.
struct Movable<'a> {
    name: &'a str,
    joint_type: JointType,
    axis: [f64; 3],
    lower: f64,
    upper: f64,
    follows: Option<Follow<'a>>,
}

/// The joint a mimic joint follows in the end (through mimics of mimics), and how.
#[derive(Clone, Copy)]
struct Follow<'a> {
    source: &'a str,
    multiplier: f64,
    offset: f64,
}

/// A variable of the problem before holds: a free joint on the path, or a source off it.
struct Variable<'a> {
    name: &'a str,
    joint_type: JointType,
    lower: f64,
    upper: f64,
    /// Its value when it does not move, and why.
    fixed: Option<(f64, String)>,
}

impl<'a> Path<'a> {
    /// Reads the path's joints (`joints` every joint of the file by name, for the sources of
    /// mimic joints).
    pub(super) fn read(
        path: &[Node<'a, 'a>],
        joints: &HashMap<&'a str, Node<'a, 'a>>,
    ) -> Result<Self> {
        let mut steps = Vec::with_capacity(path.len());
        for node in path {
            let name = node.attribute("name").unwrap_or("(unnamed)");
            let movable = movable(node, name)?
                .map(|(joint_type, axis, (lower, upper))| -> Result<Movable> {
                    Ok(Movable {
                        name,
                        joint_type,
                        axis,
                        lower,
                        upper,
                        follows: follow(node, name, joints)?,
                    })
                })
                .transpose()?;
            steps.push((name, origin(node, name)?, movable));
        }
        let mut read = Path {
            steps,
            variables: Vec::new(),
            index: HashMap::new(),
            notes: Vec::new(),
        };
        read.gather_variables(joints)?;
        Ok(read)
    }

    /// The variables: the free joints, then the sources off the path; each cut to the range
    /// its followers allow.
    fn gather_variables(&mut self, joints: &HashMap<&'a str, Node<'a, 'a>>) -> Result<()> {
        for joint in self.steps.iter().filter_map(|s| s.2.as_ref()) {
            if joint.follows.is_none() {
                self.index.insert(joint.name, self.variables.len());
                self.variables.push(Variable {
                    name: joint.name,
                    joint_type: joint.joint_type,
                    lower: joint.lower,
                    upper: joint.upper,
                    fixed: None,
                });
            }
        }
        for joint in self.steps.iter().filter_map(|s| s.2.as_ref()) {
            let Some(follow) = joint.follows.filter(|f| f.multiplier != 0.0) else {
                continue;
            };
            if !self.index.contains_key(follow.source) {
                let node = joints[follow.source];
                let (joint_type, _, (lower, upper)) =
                    movable(&node, follow.source)?.ok_or_else(|| {
                        bad(format!(
                            "joint '{}' follows '{}', a fixed joint",
                            joint.name, follow.source
                        ))
                    })?;
                self.index.insert(follow.source, self.variables.len());
                self.variables.push(Variable {
                    name: follow.source,
                    joint_type,
                    lower,
                    upper,
                    fixed: None,
                });
            }
        }
        for joint in self.steps.iter().filter_map(|s| s.2.as_ref()) {
            let Some(follow) = joint.follows else {
                continue;
            };
            let own =
                (joint.joint_type != JointType::Continuous).then_some((joint.lower, joint.upper));
            if follow.multiplier == 0.0 {
                if own.is_some_and(|(lo, hi)| !(lo..=hi).contains(&follow.offset)) {
                    return Err(bad(format!(
                        "joint '{}' follows '{}' with multiplier 0, at {} outside its limits [{}, {}]",
                        joint.name, follow.source, follow.offset, joint.lower, joint.upper
                    )));
                }
                continue;
            }
            let variable = &mut self.variables[self.index[follow.source]];
            let before = (variable.lower, variable.upper);
            if let Some((lo, hi)) = own {
                let (a, b) = (
                    (lo - follow.offset) / follow.multiplier,
                    (hi - follow.offset) / follow.multiplier,
                );
                variable.lower = variable.lower.max(a.min(b));
                variable.upper = variable.upper.min(a.max(b));
            }
            if variable.lower > variable.upper + ZERO_WIDTH {
                return Err(bad(format!(
                    "joint '{}' follows '{}' (× {} + {}): its limits [{}, {}] and those of '{}' [{}, {}] leave no value",
                    joint.name, follow.source, follow.multiplier, follow.offset, joint.lower, joint.upper,
                    follow.source, before.0, before.1
                )));
            }
            variable.upper = variable.upper.max(variable.lower);
            let bounded = if (variable.lower, variable.upper) != before {
                format!(
                    "; '{}' is bounded to [{}, {}] so that '{}' stays within its limits",
                    follow.source, variable.lower, variable.upper, joint.name
                )
            } else {
                String::new()
            };
            self.notes.push(format!(
                "joint '{}' follows '{}' (<mimic>: q = {} · q_{} + {}){bounded}",
                joint.name, follow.source, follow.multiplier, follow.source, follow.offset
            ));
        }
        Ok(())
    }

    /// Fixes the held joints (a continuous joint's value wrapped into [−π, π]) and those whose
    /// limits leave one value.
    pub(super) fn hold(&mut self, request: &ChainRequest) -> Result<()> {
        for hold in request.held {
            let Some(&k) = self.index.get(hold.name.as_str()) else {
                return Err(self.not_holdable(hold, request));
            };
            let variable = &mut self.variables[k];
            if variable.fixed.is_some() {
                return Err(bad(format!("joint '{}' is held twice", hold.name)));
            }
            let value = if variable.joint_type == JointType::Continuous {
                let wrapped = wrap_into(hold.value, -PI, PI).clamp(-PI, PI);
                if wrapped != hold.value {
                    self.notes.push(format!(
                        "joint '{}' is continuous: held at {} (the same angle as {})",
                        hold.name, wrapped, hold.value
                    ));
                }
                wrapped
            } else {
                hold.value
            };
            let (lo, hi) = (variable.lower, variable.upper);
            if !(lo - ZERO_WIDTH..=hi + ZERO_WIDTH).contains(&value) {
                return Err(bad(format!(
                    "joint '{}' cannot be held at {value} (its limits are [{lo}, {hi}])",
                    hold.name
                )));
            }
            variable.fixed = Some((value.clamp(lo, hi), format!("is held at {value}")));
        }
        for variable in self.variables.iter_mut().filter(|v| v.fixed.is_none()) {
            if variable.upper - variable.lower <= ZERO_WIDTH {
                let (lo, hi) = (variable.lower, variable.upper);
                self.notes.push(format!(
                    "joint '{}' has zero-width limits [{lo}, {hi}]: fixed at {lo}",
                    variable.name
                ));
                variable.fixed = Some((lo, format!("has zero-width limits [{lo}, {hi}]")));
            }
        }
        Ok(())
    }

    /// Why a `--hold` name is no variable, and what to hold instead.
    fn not_holdable(&self, hold: &HeldJoint, request: &ChainRequest) -> crate::LoinkError {
        let follower = self
            .steps
            .iter()
            .filter_map(|s| s.2.as_ref())
            .find(|j| j.name == hold.name);
        if let Some(Follow { source, .. }) = follower.and_then(|j| j.follows) {
            return bad(format!(
                "joint '{}' follows '{source}' (<mimic>): hold '{source}' instead",
                hold.name
            ));
        }
        let names: Vec<&str> = self.variables.iter().map(|v| v.name).collect();
        bad(format!(
            "no movable joint named '{}' between '{}' and '{}' to hold (those there: {})",
            hold.name,
            request.base,
            request.tip,
            names.join(", ")
        ))
    }

    /// The spec's joints (fixed and fixed-by-value joints folded into the next one's origin),
    /// the transform from the last to the tip, the held joints, and the variables' limits in
    /// the order of q.
    pub(super) fn fold(&self, request: &ChainRequest) -> Result<Folded> {
        let mut pending = Frame::IDENTITY;
        let mut joints = Vec::new();
        let mut still = Vec::new();
        for (name, origin, movable) in &self.steps {
            pending = pending.then(origin);
            let Some(joint) = movable else { continue };
            // The value it is fixed at, and why, when it does not move.
            let fixed = match joint.follows {
                Some(f) if f.multiplier == 0.0 => Some((
                    f.offset,
                    format!("follows '{}' with multiplier 0", f.source),
                )),
                Some(f) => self.variables[self.index[f.source]]
                    .fixed
                    .as_ref()
                    .map(|(v, why)| {
                        (
                            f.multiplier * v + f.offset,
                            format!("follows '{}', which {why}", f.source),
                        )
                    }),
                None => self.variables[self.index[joint.name]].fixed.clone(),
            };
            if let Some((value, why)) = fixed {
                pending = pending.then(&motion(joint.joint_type, joint.axis, value));
                still.push(format!("'{name}' {why}"));
                continue;
            }
            joints.push(ChainJoint {
                name: name.to_string(),
                joint_type: joint.joint_type,
                origin: pending,
                axis: joint.axis,
                mimic: joint.follows.map(|f| Mimic {
                    source: f.source.to_string(),
                    multiplier: f.multiplier,
                    offset: f.offset,
                }),
            });
            pending = Frame::IDENTITY;
        }
        if joints.is_empty() {
            let (base, tip) = (request.base, request.tip);
            return Err(bad(if still.is_empty() {
                format!("no movable joint between '{base}' and '{tip}'")
            } else {
                format!(
                    "nothing moves between '{base}' and '{tip}': {}",
                    still.join("; ")
                )
            }));
        }
        let (names, _) = spec::drives(&joints).map_err(bad)?;
        let (mut lower, mut upper) = (Vec::new(), Vec::new());
        for name in &names {
            let variable = &self.variables[self.index[name.as_str()]];
            lower.push(variable.lower);
            upper.push(variable.upper);
        }
        let held = self
            .variables
            .iter()
            .filter_map(|v| {
                v.fixed.as_ref().map(|(value, _)| HeldJoint {
                    name: v.name.to_string(),
                    value: *value,
                })
            })
            .collect();
        Ok(Folded {
            joints,
            tip_origin: pending,
            held,
            lower,
            upper,
        })
    }
}

/// The spec's parts [`Path::fold`] makes.
pub(super) struct Folded {
    pub(super) joints: Vec<ChainJoint>,
    pub(super) tip_origin: Frame,
    pub(super) held: Vec<HeldJoint>,
    pub(super) lower: Vec<f64>,
    pub(super) upper: Vec<f64>,
}

/// A joint's motion by `value` about or along `axis`.
pub(super) fn motion(joint_type: JointType, axis: [f64; 3], value: f64) -> Frame {
    if joint_type.rotates() {
        Frame::rotation_about(axis, value)
    } else {
        Frame::translation_along(axis, value)
    }
}

/// The joint a `<mimic>` joint follows in the end, through mimics of mimics.
fn follow<'a>(
    node: &Node<'a, 'a>,
    name: &'a str,
    joints: &HashMap<&'a str, Node<'a, 'a>>,
) -> Result<Option<Follow<'a>>> {
    let Some(mut mimic) = node.children().find(|n| n.has_tag_name("mimic")) else {
        return Ok(None);
    };
    let mut follow = Follow {
        source: name,
        multiplier: 1.0,
        offset: 0.0,
    };
    let mut seen = vec![name];
    loop {
        let at = follow.source;
        let source = mimic
            .attribute("joint")
            .ok_or_else(|| bad(format!("joint '{at}' has a <mimic> without joint=\"…\"")))?;
        let multiplier = number(&mimic, at, "multiplier", 1.0)?;
        let offset = number(&mimic, at, "offset", 0.0)?;
        follow = Follow {
            source,
            multiplier: follow.multiplier * multiplier,
            offset: follow.multiplier * offset + follow.offset,
        };
        if seen.contains(&source) {
            return Err(bad(format!(
                "joints {} follow each other in a cycle (<mimic>)",
                seen.iter()
                    .map(|s| format!("'{s}'"))
                    .collect::<Vec<_>>()
                    .join(", ")
            )));
        }
        seen.push(source);
        let Some(next) = joints.get(source) else {
            return Err(bad(format!(
                "joint '{at}' follows '{source}' (<mimic>), which the file does not have"
            )));
        };
        match next.children().find(|n| n.has_tag_name("mimic")) {
            Some(again) => mimic = again,
            None => return Ok(Some(follow)),
        }
    }
}

/// A `<mimic>` attribute's finite number (`default` when absent).
fn number(mimic: &Node, name: &str, key: &str, default: f64) -> Result<f64> {
    let Some(text) = mimic.attribute(key) else {
        return Ok(default);
    };
    match text.trim().parse::<f64>() {
        Ok(v) if v.is_finite() => Ok(v),
        _ => Err(bad(format!(
            "joint '{name}' has <mimic {key}=\"{text}\"> (a finite number expected)"
        ))),
    }
}
