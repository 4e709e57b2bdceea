//! The training loss (loink-math.md §4):
//! L = w_task · mean_i ‖G₁(x̃_i) − ỹ_i‖² + w_cost · mean_i (ĉ(x̃_i) − J̃_i)²,
//! on normalised data; task : cost = 10 : 1 by default (at 1 : 1 the prototype's task error
//! stayed at 0.4 m).

use burn::tensor::{Device, Tensor, TensorData};

use super::data::NormalisedSet;
use super::model::LoinkNet;

/// Loss weights.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LossWeights {
    /// w_task.
    pub task: f64,
    /// w_cost.
    pub cost: f64,
}

/// One batch as tensors.
pub struct Batch {
    /// x̃, B × n.
    pub x: Tensor<2>,
    /// ỹ, B × m.
    pub y: Tensor<2>,
    /// J̃, B × 1.
    pub cost: Tensor<2>,
}

impl Batch {
    /// Gathers rows `indices` of `set` onto `device`.
    pub fn gather(set: &NormalisedSet, indices: &[usize], device: &Device) -> Self {
        let (n, m) = (set.dof, set.task_dim);
        let b = indices.len();
        let mut x = Vec::with_capacity(b * n);
        let mut y = Vec::with_capacity(b * m);
        let mut c = Vec::with_capacity(b);
        for &i in indices {
            x.extend_from_slice(&set.x[i * n..(i + 1) * n]);
            y.extend_from_slice(&set.y[i * m..(i + 1) * m]);
            c.push(set.cost[i]);
        }
        Self {
            x: Tensor::from_data(TensorData::new(x, [b, n]), device),
            y: Tensor::from_data(TensorData::new(y, [b, m]), device),
            cost: Tensor::from_data(TensorData::new(c, [b, 1]), device),
        }
    }
}

/// The loss terms of one batch (tensors, so the total can be differentiated).
pub struct LossTerms {
    /// mean ‖G₁ − ỹ‖².
    pub task: Tensor<1>,
    /// mean (ĉ − J̃)².
    pub cost: Tensor<1>,
    /// Weighted total.
    pub total: Tensor<1>,
}

/// Evaluates the loss of `model` on `batch`.
pub fn loss(model: &LoinkNet, batch: &Batch, weights: LossWeights) -> LossTerms {
    let out = model.forward(batch.x.clone());
    let task = (out.task - batch.y.clone()).square().sum_dim(1).mean();
    let cost = (out.cost - batch.cost.clone()).square().mean();
    let total = task.clone().mul_scalar(weights.task) + cost.clone().mul_scalar(weights.cost);
    LossTerms { task, cost, total }
}

/// Mean squared errors (task, cost) of `model` over a whole set, in normalised units, computed
/// in chunks without autodiff.
pub fn evaluate(
    model: &LoinkNet,
    set: &NormalisedSet,
    device: &Device,
    chunk: usize,
) -> (f64, f64) {
    let (mut task, mut cost) = (0.0, 0.0);
    let all: Vec<usize> = (0..set.len()).collect();
    for idx in all.chunks(chunk.max(1)) {
        let batch = Batch::gather(set, idx, device);
        let out = model.forward(batch.x);
        let t: f32 = (out.task - batch.y).square().sum().into_scalar();
        let c: f32 = (out.cost - batch.cost).square().sum().into_scalar();
        task += f64::from(t);
        cost += f64::from(c);
    }
    let len = set.len().max(1) as f64;
    (task / len, cost / len)
}
