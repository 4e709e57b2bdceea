//! The spec a model file stores for its problem: one JSON object tagged by `kind`, with the
//! kind's own fields beside it:
//! `{"kind": "planar", "name": "planar3", "link_lengths": [...], "lower": [...], "upper": [...]}`.
//! It is read as one flat struct (every kind-specific field optional) and dispatched on `kind`
//! by the registry ([`super::registry`]), which validates it: serde's internally tagged enums
//! buffer the whole object first, and that machinery is kilobytes of the page's download.

use serde::{Deserialize, Serialize};

#[cfg(feature = "chain")]
use super::chain::ChainSpec;
use super::JointLimits;

/// A problem as a model file describes it (see the module docs).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ProblemSpec {
    /// The kind (`planar`, …).
    pub kind: String,
    /// Preset name or a user name.
    pub name: String,
    /// Planar arms: link lengths l_k (m).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub link_lengths: Vec<f64>,
    /// Lower joint limits.
    pub lower: Vec<f64>,
    /// Upper joint limits.
    pub upper: Vec<f64>,
    /// Data-only problems: the task dimension m (the other kinds know their own; 0 there).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub task_dim: usize,
    /// Serial chains: the chain read from the robot's URDF (boxed: most specs have none).
    #[cfg(feature = "chain")]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chain: Option<Box<ChainSpec>>,
}

impl ProblemSpec {
    /// The spec of a kind that needs only its name and joint box (the other fields empty):
    /// kinds add their own fields to it.
    pub fn with_box(kind: &str, name: &str, limits: &JointLimits) -> Self {
        ProblemSpec {
            kind: kind.into(),
            name: name.into(),
            link_lengths: Vec::new(),
            lower: limits.lower().to_vec(),
            upper: limits.upper().to_vec(),
            task_dim: 0,
            #[cfg(feature = "chain")]
            chain: None,
        }
    }

    /// Whether this spec is `robot`'s problem or a part of it: the same kind, name, geometry,
    /// task and number of joints, and a joint box inside `robot`'s (a chart's sub-box, limits
    /// narrowed for training). A model file is matched to its preset by this.
    pub fn within(&self, robot: &ProblemSpec) -> bool {
        // A chain narrowed to a cone of hand orientations is within the same chain with a
        // wider cone or none.
        #[cfg(feature = "chain")]
        {
            let narrowed = match (&self.chain, &robot.chain) {
                (Some(a), Some(b)) => a.narrows(b),
                (a, b) => a == b,
            };
            if !narrowed {
                return false;
            }
        }
        let inside = self.lower.len() == robot.lower.len()
            && self.upper.len() == robot.upper.len()
            && self.lower.iter().zip(&robot.lower).all(|(a, b)| a >= b)
            && self.upper.iter().zip(&robot.upper).all(|(a, b)| a <= b);
        inside
            && self.kind == robot.kind
            && self.name == robot.name
            && self.link_lengths == robot.link_lengths
            && self.task_dim == robot.task_dim
    }
}

fn is_zero(v: &usize) -> bool {
    *v == 0
}
