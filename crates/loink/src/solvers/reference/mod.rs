//! The global reference optimum J\* of a target: the ground truth every gap is measured against.
//! A kind declares the capability (`Kinematics::has_reference_optimum`) and this solver
//! dispatches: planar arms sweep their self-motion set ([`planar`]), any other kind with a
//! forward map gets the multi-start polish ([`multistart`]); a problem without one has no
//! reference, and [`solve`] says so instead of guessing.

pub mod multistart;
pub mod planar;

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
    if !available(problem) {
        return Solution::invalid(NAME, target, 0.0);
    }
    if problem.planar().is_some() {
        planar::solve(problem, target)
    } else {
        multistart::solve(problem, target)
    }
}
