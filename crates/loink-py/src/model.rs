//! `loink.Model`: a trained model file — LOInK (one chart or several), the IKFlow-style flow
//! baseline, or a direct-regression baseline — as `loink eval --model` reads it, and its solver.

use std::path::PathBuf;

use loink::artifact::FileHeader;
use loink::flow::{Flow, KIND_FLOW};
use loink::regressor::Regressor;
use loink::report::Solution;
use loink::solvers::registry::{self, SolverKind, SolverSettings};
use loink::surrogate::{ChartSet, MAX_FEEDBACK_ROUNDS};
use pyo3::prelude::*;

use crate::batch::{check_threads, solve_rows, Refused, Solve};
use crate::errors::{read_model_text, value_error};
use crate::problem::Problem;
use crate::solutions::Solutions;

/// What a model file holds.
enum Learner {
    /// LOInK: x* = G⁻¹([y; 0]) per chart, the cheapest feasible chart's answer kept.
    Charts(ChartSet),
    /// The flow baseline (its z = 0 sample).
    Flow(Flow),
    /// A direct-regression baseline (`mse`, `mdn`).
    Regressor(Regressor),
}

impl Solve for Regressor {
    fn solve(&mut self, target: &[f64]) -> Solution {
        Regressor::solve(self, target)
    }
}

impl Model {
    /// `refine` and `feedback` are LOInK's: refused for another kind of model.
    fn refuse_loink_settings(&self, refine: usize, feedback: usize) -> PyResult<()> {
        if refine > 0 || feedback > 0 {
            return Err(value_error(format!(
                "refine and feedback apply to a LOInK model; {} is a {} model",
                self.path.display(),
                self.kind
            )));
        }
        Ok(())
    }
}

/// A trained model and the problem it solves.
#[pyclass(frozen, module = "loink")]
pub struct Model {
    learner: Learner,
    kind: String,
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
        let header: FileHeader = serde_json::from_str(&text).map_err(|e| bad(&e))?;
        let kind = header.kind.unwrap_or_else(|| "loink".into());
        let learner = match kind.as_str() {
            KIND_FLOW => Learner::Flow(Flow::from_json(&text).map_err(|e| bad(&e))?),
            "mse" | "mdn" => Learner::Regressor(Regressor::from_json(&text).map_err(|e| bad(&e))?),
            _ => Learner::Charts(ChartSet::from_json(&text).map_err(|e| bad(&e))?),
        };
        Ok(Model {
            learner,
            kind,
            path,
        })
    }

    /// The model's kind: `loink`, `charts`, `flow`, `mse` or `mdn`.
    #[getter]
    fn kind(&self) -> &str {
        &self.kind
    }

    /// Charts a LOInK model proposes from (1 for every other kind).
    #[getter]
    fn charts(&self) -> usize {
        match &self.learner {
            Learner::Charts(set) => set.len(),
            _ => 1,
        }
    }

    /// The problem the model was trained on.
    #[getter]
    fn problem(&self) -> Problem {
        let inner = match &self.learner {
            Learner::Charts(set) => set.problem().clone(),
            Learner::Flow(flow) => flow.problem().clone(),
            Learner::Regressor(r) => r.problem().clone(),
        };
        Problem {
            inner,
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
        let answers = match &self.learner {
            Learner::Charts(set) => {
                let kind = if refine > 0 {
                    SolverKind::LoinkRefine
                } else {
                    SolverKind::Loink
                };
                let settings = SolverSettings {
                    refine,
                    feedback,
                    ..SolverSettings::new(kind)
                };
                let make = || -> Box<dyn Solve> {
                    match registry::build(set.problem(), Some(set), &settings) {
                        Ok(solver) => Box::new(solver),
                        Err(e) => Box::new(Refused(e.to_string())),
                    }
                };
                solve_rows(py, &rows, threads, kind.as_str(), &make)?
            }
            Learner::Flow(flow) => {
                self.refuse_loink_settings(refine, feedback)?;
                let settings = SolverSettings::new(SolverKind::Flow);
                let make = || -> Box<dyn Solve> {
                    match registry::build_flow(flow, &settings) {
                        Ok(solver) => Box::new(solver),
                        Err(e) => Box::new(Refused(e.to_string())),
                    }
                };
                solve_rows(py, &rows, threads, "flow", &make)?
            }
            Learner::Regressor(r) => {
                self.refuse_loink_settings(refine, feedback)?;
                let make = || -> Box<dyn Solve> { Box::new(r.clone()) };
                solve_rows(py, &rows, threads, r.kind().as_str(), &make)?
            }
        };
        Ok(Solutions::new(answers, dof, problem.inner.task().clone()))
    }

    fn __repr__(&self) -> String {
        let problem = self.problem();
        format!(
            "Model('{}': {} for '{}', {} chart{})",
            self.path.display(),
            self.kind,
            problem.inner.name(),
            self.charts(),
            if self.charts() == 1 { "" } else { "s" }
        )
    }
}
