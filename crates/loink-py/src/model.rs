//! `loink.Model`: a trained model file — LOInK (one chart or several), the IKFlow-style flow
//! baseline, or a direct-regression baseline — as `loink eval --model` reads it, and its solver.

use std::path::PathBuf;

use loink::model::LearnedModel;
use loink::solvers::registry::{SolverKind, SolverSettings};
use loink::surrogate::MAX_FEEDBACK_ROUNDS;
use pyo3::prelude::*;

use crate::batch::{check_threads, solve_rows, Refused, Solve};
use crate::errors::{read_model_text, value_error};
use crate::problem::Problem;
use crate::solutions::Solutions;

impl Model {
    /// `refine` and `feedback` are LOInK's: refused for another kind of model.
    fn refuse_loink_settings(&self, refine: usize, feedback: usize) -> PyResult<()> {
        if refine > 0 || feedback > 0 {
            return Err(value_error(format!(
                "refine and feedback apply to a LOInK model; {} is a {} model",
                self.path.display(),
                self.kind()
            )));
        }
        Ok(())
    }
}

/// A trained model and the problem it solves.
#[pyclass(frozen, module = "loink")]
pub struct Model {
    model: LearnedModel,
    path: PathBuf,
}

#[pymethods]
impl Model {
    /// Reads a model file the CLI reads (`loink`, `charts`, `flow`, `mse` or `mdn` kind). A
    /// missing file raises `FileNotFoundError`; an unreadable, truncated or hostile one
    /// `ValueError` with the CLI's message.
    #[staticmethod]
    fn load(path: PathBuf) -> PyResult<Model> {
        let text = read_model_text(&path)?;
        let bad =
            |e: &dyn std::fmt::Display| value_error(format!("model file {}: {e}", path.display()));
        let model = LearnedModel::from_json(&text).map_err(|e| bad(&e))?;
        Ok(Model { model, path })
    }

    /// The model's kind: `loink`, `charts`, `flow`, `mse` or `mdn`.
    #[getter]
    fn kind(&self) -> &str {
        self.model.kind().word()
    }

    /// Charts a LOInK model proposes from (1 for every other kind).
    #[getter]
    fn charts(&self) -> usize {
        self.model.charts().map_or(1, |set| set.len())
    }

    /// The problem the model was trained on.
    #[getter]
    fn problem(&self) -> Problem {
        Problem {
            inner: self.model.problem().clone(),
            notes: Vec::new(),
        }
    }

    /// Solves every target row (`targets` (N, len(problem.task_columns)) or one row), each a
    /// cold solve as `loink eval` makes it: LOInK's inverse, then at most `feedback`
    /// task-feedback rounds and `refine` polish steps (both LOInK only; 0 is the one-shot
    /// inverse). Rows are solved on every core unless `threads` says how many, with the GIL
    /// released; a non-finite row comes back `invalid` and the rest are solved.
    #[pyo3(signature = (targets, refine=0, feedback=0, threads=None))]
    fn solve(
        &self,
        py: Python<'_>,
        targets: &Bound<'_, PyAny>,
        refine: usize,
        feedback: usize,
        threads: Option<usize>,
    ) -> PyResult<Solutions> {
        let threads = check_threads(threads)?;
        if feedback > MAX_FEEDBACK_ROUNDS {
            return Err(value_error(format!(
                "feedback {feedback}: at most {MAX_FEEDBACK_ROUNDS} rounds"
            )));
        }
        let problem = self.problem();
        let rows = problem.target_rows(targets)?;
        let dof = problem.inner.dof();
        let settings = match self.model.native_solver() {
            SolverKind::Loink => SolverSettings {
                refine,
                feedback,
                ..SolverSettings::new(if refine > 0 {
                    SolverKind::LoinkRefine
                } else {
                    SolverKind::Loink
                })
            },
            other => {
                self.refuse_loink_settings(refine, feedback)?;
                SolverSettings::new(other)
            }
        };
        let make = || -> Box<dyn Solve> {
            match self.model.solver(&settings) {
                Ok(solver) => Box::new(solver),
                Err(e) => Box::new(Refused(e.to_string())),
            }
        };
        let label = match self.model.native_solver() {
            SolverKind::Regression => self.model.kind().word(),
            _ => settings.kind.as_str(),
        };
        let answers = solve_rows(py, &rows, threads, label, &make)?;
        Ok(Solutions::new(answers, dof, problem.inner.task().clone()))
    }

    fn __repr__(&self) -> String {
        let problem = self.problem();
        format!(
            "Model('{}': {} for '{}', {} chart{})",
            self.path.display(),
            self.kind(),
            problem.inner.name(),
            self.charts(),
            if self.charts() == 1 { "" } else { "s" }
        )
    }
}
