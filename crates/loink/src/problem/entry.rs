//! One kind of problem as the registry ([`super::registry`]) knows it: its word, its presets
//! and how to build either. Each kind's module defines its own entry.

use std::sync::Arc;

use super::{JointLimits, Kinematics, ProblemSpec};
use crate::cost::CostSpec;
use crate::error::Result;

/// One kind of problem as the registry knows it; each kind's module defines its own.
pub struct KindEntry {
    /// The spec's `kind` word.
    pub kind: &'static str,
    /// Its named presets, in the order messages list them.
    pub presets: &'static [&'static str],
    /// A problem of this kind from a spec (its box already checked).
    pub build: fn(&ProblemSpec, JointLimits) -> Result<Arc<dyn Kinematics>>,
    /// One of [`KindEntry::presets`] and its default cost.
    pub preset: fn(&str) -> Result<Preset>,
}

/// A named preset: its kinematics and its default cost.
pub type Preset = (Arc<dyn Kinematics>, CostSpec);
