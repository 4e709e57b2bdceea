//! Solving a batch of target rows: each row a cold solve (the `loink eval` rule), so rows are
//! independent and are solved on every core (or on `threads` of them) with the GIL released.
//! Every thread builds its own solver from a [`MakeSolver`]; the answers come back in row
//! order, each timed alone.

use std::time::Instant;

use loink::problem::TaskSpace;
use loink::report::Solution;
use pyo3::prelude::*;
use rayon::prelude::*;

use crate::errors::value_error;

/// One solver, as the batch calls it.
pub trait Solve {
    /// Solves one target (task coordinates).
    fn solve(&mut self, target: &[f64]) -> Solution;
}

impl Solve for Box<dyn loink::solvers::registry::Solver> {
    fn solve(&mut self, target: &[f64]) -> Solution {
        self.as_mut().solve(target)
    }
}

/// A solver that could not be built: every row `invalid`, with the reason (the solver's
/// applicability is checked before a batch starts, so this answers only what that check let by).
pub struct Refused(pub String);

impl Solve for Refused {
    fn solve(&mut self, target: &[f64]) -> Solution {
        Solution::invalid("refused", target, 0.0).with_note(self.0.clone())
    }
}

/// Builds a fresh solver for one thread.
pub type MakeSolver<'a> = dyn Fn() -> Box<dyn Solve> + Sync + 'a;

/// A target row read through the task's columns: the target, or why it is none.
pub enum Row {
    /// Task coordinates.
    Target(Vec<f64>),
    /// A row that is no target (a non-finite number, a quaternion or direction that cannot be
    /// normalised): answered `invalid` with this reason.
    Invalid(String),
}

/// Reads one row of the task's columns as a targets file's row is read: every number finite,
/// then the task's reading (a quaternion or direction normalised within 10 %).
pub fn read_row(task: &TaskSpace, columns: &[f64]) -> Row {
    if let Some(k) = columns.iter().position(|v| !v.is_finite()) {
        return Row::Invalid(format!(
            "field {} is not a finite number ({})",
            k + 1,
            columns[k]
        ));
    }
    match task.from_columns(columns) {
        Ok(target) => Row::Target(target),
        Err(e) => Row::Invalid(e.to_string()),
    }
}

/// How many threads solve a batch: `None` every core, else `Some(k)` with k ≥ 1.
pub fn check_threads(threads: Option<usize>) -> PyResult<Option<usize>> {
    match threads {
        Some(0) => Err(value_error("threads must be at least 1 (None: every core)")),
        t => Ok(t),
    }
}

/// Solves every row, in parallel unless `threads` is 1, with the GIL released; the answers in
/// row order, each with the microseconds its own solve took. `label` names the solver of an
/// invalid row's answer.
pub fn solve_rows(
    py: Python<'_>,
    rows: &[Row],
    threads: Option<usize>,
    label: &str,
    make: &MakeSolver<'_>,
) -> PyResult<Vec<Solution>> {
    let one = |solver: &mut Box<dyn Solve>, row: &Row| match row {
        Row::Target(y) => {
            let start = Instant::now();
            let answer = solver.solve(y);
            answer.with_micros(start.elapsed().as_secs_f64() * 1e6)
        }
        Row::Invalid(reason) => Solution::invalid(label, &[], 0.0).with_note(reason.clone()),
    };
    py.detach(|| match threads {
        Some(1) => {
            let mut solver = make();
            Ok(rows.iter().map(|row| one(&mut solver, row)).collect())
        }
        Some(k) => {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(k)
                .build()
                .map_err(|e| value_error(format!("cannot start {k} threads: {e}")))?;
            Ok(pool.install(|| rows.par_iter().map_init(make, one).collect()))
        }
        None => Ok(rows.par_iter().map_init(make, one).collect()),
    })
}
