//! The raw limit-aware restoration of the task (the step `solvers::refine` judges and the
//! polish builds on): minimum-norm Gauss–Newton steps Δq = J⁺ r from q₀ clamped into the box,
//! the joints a step would push out clamped onto their limit and frozen, a backtracking halving
//! keeping a step only when it lowers the residual. Here, below the solvers, because a problem's
//! reachability witness and the planar closest pose use it too.

use super::jacobian::Jacobian;
use super::Problem;
use crate::outcome::Termination;

/// Residual at which refinement stops as converged.
pub const RESIDUAL_TOL: f64 = 1e-12;

/// Halvings tried before a step is declared useless.
const MAX_HALVINGS: usize = 30;

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

/// `solvers::refine::restore` on validated input (target and q₀ checked, a forward map present), without the
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
    let mut residual = problem.task().error_norm(target, &reached);
    while steps < max_steps {
        if residual <= RESIDUAL_TOL {
            termination = Termination::Converged;
            break;
        }
        steps += 1;
        let p = jac.eval(problem, &q);
        problem.task().error_into(target, p, &mut r);
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
            let trial_residual = problem.task().error_norm(target, &reached);
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
