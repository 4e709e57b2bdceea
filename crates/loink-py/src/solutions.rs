//! `loink.Solutions`: one judged answer per target row — the joint vector and how good it is,
//! as every solver of the core reports it (residual by forward-map replay, limit margin, cost,
//! status), NumPy arrays of one row per target.

use std::collections::BTreeMap;

use loink::problem::TaskSpace;
use loink::report::{Solution, Status};
use numpy::PyArray1;
use pyo3::prelude::*;

use crate::arrays::{matrix, vector};

/// The answers of one batch, in target order.
///
/// `q` is (N, n) (NaN in the rows of `invalid` targets); `reached` where q puts the tip, in the
/// targets' columns; `status` the status words (`converged`,
/// `approximate`, `capped`, `unreachable`, `limits`, `unverified`, `invalid`: the CLI's, with
/// the same meanings); `residual` the replayed task error (m; NaN where nothing replays);
/// `angle` the orientation or axis error (rad; NaN for a position task); `cost` J(q); `margin`
/// the smallest distance to a joint limit (negative: a limit broken); `micros` each row's own
/// solve time; `iterations`; `chart` the chart that answered (-1 for one-chart models and
/// classical solvers); `note` what a solver adds (why a row is invalid, a restart, …).
#[pyclass(frozen, module = "loink")]
pub struct Solutions {
    answers: Vec<Solution>,
    dof: usize,
    task: TaskSpace,
}

impl Solutions {
    /// The answers of a batch on a problem of `dof` joints whose targets are given in `task`'s
    /// columns.
    pub fn new(answers: Vec<Solution>, dof: usize, task: TaskSpace) -> Self {
        Solutions { answers, dof, task }
    }

    fn column<'py>(
        &self,
        py: Python<'py>,
        f: impl Fn(&Solution) -> f64,
    ) -> Bound<'py, PyArray1<f64>> {
        vector(py, self.answers.iter().map(f).collect())
    }
}

#[pymethods]
impl Solutions {
    /// The joint vectors, (N, n); NaN rows where a target was invalid.
    #[getter]
    fn q<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let mut flat = Vec::with_capacity(self.answers.len() * self.dof);
        for a in &self.answers {
            if a.q().len() == self.dof {
                flat.extend_from_slice(a.q());
            } else {
                flat.extend(std::iter::repeat_n(f64::NAN, self.dof));
            }
        }
        matrix(py, flat, self.answers.len(), self.dof)
    }

    /// Where each answer puts the tip, by forward-map replay, in the targets' columns
    /// (N, len(task_columns)); NaN rows where nothing replays (an invalid target, a problem
    /// known only through data).
    #[getter]
    fn reached<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let width = self.task.columns().len();
        let mut flat = Vec::with_capacity(self.answers.len() * width);
        for a in &self.answers {
            if a.reached().len() == self.task.dim() {
                flat.extend(self.task.to_columns(a.reached()));
            } else {
                flat.extend(std::iter::repeat_n(f64::NAN, width));
            }
        }
        matrix(py, flat, self.answers.len(), width)
    }

    /// The status of each answer.
    #[getter]
    fn status(&self) -> Vec<&'static str> {
        self.answers.iter().map(|a| a.status().as_str()).collect()
    }

    /// The replayed task error of each answer (m, or the task's units).
    #[getter]
    fn residual<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f64>> {
        self.column(py, Solution::residual)
    }

    /// The orientation or axis error (rad); NaN for a task that does not turn the hand.
    #[getter]
    fn angle<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f64>> {
        self.column(py, |a| a.angle().unwrap_or(f64::NAN))
    }

    /// J(q) of each answer.
    #[getter]
    fn cost<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f64>> {
        self.column(py, Solution::cost)
    }

    /// The smallest distance to a joint limit (rad or m; negative where a limit is broken).
    #[getter]
    fn margin<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f64>> {
        self.column(py, Solution::margin)
    }

    /// Each row's solve time (µs), timed alone.
    #[getter]
    fn micros<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f64>> {
        self.column(py, Solution::micros)
    }

    /// The solver's iterations per row.
    #[getter]
    fn iterations(&self) -> Vec<usize> {
        self.answers.iter().map(Solution::iterations).collect()
    }

    /// The chart that answered (multi-chart models), -1 otherwise.
    #[getter]
    fn chart(&self) -> Vec<i64> {
        self.answers
            .iter()
            .map(|a| a.chart().map_or(-1, |k| k as i64))
            .collect()
    }

    /// What the solver says beyond the status (why a row is invalid, …), or None.
    #[getter]
    fn note(&self) -> Vec<Option<String>> {
        self.answers
            .iter()
            .map(|a| a.note().map(str::to_string))
            .collect()
    }

    /// How many answers have each status (every status named, zeros included).
    fn counts(&self) -> BTreeMap<&'static str, usize> {
        let mut counts: BTreeMap<&'static str, usize> =
            Status::ALL.iter().map(|s| (s.as_str(), 0)).collect();
        for a in &self.answers {
            *counts.entry(a.status().as_str()).or_default() += 1;
        }
        counts
    }

    fn __len__(&self) -> usize {
        self.answers.len()
    }

    fn __repr__(&self) -> String {
        let counts: Vec<String> = self
            .counts()
            .into_iter()
            .filter(|(_, n)| *n > 0)
            .map(|(s, n)| format!("{s}: {n}"))
            .collect();
        format!(
            "Solutions({} rows of {} joints; {})",
            self.answers.len(),
            self.dof,
            counts.join(", ")
        )
    }
}
