//! The registry of kinds: the one place that knows every kind of problem, building one from
//! the spec a model file stores ([`ProblemSpec::build`]) or from a preset's name
//! ([`Problem::preset`], [`preset_names`]). Adding a kind: a module implementing
//! [`super::Kinematics`], one arm in [`ProblemSpec::build`] (and one in [`preset`] if it has
//! named presets). Nothing in the problem interface imports this file, so the kinds can use
//! that interface without an import loop.

use std::sync::Arc;

#[cfg(feature = "chain")]
use super::chain::{self, SerialChain};
#[cfg(feature = "climber")]
use super::climber::{self, Climber};
use super::planar::PlanarArm;
#[cfg(feature = "soft-arm")]
use super::soft4::{self, SoftArm};
use super::{JointLimits, Kinematics, Problem, ProblemSpec};
use crate::cost::CostSpec;
use crate::error::{LoinkError, Result};

/// The soft arm's preset (feature `soft-arm`).
#[cfg(feature = "soft-arm")]
const SOFT_PRESETS: &[&str] = &[soft4::NAME];
#[cfg(not(feature = "soft-arm"))]
const SOFT_PRESETS: &[&str] = &[];
/// The climber (feature `climber`).
#[cfg(feature = "climber")]
const CLIMBER_PRESETS: &[&str] = &[climber::NAME];
#[cfg(not(feature = "climber"))]
const CLIMBER_PRESETS: &[&str] = &[];
/// The serial chains read from `robots/` (feature `urdf`).
#[cfg(feature = "urdf")]
const CHAIN_PRESETS: &[&str] = &chain::urdf::PRESETS;
#[cfg(not(feature = "urdf"))]
const CHAIN_PRESETS: &[&str] = &[];

/// Names accepted by [`Problem::preset`], in the order messages list them: the planar arms,
/// the soft arm (feature `soft-arm`), the serial chains read from `robots/` (feature `urdf`).
pub fn preset_names() -> Vec<&'static str> {
    let mut names = super::planar::PLANAR_PRESETS.to_vec();
    names.extend(SOFT_PRESETS);
    names.extend(CLIMBER_PRESETS);
    names.extend(CHAIN_PRESETS);
    names
}

/// The kinds [`ProblemSpec::build`] knows, in every build.
const ALWAYS: &[&str] = &["planar"];
/// The serial chains (feature `chain`).
#[cfg(feature = "chain")]
const CHAIN_KINDS: &[&str] = &[chain::KIND];
#[cfg(not(feature = "chain"))]
const CHAIN_KINDS: &[&str] = &[];
/// The climber (feature `climber`).
#[cfg(feature = "climber")]
const CLIMBER_KINDS: &[&str] = &[climber::KIND];
#[cfg(not(feature = "climber"))]
const CLIMBER_KINDS: &[&str] = &[];
/// The soft arm (feature `soft-arm`).
#[cfg(feature = "soft-arm")]
const SOFT_KINDS: &[&str] = &["soft4"];
#[cfg(not(feature = "soft-arm"))]
const SOFT_KINDS: &[&str] = &[];
/// Problems known only through data (feature `data-only`).
#[cfg(feature = "data-only")]
const DATA_KINDS: &[&str] = &["data"];
#[cfg(not(feature = "data-only"))]
const DATA_KINDS: &[&str] = &[];

/// The kinds [`ProblemSpec::build`] knows in this build.
pub fn kinds() -> Vec<&'static str> {
    [ALWAYS, CHAIN_KINDS, CLIMBER_KINDS, SOFT_KINDS, DATA_KINDS].concat()
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
            #[cfg(feature = "climber")]
            climber::KIND => Ok(Arc::new(Climber::new(&self.name, limits)?)),
            #[cfg(feature = "chain")]
            chain::KIND => {
                let Some(spec) = &self.chain else {
                    return Err(LoinkError::OutOfRange {
                        what: "chain problem".into(),
                        detail: "the spec has no `chain`".into(),
                    });
                };
                Ok(Arc::new(SerialChain::new(
                    &self.name,
                    (**spec).clone(),
                    limits,
                )?))
            }
            #[cfg(feature = "soft-arm")]
            "soft4" => Ok(Arc::new(SoftArm::new(&self.name, limits)?)),
            #[cfg(feature = "data-only")]
            "data" => Ok(Arc::new(super::data::DataProblem::new(
                &self.name,
                limits,
                self.task_dim,
            )?)),
            other => Err(LoinkError::OutOfRange {
                what: "problem kind".into(),
                detail: format!("'{other}' (known: {})", kinds().join(", ")),
            }),
        }
    }
}

/// A named preset problem and its default cost (planar arms: docs/planar3.md's; the soft arm:
/// the actuation effort Σ (φ_j / φ_max)²; serial chains: the joint centring of docs/panda.md).
pub fn preset(name: &str) -> Result<(Arc<dyn Kinematics>, CostSpec)> {
    let names = preset_names();
    if !names.contains(&name) {
        // Every preset a message offers comes from this one list.
        return Err(LoinkError::UnknownRobot {
            name: name.to_string(),
            known: names.join(", "),
        });
    }
    #[cfg(feature = "urdf")]
    if let Some(chain) = chain::urdf::preset(name) {
        return Ok((Arc::new(chain?), CostSpec::joint_centring()));
    }
    #[cfg(feature = "climber")]
    if name == climber::NAME {
        return Ok((Arc::new(Climber::preset()), climber::default_cost()));
    }
    #[cfg(feature = "soft-arm")]
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

    /// A named preset ([`preset_names`]) with its default cost.
    pub fn preset(name: &str) -> Result<Self> {
        let (kinematics, cost) = preset(name)?;
        Self::new(kinematics, cost)
    }
}
