//! The classical answer where a kind has a closed form along one free joint (the Panda's pose
//! task, along q7): every closed-form answer on a coarse grid of that joint, then a
//! golden-section search along the cheapest pieces. Its answers lie on the target by
//! construction; their cost is the optimum's wherever the grid finds the optimum's piece.
//! It is what one writes instead of learning anything, on an arm that has a closed form, and
//! the benchmarks set it beside LOInK, which stands for arms that have none.

use super::{clock, micros_since};
use crate::error::{LoinkError, Result};
use crate::problem::capability::ClosedFormAnswer;
use crate::problem::Problem;
use crate::report::{Solution, Termination};

/// Solver name in reports.
pub const NAME: &str = "closed-form-search";
/// Values of the free joint on the grid.
pub const GRID: usize = 64;
/// Pieces searched along, cheapest grid minima first.
pub const KEEP: usize = 3;

/// Whether `problem` has a closed form along a free joint (`Err` says why not).
pub fn applies(problem: &Problem) -> Result<()> {
    match problem.capabilities().search {
        Some(search) if search.has_closed_form_search() => Ok(()),
        _ => Err(LoinkError::UnsupportedSolver {
            solver: NAME.into(),
            reason: format!(
                "'{}' has no closed form along a free joint (the Panda's pose task has)",
                problem.name()
            ),
        }),
    }
}

/// The cheapest answer the search finds for `target`, judged by replay: `converged` on the
/// target, or — when no grid value has an answer within the limits — the mid-range judged as
/// the miss it is. A bad target gives an `invalid` solution.
pub fn solve(problem: &Problem, target: &[f64]) -> Solution {
    let start = clock();
    if problem.check_target(target).is_err() {
        return Solution::invalid(NAME, target, micros_since(start));
    }
    let found = problem
        .capabilities()
        .search
        .and_then(|s| s.closed_form_search(problem, target, GRID, KEEP));
    let micros = micros_since(start);
    let Some(ClosedFormAnswer { q, evaluations }) = found else {
        return Solution::invalid(NAME, target, micros);
    };
    let (q, termination) = match q {
        Some(q) => (q, Termination::Converged),
        None => (problem.limits().centres(), Termination::IterationCap),
    };
    Solution::assess(
        problem,
        NAME,
        target,
        None,
        q,
        evaluations,
        micros,
        termination,
    )
}
