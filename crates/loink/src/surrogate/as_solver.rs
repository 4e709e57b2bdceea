//! LOInK (and LOInK + refine) as a registry [`Solver`]: the model's inverse (every chart's, the
//! cheapest feasible winning), warm-started or cold.

use std::any::Any;

use super::{ChartSet, SolverState};
use crate::error::{LoinkError, Result};
use crate::problem::Problem;
use crate::report::Solution;
use crate::solvers::learned::Learned;
use crate::solvers::registry::{Solver, SolverKind, SolverSettings, Start};

impl Learned for ChartSet {
    fn problem(&self) -> &Problem {
        ChartSet::problem(self)
    }
    fn solver(&self, settings: &SolverSettings) -> Result<Box<dyn Solver>> {
        ChartSet::solver(self, settings)
    }
    fn native_solver(&self) -> SolverKind {
        SolverKind::Loink
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

impl ChartSet {
    /// The solver `settings` ask for: LOInK, or LOInK + `settings.refine` polish steps, with
    /// `settings.feedback` task-feedback rounds; any other kind is refused.
    pub fn solver(&self, settings: &SolverSettings) -> Result<Box<dyn Solver>> {
        let refine = match settings.kind {
            SolverKind::Loink => 0,
            SolverKind::LoinkRefine => settings.refine,
            other => {
                return Err(LoinkError::UnsupportedSolver {
                    solver: other.as_str().into(),
                    reason: "a LOInK model builds LOInK and LOInK + refinement".into(),
                })
            }
        };
        let loink = self
            .clone()
            .with_refinement(refine)
            .with_feedback(settings.feedback);
        let states = loink.new_states();
        Ok(Box::new(LoinkSolver {
            kind: settings.kind,
            loink,
            states,
            warm: settings.start == Start::Warm,
        }))
    }
}

/// The learned solver: the chart set and each chart's carried state.
#[derive(Clone)]
struct LoinkSolver {
    kind: SolverKind,
    loink: ChartSet,
    states: Vec<SolverState>,
    warm: bool,
}

impl Solver for LoinkSolver {
    fn kind(&self) -> SolverKind {
        self.kind
    }
    fn solve(&mut self, target: &[f64]) -> Solution {
        if !self.warm {
            self.reset();
        }
        self.loink.solve(&mut self.states, target)
    }
    fn reset(&mut self) {
        self.states.iter_mut().for_each(SolverState::reset);
    }
    fn boxed_clone(&self) -> Box<dyn Solver> {
        Box::new(self.clone())
    }
}
