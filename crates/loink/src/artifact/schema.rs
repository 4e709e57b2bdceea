//! The shape of a model file (format `loink-model`, version [`FORMAT_VERSION`]).
//!
//! Version 2 names the problem as a tagged spec (`problem`, with `kind`: `planar`, …) and adds
//! the model's `kind` (`loink`) and its `about` card; a version-1 file (its problem under
//! `robot`, no kind, no card) loads unchanged as a `loink` model.
//!
//! Conventions, shared by the trainer (export) and inference:
//! - Matrices are row-major nested arrays `[[row0…], [row1…], …]` so `jq '.bilipnet.orthogonal[0].r'`
//!   prints them as they are written on paper.
//! - G acts on normalised joints x̃ = (x − x_shift) ⊘ x_scale and returns [ỹ; z] with
//!   ỹ = (y − y_shift) ⊘ y_scale (the first `task_dim` outputs) and the latent z (the rest).
//! - G = O_d ∘ F_{d−1} ∘ O_{d−1} ∘ … ∘ F₀ ∘ O₀: `orthogonal` holds d + 1 layers, `monotone` d.
//! - The surrogate predicts the normalised cost J̃ = (J − cost_shift)/cost_scale as
//!   ĉ = zᵀ M(ỹ) z + b(ỹ), with b = `value_head`(ỹ) (one output) and M = L Lᵀ + metric_eps·I, where
//!   `metric_head`(ỹ) outputs the lower triangle of L row by row ((0,0), (1,0), (1,1), …) and the
//!   diagonal entries pass through softplus.
//! - MLP heads: hidden layers use `activation` (`tanh`; `relu` for the section head), the last
//!   layer is linear.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::kind::KIND_LOINK;
use crate::cost::CostSpec;
use crate::problem::ProblemSpec;

/// The `format` field every model file carries.
pub const FORMAT_NAME: &str = "loink-model";
/// The format version this crate writes.
pub const FORMAT_VERSION: u32 = 2;
/// The versions this crate reads.
pub const READABLE_VERSIONS: [u32; 2] = [1, 2];

/// A complete trained model.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ModelFile {
    /// Always [`FORMAT_NAME`].
    pub format: String,
    /// [`FORMAT_VERSION`] for files this crate writes.
    pub version: u32,
    /// What the file holds: [`KIND_LOINK`].
    #[serde(default = "default_kind")]
    pub kind: String,
    /// Who the model is for readers and the page's catalog.
    #[serde(default)]
    pub about: About,
    /// The problem the model was trained for (`robot` in version-1 files).
    #[serde(alias = "robot")]
    pub problem: ProblemSpec,
    /// The cost the model was trained to minimise.
    pub cost: CostSpec,
    /// Architecture hyper-parameters.
    pub hyper: Hyper,
    /// Affine normalisation of joints, task and cost.
    pub normalisation: Normalisation,
    /// The bi-Lipschitz map G as explicit matrices.
    pub bilipnet: BiLipNetWeights,
    /// M(ỹ) head (outputs the lower triangle of L).
    pub metric_head: MlpWeights,
    /// b(ỹ) head (one output).
    pub value_head: MlpWeights,
    /// The section head σ(ỹ) ≈ G⁻¹([ỹ; 0]) (`relu`, ỹ → x̃), distilled from G by
    /// `loink distill`: where a cold inverse starts. Optional: without it the inverse starts
    /// each layer at its own target.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub section_head: Option<MlpWeights>,
    /// Training metrics (task RMSE, cost RMSE, optimality gap, seconds, …), by name.
    pub metrics: BTreeMap<String, f64>,
    /// Seed of the training data and initialisation.
    pub data_seed: u64,
    /// `git describe` of the tree that trained it (or "unknown").
    pub git_revision: String,
}

fn default_kind() -> String {
    KIND_LOINK.to_string()
}

/// The model's card: what it is, in words, and the command that made it.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct About {
    /// The catalog name (the file's stem, `planar3-h38w`).
    #[serde(default)]
    pub name: String,
    /// One line on what the model is (the page's menu shows it).
    #[serde(default)]
    pub description: String,
    /// The command line that trained it (`loink train …`).
    #[serde(default)]
    pub command: String,
    /// What of the paper a view of this model reproduces (the page's model card).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub reproduces: String,
    /// What it does not reproduce, said as plainly.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub does_not: String,
    /// What the page's list of experiments calls the view this model opens (its problem's
    /// experiment: "The planar arm (3 links)"). The page reads it from its catalog, so its wasm
    /// leaves the field unread (fewer bytes to download).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    #[cfg_attr(target_arch = "wasm32", serde(skip))]
    pub experiment_title: String,
    /// What that experiment shows, in one line (read from the catalog in the page, as above).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    #[cfg_attr(target_arch = "wasm32", serde(skip))]
    pub experiment_line: String,
    /// The recipe that trains it (`recipes/NAME.toml`), when one does (the page leaves it
    /// unread).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    #[cfg_attr(target_arch = "wasm32", serde(skip))]
    pub recipe: String,
    /// The SHA-256 of the recipe file it was trained by (lower-case hex).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    #[cfg_attr(target_arch = "wasm32", serde(skip))]
    pub recipe_sha256: String,
    /// Where a view of this model opens: a target in the task's columns (`x,y,z` for the
    /// Panda), chosen where its arm visibly works (`loink card --opening-target`); empty: the
    /// problem's own default. The page reads it from its catalog.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(target_arch = "wasm32", serde(skip))]
    pub opening_target: Vec<f64>,
    /// The solver a view of this model opens with when its link names none (a solver's word,
    /// `loink card --opening-solver`); empty: the page's default. The page reads it from its
    /// catalog.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    #[cfg_attr(target_arch = "wasm32", serde(skip))]
    pub opening_solver: String,
}

/// Architecture hyper-parameters.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Hyper {
    /// Overall lower Lipschitz bound μ of G.
    pub mu: f64,
    /// Overall upper Lipschitz bound ν of G.
    pub nu: f64,
    /// Number of monotone layers d.
    pub depth: usize,
    /// Hidden block sizes n₁..n_L of each monotone layer.
    pub hidden: Vec<usize>,
    /// Task dimension m (first m outputs of G).
    pub task_dim: usize,
    /// Latent dimension n − m.
    pub latent_dim: usize,
    /// Hidden widths of the M and b heads.
    pub head_hidden: Vec<usize>,
    /// ε in M = L Lᵀ + εI.
    pub metric_eps: f64,
}

/// Affine normalisations (element-wise shift then divide by scale).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Normalisation {
    /// Joint shift (n).
    pub x_shift: Vec<f64>,
    /// Joint scale (n), positive.
    pub x_scale: Vec<f64>,
    /// Task shift (m).
    pub y_shift: Vec<f64>,
    /// Task scale (m), positive.
    pub y_scale: Vec<f64>,
    /// Cost shift.
    pub cost_shift: f64,
    /// Cost scale, positive.
    pub cost_scale: f64,
}

/// G's layers.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BiLipNetWeights {
    /// d + 1 orthogonal layers O₀..O_d.
    pub orthogonal: Vec<OrthogonalWeights>,
    /// d monotone layers F₀..F_{d−1}.
    pub monotone: Vec<MonotoneWeights>,
}

/// Orthogonal layer u = R x + b.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OrthogonalWeights {
    /// R, n × n with RᵀR = I.
    pub r: Vec<Vec<f64>>,
    /// b, n.
    pub b: Vec<f64>,
}

/// Monotone Lipschitz layer F(x) = μ_l x + √(γ/2) Sᵀ z + b_out with
/// z₁ = ReLU(√(2γ) S₁ x + b₁), z_k = ReLU(V_k z_{k−1} + √(2γ) S_k x + b_k).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MonotoneWeights {
    /// Per-layer lower bound μ_l.
    pub mu: f64,
    /// γ = ν_l − μ_l.
    pub gamma: f64,
    /// Block sizes n₁..n_L (Σ = N).
    pub hidden: Vec<usize>,
    /// S, N × n (row blocks S_k).
    pub s: Vec<Vec<f64>>,
    /// V₂..V_L: V_k is n_k × n_{k−1} (L − 1 blocks).
    pub v: Vec<Vec<Vec<f64>>>,
    /// Stacked hidden biases b₁..b_L (N).
    pub b_hidden: Vec<f64>,
    /// Output bias (n).
    pub b_out: Vec<f64>,
}

/// A small fully connected network.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MlpWeights {
    /// Hidden activation: `"tanh"` for the cost heads, `"relu"` for the section head.
    pub activation: String,
    /// Layers in order; the last is linear.
    pub layers: Vec<DenseWeights>,
}

/// Dense layer out = W in + b.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DenseWeights {
    /// W, out × in.
    pub w: Vec<Vec<f64>>,
    /// b, out.
    pub b: Vec<f64>,
}
