//! Whether a target can be reached inside the joint limits: the problem's cheap verdict, a
//! witness (a few limit-aware Gauss–Newton steps that land on the target inside the box), then
//! the kind's own decision.

use super::restore::restore_raw;
use super::{Problem, Reachability};

impl Problem {
    /// Whether `y` can be reached inside the limits. Cheap tests first (the problem's own,
    /// then a witness: a few limit-aware Gauss–Newton steps from `near` that land on y inside
    /// the box prove it reachable), then the problem's decision if it has one; otherwise
    /// [`Reachability::Unknown`].
    pub fn reachability(&self, y: &[f64], near: Option<&[f64]>) -> Reachability {
        if self.check_target(y).is_err() || !self.replayable() {
            return Reachability::Unknown;
        }
        match self.kinematics.reachability(y, None) {
            Reachability::Unknown => {}
            verdict => return verdict,
        }
        if let Some(q) = near.filter(|q| self.check_q(q).is_ok()) {
            let witness = restore_raw(self, y, q, WITNESS_STEPS);
            if witness.residual <= WITNESS_RESIDUAL && self.limits().margin(&witness.q) >= 0.0 {
                return Reachability::Reachable;
            }
        }
        self.kinematics.reachability(y, Some(self))
    }
}

/// Gauss–Newton steps of the reachability witness.
const WITNESS_STEPS: usize = 20;
/// A witness must land within this of y, inside the limits.
const WITNESS_RESIDUAL: f64 = 1e-9;
