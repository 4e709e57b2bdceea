//! The polish after a learned answer: limit-aware steps that restore the task **and** descend
//! the cost J along the solution set — the learned answer proposes (its basin), the classical
//! step disposes (the exact constrained optimum nearby).
//!
//! Each step works on the free joints F (the others rest on a limit, the active set):
//! - the task part is the minimum-norm correction Δq_t = J_F⁺ r (r = y − f(q));
//! - the cost part is a Newton step in the null space of J_F: with Z an orthonormal basis of
//!   it, λ = (J_F J_Fᵀ)⁺ J_F ∇J_F the least-squares multipliers and ∇L = ∇J − Jᵀλ the
//!   Lagrangian gradient, Δq_n = −Z (Zᵀ H Z)⁻¹ Zᵀ ∇J, where Zᵀ H Z is the Lagrangian's
//!   Hessian along the null space by finite differences of ∇L (one extra Jacobian per
//!   null-space dimension). Where that reduced Hessian is not positive definite, a steepest
//!   descent step −Z Zᵀ∇J stands in and the line search sizes it;
//! - every joint starts each step free; one the step would push past a limit is clamped there
//!   and rests on it for this step (the step is recomputed without it), so a joint leaves its
//!   limit as soon as the step points back into the box;
//! - the step is halved until the merit J(q) + ρ‖r‖ (ρ above the multipliers) decreases.
//!
//! It stops as converged when ‖r‖ ≤ [`RESIDUAL_TOL`] and the projected gradient ‖Zᵀ∇J‖ ≤
//! [`GRADIENT_TOL`] over the joints off their limits, and otherwise after `max_steps` steps or when no
//! halving lowers the merit. It never ends worse than where it started (feasibility first,
//! then the cost; otherwise the residual). A problem whose cost has no usable gradient (not
//! finite at q) gets the task restoration alone ([`crate::solvers::refine`]), and says so. When
//! its steps run out with the task nearly met but short of the verdict (the last cost move left
//! a small task error), up to four more steps finish it, and Gauss–Newton restoration where the
//! cost is already as stationary as the problem's DLS asks; when it ends short of the target
//! otherwise (a learned answer far outside the limits, the steps stuck against them), damped
//! least squares from there finishes, and the answer says so.
//!
//! [`Polisher::polish_restoring_first`] restores the task by Gauss–Newton alone before it
//! polishes a start that lands far off: the finish of a chart among several, which must stay on
//! the piece of the answers its chart proposed.

mod null_space;

use null_space::{null_space_basis, null_step, reduced_gradient};

use super::dls::{self, DlsOptions};
use super::linalg::{norm, Jacobian};
use super::refine::{self, RESIDUAL_TOL};
use crate::problem::{Miss, Problem};
use crate::report::{Ranked, Termination, Tolerance};

/// Projected-gradient norm (cost units per rad) at which the cost counts as minimised.
pub const GRADIENT_TOL: f64 = 1e-9;
/// Halvings tried before a step is declared useless.
const MAX_HALVINGS: usize = 30;
/// A task error (m, or the task's own norm) below which a polish that ran out of steps short
/// of the verdict takes up to [`FINISH_STEPS`] more, and then Gauss–Newton restoration, before
/// damped least squares is considered.
const FINISH_RESIDUAL: f64 = 1e-3;
/// A start farther than this (m, or the task's own norm) from the target is restored before
/// [`Polisher::polish_restoring_first`] polishes it.
pub const RESTORE_FIRST_RESIDUAL: f64 = 1e-2;
/// Gauss–Newton steps of that restoration (quadratic convergence from a few centimetres).
pub const RESTORE_FIRST_STEPS: usize = 4;
/// Gauss–Newton steps that restore the task before a polish on a stiff cost
/// ([`crate::cost::CostModel::max_step`]): from its nearest clear configurations under the shelf
/// the polish then reached the target from 60 of 60 starts, 26 without (docs/collision.md).
pub const STIFF_RESTORE_STEPS: usize = 8;
/// Steps of either finish (quadratic convergence: 1e-3 → 1e-12 takes two or three).
const FINISH_STEPS: usize = 4;

/// What [`polish`] ends with.
#[derive(Debug, Clone, PartialEq)]
pub struct Polished {
    /// The configuration (inside the box).
    pub q: Vec<f64>,
    /// ‖f(q) − y‖.
    pub residual: f64,
    /// Steps taken.
    pub steps: usize,
    /// Converged (task restored and the cost stationary) or stopped.
    pub termination: Termination,
    /// False when the cost had no usable gradient and only the task was restored.
    pub cost_descended: bool,
    /// Whether damped least squares finished the job after the polish stalled short of the
    /// target (its iterations are counted in `steps`).
    pub rescued: bool,
}

/// Buffers of one polish (n joints, task dimension m): nothing is allocated per step.
#[derive(Debug, Clone, PartialEq)]
struct Work {
    jac: Jacobian,
    /// The Jacobian at a finite-difference probe.
    probe_jac: Jacobian,
    free: Vec<bool>,
    grad: Vec<f64>,
    lambda: Vec<f64>,
    r: Vec<f64>,
    /// The task residual left for the free joints once frozen ones moved onto their limits.
    rest: Vec<f64>,
    step: Vec<f64>,
    task: Vec<f64>,
    /// The task part of the step (frozen joints' moves onto their limits included).
    task_move: Vec<f64>,
    frozen_moves: Vec<f64>,
    /// Orthonormal null-space basis: `basis_len` vectors of n, row after row.
    basis: Vec<f64>,
    basis_len: usize,
    /// H z for each basis vector (n each), the reduced Hessian and gradient.
    hz: Vec<f64>,
    reduced: Vec<f64>,
    /// The reduced Hessian last computed in this polish, for which free set and null-space
    /// dimension (valid while `hessian_valid`).
    reduced_cache: Vec<f64>,
    hessian_free: Vec<bool>,
    hessian_k: usize,
    hessian_valid: bool,
    gz: Vec<f64>,
    base: Vec<f64>,
    unit: Vec<f64>,
    projected: Vec<f64>,
    probe: Vec<f64>,
    probe_grad: Vec<f64>,
    scratch_m: Vec<f64>,
    trial: Vec<f64>,
    reached: Vec<f64>,
}

impl Work {
    fn new(problem: &Problem) -> Self {
        let (m, n) = (problem.task_dim(), problem.dof());
        Self {
            jac: Jacobian::for_problem(problem),
            probe_jac: Jacobian::for_problem(problem),
            free: vec![true; n],
            grad: vec![0.0; n],
            lambda: vec![0.0; m],
            r: vec![0.0; m],
            rest: vec![0.0; m],
            step: vec![0.0; n],
            task: vec![0.0; n],
            task_move: vec![0.0; n],
            frozen_moves: vec![0.0; n],
            basis: vec![0.0; n * n],
            basis_len: 0,
            hz: vec![0.0; n * n],
            reduced: vec![0.0; n * n],
            reduced_cache: vec![0.0; n * n],
            hessian_free: vec![false; n],
            hessian_k: 0,
            hessian_valid: false,
            gz: vec![0.0; n],
            base: vec![0.0; n],
            unit: vec![0.0; n],
            projected: vec![0.0; n],
            probe: vec![0.0; n],
            probe_grad: vec![0.0; n],
            scratch_m: vec![0.0; m],
            trial: vec![0.0; n],
            reached: vec![0.0; m],
        }
    }

    fn basis_vector(&self, c: usize) -> &[f64] {
        let n = self.free.len();
        &self.basis[c * n..(c + 1) * n]
    }
}

/// Polishes `q0` towards the cheapest configuration reaching `target` near it, in at most
/// `max_steps` steps ([`Polisher::polish`] with fresh buffers).
pub fn polish(problem: &Problem, target: &[f64], q0: &[f64], max_steps: usize) -> Polished {
    Polisher::new(problem).polish(problem, target, q0, max_steps)
}

/// The polish with its buffers, kept by a solver across calls (no allocation per call but the
/// answer's).
#[derive(Debug, Clone, PartialEq)]
pub struct Polisher {
    work: Work,
}

impl Polisher {
    /// Buffers for `problem`.
    pub fn new(problem: &Problem) -> Self {
        Self {
            work: Work::new(problem),
        }
    }

    /// Whether the buffers fit `problem` (its joints and task dimension).
    pub fn fits(&self, problem: &Problem) -> bool {
        self.work.free.len() == problem.dof() && self.work.r.len() == problem.task_dim()
    }

    /// Polishes `q0` towards the cheapest configuration reaching `target` near it, in at most
    /// `max_steps` steps. Input must be validated (finite target and q₀ of the right lengths,
    /// a forward map present); buffers that do not fit `problem` are replaced.
    pub fn polish(
        &mut self,
        problem: &Problem,
        target: &[f64],
        q0: &[f64],
        max_steps: usize,
    ) -> Polished {
        if problem.cost().max_step().is_some() {
            // A stiff cost: the task first, then the cost along the answers (docs/collision.md).
            return self.restoring(problem, target, q0, max_steps, 0.0, STIFF_RESTORE_STEPS);
        }
        if !self.fits(problem) {
            self.work = Work::new(problem);
        }
        self.work.hessian_valid = false;
        polish_with(&mut self.work, problem, target, q0, max_steps)
    }

    /// [`Self::polish`] from `q0` restored first: when it is farther than
    /// [`RESTORE_FIRST_RESIDUAL`] from the target, up to [`RESTORE_FIRST_STEPS`] Gauss–Newton
    /// restoration steps come before the polish (kept when they lower the task error; counted
    /// in the steps, not in `max_steps`). Minimum-norm steps move q across the answer set, not
    /// along it, so the polish then starts on the piece nearest `q0` and descends the cost along
    /// it. Started centimetres off, the polish's combined step takes its cost part in the null
    /// space of a Jacobian away from the set, and it often stalls and ends in the rescue, which
    /// slides to another piece (docs/pose.md). Never worse than `q0`.
    pub fn polish_restoring_first(
        &mut self,
        problem: &Problem,
        target: &[f64],
        q0: &[f64],
        max_steps: usize,
    ) -> Polished {
        let threshold = if problem.cost().max_step().is_some() {
            0.0
        } else {
            RESTORE_FIRST_RESIDUAL
        };
        let steps = if problem.cost().max_step().is_some() {
            STIFF_RESTORE_STEPS
        } else {
            RESTORE_FIRST_STEPS
        };
        self.restoring(problem, target, q0, max_steps, threshold, steps)
    }

    /// The polish from `q0` after up to `restore_steps` Gauss–Newton restoration steps when it
    /// lies farther than `threshold` from the target (kept when they lower the task error;
    /// counted in the steps, not in `max_steps`). Never worse than `q0`.
    fn restoring(
        &mut self,
        problem: &Problem,
        target: &[f64],
        q0: &[f64],
        max_steps: usize,
        threshold: f64,
        restore_steps: usize,
    ) -> Polished {
        if !self.fits(problem) {
            self.work = Work::new(problem);
        }
        let mut start = q0.to_vec();
        problem.limits().clamp(&mut start);
        problem.position_into(&start, &mut self.work.reached);
        let residual = problem.task().error_norm(target, &self.work.reached);
        let mut restoring = 0;
        if residual > threshold.max(RESIDUAL_TOL) {
            let restored = refine::restore_raw(problem, target, &start, restore_steps);
            restoring = restored.steps;
            if restored.residual < residual {
                start = restored.q;
            }
        }
        self.work.hessian_valid = false;
        let polished = polish_with(&mut self.work, problem, target, &start, max_steps);
        never_worse(
            problem,
            target,
            q0,
            Polished {
                steps: polished.steps + restoring,
                ..polished
            },
        )
    }
}

fn polish_with(
    w: &mut Work,
    problem: &Problem,
    target: &[f64],
    q0: &[f64],
    max_steps: usize,
) -> Polished {
    let limits = problem.limits();
    let (lower, upper) = (limits.lower(), limits.upper());
    let mut q = q0.to_vec();
    limits.clamp(&mut q);
    // J and ∇J at q: the first step's, and the check that the cost has a usable gradient.
    let mut cost = problem.cost().value_and_gradient_into(&q, &mut w.grad);
    if !cost.is_finite() || w.grad.iter().any(|g| !g.is_finite()) {
        let restored = refine::restore_raw(problem, target, q0, max_steps);
        return Polished {
            q: restored.q,
            residual: restored.residual,
            steps: restored.steps,
            termination: restored.termination,
            cost_descended: false,
            rescued: false,
        };
    }
    let mut steps = 0;
    let mut termination = Termination::IterationCap;
    // ‖Zᵀ∇J‖ at q, over the last step's free joints.
    let mut projected = f64::INFINITY;
    loop {
        w.jac.eval(problem, &q);
        problem.task().error_into(target, &w.jac.y, &mut w.r);
        let residual = norm(&w.r);
        if steps > 0 {
            cost = problem.cost().value_and_gradient_into(&q, &mut w.grad);
        }
        // Every joint starts free; the step decides which rest on a limit (those it would
        // push out of the box), so a joint at a limit leaves it when the step points inwards.
        w.free.iter_mut().for_each(|f| *f = true);
        if residual <= RESIDUAL_TOL {
            // Converged with every joint free: no step to compute.
            w.jac.multipliers(Some(&w.free), &w.grad, &mut w.lambda);
            null_space_basis(w);
            if reduced_gradient(w) <= GRADIENT_TOL {
                termination = Termination::Converged;
                break;
            }
        }
        projected = compute_step(problem, w, &q, lower, upper);
        if residual <= RESIDUAL_TOL && projected <= GRADIENT_TOL {
            termination = Termination::Converged;
            break;
        }
        if steps >= max_steps {
            // Out of steps short of the verdict but near the target: a few more steps finish
            // it (each restores the task quadratically while the cost descends), where damped
            // least squares would take hundreds.
            let near = residual <= FINISH_RESIDUAL
                && !within_tolerance(problem.miss(target, &w.jac.y), limits.margin(&q));
            if !near || steps >= max_steps + FINISH_STEPS {
                break;
            }
        }
        steps += 1;
        // Merit J + ρ‖r‖ with ρ above the multipliers (an exact penalty near a solution).
        let rho = 2.0 * w.lambda.iter().fold(0.0_f64, |a, l| a.max(l.abs())) + 1.0;
        let merit = cost + rho * residual;
        if !line_search(problem, w, target, &mut q, residual, merit, rho) {
            break;
        }
    }
    problem.position_into(&q, &mut w.reached);
    let residual = problem.task().error_norm(target, &w.reached);
    let mut polished = Polished {
        q,
        residual,
        steps,
        termination,
        cost_descended: true,
        rescued: false,
    };
    // The verdict at the polished point, from the position just replayed; only an answer short
    // of it goes on to a finish.
    if !within_tolerance(problem.miss(target, &w.reached), limits.margin(&polished.q)) {
        polished = finish(problem, target, polished, projected);
    }
    never_worse(problem, target, q0, polished)
}

/// Finishes a polish that ended short of the target (`projected`: its last ‖Zᵀ∇J‖); returns
/// the better answer, or the polished one unchanged when neither finish reaches the target.
fn finish(problem: &Problem, target: &[f64], polished: Polished, projected: f64) -> Polished {
    let own = DlsOptions::for_problem(problem);
    if polished.residual <= FINISH_RESIDUAL && projected <= own.nullspace_tol {
        // The step budget ran out with the task nearly met and the cost as stationary as the
        // rescue below would leave it (its own stopping rule): the last cost moves along the
        // curved solution set left a small task error, and all the rescue would do is restore
        // the task. Gauss–Newton restoration does that quadratically, moving q only across the
        // solution set (the cost to second order).
        let finished = refine::restore_raw(problem, target, &polished.q, FINISH_STEPS);
        if feasible(problem, target, &finished.q) {
            return Polished {
                q: finished.q,
                residual: finished.residual,
                steps: polished.steps + finished.steps,
                ..polished
            };
        }
    }
    // Stuck against the limits short of the target (a learned answer far outside them):
    // damped least squares from here takes over, and the better answer is kept. It stops its
    // cost descent where the problem's own DLS does (the Panda: a projected gradient of 10⁻³,
    // which halved the polish's p95 time at the same share within 1 % of J*), and steps as it
    // does (a pose: damping that follows the error, at most its iterations); it never restarts
    // elsewhere, which would leave the learned answer's basin.
    let options = DlsOptions {
        nullspace_tol: own.nullspace_tol,
        error_damping: own.error_damping,
        max_iters: own.max_iters,
        ..DlsOptions::default()
    };
    let rescue = dls::solve_warm(problem, target, &polished.q, &options);
    if feasible(problem, target, rescue.q()) {
        Polished {
            q: rescue.q().to_vec(),
            residual: rescue.weighted_miss(),
            steps: polished.steps + rescue.iterations(),
            termination: Termination::Converged,
            cost_descended: true,
            rescued: true,
        }
    } else {
        polished
    }
}

/// Takes the step from q with a backtracking search on the merit; returns whether one was
/// accepted. The task part is taken whole (Gauss–Newton restores the task quadratically); the
/// search sizes the cost part, down to none, then the whole step.
fn line_search(
    problem: &Problem,
    w: &mut Work,
    target: &[f64],
    q: &mut [f64],
    residual: f64,
    merit: f64,
    rho: f64,
) -> bool {
    let limits = problem.limits();
    let (lower, upper) = (limits.lower(), limits.upper());
    let n = q.len();
    for attempt in 0..MAX_HALVINGS {
        let (task_scale, cost_scale) = match attempt {
            0..=3 => (1.0, 0.5_f64.powi(attempt as i32)),
            4 => (1.0, 0.0),
            k => (0.5_f64.powi(k as i32 - 4), 0.0),
        };
        for i in 0..n {
            let d = task_scale * w.task_move[i] + cost_scale * (w.step[i] - w.task_move[i]);
            w.trial[i] = (q[i] + d).clamp(lower[i], upper[i]);
        }
        // Second-order correction: the cost part moves along the tangent, leaving a task error
        // of its length squared; one more minimum-norm task step (same Jacobian) takes it
        // back before the trial is judged.
        let cost_part: f64 = (0..n)
            .map(|i| (cost_scale * (w.step[i] - w.task_move[i])).powi(2))
            .sum::<f64>();
        // (A cost part below 1e-7 rad leaves a task error far below the tolerance.)
        if cost_part > 1e-14 {
            problem.position_into(&w.trial, &mut w.reached);
            problem.task().error_into(target, &w.reached, &mut w.rest);
            w.jac.task_step(Some(&w.free), &w.rest, 0.0, &mut w.unit);
            for i in 0..n {
                w.trial[i] = (w.trial[i] + w.unit[i]).clamp(lower[i], upper[i]);
            }
        }
        problem.position_into(&w.trial, &mut w.reached);
        let trial_residual = problem.task().error_norm(target, &w.reached);
        let trial_merit = problem.cost().value(&w.trial) + rho * trial_residual;
        // Progress is a lower merit, or (far from the task) a halved task error: restoring
        // feasibility may have to cost more than the merit's weight allows.
        if trial_merit < merit || trial_residual <= 0.5 * residual {
            q.copy_from_slice(&w.trial);
            return true;
        }
    }
    false
}

/// The step from q (`w.step`, its task part in `w.task_move`): task restoration plus the
/// null-space Newton (or steepest-descent) step, with the joints it would push past a limit
/// clamped there and frozen. Leaves the free set, multipliers and basis of the final free set
/// in `w`; returns the projected gradient ‖Zᵀ∇J‖ over it.
fn compute_step(problem: &Problem, w: &mut Work, q: &[f64], lower: &[f64], upper: &[f64]) -> f64 {
    let n = q.len();
    w.frozen_moves.iter_mut().for_each(|v| *v = 0.0);
    w.rest.copy_from_slice(&w.r);
    let mut projected = 0.0;
    // ‖Zᵀ∇J‖ with every joint free: what a stationarity verdict reads when the step moved a
    // joint onto its limit (that joint is not resting there yet, so freezing it proves nothing).
    let mut projected_free = None;
    for _ in 0..=n {
        w.jac.multipliers(Some(&w.free), &w.grad, &mut w.lambda);
        null_space_basis(w);
        projected = reduced_gradient(w);
        projected_free.get_or_insert(projected);
        w.jac.task_step(Some(&w.free), &w.rest, 0.0, &mut w.task);
        w.step.copy_from_slice(&w.task);
        if w.basis_len > 0 {
            null_step(problem, w, q);
        }
        // The box is checked against the step as it will be taken: a stiff cost's part is cut
        // first, or a long Newton step would freeze joints far from their limits, one after
        // another, until no free direction is left and the cost looks stationary.
        cap_cost_part(problem, &mut w.step, &w.task);
        // Clamp-and-freeze the joints that would leave the box; redo with the others.
        let mut clamped = false;
        for i in 0..n {
            if w.free[i] && (q[i] + w.step[i] < lower[i] || q[i] + w.step[i] > upper[i]) {
                w.free[i] = false;
                clamped = true;
                // It moves onto its limit; the task is re-solved for what remains.
                let d = (q[i] + w.step[i]).clamp(lower[i], upper[i]) - q[i];
                w.frozen_moves[i] = d;
                for (rk, ck) in w.rest.iter_mut().zip(w.jac.col(i)) {
                    *rk -= ck * d;
                }
            }
        }
        if !clamped {
            break;
        }
    }
    // The cost part (step − task) was cut where it was computed; the frozen joints' moves join
    // both parts alike.
    for i in 0..n {
        w.task_move[i] = w.task[i] + w.frozen_moves[i];
        w.step[i] += w.frozen_moves[i];
    }
    // A joint this step carries onto its limit still moves: the cost is stationary over the
    // remaining free joints only once it rests there.
    let moved_onto_limit = w.frozen_moves.iter().any(|d| d.abs() > MOVED_ONTO_LIMIT);
    if moved_onto_limit {
        projected_free.map_or(projected, |p| p.max(projected))
    } else {
        projected
    }
}

/// A frozen joint's move (rad) above which it is being carried onto its limit, not resting on it.
const MOVED_ONTO_LIMIT: f64 = 1e-9;

/// A stiff cost's Newton model holds over a short move only: the cost part of `step` (what it
/// adds to the task part `task`) is cut to the length the cost allows.
fn cap_cost_part(problem: &Problem, step: &mut [f64], task: &[f64]) {
    let Some(cap) = problem.cost().max_step() else {
        return;
    };
    let length = (step.iter().zip(task))
        .map(|(s, t)| (s - t).powi(2))
        .sum::<f64>()
        .sqrt();
    if length > cap {
        let scale = cap / length;
        for (s, t) in step.iter_mut().zip(task) {
            *s = t + scale * (*s - t);
        }
    }
}

/// Whether a miss and a limit margin make a converged answer (1e-6 m, 1e-6 rad of orientation,
/// 1e-6 rad of each limit).
fn within_tolerance(miss: Miss, margin: f64) -> bool {
    let tolerance = Tolerance::CLASSICAL;
    miss.distance <= tolerance.residual
        && miss.angle.is_none_or(|a| a <= tolerance.angle)
        && margin >= -tolerance.limits
}

/// How q ranks as an answer to `target` ([`Ranked`]: the order every solver's answers share).
fn ranked(problem: &Problem, target: &[f64], q: &[f64]) -> Ranked {
    let reached = problem.position(q);
    let miss = problem.miss(target, &reached);
    let margin = problem.limits().margin(q);
    Ranked {
        converged: within_tolerance(miss, margin),
        cost: problem.cost().value(q),
        residual: problem.task().error_norm(target, &reached),
        margin,
    }
}

/// Whether q reaches the target to 1e-6 inside the limits (to 1e-6 rad).
fn feasible(problem: &Problem, target: &[f64], q: &[f64]) -> bool {
    within_tolerance(
        problem.miss(target, &problem.position(q)),
        problem.limits().margin(q),
    )
}

/// The better of the start and the polished point, by the order every solver's answers share
/// ([`Ranked::beats`]); the polished point on a tie.
fn never_worse(problem: &Problem, target: &[f64], q0: &[f64], polished: Polished) -> Polished {
    let start = ranked(problem, target, q0);
    if start.beats(&ranked(problem, target, &polished.q)) {
        Polished {
            q: q0.to_vec(),
            residual: start.residual,
            termination: Termination::IterationCap,
            ..polished
        }
    } else {
        polished
    }
}
