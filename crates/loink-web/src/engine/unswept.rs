//! Problems without a swept self-motion set in the page (feature `unswept`): their reference
//! optimum, searched once per target while the page idles, the calls a simulator spent on the
//! last solve, the landscape along the other latent axes and a pose target's pieces.
//! `unswept_off.rs` is this module in a bundle without them: the same calls, nothing found.

use loink::problem::AnswerSweep;
use loink::report::Status;

use super::{Engine, Optimum, CURVE_POINTS};
use crate::learned::LatentCurve;

/// q7 values of a pose target's sweep of its answers (the landscape's pieces).
pub const PIECE_STEPS: usize = 600;

/// The unswept problems' part of the engine's state.
#[derive(Default)]
pub struct Unswept {
    /// The reference search ran for the current target (found an optimum or not).
    reference_done: bool,
    /// Simulator calls of the last solve (a problem whose simulator counts them).
    calls: Option<u64>,
    /// The landscape curves along z₂ and z₃.
    other_curves: Vec<LatentCurve>,
    /// A pose target's answers swept along one joint (the landscape's pieces).
    pieces: Option<AnswerSweep>,
}

impl Engine {
    /// The call counter of the simulator the current solver replays on (the flow's file
    /// carries its own copy of the problem), None for a problem that does not count.
    pub(super) fn calls_now(&self) -> Option<u64> {
        #[cfg(feature = "flow")]
        if let Some(flow) = self.flow().filter(|_| self.settings.solver.is_flow()) {
            return flow.problem().capabilities().simulator.map(|s| s.calls());
        }
        self.problem.capabilities().simulator.map(|s| s.calls())
    }

    /// Records the calls the last solve spent, from the counter read before it.
    pub(super) fn record_calls(&mut self, before: Option<u64>) {
        self.unswept.calls = match (before, self.calls_now()) {
            (Some(a), Some(b)) => Some(b.saturating_sub(a)),
            _ => None,
        };
    }

    /// Simulator calls of the last solve (a problem whose simulator counts them).
    pub fn sim_calls(&self) -> Option<u64> {
        self.unswept.calls
    }

    /// The readouts' count of the last solve's simulator calls.
    pub(super) fn count_calls(&self, readouts: &mut crate::state::Readouts) {
        readouts.sim_calls = self.sim_calls().map(|c| c.to_string());
    }

    /// Forgets the per-target work (a new target or solver).
    pub(super) fn new_target_unswept(&mut self) {
        self.unswept.reference_done = false;
        self.unswept.other_curves.clear();
        self.unswept.pieces = None;
    }

    /// Sweeps a pose target's answers along one joint (the landscape's pieces).
    pub(super) fn sweep_pieces(&mut self, target: &[f64]) {
        self.unswept.pieces = self.problem.answer_sweep(target, PIECE_STEPS);
    }

    /// The landscape's curves along the second latent axis and the third (a latent space of
    /// three or more) for a problem without a swept self-motion set; none for one with it.
    pub(super) fn compute_other_curves(&mut self, half: f64) {
        let model = self.models.get(self.entry.name);
        self.unswept.other_curves = match model {
            Some(model) if !loink::solvers::reference::sweeps(&self.problem) => {
                let k = model.latent_dim();
                (1..k.min(3))
                    .filter_map(|axis| {
                        let label = match (axis, k) {
                            (1, 2) => "latent z₂ (normalised; z₁ = 0)",
                            (1, _) => "latent z₂ (normalised; the other zᵢ = 0)",
                            _ => "latent z₃ (normalised; the other zᵢ = 0)",
                        };
                        model.curve_along(&self.target, axis, label, half, CURVE_POINTS)
                    })
                    .collect()
            }
            _ => Vec::new(),
        };
    }

    /// The landscape curves along the second latent axis and the third, for a problem without
    /// a swept self-motion set (empty otherwise, without a model or while pending).
    pub fn other_curves(&self) -> &[LatentCurve] {
        &self.unswept.other_curves
    }

    /// A pose target's answers swept along one joint (None for other tasks or while pending).
    pub fn pieces(&self) -> Option<&AnswerSweep> {
        self.unswept.pieces.as_ref()
    }

    /// Whether the reference optimum is still to come, for a problem without a planar sweep
    /// (`None`: a problem with one, which the sweep answers).
    pub(super) fn unswept_optimum_pending(&self) -> Option<bool> {
        (!loink::solvers::reference::sweeps(&self.problem)).then(|| {
            self.optimum.is_none()
                && !self.reference_searched()
                && loink::solvers::reference::available(&self.problem)
        })
    }

    /// The reference optimum of a problem without a planar sweep (the soft arm), once per
    /// target while the page idles. Returns whether it ran.
    pub(super) fn idle_reference(&mut self) -> bool {
        if self.unswept.reference_done
            || self.optimum.is_some()
            || loink::solvers::reference::sweeps(&self.problem)
            || !loink::solvers::reference::available(&self.problem)
        {
            return false;
        }
        self.unswept.reference_done = true;
        let best = loink::solvers::reference::solve(&self.problem, &self.target);
        if best.status() == Status::Converged {
            self.optimum = Some(Optimum {
                q: best.q().to_vec(),
                cost: best.cost(),
            });
        }
        true
    }

    /// Whether the idle reference search has run for this target (a problem without a planar
    /// sweep: J* is then known, or known not to exist).
    fn reference_searched(&self) -> bool {
        self.unswept.reference_done
    }
}
