//! One learned model of any kind, loaded from its file, and the solver a front end asks of it.
//!
//! [`LearnedModel::from_json`] reads the file's `kind` ([`ModelKind`]) and hands the text to that
//! kind's parser and validation: the one dispatch on a model file's kind. The CLI's `eval`,
//! `bench` and catalog checks and the Python module load through it. [`LearnedModel::solver`]
//! builds the solver its weights define (through the kind's [`Learned`]); [`solver`] builds any
//! solver for a problem, with or without a model. The page decodes its files with the browser's
//! `JSON.parse` and calls the decoded kind's own `solver`, which its [`Learned`] calls (the trait object
//! would cost the playground's download 0.4 kB gzipped).
//!
//! Adding a model kind: its word in [`crate::artifact::kind`]; its file, parser and
//! [`Learned`] implementation in its own module; one arm in [`LearnedModel::from_json`].

use std::fmt::Debug;
use std::sync::Arc;

use crate::artifact::{ArtifactError, ModelKind};
use crate::error::{LoinkError, Result};
use crate::problem::Problem;
use crate::regressor::Regressor;
pub use crate::solvers::learned::Learned;
use crate::solvers::registry::{self, Solver, SolverKind, SolverSettings};
use crate::surrogate::ChartSet;

/// A validated model file of any kind, with the problem it was trained on (clones are cheap:
/// the model is shared).
#[derive(Clone)]
pub struct LearnedModel {
    kind: ModelKind,
    model: Arc<dyn Learned>,
}

/// Its kind and problem (the weights would drown a log; and formatting them would keep every
/// kind's `Debug` in the page's download).
impl Debug for LearnedModel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LearnedModel")
            .field("kind", &self.kind.word())
            .field("problem", &self.problem().name())
            .finish()
    }
}

impl LearnedModel {
    /// Parses and validates a model file of any kind (size cap, kind, then that kind's format,
    /// version and fields). A kind this build leaves out is refused by its kind.
    pub fn from_json(json: &str) -> std::result::Result<Self, ArtifactError> {
        let kind = crate::artifact::model_kind_of(json)?;
        let model: Arc<dyn Learned> = match kind {
            ModelKind::Loink | ModelKind::Charts => Arc::new(ChartSet::from_json(json)?),
            #[cfg(feature = "flow")]
            ModelKind::Flow => Arc::new(crate::flow::Flow::from_json(json)?),
            ModelKind::Mse | ModelKind::Mdn => Arc::new(Regressor::from_json(json)?),
            #[allow(unreachable_patterns)]
            other => return Err(ArtifactError::Kind(other.word().into())),
        };
        Ok(LearnedModel { kind, model })
    }

    /// A model of `kind` already validated.
    pub fn new(kind: ModelKind, model: impl Learned + 'static) -> Self {
        LearnedModel {
            kind,
            model: Arc::new(model),
        }
    }

    /// What the file holds.
    pub fn kind(&self) -> ModelKind {
        self.kind
    }

    /// The problem it was trained on (and its cost).
    pub fn problem(&self) -> &Problem {
        self.model.problem()
    }

    /// The model as its kind's own type (`ChartSet`, `Flow`, `Regressor`), when it is one.
    pub fn downcast<T: 'static>(&self) -> Option<&T> {
        self.model.as_any().downcast_ref()
    }

    /// The LOInK charts, when it is a LOInK model.
    pub fn charts(&self) -> Option<&ChartSet> {
        self.downcast()
    }

    /// The solver its weights define for the kind of solver `settings` ask for: LOInK and
    /// LOInK with refinement of a LOInK model, the flow of a flow, the regression of a
    /// regressor; any other is refused with the reason.
    pub fn solver(&self, settings: &SolverSettings) -> Result<Box<dyn Solver>> {
        self.model.solver(settings)
    }

    /// The solver kind its own answers come from with no refinement.
    pub fn native_solver(&self) -> SolverKind {
        self.model.native_solver()
    }
}

impl From<ChartSet> for LearnedModel {
    fn from(set: ChartSet) -> Self {
        let kind = if set.meta().is_some() {
            ModelKind::Charts
        } else {
            ModelKind::Loink
        };
        LearnedModel::new(kind, set)
    }
}

/// Whether `kind` runs on `problem` with `model` loaded (or none); `Err` says why not.
pub fn applies(kind: SolverKind, problem: &Problem, model: Option<&LearnedModel>) -> Result<()> {
    match model {
        Some(model) if kind.needs_model() => {
            let native = model.native_solver();
            let builds =
                kind == native || (native, kind) == (SolverKind::Loink, SolverKind::LoinkRefine);
            if builds {
                Ok(())
            } else {
                Err(LoinkError::UnsupportedSolver {
                    solver: kind.as_str().into(),
                    reason: format!("a {} model does not build it", model.kind().word()),
                })
            }
        }
        _ => registry::applies(kind, problem),
    }
}

/// Builds the solver `settings` describe for `problem`: a learned kind from `model`'s weights,
/// any other from the problem alone.
pub fn solver(
    problem: &Problem,
    model: Option<&LearnedModel>,
    settings: &SolverSettings,
) -> Result<Box<dyn Solver>> {
    match model {
        Some(model) if settings.kind.needs_model() => model.solver(settings),
        _ => registry::build(problem, settings),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::artifact::{random_model, save_model};

    #[test]
    fn a_loink_file_builds_loink_and_refuses_the_flow() {
        let problem = Problem::preset("planar3").unwrap();
        let json = save_model(&random_model("planar3", 1, &[8], 0.5, 2.0, 7).unwrap());
        let model = LearnedModel::from_json(&json).unwrap();
        assert_eq!(model.kind(), ModelKind::Loink);
        assert_eq!(model.problem().name(), "planar3");
        let mut loink = model
            .solver(&SolverSettings::new(SolverKind::Loink))
            .unwrap();
        assert_eq!(loink.kind(), SolverKind::Loink);
        assert!(!loink.solve(&[1.0, 0.5]).q().is_empty());
        assert!(model
            .solver(&SolverSettings::new(SolverKind::Flow))
            .is_err());
        assert!(applies(SolverKind::Regression, &problem, Some(&model)).is_err());
        assert!(applies(SolverKind::Dls, &problem, Some(&model)).is_ok());
        assert!(applies(SolverKind::Loink, &problem, None).is_err());
    }

    #[test]
    fn an_unknown_kind_is_refused_by_its_word() {
        let err =
            LearnedModel::from_json(r#"{"format": "loink-model", "version": 2, "kind": "gan"}"#)
                .unwrap_err();
        assert!(matches!(err, ArtifactError::Kind(k) if k == "gan"));
    }
}
