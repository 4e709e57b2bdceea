//! A multi-chart model file (model kind `charts`): K LOInK networks, each trained on one region
//! of the joint box, in one file.
//!
//! G is a bijection, so each LOInK network's learned solution set of a target is one connected
//! sheet; where the joint limits cut the true set into pieces, one chart cannot cover it. A
//! charts file holds K networks Gₖ, chart k trained on configurations drawn from its `region`
//! (a sub-box of the limits, e.g. one sign pattern of the elbow joints), so that inside a region
//! the solution sets are (nearly always) connected. Every chart is a complete `loink` model
//! file for the **whole** problem (same problem spec, same cost): its answers are replayed and
//! judged against the real limits, and its polish runs inside them. The region records where
//! the chart's training data came from (the page and `loink connectivity` read it).
//!
//! ```json
//! {"format": "loink-model", "version": 2, "kind": "charts", "about": {…},
//!  "problem": {…}, "cost": {…},
//!  "charts": [{"region": {"lower": […], "upper": […]}, "model": {<a loink model file>}}, …],
//!  "metrics": {…}, "data_seed": 1, "git_revision": "…"}
//! ```

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::error::ArtifactError;
use super::kind::KIND_CHARTS;
use super::schema::{About, ModelFile};
use super::validate::{validate, ValidatedModel};
use crate::cost::CostSpec;
use crate::problem::{JointLimits, Problem, ProblemSpec};

/// Most charts one file may hold.
pub const MAX_CHARTS: usize = 16;

/// A charts file as stored.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ChartsFile {
    /// Always `loink-model`.
    pub format: String,
    /// The format version (2).
    pub version: u32,
    /// Always [`KIND_CHARTS`].
    pub kind: String,
    /// The card (name, description, command).
    #[serde(default)]
    pub about: About,
    /// The problem every chart solves.
    pub problem: ProblemSpec,
    /// The cost every chart minimises.
    pub cost: CostSpec,
    /// The charts, in index order (the `chart` column of `loink eval` counts from 0).
    pub charts: Vec<ChartEntry>,
    /// Figures of the whole set (training time, the closing check), by name.
    pub metrics: BTreeMap<String, f64>,
    /// Seed of the training run.
    pub data_seed: u64,
    /// `git describe` of the tree that trained it.
    pub git_revision: String,
}

/// One chart: the region its training data came from and its LOInK model.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ChartEntry {
    /// The sub-box of the joint limits the chart was trained on.
    pub region: RegionBox,
    /// The chart's model (kind `loink`, the file's problem and cost).
    pub model: ModelFile,
}

/// A box of joint space: lower and upper bound per joint.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RegionBox {
    /// Lower bounds (rad).
    pub lower: Vec<f64>,
    /// Upper bounds (rad).
    pub upper: Vec<f64>,
}

/// A charts file that passed every check: each chart a validated model.
#[derive(Debug, Clone, PartialEq)]
pub struct ValidatedCharts {
    file_meta: ChartsFile,
    charts: Vec<ValidatedModel>,
    regions: Vec<JointLimits>,
    problem: Problem,
}

impl ValidatedCharts {
    /// The file's own fields (its `charts` list emptied: the models live in [`Self::charts`]).
    pub fn meta(&self) -> &ChartsFile {
        &self.file_meta
    }
    /// The validated charts, in index order.
    pub fn charts(&self) -> &[ValidatedModel] {
        &self.charts
    }
    /// Each chart's region.
    pub fn regions(&self) -> &[JointLimits] {
        &self.regions
    }
    /// The file's problem: the targets the set answers, in its task's coordinates (a chart may
    /// narrow it to part of the task, or state orientations about another reference).
    pub fn problem(&self) -> &Problem {
        &self.problem
    }
}

fn inconsistent(path: String, detail: impl Into<String>) -> ArtifactError {
    ArtifactError::Inconsistent {
        path,
        detail: detail.into(),
    }
}

/// Validates every chart (as a model file of its own), that each names the file's problem (or
/// a narrowing of it: a part of its domain, another orientation chart) and cost, and that each region is a non-empty box inside the joint limits.
pub fn validate_charts(mut file: ChartsFile) -> Result<ValidatedCharts, ArtifactError> {
    if file.kind != KIND_CHARTS {
        return Err(ArtifactError::Kind(file.kind.clone()));
    }
    if file.charts.is_empty() || file.charts.len() > MAX_CHARTS {
        return Err(ArtifactError::OutOfRange {
            path: "charts".into(),
            detail: format!("{} charts (need 1..={MAX_CHARTS})", file.charts.len()),
        });
    }
    super::validate::finite_metrics(&file.metrics)?;
    let problem = super::validate::problem_of(&file.problem, &file.cost)?;
    let entries = std::mem::take(&mut file.charts);
    let mut charts = Vec::with_capacity(entries.len());
    let mut regions = Vec::with_capacity(entries.len());
    for (k, entry) in entries.into_iter().enumerate() {
        let path = format!("charts[{k}]");
        if !entry.model.problem.within(&file.problem) {
            return Err(inconsistent(
                format!("{path}.model.problem"),
                "differs from the file's problem",
            ));
        }
        if entry.model.cost != file.cost {
            return Err(inconsistent(
                format!("{path}.model.cost"),
                "differs from the file's cost",
            ));
        }
        let model = validate(entry.model).map_err(|e| match e {
            ArtifactError::Inconsistent { path: p, detail } => {
                inconsistent(format!("{path}.model.{p}"), detail)
            }
            other => inconsistent(format!("{path}.model"), other.to_string()),
        })?;
        let limits = model.problem().limits();
        let region = JointLimits::new(entry.region.lower, entry.region.upper)
            .map_err(|e| inconsistent(format!("{path}.region"), e.to_string()))?;
        if region.len() != limits.len() {
            return Err(inconsistent(
                format!("{path}.region"),
                format!("{} joints, the problem has {}", region.len(), limits.len()),
            ));
        }
        let slack = 1e-9;
        for i in 0..region.len() {
            if region.lower()[i] < limits.lower()[i] - slack
                || region.upper()[i] > limits.upper()[i] + slack
            {
                return Err(inconsistent(
                    format!("{path}.region"),
                    format!("joint {} leaves the joint limits", i + 1),
                ));
            }
        }
        charts.push(model);
        regions.push(region);
    }
    Ok(ValidatedCharts {
        file_meta: file,
        charts,
        regions,
        problem,
    })
}

/// Builds a charts file of `problem` from trained charts (each a `loink` model file of the
/// problem or a narrowing of it, of one cost) and their regions; the card and metrics are the
/// set's own.
pub fn charts_file(
    about: About,
    problem: ProblemSpec,
    entries: Vec<ChartEntry>,
    metrics: BTreeMap<String, f64>,
) -> Option<ChartsFile> {
    let first = entries.first()?.model.clone();
    Some(ChartsFile {
        format: super::schema::FORMAT_NAME.into(),
        version: super::schema::FORMAT_VERSION,
        kind: KIND_CHARTS.into(),
        about,
        problem,
        cost: first.cost,
        charts: entries,
        metrics,
        data_seed: first.data_seed,
        git_revision: first.git_revision,
    })
}
