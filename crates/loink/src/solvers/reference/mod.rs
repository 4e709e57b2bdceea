//! The global reference optimum J\* of a target: the ground truth every gap is measured against.
//! Every kind with a forward map has one, and this solver dispatches: planar arms sweep their self-motion set ([`planar`]), any other kind with a
//! forward map gets the multi-start polish ([`multistart`]); a problem without one has no
//! reference, and [`solve`] says so instead of guessing.

// Every kind other than the planar arms enables the `multistart` feature: without it (the
// page's slim bundle) the multi-start search has no problem to run on.
#[cfg(feature = "multistart")]
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
    problem.replayable()
}

/// Whether the reference comes from a sweep of the self-motion set (a planar arm's φ sweep,
/// which also gives the landscape panel its curve) rather than the multi-start polish.
pub fn sweeps(problem: &Problem) -> bool {
    problem.planar().is_some()
}

/// Whether one sweep of the self-motion set gives the reference optimum and the whole
/// landscape at once (a swept arm of three links or fewer; longer arms sample their set).
pub fn sweep_gives_landscape(problem: &Problem) -> bool {
    sweeps(problem) && problem.dof() <= 3
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
    if sweeps(problem) {
        return planar::solve(problem, target);
    }
    #[cfg(feature = "multistart")]
    return multistart::solve(problem, target);
    #[cfg(not(feature = "multistart"))]
    Solution::invalid(NAME, target, 0.0)
}
