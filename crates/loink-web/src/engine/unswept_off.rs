//! The unswept problems' place in the engine of a bundle without them (feature `unswept` off):
//! the calls of `unswept.rs`; every problem here is swept, so none of them finds anything.

use loink::problem::AnswerSweep;

use super::Engine;
use crate::learned::LatentCurve;

/// Nothing to keep.
#[derive(Default)]
pub struct Unswept;

impl Unswept {
    /// No simulator counts its calls.
    fn calls(&self) -> Option<u64> {
        None
    }
}

impl Engine {
    /// No simulator counts its calls.
    pub(super) fn calls_now(&self) -> Option<u64> {
        None
    }

    /// Nothing counted.
    pub(super) fn record_calls(&mut self, _before: Option<u64>) {}

    /// Nothing counted.
    pub fn sim_calls(&self) -> Option<u64> {
        self.unswept.calls()
    }

    /// Nothing counted.
    pub(super) fn count_calls(&self, _readouts: &mut crate::state::Readouts) {}

    /// No per-target work.
    pub(super) fn new_target_unswept(&mut self) {}

    /// No pose targets.
    pub(super) fn sweep_pieces(&mut self, _target: &[f64]) {}

    /// No curves beyond the swept landscape's.
    pub(super) fn compute_other_curves(&mut self, _half: f64) {}

    /// No curves beyond the swept landscape's.
    pub fn other_curves(&self) -> &[LatentCurve] {
        &[]
    }

    /// No pose targets.
    pub fn pieces(&self) -> Option<&AnswerSweep> {
        None
    }

    /// The sweep answers.
    pub(super) fn unswept_optimum_pending(&self) -> Option<bool> {
        None
    }

    /// No search to run.
    pub(super) fn idle_reference(&mut self) -> bool {
        false
    }
}
