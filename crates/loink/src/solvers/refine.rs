//! Limit-aware Gauss–Newton refinement onto the task, keeping the null-space component.
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

use super::linalg::{jacobian_columns, task_step};
use super::{clock, micros_since};
use crate::problem::Problem;
use crate::report::{distance, Solution, Termination, Tolerance};
use crate::robot::Robot;

/// Solver name in reports.
pub const NAME: &str = "refine";

/// Residual (m) at which refinement stops as converged.
pub const RESIDUAL_TOL: f64 = 1e-12;

/// Halvings tried before a step is declared useless.
const MAX_HALVINGS: usize = 30;

/// Refines `q0` onto `target` with at most `max_steps` Gauss–Newton steps. `q0` is first
/// clamped into the limits. A bad target or q₀ gives an `invalid` solution.
pub fn refine(problem: &Problem, target: &[f64], q0: &[f64], max_steps: usize) -> Solution {
    let start = clock();
    let arm = &problem.arm;
    if arm.check_target(target).is_err() || arm.check_q(q0).is_err() {
        return Solution::invalid(NAME, target, micros_since(start));
    }
    let n = arm.dof();
    let limits = arm.limits();
    let (lower, upper) = (limits.lower(), limits.upper());
    let mut q = q0.to_vec();
    limits.clamp(&mut q);
    let mut cols = Vec::with_capacity(n);
    let mut free = vec![true; n];
    let mut trial = vec![0.0; n];
    let mut termination = Termination::IterationCap;
    let mut steps = 0;
    let mut residual = distance(&arm.position(&q), target);
    while steps < max_steps {
        if residual <= RESIDUAL_TOL {
            termination = Termination::Converged;
            break;
        }
        steps += 1;
        let p = jacobian_columns(arm.lengths(), &q, &mut cols);
        let r = [target[0] - p[0], target[1] - p[1]];
        // Active set: clamp joints the full step would push out, re-solve with the others.
        free.iter_mut().for_each(|f| *f = true);
        let mut step = task_step(&cols, Some(&free), r, 0.0);
        for _ in 0..n {
            let mut clamped_any = false;
            for i in 0..n {
                if !free[i] {
                    continue;
                }
                let next = q[i] + step[i];
                if next < lower[i] || next > upper[i] {
                    free[i] = false;
                    clamped_any = true;
                }
            }
            if !clamped_any {
                break;
            }
            // The frozen joints move exactly onto their limit; the task is re-solved with the
            // free joints for what remains (first order: r − J_frozen Δq_frozen).
            let mut rest = r;
            for i in 0..n {
                step[i] = if free[i] {
                    0.0
                } else {
                    (q[i] + step[i]).clamp(lower[i], upper[i]) - q[i]
                };
                rest[0] -= cols[i][0] * step[i];
                rest[1] -= cols[i][1] * step[i];
            }
            let free_step = task_step(&cols, Some(&free), rest, 0.0);
            for i in 0..n {
                if free[i] {
                    step[i] = free_step[i];
                }
            }
        }
        // Backtracking: accept the longest halving of the step that lowers the residual.
        let mut scale = 1.0;
        let mut accepted = false;
        for _ in 0..MAX_HALVINGS {
            for i in 0..n {
                trial[i] = (q[i] + scale * step[i]).clamp(lower[i], upper[i]);
            }
            let trial_residual = distance(&arm.position(&trial), target);
            if trial_residual < residual {
                q.copy_from_slice(&trial);
                residual = trial_residual;
                accepted = true;
                break;
            }
            scale *= 0.5;
        }
        if !accepted {
            break;
        }
    }
    if residual <= RESIDUAL_TOL {
        termination = Termination::Converged;
    }
    Solution::assess(
        problem,
        NAME,
        target,
        Some(q0),
        q,
        steps,
        micros_since(start),
        termination,
        Tolerance::CLASSICAL,
    )
}
