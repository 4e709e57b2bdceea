//! Task feedback: the learned answer read off the learned optimal surface at the target's
//! true forward kinematics, not at the learned task coordinate.
//!
//! The inverse x = G⁻¹([ỹ; z]) lands where the *learned* task G₁(x̃) equals ỹ; the arm reaches
//! f(x), which differs from y by G₁'s fit error (a fraction of a millimetre on the shipped
//! planar3 models, several millimetres in the tail). Feedback aims the inverse at a corrected
//! target y' ← y' + (y − f(x)), starting from y' = y, and inverts again: each round is one
//! more inverse of the same network at the same latent z, with the exact forward kinematics
//! as the only extra information. No Jacobian, no optimiser, no cost evaluation.
//!
//! The answer therefore stays **on the learned solution set at the same z** (for z = 0 the
//! learned optimum surface): feedback finds the point of that set whose true position is y,
//! the intersection the one-shot inverse only approximates. Refinement (Gauss–Newton) instead
//! leaves the learned set along J⁺.
//!
//! A round is kept only when its inverse converged and its replayed residual is lower; the
//! first round that fails either test ends the feedback with the best answer so far (near
//! the limits, where the learned surface folds, a correction can overshoot). Rounds stop
//! early once the residual is at most [`FEEDBACK_TOL`].

use super::{Loink, SolverState};
use crate::nn::InverseReport;

/// Residual (m) below which no further feedback round is run.
pub const FEEDBACK_TOL: f64 = 1e-9;

/// Most feedback rounds [`Loink::with_feedback`] accepts.
pub const MAX_FEEDBACK_ROUNDS: usize = 16;

/// What the feedback rounds did to one answer.
#[derive(Debug, Clone, PartialEq)]
pub struct FeedbackReport {
    /// Inverse iterations spent in the rounds (kept and rejected).
    pub iterations: usize,
    /// Rounds whose answer was kept.
    pub kept: usize,
    /// Whether every kept inverse converged.
    pub converged: bool,
    /// The replayed position of the kept answer (None when no round ran): its judgement needs
    /// no further simulator call.
    pub reached: Option<Vec<f64>>,
}

impl Loink {
    /// Runs up to `rounds` feedback rounds after the first inverse, whose answer is in
    /// `state.x` with report `first`. Leaves the best answer in `state.x`.
    pub(super) fn feedback_into(
        &self,
        state: &mut SolverState,
        y: &[f64],
        z: &[f64],
        first: InverseReport,
        rounds: usize,
    ) -> FeedbackReport {
        let mut report = FeedbackReport {
            iterations: 0,
            kept: 0,
            converged: first.converged(),
            reached: None,
        };
        if rounds == 0 {
            return report; // the one-shot answer: no replay or copy on its hot path
        }
        let problem = self.problem();
        if !problem.replayable() {
            return report; // nothing can measure the true position: no feedback is possible
        }
        let mut best = state.x.clone();
        let mut reached = problem.position(&best);
        let mut residual = problem.task().error_norm(y, &reached);
        let mut aim = y.to_vec();
        for _ in 0..rounds {
            if residual <= FEEDBACK_TOL || residual.is_nan() || !report.converged {
                break;
            }
            for ((a, &yi), &pi) in aim.iter_mut().zip(y).zip(reached.iter()) {
                *a += yi - pi;
            }
            let Ok(inverse) = self.preimage_into(state, &aim, z) else {
                break;
            };
            report.iterations += inverse.iterations;
            let next = problem.position(&state.x);
            let next_residual = problem.task().error_norm(y, &next);
            if !(inverse.converged() && next_residual < residual) {
                break;
            }
            best.clone_from(&state.x);
            reached = next;
            residual = next_residual;
            report.kept += 1;
        }
        state.x = best;
        report.reached = Some(reached);
        report
    }
}
