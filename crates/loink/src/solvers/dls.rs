//! Damped least squares with null-space descent of the cost (the classic Jacobian solver, plus redundancy).
//!
//! Each iteration, with r = y − p(q) and J the task Jacobian:
//! - task step Δq_task = Jᵀ (J Jᵀ + λ² I)⁻¹ r (λ = `damping`);
//! - null-space step Δq_null = −k (I − J⁺J) ∇J(q) (k = `nullspace_gain`), which moves along the
//!   self-motion set towards lower cost without (to first order) moving the end effector;
//! - each joint's increment is clamped to ±`step_clamp`, and q is clamped into the joint limits.
//!
//! A joint whose range is narrow for the pull (half-range h_i below √(2k): a torso lift, a
//! finger, a ±0.7 rad wrist) works in units of its range, q_i = c_i + s_i u_i with s_i =
//! h_i/√(2k): the task and null-space steps are taken in u (the Jacobian's column and the cost
//! gradient times s_i) and its clamp is s_i times the clamp, so the pull on the joint-centring
//! cost Σ((q_i − c_i)/h_i)² never carries it past its mid-range (the pull's factor on such a
//! joint is 2k s_i²/h_i² = 1), where a fixed metric made it overshoot and oscillate. Wider
//! joints keep s_i = 1.
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
    /// Restarts from random seeds (drawn in the box from a fixed ChaCha8 stream, so a solve is
    /// reproducible) when the first run does not converge, seeking the target alone (no
    /// null-space pull) with the error-following damping; the best answer is kept. The solve
    /// stops on this count, so the same target gets the same answer on any machine.
    pub restarts: usize,
    /// For real-time callers only: no restart begins once the solve has taken this long (µs),
    /// TRAC-IK's timeout. The answer then depends on the machine and its load, so it is `None`
    /// (no cap) by default, and in every test and benchmark.
    pub realtime_cap_micros: Option<f64>,
    /// Damping that follows the error, λ² = ½‖e‖² + (10⁻³λ)² (Sugihara's
    /// Levenberg–Marquardt), instead of the fixed λ: steps near a singular posture (a stretched
    /// elbow) that a fixed damping would slow to a crawl.
    pub error_damping: bool,
}

/// Iterations of one restart: a plain run that reaches its target does so in a few dozen
/// (median 50 on the Panda's pose); one that has not by then is in a basin that holds it, and
/// the next random seed is a better use of the budget.
const RESTART_ITERS: usize = 150;

/// The seed of the restarts' random stream.
const RESTART_SEED: u64 = 0x5EED;

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
            restarts: 0,
            realtime_cap_micros: None,
            error_damping: false,
        }
    }
}

impl DlsOptions {
    /// The options a problem is solved with unless the caller gives its own: the defaults (what
    /// the planar and soft-arm benchmarks were measured with), with the pull, its stopping test
    /// and the restarts of the kind's [`crate::problem::Profile::dls`] when it has one.
    pub fn for_problem(problem: &Problem) -> Self {
        match problem.profile().dls {
            Some(tuning) => DlsOptions {
                nullspace_gain: tuning.nullspace_gain,
                nullspace_tol: tuning.nullspace_tol,
                restarts: tuning.restarts,
                error_damping: tuning.error_damping,
                max_iters: tuning.max_iters,
                ..DlsOptions::default()
            },
            None => DlsOptions::default(),
        }
    }
}

/// DLS from `seed`, then, while it has not converged, plain DLS (no null-space pull) from random
/// seeds ([`DlsOptions::restarts`] of them at most; a real-time caller may also cap them by time
/// with [`DlsOptions::realtime_cap_micros`]); the best answer, its note saying how many restarts
/// it took and its iterations those of every run.
pub fn solve_restarting(
    problem: &Problem,
    target: &[f64],
    seed: &[f64],
    opts: &DlsOptions,
) -> Solution {
    use crate::report::Status;
    use rand::{Rng, SeedableRng};
    let start = clock();
    let mut best = solve(problem, target, seed, opts);
    if opts.restarts == 0 || matches!(best.status(), Status::Converged | Status::Invalid) {
        return best;
    }
    let limits = problem.limits();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(RESTART_SEED);
    let mut restarts = 0;
    let mut iterations = best.iterations();
    let within_cap = |start| {
        opts.realtime_cap_micros
            .is_none_or(|cap| micros_since(start) < cap)
    };
    while restarts < opts.restarts && within_cap(start) && best.status() != Status::Converged {
        let random: Vec<f64> = (0..limits.len())
            .map(|i| rng.random_range(limits.lower()[i]..=limits.upper()[i]))
            .collect();
        // The restarts seek the target alone: near the workspace's edge the pull to mid-range
        // is what keeps the first run from converging. With error damping every other one
        // keeps the pull: the pose of a folded elbow lies just inside a limit the plain run
        // is pressed against. Each restart damps by the error: a target the first run could
        // not settle on is most often one a stretched or folded elbow reaches, where a fixed
        // damping converges too slowly to finish (a three-joint finger: 7 of 200 such targets
        // capped after 16 fixed-damping restarts, none with these).
        let pull = opts.error_damping;
        let plain = DlsOptions {
            nullspace_gain: if pull { opts.nullspace_gain } else { 0.0 },
            max_iters: opts.max_iters.min(RESTART_ITERS),
            error_damping: true,
            ..*opts
        };
        let again = solve(problem, target, &random, &plain);
        restarts += 1;
        iterations += again.iterations();
        if again.is_better_than(&best) {
            best = again;
        }
    }
    best.with_note(format!("{restarts} restarts from random seeds"))
        .with_iterations(iterations)
        .with_micros(micros_since(start))
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

/// Moves each joint that turns a full circle, where its range is wider than 2π, to the
/// representative of its angle nearest mid-range: the same posture, a lower joint-centring cost
/// (a UR arm's ±2π joints otherwise settle a turn away from the cheapest).
fn nearest_turn(problem: &Problem, q: &mut [f64]) {
    let turning = &problem.profile().turning;
    if turning.is_empty() {
        return;
    }
    let limits = problem.limits();
    for (i, qi) in q.iter_mut().enumerate() {
        let (lo, hi) = (limits.lower()[i], limits.upper()[i]);
        if turning.get(i) == Some(&true) && hi - lo > std::f64::consts::TAU {
            let nearest = super::wrap_into(*qi, lo, hi);
            if (lo..=hi).contains(&nearest) {
                *qi = nearest;
            }
        }
    }
}

/// s_i = min(1, h_i/√(2k)) per joint (h_i its half-range, k the pull's gain), or `None` when
/// every joint is wide enough for the pull (s = 1 throughout, the plain metric).
fn joint_scales(problem: &Problem, gain: f64) -> Option<Vec<f64>> {
    if gain <= 0.0 {
        return None;
    }
    let limits = problem.limits();
    let reach = (2.0 * gain).sqrt();
    let scale = |(lo, hi): (&f64, &f64)| (0.5 * (hi - lo) / reach).min(1.0);
    let pairs = || limits.lower().iter().zip(limits.upper());
    pairs()
        .any(|pair| scale(pair) < 1.0)
        .then(|| pairs().map(scale).collect())
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
    let scale = joint_scales(problem, opts.nullspace_gain);
    // λ is given for metre-scale arms; a workspace a few centimetres across takes it in
    // proportion (the planar arms' scale is 1: their damping is λ itself).
    let damping = opts.damping * problem.profile().task_scale.min(1.0);
    let damping2 = damping * damping;
    let mut termination = Termination::IterationCap;
    let mut iterations = opts.max_iters;
    for iter in 0..opts.max_iters {
        let p = jac.eval(problem, &q);
        problem.task().error_into(target, p, &mut r);
        problem.cost().value_and_gradient_into(&q, &mut grad);
        if let Some(scale) = &scale {
            for (i, s) in scale.iter().enumerate() {
                jac.cols[m * i..m * (i + 1)]
                    .iter_mut()
                    .for_each(|c| *c *= s);
                grad[i] *= s;
            }
        }
        free.iter_mut().for_each(|f| *f = true);
        // At most n passes: each pass freezes at least one more joint or stops.
        for _ in 0..=n {
            // Sugihara's damping, when asked: λ² = ½‖e‖² + (10⁻³λ)², large far from the target and
            // vanishing at it, so the last steps are Gauss–Newton's even near a singular posture.
            let damping2 = if opts.error_damping {
                0.5 * r.iter().map(|e| e * e).sum::<f64>() + 1e-6 * damping2
            } else {
                damping2
            };
            jac.task_step(Some(&free), &r, damping2, &mut task);
            jac.nullspace_project(Some(&free), &grad, &mut scratch, &mut projected);
            for i in 0..n {
                let s = scale.as_ref().map_or(1.0, |scale| scale[i]);
                let clamp = s * opts.step_clamp;
                step[i] = (s * (task[i] - opts.nullspace_gain * projected[i])).clamp(-clamp, clamp);
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
        // Without a pull (a restart seeking the target alone) the cost is not asked to settle.
        let settled = opts.nullspace_gain == 0.0 || norm(&projected) <= opts.nullspace_tol;
        if norm(&r) <= opts.residual_tol && settled {
            termination = Termination::Converged;
            iterations = iter;
            break;
        }
        for i in 0..n {
            q[i] += step[i];
        }
        limits.clamp(&mut q);
        nearest_turn(problem, &mut q);
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
