//! The model files the lessons use, each named by its entry of the page's one catalog
//! (`web/models/catalog.json`): as with the playground, a lesson only ever asks JavaScript to
//! fetch a file the catalog lists, never a name from the URL.

use std::collections::BTreeMap;

use loink::problem::Problem;
use loink::regressor::Regressor;
use loink::report::Solution;
use loink::surrogate::{ChartSet, Loink};
use serde::{Serialize, Serializer};

use crate::catalog;

/// One model a lesson uses: the role the lesson knows it by and its catalog name. JavaScript
/// gets `{role, file}`, the file from the catalog.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ModelFile {
    /// The role name the lesson knows it by.
    pub role: &'static str,
    /// Its name in the catalog.
    pub name: &'static str,
    /// The problem it is for, when not the lesson's (a lesson may set models of two problems
    /// side by side: the Panda with and without a scene).
    pub problem: Option<&'static str>,
}

impl ModelFile {
    /// The file, relative to the site root (empty for a name the catalog lacks: nothing is
    /// fetched, and the lesson says the model is missing).
    pub fn file(&self) -> &'static str {
        catalog::lookup(self.name).map_or("", |entry| entry.file)
    }

    /// The file's kind in the catalog (`loink`, `charts`, `flow`, `mse`, `mdn`).
    pub fn kind(&self) -> &'static str {
        catalog::lookup(self.name).map_or("", |entry| entry.kind)
    }

    /// The problem the file must be for: its own when it names one, else the lesson's.
    pub fn problem<'a>(&self, lesson: &'a str) -> &'a str {
        self.problem.unwrap_or(lesson)
    }
}

impl Serialize for ModelFile {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        struct Fetch {
            role: &'static str,
            file: &'static str,
        }
        Fetch {
            role: self.role,
            file: self.file(),
        }
        .serialize(serializer)
    }
}

const fn model(role: &'static str, name: &'static str) -> ModelFile {
    ModelFile {
        role,
        name,
        problem: None,
    }
}

/// LOInK on planar2's elbow chart q₂ ≥ 0 (latent dimension 0).
pub const PLANAR2: ModelFile = model("loink", "planar2");
/// The MSE baseline on planar2.
pub const PLANAR2_MSE: ModelFile = model("mse", "planar2-mse");
/// The MDN baseline on planar2.
pub const PLANAR2_MDN: ModelFile = model("mdn", "planar2-mdn");
/// planar3 at the default μ.
pub const PLANAR3: ModelFile = model("loink", "planar3");
/// planar3 at the default, smaller μ = 0.05.
pub const PLANAR3_LOW_MU: ModelFile = model("loink-low-mu", "planar3");
/// planar3 at a large μ.
pub const PLANAR3_HIGH_MU: ModelFile = model("loink-high-mu", "planar3-mu0.2");
/// The MDN baseline on planar3.
pub const PLANAR3_MDN: ModelFile = model("mdn", "planar3-mdn");
/// planar4 (two-dimensional latent).
pub const PLANAR4: ModelFile = model("loink", "planar4");

/// The Franka Panda (three-dimensional latent).
pub const PANDA: ModelFile = model("loink", "panda");
/// The direct regression (MSE) on the Panda.
pub const PANDA_MSE: ModelFile = model("mse", "panda-mse");
/// LOInK's charts on the Panda's full pose.
pub const PANDA_POSE: ModelFile = model("loink", "panda-pose");

/// LOInK on the Panda under a shelf, the board in its cost (two charts).
pub const PANDA_SHELF: ModelFile = model("shelf", "panda-shelf");
/// LOInK on the Panda with the joint centring alone (no scene), as the shelf lesson uses it.
pub const PANDA_PLAIN: ModelFile = ModelFile {
    problem: Some("panda"),
    ..model("plain", "panda")
};

/// The climbing robot (two-dimensional latent).
pub const CLIMBER: ModelFile = model("loink", "climber");

/// planar3-wide, one chart (the limitation case).
pub const PLANAR3_WIDE: ModelFile = model("one", "planar3-wide");
/// planar3-wide, eight charts.
pub const PLANAR3_WIDE_CHARTS: ModelFile = model("charts", "planar3-wide-charts");

/// The soft arm's LOInK model (learned from a data file alone).
pub const SOFT4: ModelFile = model("loink", "soft4");
/// The soft arm's flow baseline.
pub const SOFT4_FLOW: ModelFile = model("flow", "soft4-flow");

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
    /// checking that it is for `problem` (the lesson's) or the one the file's entry names.
    /// Changes nothing on error.
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
        let file = entry.file();
        let wanted = entry.problem(problem);
        let checked = |found: &loink::problem::Problem| {
            check_problem(file, &drawn_name(file, found)?, wanted)
        };
        let unreadable = |e: &dyn std::fmt::Display| format!("{file}: {e}");
        // Lessons show LOInK as the playground runs it by default: one inverse and its
        // task-feedback rounds, no refinement.
        let feedback = crate::settings::DEFAULT_FEEDBACK as usize;
        match entry.kind() {
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
        let json = std::fs::read_to_string(root.join(file.file()))
            .unwrap_or_else(|e| panic!("{}: {e}", file.file()));
        loaded
            .load(L::MODELS, file.role, &json, L::PROBLEM)
            .unwrap_or_else(|e| panic!("{e}"));
    }
    loaded
}

impl Loaded {
    /// The LOInK model of `role`, its problem (`preset`'s while the model is missing) and the
    /// reference optimum of `target` when the search converges.
    pub fn loink_with_optimum(
        &self,
        role: &str,
        preset: &str,
        target: &[f64],
    ) -> (Option<&Loink>, Problem, Option<Solution>) {
        let model = self.loink.get(role);
        let problem = model
            .map(|m| m.problem().clone())
            .unwrap_or_else(|| Problem::preset(preset).expect("a lesson's preset"));
        let optimum = Some(loink::solvers::reference::solve(&problem, target))
            .filter(|s| s.status() == loink::report::Status::Converged);
        (model, problem, optimum)
    }
}
