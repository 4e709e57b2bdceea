//! The fixed list of model files the lessons use. As with the playground's catalog, a lesson
//! only ever asks JavaScript to fetch a file from this list, never a name from the URL.

use std::collections::BTreeMap;

use loink::regressor::Regressor;
use loink::surrogate::{ChartSet, Loink};
use serde::Serialize;

/// One model a lesson uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct ModelFile {
    /// The role name the lesson knows it by.
    pub role: &'static str,
    /// The file, relative to the site root.
    pub file: &'static str,
    /// `loink`, `charts`, `flow` or `regressor`.
    pub format: &'static str,
}

const fn loink(role: &'static str, file: &'static str) -> ModelFile {
    ModelFile {
        role,
        file,
        format: "loink",
    }
}

const fn regressor(role: &'static str, file: &'static str) -> ModelFile {
    ModelFile {
        role,
        file,
        format: "regressor",
    }
}

/// LOInK on planar2's elbow chart q₂ ≥ 0 (latent dimension 0).
pub const PLANAR2: ModelFile = loink("loink", "web/models/planar2.json");
/// The MSE baseline on planar2.
pub const PLANAR2_MSE: ModelFile = regressor("mse", "web/models/planar2-mse.json");
/// The MDN baseline on planar2.
pub const PLANAR2_MDN: ModelFile = regressor("mdn", "web/models/planar2-mdn.json");
/// planar3 at the default μ.
pub const PLANAR3: ModelFile = loink("loink", "web/models/planar3.json");
/// planar3 at the default, smaller μ = 0.05 (the shipped default model, scripts/train-models.sh).
pub const PLANAR3_LOW_MU: ModelFile = loink("loink-low-mu", "web/models/planar3.json");
/// planar3 at a large μ.
pub const PLANAR3_HIGH_MU: ModelFile = loink("loink-high-mu", "web/models/planar3-mu0.2.json");
/// The MDN baseline on planar3.
pub const PLANAR3_MDN: ModelFile = regressor("mdn", "web/models/planar3-mdn.json");
/// planar4 (two-dimensional latent).
pub const PLANAR4: ModelFile = loink("loink", "web/models/planar4.json");

/// The Franka Panda (three-dimensional latent).
pub const PANDA: ModelFile = loink("loink", "web/models/panda.json");
/// The direct regression (MSE) on the Panda.
pub const PANDA_MSE: ModelFile = regressor("mse", "web/models/panda-mse.json");

/// The climbing robot (two-dimensional latent).
pub const CLIMBER: ModelFile = loink("loink", "web/models/climber.json");

/// planar3-wide, one chart (the limitation case).
pub const PLANAR3_WIDE: ModelFile = loink("one", "web/models/planar3-wide.json");
/// planar3-wide, eight charts.
pub const PLANAR3_WIDE_CHARTS: ModelFile = ModelFile {
    role: "charts",
    file: "web/models/planar3-wide-charts.json",
    format: "charts",
};

/// The soft arm's LOInK model (learned from a data file alone).
pub const SOFT4: ModelFile = loink("loink", "web/models/soft4.json");
/// The soft arm's flow baseline.
pub const SOFT4_FLOW: ModelFile = ModelFile {
    role: "flow",
    file: "web/models/soft4-flow.json",
    format: "flow",
};

/// The models a lesson has loaded, by role.
#[derive(Default)]
pub struct Loaded {
    /// LOInK models.
    pub loink: BTreeMap<&'static str, Loink>,
    /// Multi-chart LOInK models.
    pub charts: BTreeMap<&'static str, ChartSet>,
    /// Regression baselines.
    pub regressors: BTreeMap<&'static str, Regressor>,
    /// Flow baselines.
    pub flows: BTreeMap<&'static str, loink::flow::Flow>,
    /// Why a file could not be used, by role.
    pub missing: BTreeMap<&'static str, String>,
}

impl Loaded {
    /// Parses and validates the file of `role` (which must be one of the lesson's `files`),
    /// checking that it is for `problem`. Changes nothing on error.
    pub fn load(
        &mut self,
        files: &[ModelFile],
        role: &str,
        json: &str,
        problem: &str,
    ) -> Result<(), String> {
        let entry = *files
            .iter()
            .find(|f| f.role == role)
            .ok_or_else(|| format!("the lesson uses no model '{role}'"))?;
        let checked = |found: &loink::problem::Problem| {
            check_problem(entry.file, &drawn_name(entry.file, found)?, problem)
        };
        let unreadable = |e: &dyn std::fmt::Display| format!("{}: {e}", entry.file);
        // Lessons show LOInK as the playground runs it by default: one inverse and its
        // task-feedback rounds, no refinement.
        let feedback = crate::settings::DEFAULT_FEEDBACK as usize;
        match entry.format {
            "loink" => {
                let model = Loink::from_json(json)
                    .map_err(|e| unreadable(&e))?
                    .with_feedback(feedback);
                checked(model.problem())?;
                self.loink.insert(entry.role, model);
            }
            "flow" => {
                let model = loink::flow::Flow::from_json(json).map_err(|e| unreadable(&e))?;
                checked(model.problem())?;
                self.flows.insert(entry.role, model);
            }
            "charts" => {
                let model = ChartSet::from_json(json)
                    .map_err(|e| unreadable(&e))?
                    .with_feedback(feedback);
                checked(model.problem())?;
                self.charts.insert(entry.role, model);
            }
            _ => {
                let model = Regressor::from_json(json).map_err(|e| unreadable(&e))?;
                checked(model.problem())?;
                self.regressors.insert(entry.role, model);
            }
        }
        self.missing.remove(entry.role);
        Ok(())
    }

    /// Records that `role` could not be fetched or loaded.
    pub fn mark_missing(&mut self, files: &[ModelFile], role: &str, why: &str) {
        if let Some(entry) = files.iter().find(|f| f.role == role) {
            self.missing
                .insert(entry.role, why.chars().take(300).collect());
        }
    }
}

/// The name of a lesson model's problem: one whose kind draws its configurations, in a plane
/// or in 3-D (the lessons draw those).
fn drawn_name(file: &str, problem: &loink::problem::Problem) -> Result<String, String> {
    if problem.capabilities().view.is_some() {
        Ok(problem.name().to_string())
    } else {
        Err(format!("{file} is not for a problem a lesson draws"))
    }
}

fn check_problem(file: &str, found: &str, wanted: &str) -> Result<(), String> {
    if found == wanted {
        Ok(())
    } else {
        Err(format!("{file} is for {found}, not {wanted}"))
    }
}

/// The shipped model files of lesson `L`, read from web/models/ and loaded as the page loads
/// them (tests).
#[cfg(test)]
pub fn shipped<L: super::lesson::Lesson>() -> Loaded {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut loaded = Loaded::default();
    for file in L::MODELS {
        let json = std::fs::read_to_string(root.join(file.file))
            .unwrap_or_else(|e| panic!("{}: {e}", file.file));
        loaded
            .load(L::MODELS, file.role, &json, L::PROBLEM)
            .unwrap_or_else(|e| panic!("{e}"));
    }
    loaded
}
