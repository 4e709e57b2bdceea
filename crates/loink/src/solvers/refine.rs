//! Limit-aware Gauss–Newton restoration of the task, keeping the null-space component.
//!
//! Each step is the minimum-norm correction Δq = J⁺ r (r = y − p(q)), which changes q only in
//! the row space of J: whatever position along the self-motion set q₀ had chosen (the learned
//! solver's cost-optimal latent) is kept to first order. When q + Δq would leave the joint
//! limits, the violating joints are clamped onto their limit and frozen, and the task is
//! re-solved with the remaining free joints (planar3.md: this lifted the learned solver's
//! within-1% share from 93.8% to 97.5%). A backtracking halving keeps a step only if it
//! lowers the residual, so the iteration cannot diverge near singular poses.
//!
//! Stops when ‖r‖ ≤ [`RESIDUAL_TOL`] (`converged`), or after `max_steps` steps or when no step
//! lowers the residual any more (`capped` — the report then shows the residual reached).

use super::{clock, micros_since};
use crate::problem::Problem;
use crate::report::Solution;

/// Solver name in reports.
pub const NAME: &str = "refine";

pub(crate) use crate::problem::restore::restore_raw;
pub use crate::problem::restore::RESIDUAL_TOL;

/// Restores the task from `q0` with at most `max_steps` Gauss–Newton steps. `q0` is first
/// clamped into the limits. A bad target or q₀ (or a problem without a forward map) gives an
/// `invalid` solution.
pub fn restore(problem: &Problem, target: &[f64], q0: &[f64], max_steps: usize) -> Solution {
    let start = clock();
    if problem.check_target(target).is_err()
        || problem.check_q(q0).is_err()
        || !problem.replayable()
    {
        return Solution::invalid(NAME, target, micros_since(start));
    }
    let restored = restore_raw(problem, target, q0, max_steps);
    Solution::assess(
        problem,
        NAME,
        target,
        Some(q0),
        restored.q,
        restored.steps,
        micros_since(start),
        restored.termination,
    )
}
