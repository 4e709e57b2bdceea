//! Export of a trained [`LoinkNet`] to the model artifact (`loink::artifact::ModelFile`).
//!
//! The explicit matrices are rebuilt in f64 from the trained free parameters (f32 values, widened
//! exactly), so R is orthogonal and the monotone certificate S Sᵀ ⪯ I − ½(V + Vᵀ) holds to f64
//! rounding, whatever f32 rounding the training graph had. The file is written compactly with
//! serde_json's shortest round-trip floats and contains nothing time-dependent, so the same seed
//! on the same machine gives a byte-identical file.

use std::collections::BTreeMap;

use loink::artifact::{
    BiLipNetWeights, DenseWeights, Hyper, MlpWeights, ModelFile, MonotoneWeights, Normalisation,
    OrthogonalWeights, FORMAT_NAME, FORMAT_VERSION,
};
use loink::problem::Problem;

use super::cayley::{cayley_f64, values, weight_norm_f64};
use super::model::{Architecture, CayleyParam, LoinkNet, Mlp, Monotone, Orthogonal};

type Matrix = Vec<Vec<f64>>;

fn rows(flat: &[f64], cols: usize) -> Matrix {
    flat.chunks(cols).map(<[f64]>::to_vec).collect()
}

fn transpose(a: &Matrix) -> Matrix {
    let (r, c) = (a.len(), a.first().map_or(0, Vec::len));
    (0..c).map(|j| (0..r).map(|i| a[i][j]).collect()).collect()
}

fn matmul(a: &Matrix, b: &Matrix) -> Matrix {
    let inner = b.len();
    let cols = b.first().map_or(0, Vec::len);
    a.iter()
        .map(|row| {
            (0..cols)
                .map(|j| (0..inner).map(|k| row[k] * b[k][j]).sum())
                .collect()
        })
        .collect()
}

/// cayley(wn(W)) of a Cayley parameter, in f64, as rows.
fn cayley_matrix(p: &CayleyParam) -> Matrix {
    let [rows_p, cols_q] = p.w.val().dims();
    let w = values(&p.w.val());
    let a = values(&p.a.val())[0];
    rows(&cayley_f64(&weight_norm_f64(&w, a), rows_p, cols_q), cols_q)
}

fn orthogonal(o: &Orthogonal) -> OrthogonalWeights {
    OrthogonalWeights {
        r: cayley_matrix(&o.r),
        b: values(&o.b.val()),
    }
}

fn monotone(f: &Monotone) -> MonotoneWeights {
    let q = cayley_matrix(&f.q);
    let mut s: Matrix = Vec::new();
    let mut v = Vec::new();
    let mut offset = 0;
    let mut previous: Option<(Matrix, Matrix)> = None; // (A_{k−1}, Q_{k−1})
    for (block, &nk) in f.blocks.iter().zip(&f.hidden) {
        let c = cayley_matrix(block);
        let a = transpose(&c[..nk].to_vec());
        let qk = q[offset..offset + nk].to_vec();
        offset += nk;
        let sk = match &previous {
            None => matmul(&a, &qk),
            Some((a_prev, q_prev)) => {
                let b = transpose(&c[nk..].to_vec());
                let vk: Matrix = matmul(&b, &transpose(a_prev))
                    .into_iter()
                    .map(|r| r.into_iter().map(|x| 2.0 * x).collect())
                    .collect();
                v.push(vk);
                let aq = matmul(&a, &qk);
                let bq = matmul(&b, q_prev);
                aq.iter()
                    .zip(&bq)
                    .map(|(x, y)| x.iter().zip(y).map(|(p, q)| p - q).collect())
                    .collect()
            }
        };
        s.extend(sk);
        previous = Some((a, qk));
    }
    MonotoneWeights {
        mu: f.mu,
        gamma: f.gamma,
        hidden: f.hidden.clone(),
        s,
        v,
        b_hidden: f.b_hidden.iter().flat_map(|b| values(&b.val())).collect(),
        b_out: values(&f.b_out.val()),
    }
}

fn mlp(m: &Mlp) -> MlpWeights {
    MlpWeights {
        activation: "tanh".into(),
        layers: m
            .layers
            .iter()
            .map(|l| {
                let [_, input] = l.w.val().dims();
                DenseWeights {
                    w: rows(&values(&l.w.val()), input),
                    b: values(&l.b.val()),
                }
            })
            .collect(),
    }
}

/// `git describe --always --dirty` of the working tree, or "unknown".
pub fn git_revision() -> String {
    std::process::Command::new("git")
        .args(["describe", "--always", "--dirty"])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .and_then(|o| String::from_utf8(o.stdout).ok())
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| "unknown".into())
}

/// Everything the artifact needs besides the network.
pub struct ExportContext<'a> {
    /// The problem trained on.
    pub problem: &'a Problem,
    /// Architecture.
    pub arch: &'a Architecture,
    /// Normalisation.
    pub normalisation: &'a Normalisation,
    /// Metrics by name.
    pub metrics: BTreeMap<String, f64>,
    /// Data seed.
    pub seed: u64,
}

/// The artifact of a trained network (weights rounded by [`round_weights`]).
pub fn model_file(net: &LoinkNet, ctx: ExportContext<'_>) -> ModelFile {
    let mut file = exact_model_file(net, ctx);
    round_weights(&mut file);
    file
}

/// The artifact with the f64 explicit matrices unrounded.
pub fn exact_model_file(net: &LoinkNet, ctx: ExportContext<'_>) -> ModelFile {
    let arch = ctx.arch;
    ModelFile {
        format: FORMAT_NAME.into(),
        version: FORMAT_VERSION,
        robot: ctx.problem.arm.spec(),
        cost: ctx.problem.cost.spec().clone(),
        hyper: Hyper {
            mu: arch.mu,
            nu: arch.nu,
            depth: arch.depth,
            hidden: arch.hidden.clone(),
            task_dim: arch.task_dim,
            latent_dim: arch.latent_dim(),
            head_hidden: arch.head_hidden.clone(),
            metric_eps: arch.metric_eps,
        },
        normalisation: ctx.normalisation.clone(),
        bilipnet: BiLipNetWeights {
            orthogonal: net.orthogonal.iter().map(orthogonal).collect(),
            monotone: net.monotone.iter().map(monotone).collect(),
        },
        metric_head: mlp(&net.metric_head),
        value_head: mlp(&net.value_head),
        metrics: ctx.metrics,
        data_seed: ctx.seed,
        git_revision: git_revision(),
    }
}

/// Rounds `v` to the f64 nearest the shortest decimal of its f32 rounding (≤ 9 significant
/// digits, relative change ≤ 6e-8, well inside the engine's 1e-5 orthogonality and certificate
/// tolerances). It roughly halves the file the page downloads; the values are then written
/// exactly (shortest round trip), so loading gives back these very numbers.
pub fn round_to_f32_decimal(v: f64) -> f64 {
    let short = format!("{}", v as f32);
    short.parse::<f64>().unwrap_or(v)
}

fn round_all(v: &mut [f64]) {
    v.iter_mut().for_each(|x| *x = round_to_f32_decimal(*x));
}

fn round_rows(m: &mut [Vec<f64>]) {
    m.iter_mut().for_each(|r| round_all(r));
}

/// Rounds every weight of the network and heads with [`round_to_f32_decimal`] (normalisation,
/// bounds and metrics stay exact).
pub fn round_weights(file: &mut ModelFile) {
    for o in &mut file.bilipnet.orthogonal {
        round_rows(&mut o.r);
        round_all(&mut o.b);
    }
    for f in &mut file.bilipnet.monotone {
        round_rows(&mut f.s);
        f.v.iter_mut().for_each(|v| round_rows(v));
        round_all(&mut f.b_hidden);
        round_all(&mut f.b_out);
    }
    for head in [&mut file.metric_head, &mut file.value_head] {
        for l in &mut head.layers {
            round_rows(&mut l.w);
            round_all(&mut l.b);
        }
    }
}

/// The artifact as compact JSON.
pub fn to_json(file: &ModelFile) -> String {
    serde_json::to_string(file).expect("a model file always serialises")
}
