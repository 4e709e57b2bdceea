//! Closed-form inverse kinematics of a two-link planar arm, both elbow branches.
//!
//! For a target y at distance r from the base, the law of cosines gives the relative elbow
//! angle cos q₂ = (r² − l₁² − l₂²)/(2 l₁ l₂), and q₁ = atan2(y) − atan2(l₂ sin q₂, l₁ + l₂ cos q₂).
//! Each angle is then shifted by 2π to the representative nearest its mid-range
//! ([`super::wrap_into`]); a branch that still violates a limit comes back with status `limits`
//! (and [`solve_best`] answers with the closest pose within the limits when both do).
//! Targets outside the annulus |l₁ − l₂| ≤ r ≤ l₁ + l₂ come back `unreachable`, with q the
//! closest pose (stretched towards the target, or folded; the closest pose within the limits when
//! that one breaks a limit).

use super::{clock, micros_since};
use crate::error::{LoinkError, Result};
use crate::problem::Problem;
use crate::report::{Solution, Termination, Tolerance};

/// Solver name in reports.
pub const NAME: &str = "analytic";

pub use crate::problem::planar::two_link::{two_link, wrapped_pose, Branch};

/// Solves a two-link problem on one branch.
///
/// Errors with [`LoinkError::UnsupportedSolver`] unless the problem is a two-link planar arm.
/// A non-finite, wrong-dimension or absurd target gives `Ok` with an `invalid` solution.
pub fn solve(problem: &Problem, target: &[f64], branch: Branch) -> Result<Solution> {
    let start = clock();
    let arm = applies(problem)?;
    if problem.check_target(target).is_err() {
        return Ok(Solution::invalid(NAME, target, micros_since(start)));
    }
    let (l1, l2) = (arm.lengths()[0], arm.lengths()[1]);
    let limits = arm.limits();
    let (q, reachable) = wrapped_pose(l1, l2, limits, [target[0], target[1]], branch);
    let q = q.to_vec();
    let tolerance = Tolerance::CLASSICAL;
    let residual = crate::report::distance(&arm.position(&q), target);
    let termination = if reachable || residual <= tolerance.residual {
        Termination::Converged
    } else {
        Termination::Unreachable
    };
    // Out of reach, the stretched (or folded) pose can break a limit: answer with the closest
    // pose within the limits instead, as every solver does for a target it cannot reach.
    let q = if termination == Termination::Unreachable && limits.margin(&q) < -tolerance.limits {
        problem.closest_pose(target).unwrap_or(q)
    } else {
        q
    };
    Ok(Solution::closed_form(
        problem,
        NAME,
        target,
        q,
        micros_since(start),
        termination,
    ))
}

/// The two-link planar arm analytic IK needs, or the error saying why it does not apply.
pub fn applies(problem: &Problem) -> Result<&crate::problem::planar::PlanarArm> {
    match problem.planar() {
        Some(arm) if arm.dof() == 2 => Ok(arm),
        Some(arm) => Err(LoinkError::UnsupportedSolver {
            solver: NAME.into(),
            reason: format!("needs a two-link arm, this one has {} joints", arm.dof()),
        }),
        None => Err(LoinkError::UnsupportedSolver {
            solver: NAME.into(),
            reason: format!(
                "needs a two-link planar arm, '{}' is not one",
                problem.name()
            ),
        }),
    }
}

/// Both branches, `[ElbowUp, ElbowDown]`.
pub fn solve_both(problem: &Problem, target: &[f64]) -> Result<[Solution; 2]> {
    Ok([
        solve(problem, target, Branch::ElbowUp)?,
        solve(problem, target, Branch::ElbowDown)?,
    ])
}

/// The better branch: the cheaper of the converged ones; when neither converged, the one with
/// the smaller residual (then the larger margin).
///
/// When both closed-form solutions break a limit, no pose within the limits reaches the target
/// (a two-link arm has no others): the answer is then the closest pose within the limits,
/// `unreachable`, as every solver answers a target it cannot reach.
pub fn solve_best(problem: &Problem, target: &[f64]) -> Result<Solution> {
    use crate::report::Status;
    let start = clock();
    let [up, down] = solve_both(problem, target)?;
    if up.status() == Status::Limits && down.status() == Status::Limits {
        if let Some(q) = problem.closest_pose(target) {
            return Ok(Solution::assess(
                problem,
                NAME,
                target,
                None,
                q,
                1,
                micros_since(start),
                Termination::Unreachable,
            ));
        }
    }
    Ok(Solution::better_of(up, down))
}
