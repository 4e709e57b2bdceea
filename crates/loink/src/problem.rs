//! A [`Problem`]: an arm and the cost to minimise on it — what every solver takes.

use crate::cost::{CostModel, CostSpec};
use crate::error::Result;
use crate::robot::PlanarArm;

/// An IK problem: minimise J(q) subject to p(q) = y and the joint limits.
#[derive(Debug, Clone, PartialEq)]
pub struct Problem {
    /// The arm.
    pub arm: PlanarArm,
    /// The cost bound to it.
    pub cost: CostModel,
}

impl Problem {
    /// Binds a cost spec to an arm.
    pub fn new(arm: PlanarArm, spec: CostSpec) -> Result<Self> {
        let cost = CostModel::new(spec, &arm)?;
        Ok(Self { arm, cost })
    }

    /// A preset arm with the default cost (joint-limit + 4 · centre-of-mass, as planar3.md).
    pub fn preset(name: &str) -> Result<Self> {
        Self::new(PlanarArm::preset(name)?, CostSpec::planar3())
    }
}
