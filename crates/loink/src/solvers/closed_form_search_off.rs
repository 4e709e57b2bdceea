//! The closed-form search in a build without the serial chains (feature `chain`): no kind of
//! this build has a closed form along a free joint, so it applies nowhere.

use crate::error::{LoinkError, Result};
use crate::problem::Problem;
use crate::report::Solution;

/// Solver name in reports.
pub const NAME: &str = "closed-form-search";

/// Always `Err`: no kind of this build has a closed form along a free joint.
pub fn applies(_problem: &Problem) -> Result<()> {
    Err(LoinkError::UnsupportedSolver {
        solver: NAME.into(),
        reason: "no closed form along a free joint".into(),
    })
}

/// An `invalid` solution: nothing to search.
pub fn solve(_problem: &Problem, target: &[f64]) -> Solution {
    Solution::invalid(NAME, target, 0.0)
}
