//! Direct-regression baselines for the averaging-trap lesson: a network that maps
//! a target y straight to joint angles, trained either with squared error (`mse`: one answer,
//! q̂(y) ≈ E[q | y], the average of both elbow branches) or as a mixture density network
//! (`mdn`: K Gaussian components q ~ Σ_k π_k(y) N(μ_k(y), diag σ_k(y)²), which can say
//! "one of these" instead of splitting the difference).
//!
//! File format `loink-regressor` (version [`REGRESSOR_VERSION`]), JSON like the LOInK artifact:
//! the MLP ([`MlpWeights`], tanh hidden layers, linear output) acts on ỹ = (y − y_shift) ⊘
//! y_scale and returns normalised joints x̃ with x = x̃ ⊙ x_scale + x_shift. Output layout:
//! `mse` → n values (x̃); `mdn` → K logits, then K·n means (component-major), then K·n
//! log-standard-deviations (normalised units).
//!
//! Every answer is a [`Solution`] judged by forward-kinematics replay like the unrefined LOInK
//! answer: a learned estimate, `approximate` with its residual when it misses.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::artifact::validate::{matrix, vector};
use crate::artifact::{problem_of, ArtifactError, MlpWeights, MAX_MODEL_BYTES};
use crate::cost::CostSpec;
use crate::nn::{Dense, Mlp};
use crate::problem::Problem;
use crate::problem::ProblemSpec;
use crate::report::{Solution, Termination};
use crate::solvers::registry::{Solver, SolverKind, SolverSettings};
use crate::solvers::{clock, micros_since};

/// The `format` field of a regressor file.
pub const REGRESSOR_FORMAT: &str = "loink-regressor";
/// The version this crate reads and writes.
pub const REGRESSOR_VERSION: u32 = 1;
/// Most mixture components accepted.
pub const MAX_COMPONENTS: usize = 32;

/// Which loss the network was trained with (and so how its output is read).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RegressorKind {
    /// Squared error: one answer per target.
    Mse,
    /// Mixture density network: K weighted Gaussian components per target.
    Mdn,
}

impl RegressorKind {
    /// The word used in files, the CLI and solver names.
    pub fn as_str(self) -> &'static str {
        match self {
            RegressorKind::Mse => crate::artifact::ModelKind::Mse.word(),
            RegressorKind::Mdn => crate::artifact::ModelKind::Mdn.word(),
        }
    }
}

/// Affine normalisation of targets and joints (shift, then divide by scale).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RegressorNormalisation {
    /// Target shift (m).
    pub y_shift: Vec<f64>,
    /// Target scale (m), positive.
    pub y_scale: Vec<f64>,
    /// Joint shift (n).
    pub x_shift: Vec<f64>,
    /// Joint scale (n), positive.
    pub x_scale: Vec<f64>,
}

/// A trained regressor file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RegressorFile {
    /// Always [`REGRESSOR_FORMAT`].
    pub format: String,
    /// [`REGRESSOR_VERSION`].
    pub version: u32,
    /// `mse` or `mdn`.
    pub kind: RegressorKind,
    /// Its card, as every model file has (name, description, the command and recipe that made
    /// it).
    #[serde(default)]
    pub about: crate::artifact::About,
    /// The problem it was trained for (`robot` in files written before the four kinds shared
    /// one header).
    #[serde(alias = "robot")]
    pub problem: ProblemSpec,
    /// The cost the solutions are judged with (the playground's default).
    pub cost: CostSpec,
    /// Mixture components K (1 for `mse`).
    pub components: usize,
    /// Normalisation of inputs and outputs.
    pub normalisation: RegressorNormalisation,
    /// The network ỹ ↦ outputs.
    pub network: MlpWeights,
    /// Training metrics by name.
    pub metrics: BTreeMap<String, f64>,
    /// Seed of data and initialisation.
    pub data_seed: u64,
    /// `git describe` of the tree that trained it.
    pub git_revision: String,
}

/// One component of a prediction: its weight and spread, and its mean as a judged solution.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Component {
    /// Mixing weight π_k (1 for `mse`).
    pub weight: f64,
    /// Standard deviation per joint (rad); empty for `mse`.
    pub sigma: Vec<f64>,
    /// The component's mean, replayed through forward kinematics.
    pub solution: Solution,
}

/// A validated regressor ready to predict.
#[derive(Debug, Clone, PartialEq)]
pub struct Regressor {
    file: RegressorFile,
    problem: Problem,
    net: Mlp,
}

fn range(path: &str, detail: String) -> ArtifactError {
    ArtifactError::OutOfRange {
        path: path.to_string(),
        detail,
    }
}

pub(crate) fn positive(path: &str, values: &[f64], len: usize) -> Result<(), ArtifactError> {
    let v = vector(path, values, len)?;
    match v.iter().position(|&s| s <= 0.0) {
        Some(i) => Err(range(&format!("{path}[{i}]"), "scales must be > 0".into())),
        None => Ok(()),
    }
}

pub(crate) fn network(
    weights: &MlpWeights,
    inputs: usize,
    outputs: usize,
) -> Result<Mlp, ArtifactError> {
    if weights.activation != "tanh" {
        return Err(ArtifactError::Activation {
            path: "network.activation".into(),
            found: weights.activation.clone(),
        });
    }
    if weights.layers.is_empty() || weights.layers.len() > 17 {
        return Err(range(
            "network.layers",
            format!("{} layers (allowed 1..=17)", weights.layers.len()),
        ));
    }
    let mut width = inputs;
    let mut layers = Vec::with_capacity(weights.layers.len());
    for (k, layer) in weights.layers.iter().enumerate() {
        let path = format!("network.layers[{k}]");
        let out = layer.b.len();
        let last = k + 1 == weights.layers.len();
        if (last && out != outputs) || out == 0 || out > 1024 {
            return Err(ArtifactError::Shape {
                path: format!("{path}.b"),
                detail: format!(
                    "has {out} entries, expected {}",
                    if last {
                        outputs.to_string()
                    } else {
                        "1..=1024".into()
                    }
                ),
            });
        }
        let w = matrix(&format!("{path}.w"), &layer.w, out, width)?;
        let b = vector(&format!("{path}.b"), &layer.b, out)?;
        layers.push(Dense::new(w, b).map_err(|e| ArtifactError::Shape {
            path: path.clone(),
            detail: e.to_string(),
        })?);
        width = out;
    }
    Mlp::new(layers).map_err(|e| ArtifactError::Shape {
        path: "network".into(),
        detail: e.to_string(),
    })
}

impl Regressor {
    /// Parses (size cap, format, version) and validates every field.
    pub fn from_json(json: &str) -> Result<Self, ArtifactError> {
        if json.len() > MAX_MODEL_BYTES {
            return Err(ArtifactError::TooLarge {
                bytes: json.len(),
                limit: MAX_MODEL_BYTES,
            });
        }
        let file: RegressorFile = serde_json::from_str(json).map_err(|e| {
            if e.is_eof() {
                ArtifactError::Truncated(e.to_string())
            } else {
                ArtifactError::Parse(e.to_string())
            }
        })?;
        Self::new(file)
    }

    /// Validates a parsed file.
    pub fn new(file: RegressorFile) -> Result<Self, ArtifactError> {
        if file.format != REGRESSOR_FORMAT {
            return Err(ArtifactError::Format {
                found: file.format,
                expected: REGRESSOR_FORMAT.into(),
            });
        }
        if file.version != REGRESSOR_VERSION {
            return Err(ArtifactError::Version {
                found: file.version,
                supported: REGRESSOR_VERSION,
            });
        }
        let problem = problem_of(&file.problem, &file.cost)?;
        let (n, m) = (problem.dof(), problem.task_dim());
        let k = file.components;
        let outputs = match file.kind {
            RegressorKind::Mse if k == 1 => n,
            RegressorKind::Mdn if (1..=MAX_COMPONENTS).contains(&k) => k * (1 + 2 * n),
            _ => {
                return Err(range(
                    "components",
                    format!(
                        "{k} for kind {} (mse: 1, mdn: 1..={MAX_COMPONENTS})",
                        file.kind.as_str()
                    ),
                ))
            }
        };
        let norm = &file.normalisation;
        vector("normalisation.y_shift", &norm.y_shift, m)?;
        vector("normalisation.x_shift", &norm.x_shift, n)?;
        positive("normalisation.y_scale", &norm.y_scale, m)?;
        positive("normalisation.x_scale", &norm.x_scale, n)?;
        let net = network(&file.network, m, outputs)?;
        crate::artifact::validate::finite_metrics(&file.metrics)?;
        Ok(Regressor { file, problem, net })
    }

    /// The file as loaded.
    pub fn file(&self) -> &RegressorFile {
        &self.file
    }
    /// `mse` or `mdn`.
    pub fn kind(&self) -> RegressorKind {
        self.file.kind
    }
    /// The arm and cost.
    pub fn problem(&self) -> &Problem {
        &self.problem
    }

    /// All components for target y, heaviest first (one for `mse`), each judged by replay.
    pub fn predict(&self, y: &[f64]) -> crate::Result<Vec<Component>> {
        let start = clock();
        self.problem.check_target(y)?;
        let norm = &self.file.normalisation;
        let y_tilde: Vec<f64> = y
            .iter()
            .zip(norm.y_shift.iter().zip(&norm.y_scale))
            .map(|(v, (shift, scale))| (v - shift) / scale)
            .collect();
        let out = self.net.forward(&y_tilde)?;
        let n = self.problem.dof();
        let joints = |x_tilde: &[f64]| -> Vec<f64> {
            x_tilde
                .iter()
                .enumerate()
                .map(|(i, v)| v * norm.x_scale[i] + norm.x_shift[i])
                .collect()
        };
        let name = self.file.kind.as_str();
        let micros = micros_since(start);
        let judge = |q: Vec<f64>| {
            Solution::assess(
                &self.problem,
                name,
                y,
                None,
                q,
                1,
                micros,
                Termination::Approximate,
            )
        };
        let mut components = match self.file.kind {
            RegressorKind::Mse => vec![Component {
                weight: 1.0,
                sigma: Vec::new(),
                solution: judge(joints(&out)),
            }],
            RegressorKind::Mdn => {
                let k = self.file.components;
                let logits = &out[..k];
                let top = logits.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
                let total: f64 = logits.iter().map(|l| (l - top).exp()).sum();
                (0..k)
                    .map(|c| {
                        let mean = &out[k + c * n..k + (c + 1) * n];
                        let log_sigma = &out[k + k * n + c * n..k + k * n + (c + 1) * n];
                        Component {
                            weight: (logits[c] - top).exp() / total,
                            sigma: log_sigma
                                .iter()
                                .enumerate()
                                .map(|(i, s)| s.clamp(-30.0, 30.0).exp() * norm.x_scale[i])
                                .collect(),
                            solution: judge(joints(mean)),
                        }
                    })
                    .collect()
            }
        };
        crate::stats::sort_by_cost(&mut components, |c| -c.weight);
        Ok(components)
    }

    /// The network's answer: the `mse` output, or the heaviest `mdn` component's mean.
    /// Bad input gives an `invalid` solution.
    pub fn solve(&self, y: &[f64]) -> Solution {
        match self.predict(y) {
            Ok(mut c) if !c.is_empty() => c.swap_remove(0).solution,
            _ => Solution::invalid(self.file.kind.as_str(), y, 0.0),
        }
    }
}

impl Regressor {
    /// The regressor as a registry solver (stateless: its one answer per target).
    pub fn solver(&self) -> Box<dyn Solver> {
        Box::new(Direct(self.clone()))
    }
}

impl crate::solvers::learned::Learned for Regressor {
    fn problem(&self) -> &Problem {
        Regressor::problem(self)
    }
    fn solver(&self, settings: &SolverSettings) -> crate::Result<Box<dyn Solver>> {
        if settings.kind != SolverKind::Regression {
            return Err(crate::LoinkError::UnsupportedSolver {
                solver: settings.kind.as_str().into(),
                reason: format!(
                    "a {} model gives its network's answer only",
                    self.kind().as_str()
                ),
            });
        }
        Ok(Regressor::solver(self))
    }
    fn native_solver(&self) -> SolverKind {
        SolverKind::Regression
    }
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

/// A regressor as a registry solver.
#[derive(Clone)]
struct Direct(Regressor);

impl Solver for Direct {
    fn kind(&self) -> SolverKind {
        SolverKind::Regression
    }
    fn solve(&mut self, target: &[f64]) -> Solution {
        self.0.solve(target)
    }
    fn reset(&mut self) {}
    fn boxed_clone(&self) -> Box<dyn Solver> {
        Box::new(self.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::artifact::DenseWeights;

    fn file(kind: RegressorKind, components: usize) -> RegressorFile {
        let n = 2;
        let outputs = if kind == RegressorKind::Mse {
            n
        } else {
            components * (1 + 2 * n)
        };
        RegressorFile {
            format: REGRESSOR_FORMAT.into(),
            version: REGRESSOR_VERSION,
            kind,
            about: Default::default(),
            problem: crate::problem::Problem::preset("planar2").unwrap().spec(),
            cost: CostSpec::planar3(),
            components,
            normalisation: RegressorNormalisation {
                y_shift: vec![0.0, 0.0],
                y_scale: vec![1.0, 1.0],
                x_shift: vec![0.0, 0.0],
                x_scale: vec![1.0, 1.0],
            },
            network: MlpWeights {
                activation: "tanh".into(),
                layers: vec![
                    DenseWeights {
                        w: vec![vec![0.5, -0.25]; 3],
                        b: vec![0.1; 3],
                    },
                    DenseWeights {
                        w: vec![vec![0.2, 0.1, -0.3]; outputs],
                        b: vec![0.0; outputs],
                    },
                ],
            },
            metrics: BTreeMap::new(),
            data_seed: 0,
            git_revision: "test".into(),
        }
    }

    #[test]
    fn predictions_are_judged_by_replay_and_weights_sum_to_one() {
        let mse = Regressor::new(file(RegressorKind::Mse, 1)).unwrap();
        let c = mse.predict(&[1.0, 0.8]).unwrap();
        assert_eq!(c.len(), 1);
        let p = mse.problem().position(c[0].solution.q());
        assert!(
            (crate::report::distance(&p, &[1.0, 0.8]) - c[0].solution.residual()).abs() < 1e-12
        );
        let mdn = Regressor::new(file(RegressorKind::Mdn, 3)).unwrap();
        let c = mdn.predict(&[1.0, 0.8]).unwrap();
        assert_eq!(c.len(), 3);
        assert!((c.iter().map(|c| c.weight).sum::<f64>() - 1.0).abs() < 1e-12);
        assert!(c.windows(2).all(|w| w[0].weight >= w[1].weight));
        assert_eq!(
            mdn.solve(&[f64::NAN, 0.0]).status(),
            crate::report::Status::Invalid
        );
    }

    #[test]
    fn bad_files_are_refused_with_the_field_named() {
        let json = serde_json::to_string(&file(RegressorKind::Mdn, 2)).unwrap();
        assert!(Regressor::from_json(&json).is_ok());
        assert!(matches!(
            Regressor::from_json(&json[..json.len() / 2]),
            Err(ArtifactError::Truncated(_))
        ));
        let mut f = file(RegressorKind::Mdn, 2);
        f.components = 3;
        assert!(matches!(
            Regressor::new(f),
            Err(ArtifactError::Shape { .. })
        ));
        let mut f = file(RegressorKind::Mse, 1);
        f.network.layers[0].w[1][0] = f64::NAN;
        assert!(
            matches!(Regressor::new(f), Err(ArtifactError::NonFinite { path, .. }) if path == "network.layers[0].w")
        );
        let mut f = file(RegressorKind::Mse, 1);
        f.normalisation.x_scale[1] = 0.0;
        assert!(matches!(
            Regressor::new(f),
            Err(ArtifactError::OutOfRange { .. })
        ));
        let mut f = file(RegressorKind::Mse, 1);
        f.format = "loink-model".into();
        assert!(matches!(
            Regressor::new(f),
            Err(ArtifactError::Format { .. })
        ));
    }
}
