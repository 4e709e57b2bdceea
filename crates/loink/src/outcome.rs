//! How a solver's run ended (its own word, before replay) and the tolerances every solver's
//! answer is judged by: a leaf, so that problems (their reachability witness) and solvers share
//! them without importing the report. [`crate::report`] re-exports both.

/// What the solver itself says about why it stopped (before replay is checked).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Termination {
    /// Its stopping test was met.
    Converged,
    /// It ran out of iterations (or stopped making progress).
    IterationCap,
    /// It proved (or detected) the target unreachable.
    Unreachable,
    /// A learned estimate: the network's inverse converged, but nothing claims exactness.
    Approximate,
}

/// Tolerances used to judge a solution.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Tolerance {
    /// Largest task residual ‖f(q) − y‖ that counts as reaching the target.
    pub residual: f64,
    /// Largest joint-limit violation (rad) that still counts as within limits.
    pub limits: f64,
    /// Largest orientation or axis error (rad) that counts as reaching the target, for a task
    /// that turns the hand.
    pub angle: f64,
}

impl Tolerance {
    /// Every solver's tolerances: 1e-6 in the task's units, 1e-6 rad of each limit and 1e-6 rad
    /// of orientation ("feasible").
    pub const CLASSICAL: Tolerance = Tolerance {
        residual: 1e-6,
        limits: 1e-6,
        angle: 1e-6,
    };
}
