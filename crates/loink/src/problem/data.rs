//! `data`: a problem known only through a data file of (x, y, J) rows — the model-free case with
//! no simulator at hand. Its joint box is the data's, its task dimension the file's; nothing can
//! replay an answer, so every answer is `unverified` (the learned task prediction is all there
//! is). A model trained with `loink train --data D.csv` and no `--problem` names this kind.

use std::any::Any;

use super::{Basics, JointLimits, Kinematics, ProblemSpec, Profile, TaskSpace};
use crate::error::{LoinkError, Result};

/// The kind's tag.
pub const KIND: &str = "data";

/// Problems known only through data in the registry (no presets: a data file names its own).
pub const REGISTRY_ENTRY: super::entry::KindEntry = super::entry::KindEntry {
    kind: KIND,
    presets: &[],
    build: |spec, limits| {
        Ok(std::sync::Arc::new(DataProblem::new(
            &spec.name,
            limits,
            spec.task_dim,
        )?))
    },
    preset: |name| {
        Err(LoinkError::UnknownRobot {
            name: name.into(),
            known: String::new(),
        })
    },
};

/// A problem with a joint box and a task dimension but no forward map.
#[derive(Debug, Clone, PartialEq)]
pub struct DataProblem {
    basics: Basics,
}

impl DataProblem {
    /// A data-only problem: `task_dim` in 1..=n.
    pub fn new(name: &str, limits: JointLimits, task_dim: usize) -> Result<Self> {
        if task_dim == 0 || task_dim > limits.len() {
            return Err(LoinkError::OutOfRange {
                what: "data problem task dimension".into(),
                detail: format!(
                    "{task_dim} (need 1..={} for {} joints)",
                    limits.len(),
                    limits.len()
                ),
            });
        }
        // Nothing is known of the task's scale (no test reads it for a problem that cannot
        // replay), and no forward map finds a target: a view opens at the origin.
        let profile = Profile {
            replayable: false,
            analytic_jacobian: false,
            default_target: Some(vec![0.0; task_dim]),
            ..Profile::new(
                format!(
                    "known from data only: {} joints, {task_dim}-D task",
                    limits.len()
                ),
                1.0,
            )
        };
        Ok(DataProblem {
            basics: Basics {
                kind: KIND,
                name: name.to_string(),
                limits,
                task: TaskSpace::points(task_dim),
                profile,
            },
        })
    }
}

impl Kinematics for DataProblem {
    fn basics(&self) -> &Basics {
        &self.basics
    }
    fn spec(&self) -> ProblemSpec {
        ProblemSpec {
            task_dim: self.basics.task.dim(),
            ..ProblemSpec::with_box(KIND, &self.basics.name, &self.basics.limits)
        }
    }
    fn forward_into(&self, _q: &[f64], y: &mut [f64]) {
        // No forward map: callers check `replayable` first; anything else reads NaN.
        y.fill(f64::NAN);
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}
