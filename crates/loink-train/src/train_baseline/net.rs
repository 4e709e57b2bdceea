//! The baseline network (a tanh MLP, the trainer's [`model::Mlp`]) and its two losses.

use burn::module::Param;
use burn::tensor::activation::log_softmax;
use burn::tensor::{Device, Tensor, TensorData};
use rand::Rng;
use rand_chacha::ChaCha8Rng;

use crate::train::model;

/// Lower clamp of log σ (normalised units): keeps the likelihood finite on exact data.
const MIN_LOG_SIGMA: f64 = -9.0;

/// A batch: ỹ (B × m) and x̃ (B × n).
pub struct Tensors {
    /// Inputs ỹ.
    pub y: Tensor<2>,
    /// Targets x̃.
    pub x: Tensor<2>,
}

impl Tensors {
    /// Gathers rows `indices` of the row-major arrays onto `device`.
    pub fn gather(
        y: &[f32],
        x: &[f32],
        [m, n]: [usize; 2],
        indices: &[usize],
        device: &Device,
    ) -> Self {
        let b = indices.len();
        let mut ys = Vec::with_capacity(m * b);
        let mut xs = Vec::with_capacity(n * b);
        for &i in indices {
            ys.extend_from_slice(&y[m * i..m * (i + 1)]);
            xs.extend_from_slice(&x[n * i..n * (i + 1)]);
        }
        Self {
            y: Tensor::from_data(TensorData::new(ys, [b, m]), device),
            x: Tensor::from_data(TensorData::new(xs, [b, n]), device),
        }
    }
}

/// A freshly initialised MLP m → hidden… → outputs (uniform ±1/√fan-in, seeded).
pub fn new_mlp(
    rng: &mut ChaCha8Rng,
    inputs: usize,
    hidden: &[usize],
    outputs: usize,
    device: &Device,
) -> model::Mlp {
    let mut sizes = vec![inputs];
    sizes.extend_from_slice(hidden);
    sizes.push(outputs);
    let layers = sizes
        .windows(2)
        .map(|io| {
            let bound = 1.0 / (io[0] as f64).sqrt();
            let mut draw = |len: usize| -> Vec<f32> {
                (0..len)
                    .map(|_| rng.random_range(-bound..bound) as f32)
                    .collect()
            };
            let w = draw(io[0] * io[1]);
            let b = draw(io[1]);
            model::Dense {
                w: Param::from_tensor(Tensor::from_data(
                    TensorData::new(w, [io[1], io[0]]),
                    device,
                )),
                b: Param::from_tensor(Tensor::from_data(TensorData::new(b, [io[1]]), device)),
            }
        })
        .collect();
    model::Mlp { layers }
}

/// mean ‖f(ỹ) − x̃‖².
pub fn mse_loss(net: &model::Mlp, batch: &Tensors) -> Tensor<1> {
    (net.forward(batch.y.clone()) - batch.x.clone())
        .square()
        .sum_dim(1)
        .mean()
}

/// mean −log Σ_k π_k N(x̃ | μ_k, diag σ_k²) over the batch (K components, n joints), with
/// the output laid out as K logits, K·n means, K·n log σ (component-major).
pub fn mdn_loss(net: &model::Mlp, batch: &Tensors, k: usize, n: usize) -> Tensor<1> {
    let out = net.forward(batch.y.clone());
    let [b, _] = out.dims();
    let log_pi = log_softmax(out.clone().narrow(1, 0, k), 1);
    let mean: Tensor<3> = out.clone().narrow(1, k, k * n).reshape([b, k, n]);
    let log_sigma: Tensor<3> = out
        .narrow(1, k + k * n, k * n)
        .reshape([b, k, n])
        .clamp_min(MIN_LOG_SIGMA);
    let x: Tensor<3> = batch.x.clone().unsqueeze_dim(1);
    let z = (x - mean) * log_sigma.clone().neg().exp();
    let half_log_tau = 0.5 * (std::f64::consts::TAU).ln();
    let log_normal: Tensor<2> = (z.square().mul_scalar(-0.5) - log_sigma)
        .sum_dim(2)
        .reshape([b, k])
        .sub_scalar(half_log_tau * n as f64);
    let a = log_pi + log_normal;
    let top = a.clone().max_dim(1);
    let lse = top.clone() + (a - top).exp().sum_dim(1).log();
    lse.neg().mean()
}
