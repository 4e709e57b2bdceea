//! The solver that stands in when none can be built.

use loink::report::Solution;
use loink::solvers::registry::Solver;

use crate::settings::SolverKind;

/// The stand-in when no solver can be built for the settings (nothing panics; every answer is
/// `invalid` and the status line carries the reason from `apply`).
#[derive(Clone)]
pub(super) struct Unavailable {
    pub(super) kind: SolverKind,
}

impl Solver for Unavailable {
    fn kind(&self) -> SolverKind {
        self.kind
    }
    fn solve(&mut self, target: &[f64]) -> Solution {
        Solution::invalid(self.kind.as_str(), target, 0.0)
    }
    fn reset(&mut self) {}
    fn boxed_clone(&self) -> Box<dyn Solver> {
        Box::new(self.clone())
    }
}
