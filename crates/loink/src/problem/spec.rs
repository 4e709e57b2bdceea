//! The spec a model file stores for its problem, and the registry that builds a problem from it.
//!
//! In files the spec is one JSON object tagged by `kind`, with the kind's own fields beside it:
//! `{"kind": "planar", "name": "planar3", "link_lengths": [...], "lower": [...], "upper": [...]}`.
//! It is read as one flat struct (every kind-specific field optional) and dispatched on `kind`
//! by [`ProblemSpec::build`], which validates it: serde's internally tagged enums buffer the
//! whole object first, and that machinery is kilobytes of the page's download.
//!
//! Adding a kind: a module implementing [`super::Kinematics`], one arm in [`ProblemSpec::build`]
//! (and one in [`preset`] if it has named presets).

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::planar::PlanarArm;
#[cfg(feature = "model-free")]
use super::soft4::{self, SoftArm};
use super::{JointLimits, Kinematics};
use crate::cost::CostSpec;
use crate::error::{LoinkError, Result};

/// Names accepted by [`super::Problem::preset`].
#[cfg(feature = "model-free")]
pub const PRESET_NAMES: [&str; 5] = ["planar2", "planar3", "planar3-wide", "planar4", "soft4"];
/// Names accepted by [`super::Problem::preset`].
#[cfg(not(feature = "model-free"))]
pub const PRESET_NAMES: [&str; 4] = ["planar2", "planar3", "planar3-wide", "planar4"];

/// The kinds [`ProblemSpec::build`] knows.
#[cfg(feature = "model-free")]
pub const KINDS: [&str; 3] = ["planar", "soft4", "data"];
/// The kinds [`ProblemSpec::build`] knows.
#[cfg(not(feature = "model-free"))]
pub const KINDS: [&str; 1] = ["planar"];

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
}

fn is_zero(v: &usize) -> bool {
    *v == 0
}

impl ProblemSpec {
    /// Builds (and validates) the problem this spec describes.
    pub fn build(&self) -> Result<Arc<dyn Kinematics>> {
        let limits = JointLimits::new(self.lower.clone(), self.upper.clone())?;
        match self.kind.as_str() {
            "planar" => Ok(Arc::new(PlanarArm::new(
                &self.name,
                self.link_lengths.clone(),
                limits,
            )?)),
            #[cfg(feature = "model-free")]
            "soft4" => Ok(Arc::new(SoftArm::new(&self.name, limits)?)),
            #[cfg(feature = "model-free")]
            "data" => Ok(Arc::new(super::data::DataProblem::new(
                &self.name,
                limits,
                self.task_dim,
            )?)),
            other => Err(LoinkError::OutOfRange {
                what: "problem kind".into(),
                detail: format!("'{other}' (known: {})", KINDS.join(", ")),
            }),
        }
    }
}

/// A named preset problem and its default cost (planar arms: docs/planar3.md's; the soft arm:
/// the actuation effort Σ (φ_j / φ_max)²).
pub fn preset(name: &str) -> Result<(Arc<dyn Kinematics>, CostSpec)> {
    if !PRESET_NAMES.contains(&name) {
        // Every preset a message offers comes from this one list.
        return Err(LoinkError::UnknownRobot {
            name: name.to_string(),
            known: PRESET_NAMES.join(", "),
        });
    }
    #[cfg(feature = "model-free")]
    if name == soft4::NAME {
        return Ok((
            Arc::new(SoftArm::preset()),
            CostSpec {
                terms: vec![crate::cost::TermSpec::Actuation { weight: 1.0 }],
            },
        ));
    }
    let planar = PlanarArm::preset(name)?;
    Ok((Arc::new(planar), CostSpec::planar3()))
}
