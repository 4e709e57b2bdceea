//! The global reference optimum J\* of a target: the ground truth every gap is measured against.
//! A capability of the problem (`Kinematics::reference_optimum`): planar arms sweep their
//! self-motion set (`problem::planar::reference`); a problem without one has no reference, and
//! [`solve`] says so instead of guessing.

use crate::error::{LoinkError, Result};
use crate::problem::Problem;
use crate::report::Solution;

/// Solver name in reports.
pub const NAME: &str = "reference";

/// Whether `problem` has a reference optimum (`Err` says why not).
pub fn applies(problem: &Problem) -> Result<()> {
    if available(problem) {
        Ok(())
    } else {
        Err(LoinkError::UnsupportedSolver {
            solver: NAME.into(),
            reason: format!("'{}' has no global reference optimum", problem.name()),
        })
    }
}

/// Whether the problem's kind computes a reference optimum.
pub fn available(problem: &Problem) -> bool {
    problem.replayable() && problem.kinematics().has_reference_optimum()
}

/// The reference optimum of `target` (an `invalid` solution for a bad target); `Err` when the
/// problem has no reference.
pub fn try_solve(problem: &Problem, target: &[f64]) -> Result<Solution> {
    applies(problem)?;
    Ok(solve(problem, target))
}

/// The reference optimum of `target`; an `invalid` solution for a bad target or when the
/// problem has no reference (check [`available`] first to tell the two apart).
pub fn solve(problem: &Problem, target: &[f64]) -> Solution {
    problem
        .kinematics()
        .reference_optimum(problem, target)
        .unwrap_or_else(|| Solution::invalid(NAME, target, 0.0))
}
