//! A joint element's attributes read into numbers: its type, origin, unit axis and limits, each
//! refused with a message naming the joint (and, for a xacro expression left in, what to run).

use roxmltree::Node;

use super::super::frame::{self, Frame};
use super::super::spec::JointType;
use super::bad;
use crate::error::Result;

/// A joint's type, unit axis and limits when it moves (`None` for a fixed joint).
#[allow(clippy::type_complexity)]
pub(super) fn movable(
    node: &Node,
    name: &str,
) -> Result<Option<(JointType, [f64; 3], (f64, f64))>> {
    let joint_type = match node.attribute("type") {
        Some("fixed") => return Ok(None),
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
    Ok(Some((
        joint_type,
        axis(node, name)?,
        limits(node, name, joint_type)?,
    )))
}

/// The joint's `<origin xyz rpy>` (identity when absent).
pub(super) fn origin(joint: &Node, name: &str) -> Result<Frame> {
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
            _ if text.contains("${") || text.contains("$(") => Err(bad(format!(
                "joint '{name}' has limit {key}=\"{text}\", a xacro expression: expand the file first with `xacro FILE.urdf.xacro > FILE.urdf`"
            ))),
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
pub(super) fn triple(text: Option<&str>, name: &str, what: &str) -> Result<[f64; 3]> {
    let Some(text) = text else {
        return Ok([0.0; 3]);
    };
    let hint = if text.contains("${") || text.contains("$(") {
        ": a xacro expression; expand the file first with `xacro FILE.urdf.xacro > FILE.urdf`"
    } else {
        " (three finite numbers expected)"
    };
    let values: Vec<f64> = text
        .split_whitespace()
        .map(str::parse)
        .collect::<std::result::Result<_, _>>()
        .map_err(|_| bad(format!("joint '{name}' has {what} \"{text}\"{hint}")))?;
    match values[..] {
        [a, b, c] if values.iter().all(|v| v.is_finite()) => Ok([a, b, c]),
        _ => Err(bad(format!("joint '{name}' has {what} \"{text}\"{hint}"))),
    }
}
