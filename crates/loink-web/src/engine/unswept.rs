//! Problems without a swept self-motion set in the page (feature `unswept`): their reference
//! optimum, searched once per target while the page idles, and the calls a simulator spent on
//! the last solve.

use loink::report::Status;

use super::{Engine, Optimum};

/// The unswept problems' part of the engine's state.
#[derive(Default)]
pub struct Unswept {
    /// The reference search ran for the current target (found an optimum or not).
    reference_done: bool,
    /// Simulator calls of the last solve (a problem whose simulator counts them).
    calls: Option<u64>,
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

    /// Forgets the per-target work (a new target or solver).
    pub(super) fn new_target_unswept(&mut self) {
        self.unswept.reference_done = false;
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
    pub(super) fn reference_searched(&self) -> bool {
        self.unswept.reference_done
    }
}
