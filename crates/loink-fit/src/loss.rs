//! The training loss (loink-math.md §4):
//! L = w_task · mean_i ‖G₁(x̃_i) − ỹ_i‖² + w_cost · mean_i (ĉ(x̃_i) − J̃_i)²,
//! on normalised data; task : cost = 10 : 1 by default (at 1 : 1 the prototype's task error
//! stayed at 0.4 m). `--task-loss norm` puts the task error in unsquared (see [`TaskLoss`]).

use burn::tensor::{Device, Tensor, TensorData};

use super::data::NormalisedSet;
use super::model::{Forward, LoinkNet};

/// How the task error e_i = G₁(x̃_i) − ỹ_i enters the loss.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
pub enum TaskLoss {
    /// mean ‖e_i‖²: a sample pulls in proportion to its error, so the tails dominate.
    Squared,
    /// mean (√(‖e_i‖² + δ²) − δ) with δ = 1e-4 (normalised): every sample pulls with the same
    /// force, so the typical error counts as much as the tails (the page's drag bar is on the
    /// typical unrefined residual).
    Norm,
}

/// δ of [`TaskLoss::Norm`], in normalised task units (about 0.06 mm on planar3): keeps the
/// gradient continuous at e = 0.
pub const NORM_SMOOTHING: f64 = 1e-4;

/// Loss weights and the task term's form.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LossWeights {
    /// w_task.
    pub task: f64,
    /// w_cost.
    pub cost: f64,
    /// The task term.
    pub task_loss: TaskLoss,
}

impl LossWeights {
    /// The weighted total of a whole set's [`SetLoss`] (the validation criterion).
    pub fn total(&self, set: &SetLoss) -> f64 {
        let task = match self.task_loss {
            TaskLoss::Squared => set.task_mse,
            TaskLoss::Norm => set.task_norm,
        };
        self.task * task + self.cost * set.cost_mse
    }
}

/// Loss terms of a whole set, in normalised units.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SetLoss {
    /// mean ‖e_i‖².
    pub task_mse: f64,
    /// mean (√(‖e_i‖² + δ²) − δ).
    pub task_norm: f64,
    /// mean (ĉ − J̃)².
    pub cost_mse: f64,
}

/// One batch as tensors.
pub struct Batch {
    /// x̃, B × n.
    pub x: Tensor<2>,
    /// ỹ, B × m.
    pub y: Tensor<2>,
    /// J̃, B × 1.
    pub cost: Tensor<2>,
    /// Per-row weights of the task term (B × 1), or none for all ones.
    pub task_weight: Option<Tensor<2>>,
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
            task_weight: None,
        }
    }

    /// [`Batch::gather`], with the task error of every row whose index is at least `from`
    /// weighted by `weight` (the others by 1). A weight of 1 adds no tensor, so a run that
    /// leaves it at 1 computes exactly what it did before the weights existed.
    pub fn gather_weighted(
        set: &NormalisedSet,
        indices: &[usize],
        device: &Device,
        from: usize,
        weight: f64,
    ) -> Self {
        let mut batch = Self::gather(set, indices, device);
        if weight != 1.0 {
            let w: Vec<f32> = indices
                .iter()
                .map(|&i| if i >= from { weight as f32 } else { 1.0 })
                .collect();
            batch.task_weight = Some(Tensor::from_data(
                TensorData::new(w, [indices.len(), 1]),
                device,
            ));
        }
        batch
    }
}

/// The loss terms of one batch (tensors, so the total can be differentiated).
pub struct LossTerms {
    /// The task term ([`TaskLoss`]).
    pub task: Tensor<1>,
    /// mean (ĉ − J̃)².
    pub cost: Tensor<1>,
    /// Weighted total.
    pub total: Tensor<1>,
}

/// √(‖e‖² + δ²) − δ per row, from the rows' ‖e‖² (B × 1).
fn smoothed_norm(squared: Tensor<2>) -> Tensor<2> {
    let delta = NORM_SMOOTHING;
    squared.add_scalar(delta * delta).sqrt().sub_scalar(delta)
}

/// Evaluates the loss of `model` on `batch`.
pub fn loss(model: &LoinkNet, batch: &Batch, weights: LossWeights) -> LossTerms {
    terms(model.forward(batch.x.clone()), batch, weights)
}

/// The loss terms of one forward pass `out` of `batch`.
fn terms(out: Forward, batch: &Batch, weights: LossWeights) -> LossTerms {
    let squared = (out.task - batch.y.clone()).square().sum_dim(1);
    let per_row = match weights.task_loss {
        TaskLoss::Squared => squared,
        TaskLoss::Norm => smoothed_norm(squared),
    };
    let task = match &batch.task_weight {
        None => per_row.mean(),
        Some(w) => (per_row * w.clone()).mean(),
    };
    let cost = (out.cost - batch.cost.clone()).square().mean();
    let total = task.clone().mul_scalar(weights.task) + cost.clone().mul_scalar(weights.cost);
    LossTerms { task, cost, total }
}

/// The loss of a batch of anchors (rows at their target's optimum): the batch's own task and
/// cost terms, plus `latent` × mean ‖G₂(x̃\*)‖², which pins the optimum to the latent origin.
pub fn anchor_loss(
    model: &LoinkNet,
    batch: &Batch,
    weights: LossWeights,
    latent: f64,
) -> Tensor<1> {
    let out = model.forward(batch.x.clone());
    let pinned = out.latent.clone();
    let total = terms(out, batch, weights).total;
    match pinned {
        Some(z) => total + z.square().sum_dim(1).mean().mul_scalar(latent),
        None => total,
    }
}

/// The [`SetLoss`] of `model` over a whole set, computed in chunks without autodiff.
pub fn evaluate(model: &LoinkNet, set: &NormalisedSet, device: &Device, chunk: usize) -> SetLoss {
    let (mut task, mut norm, mut cost) = (0.0, 0.0, 0.0);
    let all: Vec<usize> = (0..set.len()).collect();
    for idx in all.chunks(chunk.max(1)) {
        let batch = Batch::gather(set, idx, device);
        let out = model.forward(batch.x);
        let errors = (out.task - batch.y).square();
        let t: f32 = errors.clone().sum().into_scalar();
        let squared = errors.sum_dim(1);
        let r: f32 = smoothed_norm(squared).sum().into_scalar();
        let c: f32 = (out.cost - batch.cost).square().sum().into_scalar();
        task += f64::from(t);
        norm += f64::from(r);
        cost += f64::from(c);
    }
    let len = set.len().max(1) as f64;
    SetLoss {
        task_mse: task / len,
        task_norm: norm / len,
        cost_mse: cost / len,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{cpu_device, Architecture};
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    fn set(rows: usize) -> NormalisedSet {
        NormalisedSet {
            dof: 3,
            task_dim: 2,
            x: (0..rows * 3).map(|k| (k as f32 * 0.37).sin()).collect(),
            y: (0..rows * 2).map(|k| (k as f32 * 0.11).cos()).collect(),
            cost: (0..rows).map(|k| k as f32 * 0.1).collect(),
        }
    }

    #[test]
    fn surface_rows_weigh_their_task_error_and_a_unit_weight_adds_nothing() {
        let device = cpu_device();
        let arch = Architecture {
            dof: 3,
            task_dim: 2,
            mu: 0.05,
            nu: 20.0,
            depth: 1,
            hidden: vec![4],
            head_hidden: vec![4],
            metric_eps: 1e-3,
        };
        let net = LoinkNet::new(&arch, &mut ChaCha8Rng::seed_from_u64(1), &device);
        let data = set(6);
        let rows = [0, 4, 1, 5];
        let weights = LossWeights {
            task: 1.0,
            cost: 0.0,
            task_loss: TaskLoss::Norm,
        };
        let scalar = |t: Tensor<1>| -> f64 {
            let v: f32 = t.into_scalar();
            f64::from(v)
        };

        let unit = Batch::gather_weighted(&data, &rows, &device, 4, 1.0);
        assert!(unit.task_weight.is_none());
        let plain = scalar(loss(&net, &Batch::gather(&data, &rows, &device), weights).task);
        assert_eq!(scalar(loss(&net, &unit, weights).task), plain);

        // Rows 4 and 5 (index ≥ 4) count three times: the mean is (e₀ + 3e₄ + e₁ + 3e₅)/4.
        let per_row =
            |i: usize| scalar(loss(&net, &Batch::gather(&data, &[i], &device), weights).task);
        let expected = (per_row(0) + 3.0 * per_row(4) + per_row(1) + 3.0 * per_row(5)) / 4.0;
        let weighted = Batch::gather_weighted(&data, &rows, &device, 4, 3.0);
        let got = scalar(loss(&net, &weighted, weights).task);
        assert!(
            (got - expected).abs() <= 1e-6 * expected.abs(),
            "{got} vs {expected}"
        );
        assert!(got > plain);
    }
}
