//! The IKFlow-style baseline: a conditional normalising flow for the joints x given a target y
//! (model kind `flow`), the learned alternative LOInK is measured against on the soft arm.
//!
//! Symbols: x̃ = (x − x_shift) ⊘ x_scale the normalised joints (n), ỹ = (y − y_shift) ⊘ y_scale
//! the normalised target (m), z ∈ Rⁿ the flow's latent with base density N(0, I). The flow
//! z = F(x̃; ỹ) is B affine coupling blocks. Block b permutes its input, u = x̃\[π_b\], splits
//! u = (u_a, u_b) with u_a the first ⌊n/2⌋ entries, and maps u_b ↦ (u_b − t) ⊙ exp(−s) with
//! (s_raw, t) = net_b([u_a; ỹ]) and s = c · tanh(s_raw / c) (the soft clamp c keeps exp(s)
//! bounded). So log p(x̃ | ỹ) = log N(F(x̃; ỹ); 0, I) − Σ_b Σ s_b, and sampling runs the blocks
//! backwards, u_b = z_b ⊙ exp(s) + t, exactly (no iteration).
//!
//! - this file: the file's shape ([`FlowFile`]), its validation and the validated [`Flow`]
//!   (both directions);
//! - [`solver`]: a solve — one sample at z = 0, or the cheapest of K samples at z ~ N(0, s²I)
//!   by the simulator's replay (K simulator calls).
//!
//! ```json
//! {"format": "loink-model", "version": 2, "kind": "flow", "about": {…}, "problem": {…},
//!  "cost": {…}, "normalisation": {"y_shift": […], "y_scale": […], "x_shift": […], "x_scale": […]},
//!  "clamp": 2.0, "blocks": [{"permutation": [2, 0, 3, 1], "net": {<tanh MLP>}}, …],
//!  "metrics": {"heldout_nll": …}, "data_seed": 1, "git_revision": "…"}
//! ```

pub mod solver;

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::artifact::load::parse_error;
use crate::artifact::{problem_of, About, ArtifactError, FileHeader, MlpWeights, ModelKind};
use crate::cost::CostSpec;
use crate::error::{ensure_finite, ensure_len, Result};
use crate::nn::Mlp;
use crate::problem::{Problem, ProblemSpec};
use crate::regressor::{network, positive, RegressorNormalisation};

pub use solver::{FlowSolver, MAX_SAMPLES};

/// Most coupling blocks a file may hold.
pub const MAX_BLOCKS: usize = 32;
/// Largest soft clamp c of log-scales accepted.
pub const MAX_CLAMP: f64 = 10.0;

/// A flow file as stored.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FlowFile {
    /// Always `loink-model`.
    pub format: String,
    /// The format version (2).
    pub version: u32,
    /// Always `flow` ([`ModelKind::Flow`]).
    pub kind: String,
    /// The card (name, description, command).
    #[serde(default)]
    pub about: About,
    /// The problem whose simulator replays the samples (kind `data` when nothing can).
    pub problem: ProblemSpec,
    /// The cost the best-of-K pick minimises.
    pub cost: CostSpec,
    /// Normalisation of targets and joints (shift, then divide by scale).
    pub normalisation: RegressorNormalisation,
    /// Soft clamp c of the log-scales: s = c · tanh(s_raw / c).
    pub clamp: f64,
    /// The coupling blocks, in the normalising direction (x̃ → z).
    pub blocks: Vec<BlockWeights>,
    /// Training figures by name (`heldout_nll`: mean −log p(x̃ | ỹ) on held-out rows, nats, in
    /// normalised units).
    pub metrics: BTreeMap<String, f64>,
    /// Seed of the training run.
    pub data_seed: u64,
    /// `git describe` of the tree that trained it.
    pub git_revision: String,
}

/// One affine coupling block as stored.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BlockWeights {
    /// π: the block's input is u_i = x̃\[π_i\] (a permutation of 0..n).
    pub permutation: Vec<usize>,
    /// The conditioner [u_a; ỹ] ↦ [s_raw; t] (tanh hidden layers, linear output).
    pub net: MlpWeights,
}

#[derive(Debug, Clone, PartialEq)]
struct Block {
    permutation: Vec<usize>,
    net: Mlp,
}

/// A validated flow, ready to sample and to score. Cloning shares the weights (the page and the
/// lesson hand a copy to each solver they build).
#[derive(Debug, Clone, PartialEq)]
pub struct Flow {
    meta: FlowFile,
    problem: Problem,
    blocks: std::sync::Arc<[Block]>,
}

fn range(path: String, detail: impl Into<String>) -> ArtifactError {
    ArtifactError::OutOfRange {
        path,
        detail: detail.into(),
    }
}

fn prefixed(prefix: &str, e: ArtifactError) -> ArtifactError {
    match e {
        ArtifactError::Shape { path, detail } => ArtifactError::Shape {
            path: format!("{prefix}.{path}"),
            detail,
        },
        ArtifactError::NonFinite { path, index, value } => ArtifactError::NonFinite {
            path: format!("{prefix}.{path}"),
            index,
            value,
        },
        ArtifactError::OutOfRange { path, detail } => ArtifactError::OutOfRange {
            path: format!("{prefix}.{path}"),
            detail,
        },
        ArtifactError::Activation { path, found } => ArtifactError::Activation {
            path: format!("{prefix}.{path}"),
            found,
        },
        other => other,
    }
}

impl Flow {
    /// Parses (size cap, format, version, kind) and validates every field.
    pub fn from_json(json: &str) -> std::result::Result<Self, ArtifactError> {
        let header = FileHeader::read(json)?;
        let kind = header.kind.unwrap_or_else(|| "loink".into());
        if kind != ModelKind::Flow.word() {
            return Err(ArtifactError::Kind(kind));
        }
        let file: FlowFile = serde_json::from_str(json).map_err(|e| parse_error(e, json))?;
        Self::new(file)
    }

    /// Validates a parsed file: the problem and cost build; every normalisation entry finite
    /// (scales positive); 1..=[`MAX_BLOCKS`] blocks, each a permutation of 0..n and a tanh MLP
    /// from ⌊n/2⌋ + m inputs to 2(n − ⌊n/2⌋) outputs; c in (0, [`MAX_CLAMP`]]; finite metrics.
    pub fn new(mut file: FlowFile) -> std::result::Result<Self, ArtifactError> {
        if file.kind != ModelKind::Flow.word() {
            return Err(ArtifactError::Kind(file.kind.clone()));
        }
        let problem = problem_of(&file.problem, &file.cost)?;
        let (n, m) = (problem.dof(), problem.task_dim());
        if n < 2 {
            return Err(range(
                "problem".into(),
                format!("{n} joints: a coupling block needs at least 2"),
            ));
        }
        let norm = &file.normalisation;
        crate::artifact::validate::vector("normalisation.y_shift", &norm.y_shift, m)?;
        crate::artifact::validate::vector("normalisation.x_shift", &norm.x_shift, n)?;
        positive("normalisation.y_scale", &norm.y_scale, m)?;
        positive("normalisation.x_scale", &norm.x_scale, n)?;
        if !(file.clamp > 0.0 && file.clamp <= MAX_CLAMP) {
            return Err(range(
                "clamp".into(),
                format!("{} (allowed (0, {MAX_CLAMP}])", file.clamp),
            ));
        }
        if file.blocks.is_empty() || file.blocks.len() > MAX_BLOCKS {
            return Err(range(
                "blocks".into(),
                format!("{} blocks (allowed 1..={MAX_BLOCKS})", file.blocks.len()),
            ));
        }
        crate::artifact::validate::finite_metrics(&file.metrics)?;
        let half = n / 2;
        let mut blocks = Vec::with_capacity(file.blocks.len());
        for (k, block) in std::mem::take(&mut file.blocks).into_iter().enumerate() {
            let path = format!("blocks[{k}]");
            let mut seen = vec![false; n];
            let is_permutation = block.permutation.len() == n
                && block
                    .permutation
                    .iter()
                    .all(|&i| i < n && !std::mem::replace(&mut seen[i], true));
            if !is_permutation {
                return Err(range(
                    format!("{path}.permutation"),
                    format!("{:?} is not a permutation of 0..{n}", block.permutation),
                ));
            }
            let net = network(&block.net, half + m, 2 * (n - half))
                .map_err(|e| prefixed(&format!("{path}.net"), e))?;
            blocks.push(Block {
                permutation: block.permutation,
                net,
            });
        }
        Ok(Flow {
            meta: file,
            problem,
            blocks: blocks.into(),
        })
    }

    /// The file's own fields (its `blocks` emptied: the validated networks live here).
    pub fn meta(&self) -> &FlowFile {
        &self.meta
    }
    /// The problem whose simulator replays the samples, with the cost the pick minimises.
    pub fn problem(&self) -> &Problem {
        &self.problem
    }
    /// Coupling blocks B.
    pub fn depth(&self) -> usize {
        self.blocks.len()
    }
    /// The mean held-out −log p(x̃ | ỹ) the trainer measured (nats, normalised units).
    pub fn heldout_nll(&self) -> Option<f64> {
        self.meta.metrics.get("heldout_nll").copied()
    }

    fn normalised_target(&self, y: &[f64]) -> Result<Vec<f64>> {
        ensure_len("target", y, self.problem.task_dim())?;
        ensure_finite("target", y)?;
        let norm = &self.meta.normalisation;
        Ok(y.iter()
            .enumerate()
            .map(|(i, v)| (v - norm.y_shift[i]) / norm.y_scale[i])
            .collect())
    }

    /// (s, t) of `block` for the conditioning half `u_a` and target ỹ.
    fn scale_shift(&self, block: &Block, u_a: &[f64], y_tilde: &[f64]) -> Result<Vec<f64>> {
        let mut input = Vec::with_capacity(u_a.len() + y_tilde.len());
        input.extend_from_slice(u_a);
        input.extend_from_slice(y_tilde);
        let mut out = block.net.forward(&input)?;
        let rest = out.len() / 2;
        let c = self.meta.clamp;
        for s in &mut out[..rest] {
            *s = c * (*s / c).tanh();
        }
        Ok(out)
    }

    /// The joints x = F⁻¹(z; ỹ), de-normalised (not clamped into the limits).
    pub fn decode(&self, y: &[f64], z: &[f64]) -> Result<Vec<f64>> {
        let n = self.problem.dof();
        ensure_len("latent z", z, n)?;
        ensure_finite("latent z", z)?;
        let y_tilde = self.normalised_target(y)?;
        let half = n / 2;
        let mut v = z.to_vec();
        for block in self.blocks.iter().rev() {
            let st = self.scale_shift(block, &v[..half], &y_tilde)?;
            let rest = n - half;
            for i in 0..rest {
                v[half + i] = v[half + i] * st[i].exp() + st[rest + i];
            }
            // v is u = x̃[π]; undo the permutation.
            let mut x = vec![0.0; n];
            for (i, &p) in block.permutation.iter().enumerate() {
                x[p] = v[i];
            }
            v = x;
        }
        let norm = &self.meta.normalisation;
        let x: Vec<f64> = v
            .iter()
            .enumerate()
            .map(|(i, t)| t * norm.x_scale[i] + norm.x_shift[i])
            .collect();
        ensure_finite("flow sample", &x)?;
        Ok(x)
    }

    /// z = F(x̃; ỹ) and log |det ∂z/∂x̃| for joints x (de-normalised in).
    pub fn encode(&self, y: &[f64], x: &[f64]) -> Result<(Vec<f64>, f64)> {
        let n = self.problem.dof();
        ensure_len("joints", x, n)?;
        ensure_finite("joints", x)?;
        let y_tilde = self.normalised_target(y)?;
        let norm = &self.meta.normalisation;
        let mut v: Vec<f64> = x
            .iter()
            .enumerate()
            .map(|(i, q)| (q - norm.x_shift[i]) / norm.x_scale[i])
            .collect();
        let half = n / 2;
        let mut log_det = 0.0;
        for block in self.blocks.iter() {
            let mut u: Vec<f64> = block.permutation.iter().map(|&p| v[p]).collect();
            let st = self.scale_shift(block, &u[..half], &y_tilde)?;
            let rest = n - half;
            for i in 0..rest {
                u[half + i] = (u[half + i] - st[rest + i]) * (-st[i]).exp();
                log_det -= st[i];
            }
            v = u;
        }
        Ok((v, log_det))
    }

    /// −log p(x̃ | ỹ) (nats, normalised units: the measure `heldout_nll` reports).
    pub fn negative_log_likelihood(&self, y: &[f64], x: &[f64]) -> Result<f64> {
        let (z, log_det) = self.encode(y, x)?;
        let n = z.len() as f64;
        let half_log_tau = 0.5 * std::f64::consts::TAU.ln();
        Ok(0.5 * z.iter().map(|v| v * v).sum::<f64>() + n * half_log_tau - log_det)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::artifact::{mlp_weights, FORMAT_NAME, FORMAT_VERSION};
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    /// A random (untrained) flow on soft4: 3 blocks of [8] hidden units.
    pub(crate) fn random_file(seed: u64) -> FlowFile {
        let problem = Problem::preset("soft4").unwrap();
        let (n, m) = (problem.dof(), problem.task_dim());
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let limits = problem.limits();
        FlowFile {
            format: FORMAT_NAME.into(),
            version: FORMAT_VERSION,
            kind: ModelKind::Flow.word().into(),
            about: About::default(),
            problem: problem.spec(),
            cost: problem.cost().spec().clone(),
            normalisation: RegressorNormalisation {
                y_shift: vec![0.0, 0.125],
                y_scale: vec![0.02, 0.01],
                x_shift: limits.centres(),
                x_scale: (0..n).map(|i| limits.half_width(i)).collect(),
            },
            clamp: 2.0,
            blocks: [[2, 0, 3, 1], [1, 3, 0, 2], [3, 2, 1, 0]]
                .iter()
                .map(|p| BlockWeights {
                    permutation: p.to_vec(),
                    net: mlp_weights(
                        &Mlp::random(n / 2 + m, &[8], 2 * (n - n / 2), &mut rng).unwrap(),
                    ),
                })
                .collect(),
            metrics: BTreeMap::new(),
            data_seed: seed,
            git_revision: String::new(),
        }
    }

    #[test]
    fn decode_inverts_encode() {
        let flow = Flow::new(random_file(3)).unwrap();
        let y = [0.01, 0.125];
        for z in [[0.0; 4], [0.3, -1.2, 0.7, 2.0], [-2.5, 0.1, 1.5, -0.4]] {
            let x = flow.decode(&y, &z).unwrap();
            let (back, _) = flow.encode(&y, &x).unwrap();
            for (a, b) in back.iter().zip(&z) {
                assert!((a - b).abs() < 1e-12, "{back:?} vs {z:?}");
            }
        }
    }

    #[test]
    fn the_density_integrates_its_jacobian() {
        // log|det ∂z/∂x̃| by finite differences of encode equals the coupling sum.
        let flow = Flow::new(random_file(5)).unwrap();
        let y = [-0.01, 0.13];
        let x = [1.0, 2.0, 0.5, 3.0];
        let (z0, log_det) = flow.encode(&y, &x).unwrap();
        let h = 1e-6;
        let scale = &flow.meta().normalisation.x_scale;
        let mut jac = determinant(4, |i, j| {
            let mut xp = x;
            xp[j] += h * scale[j];
            let (zp, _) = flow.encode(&y, &xp).unwrap();
            (zp[i] - z0[i]) / h
        });
        jac = jac.abs().ln();
        assert!((jac - log_det).abs() < 1e-5, "{jac} vs {log_det}");
    }

    /// The determinant of an n × n matrix given entrywise (Gaussian elimination).
    fn determinant(n: usize, entry: impl Fn(usize, usize) -> f64) -> f64 {
        let mut a: Vec<Vec<f64>> = (0..n)
            .map(|i| (0..n).map(|j| entry(i, j)).collect())
            .collect();
        let mut det = 1.0;
        for c in 0..n {
            let p = (c..n)
                .max_by(|&i, &j| a[i][c].abs().total_cmp(&a[j][c].abs()))
                .unwrap();
            if p != c {
                a.swap(p, c);
                det = -det;
            }
            det *= a[c][c];
            let pivot = a[c].clone();
            for row in a.iter_mut().skip(c + 1) {
                let f = row[c] / pivot[c];
                for (v, p) in row.iter_mut().zip(&pivot).skip(c) {
                    *v -= f * p;
                }
            }
        }
        det
    }

    #[test]
    fn hostile_files_are_refused_with_their_field() {
        let good = random_file(1);
        let mut bad = good.clone();
        bad.blocks[1].permutation = vec![0, 0, 1, 2];
        assert!(
            matches!(Flow::new(bad), Err(ArtifactError::OutOfRange { path, .. }) if path == "blocks[1].permutation")
        );
        let mut bad = good.clone();
        bad.blocks[0].net.layers[0].w[0][0] = f64::NAN;
        assert!(
            matches!(Flow::new(bad), Err(ArtifactError::NonFinite { path, .. }) if path.starts_with("blocks[0].net"))
        );
        let mut bad = good.clone();
        bad.clamp = 0.0;
        assert!(Flow::new(bad).is_err());
        let mut bad = good.clone();
        bad.normalisation.x_scale[2] = -1.0;
        assert!(Flow::new(bad).is_err());
        let mut bad = good.clone();
        bad.blocks.clear();
        assert!(Flow::new(bad).is_err());
        let mut bad = good.clone();
        bad.blocks[2].net.layers.pop();
        assert!(matches!(Flow::new(bad), Err(ArtifactError::Shape { .. })));
        let json = serde_json::to_string(&good).unwrap();
        assert!(Flow::from_json(&json).is_ok());
        assert!(matches!(
            Flow::from_json(&json[..json.len() / 2]),
            Err(ArtifactError::Truncated(_))
        ));
        let as_loink = json.replacen("\"kind\":\"flow\"", "\"kind\":\"loink\"", 1);
        assert!(matches!(Flow::from_json(&as_loink), Err(ArtifactError::Kind(k)) if k == "loink"));
        let flow = Flow::new(good).unwrap();
        assert!(flow.decode(&[f64::NAN, 0.1], &[0.0; 4]).is_err());
        assert!(flow.decode(&[0.0, 0.1], &[0.0; 3]).is_err());
        assert!(flow
            .decode(&[0.0, 0.1], &[f64::INFINITY, 0.0, 0.0, 0.0])
            .is_err());
    }
}
