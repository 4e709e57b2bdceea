//! The registry of kinds: the one place that knows every kind of problem, building one from
//! the spec a model file stores ([`ProblemSpec::build`]) or from a preset's name
//! ([`Problem::preset`], [`PRESET_NAMES`]). Adding a kind: a module implementing
//! [`super::Kinematics`], one arm in [`ProblemSpec::build`] (and one in [`preset`] if it has
//! named presets). Nothing in the problem interface imports this file, so the kinds can use
//! that interface without an import loop.

use std::sync::Arc;

use super::planar::PlanarArm;
#[cfg(feature = "model-free")]
use super::soft4::{self, SoftArm};
use super::{JointLimits, Kinematics, Problem, ProblemSpec};
use crate::cost::CostSpec;
use crate::error::{LoinkError, Result};

/// Names accepted by [`Problem::preset`].
#[cfg(feature = "model-free")]
pub const PRESET_NAMES: [&str; 5] = ["planar2", "planar3", "planar3-wide", "planar4", "soft4"];
/// Names accepted by [`Problem::preset`].
#[cfg(not(feature = "model-free"))]
pub const PRESET_NAMES: [&str; 4] = ["planar2", "planar3", "planar3-wide", "planar4"];

/// The kinds [`ProblemSpec::build`] knows.
#[cfg(feature = "model-free")]
pub const KINDS: [&str; 3] = ["planar", "soft4", "data"];
/// The kinds [`ProblemSpec::build`] knows.
#[cfg(not(feature = "model-free"))]
pub const KINDS: [&str; 1] = ["planar"];

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

impl Problem {
    /// The problem a spec describes (validated), with `cost`.
    pub fn from_spec(spec: &ProblemSpec, cost: CostSpec) -> Result<Self> {
        Self::new(spec.build()?, cost)
    }

    /// A named preset ([`PRESET_NAMES`]) with its default cost.
    pub fn preset(name: &str) -> Result<Self> {
        let (kinematics, cost) = preset(name)?;
        Self::new(kinematics, cost)
    }
}
