//! What every kind of learned model does, whatever its weights: name the problem it was
//! trained on and build the solvers its weights define. LOInK's chart set, the flow and the
//! regressors implement it in their own modules; [`crate::model::LearnedModel`] holds any of
//! them.

use std::any::Any;

use super::registry::{Solver, SolverKind, SolverSettings};
use crate::error::Result;
use crate::problem::Problem;

/// What every kind of learned model does: name its problem and build its solvers. Each kind
/// implements it in its own module (LOInK's chart set, the flow, the regressors).
pub trait Learned: Send + Sync {
    /// The problem it was trained on (and its cost).
    fn problem(&self) -> &Problem;
    /// The solver its weights define for the kind `settings` ask for; any other kind is refused
    /// with the reason.
    fn solver(&self, settings: &SolverSettings) -> Result<Box<dyn Solver>>;
    /// The solver kind its own answers come from with no refinement (LOInK's inverse, the
    /// flow's sample, the regressor's output).
    fn native_solver(&self) -> SolverKind;
    /// Itself, for a front end that needs the kind's own interface.
    fn as_any(&self) -> &dyn Any;
}
