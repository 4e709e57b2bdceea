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

use super::linalg::Jacobian;
use super::{clock, micros_since};
use crate::problem::Problem;
use crate::report::{distance, Solution, Termination};

/// Solver name in reports.
pub const NAME: &str = "refine";

/// Residual at which refinement stops as converged.
pub const RESIDUAL_TOL: f64 = 1e-12;

/// Halvings tried before a step is declared useless.
const MAX_HALVINGS: usize = 30;

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

/// What [`restore_raw`] ends with.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Restored {
    /// The configuration (inside the box).
    pub q: Vec<f64>,
    /// ‖f(q) − y‖.
    pub residual: f64,
    /// Steps taken.
    pub steps: usize,
    /// Converged (residual ≤ [`RESIDUAL_TOL`]) or stopped.
    pub termination: Termination,
}

/// [`restore`] on validated input (target and q₀ checked, a forward map present), without the
/// judgement: for the reachability witness, which the judgement itself calls.
pub(crate) fn restore_raw(
    problem: &Problem,
    target: &[f64],
    q0: &[f64],
    max_steps: usize,
) -> Restored {
    let (m, n) = (problem.task_dim(), problem.dof());
    let limits = problem.limits();
    let (lower, upper) = (limits.lower(), limits.upper());
    let mut q = q0.to_vec();
    limits.clamp(&mut q);
    let mut jac = Jacobian::for_problem(problem);
    let mut free = vec![true; n];
    let mut trial = vec![0.0; n];
    let mut step = vec![0.0; n];
    let mut free_step = vec![0.0; n];
    let mut r = vec![0.0; m];
    let mut rest = vec![0.0; m];
    let mut reached = vec![0.0; m];
    let mut termination = Termination::IterationCap;
    let mut steps = 0;
    problem.position_into(&q, &mut reached);
    let mut residual = distance(&reached, target);
    while steps < max_steps {
        if residual <= RESIDUAL_TOL {
            termination = Termination::Converged;
            break;
        }
        steps += 1;
        let p = jac.eval(problem, &q);
        for ((ri, ti), pi) in r.iter_mut().zip(target).zip(p) {
            *ri = ti - pi;
        }
        // Active set: clamp joints the full step would push out, re-solve with the others.
        free.iter_mut().for_each(|f| *f = true);
        jac.task_step(Some(&free), &r, 0.0, &mut step);
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
            rest.copy_from_slice(&r);
            for i in 0..n {
                step[i] = if free[i] {
                    0.0
                } else {
                    (q[i] + step[i]).clamp(lower[i], upper[i]) - q[i]
                };
                for (k, rk) in rest.iter_mut().enumerate() {
                    *rk -= jac.col(i)[k] * step[i];
                }
            }
            jac.task_step(Some(&free), &rest, 0.0, &mut free_step);
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
            problem.position_into(&trial, &mut reached);
            let trial_residual = distance(&reached, target);
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
    Restored {
        q,
        residual,
        steps,
        termination,
    }
}
