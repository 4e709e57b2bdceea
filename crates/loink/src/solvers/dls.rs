//! Damped least squares with null-space descent of the cost (the classic Jacobian solver, plus redundancy).
//!
//! Each iteration, with r = y − p(q) and J the task Jacobian:
//! - task step Δq_task = Jᵀ (J Jᵀ + λ² I)⁻¹ r (λ = `damping`);
//! - null-space step Δq_null = −k (I − J⁺J) ∇J(q) (k = `nullspace_gain`), which moves along the
//!   self-motion set towards lower cost without (to first order) moving the end effector;
//! - each joint's increment is clamped to ±`step_clamp`, and q is clamped into the joint limits.
//!
//! Joints resting on a limit that the step would push further out are frozen for that
//! iteration (the task and null-space steps are recomputed with the remaining joints), so the
//! stopping test below stays meaningful when the optimum lies on a limit.
//!
//! Stopping: converged when ‖r‖ ≤ `residual_tol` **and** the projected gradient over the free
//! joints is ≤ `nullspace_tol`; otherwise it runs to `max_iters` and the report says `capped`.
//! The status is judged by [`Solution::assess`] from forward-kinematics replay, so a row can
//! never say converged with its residual above tolerance.

use super::linalg::{norm, Jacobian};
use super::{clock, micros_since};
use crate::problem::Problem;
use crate::report::{Solution, Termination};

/// Solver name in reports.
pub const NAME: &str = "dls";

/// Distance (rad) within which a joint counts as resting on its limit.
const ON_LIMIT: f64 = 1e-12;

/// Parameters of [`solve`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DlsOptions {
    /// λ, the damping of the task step (m, for a workspace a metre or more across; scaled by
    /// the problem's task scale below that).
    pub damping: f64,
    /// Largest per-joint increment per iteration (rad).
    pub step_clamp: f64,
    /// Iteration cap.
    pub max_iters: usize,
    /// Residual ‖p(q) − y‖ (m) below which the task counts as met.
    pub residual_tol: f64,
    /// k, the gain of the null-space cost descent (0 disables it: plain seed-002 DLS).
    pub nullspace_gain: f64,
    /// Norm of the projected cost gradient below which the cost counts as stationary.
    pub nullspace_tol: f64,
}

impl Default for DlsOptions {
    /// λ = 0.05 and a 0.2 rad clamp as the classic textbook example; 1e-9 m residual (well inside the 1e-6 m
    /// feasibility tolerance); k = 0.1; 1e-6 projected-gradient tolerance; 500 iterations.
    fn default() -> Self {
        Self {
            damping: 0.05,
            step_clamp: 0.2,
            max_iters: 500,
            residual_tol: 1e-9,
            nullspace_gain: 0.1,
            nullspace_tol: 1e-6,
        }
    }
}

/// DLS from a warm start (the previous answer, the measured joints) that does not stay
/// trapped: when it stalls (`capped` — a fold over the base — or `limits`), it runs again from
/// the mid-range of the box and keeps the better answer, saying so in the solution's note.
pub fn solve_warm(problem: &Problem, target: &[f64], warm: &[f64], opts: &DlsOptions) -> Solution {
    use crate::report::Status;
    let first = solve(problem, target, warm, opts);
    if !matches!(first.status(), Status::Capped | Status::Limits) {
        return first;
    }
    let stalled = format!(
        "the warm start stalled {:.3} m from the target after {} iterations",
        first.residual(),
        first.iterations()
    );
    let again = solve(problem, target, &problem.limits().centres(), opts);
    if again.is_better_than(&first) {
        again.with_note(format!("{stalled}; restarted from the mid-range seed"))
    } else {
        first.with_note(format!(
            "{stalled}; a restart from the mid-range seed did no better"
        ))
    }
}

/// Runs DLS from `seed`. A bad target or seed (NaN, wrong dimension, absurd) gives an
/// `invalid` solution; a target out of reach ends `unreachable` (decided by the problem) or
/// `capped`, with the residual it reached. Works on any problem with a forward map (the
/// Jacobian is the problem's: analytic, or n + 1 forward calls by finite differences).
pub fn solve(problem: &Problem, target: &[f64], seed: &[f64], opts: &DlsOptions) -> Solution {
    let start = clock();
    // Tolerances and the clamp may be +∞ (no test / no clamp); nothing may be NaN or negative.
    let opts_ok = [opts.damping, opts.nullspace_gain]
        .iter()
        .all(|v| v.is_finite() && *v >= 0.0)
        && [opts.step_clamp, opts.residual_tol, opts.nullspace_tol]
            .iter()
            .all(|v| *v >= 0.0);
    if problem.check_target(target).is_err()
        || problem.check_q(seed).is_err()
        || !opts_ok
        || !problem.replayable()
    {
        return Solution::invalid(NAME, target, micros_since(start));
    }
    let (m, n) = (problem.task_dim(), problem.dof());
    let limits = problem.limits();
    let (lower, upper) = (limits.lower(), limits.upper());
    let mut q = seed.to_vec();
    limits.clamp(&mut q);
    let mut jac = Jacobian::for_problem(problem);
    let mut free = vec![true; n];
    let mut step = vec![0.0; n];
    let mut task = vec![0.0; n];
    let mut projected = vec![0.0; n];
    let mut grad = vec![0.0; n];
    let mut r = vec![0.0; m];
    let mut scratch = vec![0.0; m];
    // λ is given for metre-scale arms; a workspace a few centimetres across takes it in
    // proportion (the planar arms' scale is 1: their damping is λ itself).
    let damping = opts.damping * problem.kinematics().task_scale().min(1.0);
    let damping2 = damping * damping;
    let mut termination = Termination::IterationCap;
    let mut iterations = opts.max_iters;
    for iter in 0..opts.max_iters {
        let p = jac.eval(problem, &q);
        for ((ri, ti), pi) in r.iter_mut().zip(target).zip(p) {
            *ri = ti - pi;
        }
        problem.cost().value_and_gradient_into(&q, &mut grad);
        free.iter_mut().for_each(|f| *f = true);
        // At most n passes: each pass freezes at least one more joint or stops.
        for _ in 0..=n {
            jac.task_step(Some(&free), &r, damping2, &mut task);
            jac.nullspace_project(Some(&free), &grad, &mut scratch, &mut projected);
            for i in 0..n {
                step[i] = (task[i] - opts.nullspace_gain * projected[i])
                    .clamp(-opts.step_clamp, opts.step_clamp);
            }
            let mut froze = false;
            for i in 0..n {
                let pushes_out = (q[i] <= lower[i] + ON_LIMIT && step[i] < 0.0)
                    || (q[i] >= upper[i] - ON_LIMIT && step[i] > 0.0);
                if free[i] && pushes_out {
                    free[i] = false;
                    froze = true;
                }
            }
            if !froze {
                break;
            }
        }
        if norm(&r) <= opts.residual_tol && norm(&projected) <= opts.nullspace_tol {
            termination = Termination::Converged;
            iterations = iter;
            break;
        }
        for i in 0..n {
            q[i] += step[i];
        }
        limits.clamp(&mut q);
    }
    Solution::assess(
        problem,
        NAME,
        target,
        Some(seed),
        q,
        iterations,
        micros_since(start),
        termination,
    )
}
