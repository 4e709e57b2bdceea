//! The flow in burn: B affine coupling blocks on a batch, in the normalising direction
//! (x̃ → z), and its negative log-likelihood (the same maps as `loink::flow`, which samples).

use burn::module::{Module, Param};
use burn::tensor::activation::tanh;
use burn::tensor::{Device, Tensor, TensorData};
use rand::seq::SliceRandom;
use rand::Rng;
use rand_chacha::ChaCha8Rng;

use crate::train::model::{Dense, Mlp};

/// One coupling block: its permutation (as a matrix, u = x̃ P) and its conditioner.
#[derive(Module, Debug)]
pub struct Coupling {
    /// The conditioner [u_a; ỹ] ↦ [s_raw; t].
    pub net: Mlp,
}

/// The trainable flow.
#[derive(Module, Debug)]
pub struct FlowNet {
    /// The blocks in the normalising direction.
    pub blocks: Vec<Coupling>,
}

/// The flow's fixed (not trained) parts: the permutations and the shapes.
#[derive(Debug, Clone)]
pub struct Layout {
    /// Joints n.
    pub dof: usize,
    /// Task dimension m.
    pub task_dim: usize,
    /// π per block: u_i = x̃[π_i].
    pub permutations: Vec<Vec<usize>>,
    /// Soft clamp c of the log-scales.
    pub clamp: f64,
}

impl Layout {
    /// `blocks` seeded random permutations of 0..n (each differs from the identity for n > 1).
    pub fn new(
        dof: usize,
        task_dim: usize,
        blocks: usize,
        clamp: f64,
        rng: &mut ChaCha8Rng,
    ) -> Self {
        let permutations = (0..blocks)
            .map(|_| {
                let identity: Vec<usize> = (0..dof).collect();
                let mut p = identity.clone();
                while dof > 1 && p == identity {
                    p.shuffle(rng);
                }
                p
            })
            .collect();
        Self {
            dof,
            task_dim,
            permutations,
            clamp,
        }
    }

    fn half(&self) -> usize {
        self.dof / 2
    }

    /// u = x̃ P for block k's permutation.
    fn permutation_matrix(&self, k: usize, device: &Device) -> Tensor<2> {
        let n = self.dof;
        let mut p = vec![0.0f32; n * n];
        for (i, &from) in self.permutations[k].iter().enumerate() {
            p[from * n + i] = 1.0;
        }
        Tensor::from_data(TensorData::new(p, [n, n]), device)
    }
}

/// A fresh flow: each conditioner (⌊n/2⌋ + m) → hidden… → 2(n − ⌊n/2⌋), uniform ±1/√fan-in,
/// its last layer zero so the untrained flow is the identity (a stable start for likelihood
/// training).
pub fn new_flow(
    rng: &mut ChaCha8Rng,
    layout: &Layout,
    hidden: &[usize],
    device: &Device,
) -> FlowNet {
    let half = layout.half();
    let mut sizes = vec![half + layout.task_dim];
    sizes.extend_from_slice(hidden);
    sizes.push(2 * (layout.dof - half));
    let blocks = layout
        .permutations
        .iter()
        .map(|_| {
            let count = sizes.len() - 1;
            let layers = sizes
                .windows(2)
                .enumerate()
                .map(|(k, io)| {
                    let bound = if k + 1 == count {
                        0.0
                    } else {
                        1.0 / (io[0] as f64).sqrt()
                    };
                    let mut draw = |len: usize| -> Vec<f32> {
                        (0..len)
                            .map(|_| {
                                if bound > 0.0 {
                                    rng.random_range(-bound..bound) as f32
                                } else {
                                    0.0
                                }
                            })
                            .collect()
                    };
                    let w = draw(io[0] * io[1]);
                    let b = draw(io[1]);
                    Dense {
                        w: Param::from_tensor(Tensor::from_data(
                            TensorData::new(w, [io[1], io[0]]),
                            device,
                        )),
                        b: Param::from_tensor(Tensor::from_data(
                            TensorData::new(b, [io[1]]),
                            device,
                        )),
                    }
                })
                .collect();
            Coupling {
                net: Mlp { layers },
            }
        })
        .collect();
    FlowNet { blocks }
}

impl FlowNet {
    /// z = F(x̃; ỹ) and log |det ∂z/∂x̃| per row (B × n, B).
    pub fn encode(&self, layout: &Layout, x: Tensor<2>, y: Tensor<2>) -> (Tensor<2>, Tensor<1>) {
        let device = x.device();
        let [b, n] = x.dims();
        let half = layout.half();
        let rest = n - half;
        let mut v = x;
        let mut log_det: Tensor<1> = Tensor::zeros([b], &device);
        for (k, block) in self.blocks.iter().enumerate() {
            let u = v.matmul(layout.permutation_matrix(k, &device));
            let u_a = u.clone().narrow(1, 0, half);
            let u_b = u.narrow(1, half, rest);
            let out = block
                .net
                .forward(Tensor::cat(vec![u_a.clone(), y.clone()], 1));
            let c = layout.clamp;
            let s = tanh(out.clone().narrow(1, 0, rest).div_scalar(c)).mul_scalar(c);
            let t = out.narrow(1, rest, rest);
            let moved = (u_b - t) * s.clone().neg().exp();
            log_det = log_det - s.sum_dim(1).reshape([b]);
            v = Tensor::cat(vec![u_a, moved], 1);
        }
        (v, log_det)
    }

    /// Mean −log p(x̃ | ỹ) over the batch (nats, normalised units).
    pub fn nll(&self, layout: &Layout, x: Tensor<2>, y: Tensor<2>) -> Tensor<1> {
        let n = layout.dof as f64;
        let (z, log_det) = self.encode(layout, x, y);
        let [b, _] = z.dims();
        let half_log_tau = 0.5 * std::f64::consts::TAU.ln();
        (z.square().sum_dim(1).reshape([b]).mul_scalar(0.5) - log_det)
            .add_scalar(n * half_log_tau)
            .mean()
    }
}
