//! Export of a trained [`LoinkNet`] to the model artifact (`loink::artifact::ModelFile`).
//!
//! The explicit matrices are rebuilt in f64 from the trained free parameters (f32 values, widened
//! exactly), so R is orthogonal and the monotone certificate S Sᵀ ⪯ I − ½(V + Vᵀ) holds to f64
//! rounding, whatever f32 rounding the training graph had. The file is written compactly with
//! serde_json's shortest round-trip floats and contains nothing time-dependent, so the same seed
//! on the same machine gives a byte-identical file.

use std::collections::BTreeMap;

use loink::artifact::{
    About, BiLipNetWeights, DenseWeights, Hyper, MlpWeights, ModelFile, MonotoneWeights,
    Normalisation, OrthogonalWeights, FORMAT_NAME, FORMAT_VERSION,
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
    /// The model's card (name, description, the command that trained it).
    pub about: &'a About,
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
        kind: loink::artifact::ModelKind::Loink.word().into(),
        about: ctx.about.clone(),
        problem: ctx.problem.spec(),
        cost: ctx.problem.cost().spec().clone(),
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
        section_head: None,
        metrics: ctx.metrics,
        data_seed: ctx.seed,
        git_revision: git_revision(),
    }
}

/// Rounds `v` to the f64 nearest the shortest decimal of its f32 rounding (≤ 9 significant
/// digits, relative change ≤ 6e-8, well inside the inference crate's 1e-5 orthogonality and certificate
/// tolerances). It roughly halves the file the page downloads; the values are then written
/// exactly (shortest round trip), so loading gives back these very numbers.
pub fn round_to_f32_decimal(v: f64) -> f64 {
    let short = format!("{}", v as f32);
    short.parse::<f64>().unwrap_or(v)
}

/// Rounds `v` to `digits` significant decimal digits (1 ≤ digits ≤ 17; the f64 nearest that
/// decimal, so it is written back with at most `digits` digits). Non-finite values pass through.
pub fn round_to_digits(v: f64, digits: usize) -> f64 {
    if !v.is_finite() || v == 0.0 {
        return v;
    }
    let precision = digits.clamp(1, 17) - 1;
    format!("{v:.precision$e}").parse::<f64>().unwrap_or(v)
}

/// Rounds every weight of the network and heads with [`round_to_f32_decimal`] (normalisation,
/// bounds and metrics stay exact).
pub fn round_weights(file: &mut ModelFile) {
    round_weights_with(file, round_to_f32_decimal);
}

/// Applies `round` to every weight of the network (R, b, S, V, biases) and of both heads. The
/// per-layer scalars μ_l, γ_l, the normalisation, the bounds and the metrics stay exact: the
/// loader checks Π μ_l and Π ν_l against the claimed μ and ν to 1e-6, which rounded scalars miss.
pub fn round_weights_with(file: &mut ModelFile, round: impl Fn(f64) -> f64 + Copy) {
    round_weights_split(file, round, round);
}

/// [`round_weights_with`] with the orthogonal layers' R rounded by `round_r` (their
/// orthonormality is checked to 1e-5 on load, so they may need a digit more than the rest).
pub fn round_weights_split(
    file: &mut ModelFile,
    round: impl Fn(f64) -> f64 + Copy,
    round_r: impl Fn(f64) -> f64 + Copy,
) {
    let all = |v: &mut [f64]| v.iter_mut().for_each(|x| *x = round(*x));
    let rows = |m: &mut [Vec<f64>]| m.iter_mut().for_each(|r| all(r));
    for o in &mut file.bilipnet.orthogonal {
        o.r.iter_mut()
            .for_each(|row| row.iter_mut().for_each(|x| *x = round_r(*x)));
        all(&mut o.b);
    }
    for f in &mut file.bilipnet.monotone {
        rows(&mut f.s);
        f.v.iter_mut().for_each(|v| rows(v));
        all(&mut f.b_hidden);
        all(&mut f.b_out);
    }
    for head in [&mut file.metric_head, &mut file.value_head] {
        for l in &mut head.layers {
            rows(&mut l.w);
            all(&mut l.b);
        }
    }
}

/// The artifact as compact JSON.
pub fn to_json(file: &ModelFile) -> String {
    serde_json::to_string(file).expect("a model file always serialises")
}

/// A trained tanh MLP (the baselines' networks, the flow's conditioners) as stored weights.
pub fn mlp_weights(net: &super::model::Mlp) -> loink::artifact::MlpWeights {
    loink::artifact::MlpWeights {
        activation: "tanh".into(),
        layers: net
            .layers
            .iter()
            .map(|l| {
                let [_, input] = l.w.val().dims();
                let w = super::cayley::values(&l.w.val());
                loink::artifact::DenseWeights {
                    w: w.chunks(input).map(<[f64]>::to_vec).collect(),
                    b: super::cayley::values(&l.b.val()),
                }
            })
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_to_digits_keeps_that_many_significant_digits() {
        assert_eq!(round_to_digits(0.8652924, 3), 0.865);
        assert_eq!(round_to_digits(-0.031785414, 4), -0.03179);
        assert_eq!(round_to_digits(-5.1341718e-17, 2), -5.1e-17);
        assert_eq!(round_to_digits(123456.7, 6), 123457.0);
        assert_eq!(round_to_digits(0.0, 6), 0.0);
        assert!(round_to_digits(f64::NAN, 6).is_nan());
        assert_eq!(round_to_digits(f64::INFINITY, 6), f64::INFINITY);
        // 17 digits round-trip every f64.
        let v = 0.1 + 0.2;
        assert_eq!(round_to_digits(v, 17), v);
        // Written back, a rounded value never carries more than its digits.
        assert_eq!(format!("{}", round_to_digits(0.36840314986, 6)), "0.368403");
    }

    #[test]
    fn round_weights_with_leaves_the_scalars_exact() {
        let mut file = loink::artifact::random_model("planar3", 2, &[8, 8], 0.1, 4.0, 3).unwrap();
        let before = file.clone();
        round_weights_with(&mut file, |v| round_to_digits(v, 2));
        assert_ne!(file.bilipnet, before.bilipnet);
        assert_ne!(file.metric_head, before.metric_head);
        for (a, b) in file.bilipnet.monotone.iter().zip(&before.bilipnet.monotone) {
            assert_eq!((a.mu, a.gamma), (b.mu, b.gamma));
            assert_eq!(a.s[0][0], round_to_digits(b.s[0][0], 2));
        }
        assert_eq!(file.normalisation, before.normalisation);
        assert_eq!(file.hyper, before.hyper);
    }
}
