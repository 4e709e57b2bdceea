//! [`random_model`]: an **untrained** model file with a valid random network and heads, for
//! tests, benchmarks and the web page's development. It satisfies every load-time check, but
//! its answers are not near-optimal or even on target: never ship one.
//!
//! Also the in-memory → file conversions ([`bilipnet_weights`], [`mlp_weights`]).

use std::collections::BTreeMap;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::kind::KIND_LOINK;
use super::schema::{
    About, BiLipNetWeights, DenseWeights, Hyper, MlpWeights, ModelFile, MonotoneWeights,
    Normalisation, OrthogonalWeights, FORMAT_NAME, FORMAT_VERSION,
};
use super::validate::metric_outputs;
use crate::error::{LoinkError, Result};
use crate::nn::{BiLipNet, Mlp};
use crate::problem::Problem;

/// Hidden widths of the random heads.
pub const RANDOM_HEAD_HIDDEN: [usize; 1] = [16];

fn rows(a: &ndarray::Array2<f64>) -> Vec<Vec<f64>> {
    a.rows().into_iter().map(|r| r.to_vec()).collect()
}

/// The explicit matrices of a network, in the file's layout.
pub fn bilipnet_weights(net: &BiLipNet) -> BiLipNetWeights {
    BiLipNetWeights {
        orthogonal: net
            .orthogonal()
            .iter()
            .map(|o| OrthogonalWeights {
                r: rows(o.r()),
                b: o.b().to_vec(),
            })
            .collect(),
        monotone: net
            .monotone()
            .iter()
            .map(|m| MonotoneWeights {
                mu: m.mu(),
                gamma: m.gamma(),
                hidden: m.hidden().to_vec(),
                s: rows(m.s()),
                v: m.v().iter().map(rows).collect(),
                b_hidden: m.b_hidden().to_vec(),
                b_out: m.b_out().to_vec(),
            })
            .collect(),
    }
}

/// A tanh MLP in the file's layout.
pub fn mlp_weights(mlp: &Mlp) -> MlpWeights {
    MlpWeights {
        activation: "tanh".into(),
        layers: mlp
            .layers()
            .iter()
            .map(|l| DenseWeights {
                w: rows(l.w()),
                b: l.b().to_vec(),
            })
            .collect(),
    }
}

/// An untrained model for the preset `robot` (see [`crate::problem::registry::preset_names`]): a random
/// BiLipNet of `depth` monotone layers with blocks `hidden` and bounds `mu` < `nu`, random heads
/// (hidden [`RANDOM_HEAD_HIDDEN`]), joints normalised to [−1, 1] over the limits, task divided by
/// the workspace radius, the preset's cost. Same arguments, same file (ChaCha8 seeded by `seed`).
/// `metrics` holds `untrained = 1`.
///
/// A non-redundant arm (`planar2`: 2 joints for a 2-D task) gets latent dimension 0, as trained
/// planar2 files have: G is then a bijection onto the task, M is 0 × 0 and the metric head keeps
/// the one output the inference crate ignores ([`metric_outputs`]). An arm with fewer joints than task
/// dimensions has no model at all and is refused with that reason.
pub fn random_model(
    robot: &str,
    depth: usize,
    hidden: &[usize],
    mu: f64,
    nu: f64,
    seed: u64,
) -> Result<ModelFile> {
    let problem = Problem::preset(robot)?;
    let n = problem.dof();
    let m = problem.task_dim();
    let k = n.checked_sub(m).ok_or_else(|| LoinkError::OutOfRange {
        what: format!("robot '{robot}'"),
        detail: format!(
            "{n} joints cannot cover a {m}-D task: no invertible map G from joints to \
             [task; latent] exists"
        ),
    })?;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let net = BiLipNet::random(n, depth, hidden, mu, nu, &mut rng)?;
    let metric = Mlp::random(m, &RANDOM_HEAD_HIDDEN, metric_outputs(k), &mut rng)?;
    let value = Mlp::random(m, &RANDOM_HEAD_HIDDEN, 1, &mut rng)?;
    let limits = problem.limits();
    let mut metrics = BTreeMap::new();
    metrics.insert("untrained".to_string(), 1.0);
    Ok(ModelFile {
        format: FORMAT_NAME.into(),
        version: FORMAT_VERSION,
        kind: KIND_LOINK.into(),
        about: About {
            name: format!("{robot}-untrained"),
            description: format!("an untrained random {robot} network (tests and benches)"),
            command: String::new(),
            ..About::default()
        },
        problem: problem.spec(),
        cost: problem.cost().spec().clone(),
        hyper: Hyper {
            mu: net.mu(),
            nu: net.nu(),
            depth,
            hidden: hidden.to_vec(),
            task_dim: m,
            latent_dim: k,
            head_hidden: RANDOM_HEAD_HIDDEN.to_vec(),
            metric_eps: 1e-3,
        },
        normalisation: Normalisation {
            x_shift: limits.centres(),
            x_scale: (0..n).map(|i| limits.half_width(i)).collect(),
            y_shift: vec![0.0; m],
            y_scale: vec![problem.workspace_radius(); m],
            cost_shift: 0.0,
            cost_scale: 1.0,
        },
        bilipnet: bilipnet_weights(&net),
        metric_head: mlp_weights(&metric),
        value_head: mlp_weights(&value),
        section_head: None,
        metrics,
        data_seed: seed,
        git_revision: "untrained-random".into(),
    })
}
