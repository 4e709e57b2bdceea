//! The registry of kinds: the one place that knows every kind of problem, building one from
//! the spec a model file stores ([`ProblemSpec::build`]) or from a preset's name
//! ([`Problem::preset`], [`preset_names`]). Adding a kind: a module implementing
//! [`super::Kinematics`], one arm in [`ProblemSpec::build`] (and one in [`preset`] if it has
//! named presets). Nothing in the problem interface imports this file, so the kinds can use
//! that interface without an import loop.

use std::sync::Arc;

pub use super::entry::{KindEntry, Preset};
use super::{JointLimits, Kinematics, Problem, ProblemSpec};
use crate::cost::CostSpec;
use crate::error::{LoinkError, Result};

/// The kinds of this build, their presets listed in this order: the planar arms, the soft arm,
/// the climber, the serial chains read from `robots/`, problems known only through data.
const KINDS: &[KindEntry] = &[
    super::planar::REGISTRY_ENTRY,
    #[cfg(feature = "soft-arm")]
    super::soft4::REGISTRY_ENTRY,
    #[cfg(feature = "climber")]
    super::climber::REGISTRY_ENTRY,
    #[cfg(feature = "chain")]
    super::chain::REGISTRY_ENTRY,
    #[cfg(feature = "data-only")]
    super::data::REGISTRY_ENTRY,
];

/// Names accepted by [`Problem::preset`], in the order messages list them.
pub fn preset_names() -> Vec<&'static str> {
    let mut names = Vec::new();
    for kind in KINDS {
        names.extend_from_slice(kind.presets);
    }
    names
}

/// The kinds [`ProblemSpec::build`] knows in this build.
pub fn kinds() -> Vec<&'static str> {
    let mut kinds = Vec::new();
    for kind in KINDS {
        kinds.push(kind.kind);
    }
    kinds
}

impl ProblemSpec {
    /// Builds (and validates) the problem this spec describes.
    pub fn build(&self) -> Result<Arc<dyn Kinematics>> {
        let limits = JointLimits::new(self.lower.clone(), self.upper.clone())?;
        match KINDS.iter().find(|k| k.kind == self.kind) {
            Some(entry) => (entry.build)(self, limits),
            None => Err(LoinkError::OutOfRange {
                what: "problem kind".into(),
                detail: format!("'{}' (known: {})", self.kind, kinds().join(", ")),
            }),
        }
    }
}

/// A named preset problem and its default cost (planar arms: docs/planar3.md's; the soft arm:
/// the actuation effort Σ (φ_j / φ_max)²; serial chains: the joint centring of docs/panda.md).
pub fn preset(name: &str) -> Result<Preset> {
    match KINDS.iter().find(|k| k.presets.contains(&name)) {
        Some(entry) => (entry.preset)(name),
        // Every preset a message offers comes from this one list.
        None => Err(LoinkError::UnknownRobot {
            name: name.to_string(),
            known: preset_names().join(", "),
        }),
    }
}

impl Problem {
    /// The problem a spec describes (validated), with `cost`.
    pub fn from_spec(spec: &ProblemSpec, cost: CostSpec) -> Result<Self> {
        Self::new(spec.build()?, cost)
    }

    /// A named preset ([`preset_names`]) with its default cost.
    pub fn preset(name: &str) -> Result<Self> {
        let (kinematics, cost) = preset(name)?;
        Self::new(kinematics, cost)
    }
}
