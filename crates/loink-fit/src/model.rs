//! The LOInK network in burn: BiLipNet G = O_d ∘ F_{d−1} ∘ … ∘ F₀ ∘ O₀ on free parameters
//! (loink-math.md §2) and the M(ỹ), b(ỹ) heads of the surrogate cost (§4).
//!
//! Every constrained matrix is rebuilt from free parameters on each forward pass, so any
//! parameter values give a valid bi-Lipschitz map: R = cayley(wn(W)) for orthogonal layers;
//! Q = cayley(wn(F_q)) and [A_kᵀ; B_kᵀ] = cayley(wn(F_k)) for monotone layers, with
//! S₁ = A₁Q₁, S_k = A_kQ_k − B_kQ_{k−1}, V_k = 2B_kA_{k−1}ᵀ; wn the weight-norm trick.
//! Batches are row-major (B × n), so a layer u = R x + b is computed as X Rᵀ + b.

use burn::module::{Module, Param};
use burn::tensor::activation::{relu, softplus, tanh};
use burn::tensor::{Device, Tensor, TensorData};
use rand::Rng;
use rand_chacha::ChaCha8Rng;
use rand_distr::{Distribution, Normal};

use super::cayley::{cayley, weight_norm};

/// The CPU device training runs on (burn's ndarray backend, f32).
#[allow(deprecated)] // burn 0.22 marks ndarray deprecated in favour of flex; the project trains on ndarray (std, CPU).
pub fn cpu_device() -> Device {
    Device::ndarray()
}

/// Architecture of a LOInK network.
#[derive(Debug, Clone, PartialEq)]
pub struct Architecture {
    /// Joint dimension n (width of G).
    pub dof: usize,
    /// Task dimension m.
    pub task_dim: usize,
    /// Overall bounds μ, ν of G.
    pub mu: f64,
    /// Upper bound ν.
    pub nu: f64,
    /// Number of monotone layers d.
    pub depth: usize,
    /// Hidden block sizes of each monotone layer.
    pub hidden: Vec<usize>,
    /// Hidden widths of the heads.
    pub head_hidden: Vec<usize>,
    /// ε in M = LLᵀ + εI.
    pub metric_eps: f64,
}

impl Architecture {
    /// The small network the tests train: depth 2, two blocks of 8, an 8-wide head, μ = 0.05,
    /// ν = 20 (seconds of training, still a real LOInK model).
    pub fn small(dof: usize, task_dim: usize) -> Self {
        Architecture {
            dof,
            task_dim,
            mu: 0.05,
            nu: 20.0,
            depth: 2,
            hidden: vec![8, 8],
            head_hidden: vec![8],
            metric_eps: 1e-3,
        }
    }

    /// Latent dimension n − m.
    pub fn latent_dim(&self) -> usize {
        self.dof - self.task_dim
    }
    /// Per-layer μ_l = μ^{1/d}.
    pub fn layer_mu(&self) -> f64 {
        self.mu.powf(1.0 / self.depth as f64)
    }
    /// Per-layer ν_l = ν^{1/d}.
    pub fn layer_nu(&self) -> f64 {
        self.nu.powf(1.0 / self.depth as f64)
    }
    /// Outputs of the metric head: the lower triangle of L. With no redundancy (k = 0, M is
    /// 0 × 0) the head keeps one unused output, so every file has the same shape of heads.
    pub fn metric_outputs(&self) -> usize {
        let k = self.latent_dim();
        (k * (k + 1) / 2).max(1)
    }
}

fn tensor2(values: Vec<f32>, shape: [usize; 2], device: &Device) -> Tensor<2> {
    Tensor::from_data(TensorData::new(values, shape), device)
}

fn param2(values: Vec<f32>, shape: [usize; 2], device: &Device) -> Param<Tensor<2>> {
    Param::from_tensor(tensor2(values, shape, device))
}

fn param1(values: Vec<f32>, device: &Device) -> Param<Tensor<1>> {
    let len = values.len();
    Param::from_tensor(Tensor::from_data(TensorData::new(values, [len]), device))
}

fn normal(rng: &mut ChaCha8Rng, len: usize, std: f64) -> Vec<f32> {
    let dist = Normal::new(0.0, std).expect("positive std");
    (0..len).map(|_| dist.sample(rng) as f32).collect()
}

fn uniform(rng: &mut ChaCha8Rng, len: usize, bound: f64) -> Vec<f32> {
    (0..len)
        .map(|_| rng.random_range(-bound..bound) as f32)
        .collect()
}

/// A free Cayley argument with its weight-norm scale a (initialised to ‖W‖_F).
#[derive(Module, Debug)]
pub struct CayleyParam {
    /// Free tall matrix W (p × q).
    pub w: Param<Tensor<2>>,
    /// Weight-norm scale a (one value).
    pub a: Param<Tensor<1>>,
}

impl CayleyParam {
    fn new(rng: &mut ChaCha8Rng, p: usize, q: usize, device: &Device) -> Self {
        let values = normal(rng, p * q, 1.0 / (p as f64).sqrt());
        let norm = values
            .iter()
            .map(|&v| f64::from(v).powi(2))
            .sum::<f64>()
            .sqrt() as f32;
        Self {
            w: param2(values, [p, q], device),
            a: param1(vec![norm], device),
        }
    }
    /// cayley((a/‖W‖)W): p × q with orthonormal columns.
    pub fn matrix(&self) -> Tensor<2> {
        cayley(weight_norm(self.w.val(), self.a.val()))
    }
}

/// Orthogonal layer u = R x + b, R = cayley(wn(W)).
#[derive(Module, Debug)]
pub struct Orthogonal {
    /// Free parameters of R.
    pub r: CayleyParam,
    /// Bias b.
    pub b: Param<Tensor<1>>,
}

impl Orthogonal {
    fn new(rng: &mut ChaCha8Rng, n: usize, device: &Device) -> Self {
        Self {
            r: CayleyParam::new(rng, n, n, device),
            b: param1(vec![0.0; n], device),
        }
    }
    /// X Rᵀ + b on a batch.
    pub fn forward(&self, x: Tensor<2>) -> Tensor<2> {
        x.matmul(self.r.matrix().transpose()) + self.b.val().unsqueeze::<2>()
    }
}

/// S blocks (n_k × n) and V blocks (n_k × n_{k−1}, k ≥ 2) of a monotone layer.
pub struct MonotoneMatrices {
    /// S₁..S_L.
    pub s: Vec<Tensor<2>>,
    /// V₂..V_L.
    pub v: Vec<Tensor<2>>,
}

/// Monotone Lipschitz layer F(x) = μ_l x + √(γ/2) Sᵀz + b_out.
#[derive(Module, Debug)]
pub struct Monotone {
    /// Q = cayley(wn(F_q)), N × n.
    pub q: CayleyParam,
    /// [A_kᵀ; B_kᵀ] = cayley(wn(F_k)), (n_k + n_{k−1}) × n_k.
    pub blocks: Vec<CayleyParam>,
    /// Hidden biases b_k.
    pub b_hidden: Vec<Param<Tensor<1>>>,
    /// Output bias.
    pub b_out: Param<Tensor<1>>,
    /// Block sizes n_k.
    pub hidden: Vec<usize>,
    /// μ_l.
    pub mu: f64,
    /// γ = ν_l − μ_l.
    pub gamma: f64,
}

impl Monotone {
    fn new(rng: &mut ChaCha8Rng, arch: &Architecture, device: &Device) -> Self {
        let n = arch.dof;
        let total: usize = arch.hidden.iter().sum();
        let mut blocks = Vec::new();
        let mut b_hidden = Vec::new();
        let mut previous = 0;
        for &nk in &arch.hidden {
            blocks.push(CayleyParam::new(rng, nk + previous, nk, device));
            b_hidden.push(param1(uniform(rng, nk, 1.0 / (n as f64).sqrt()), device));
            previous = nk;
        }
        let (mu, nu) = (arch.layer_mu(), arch.layer_nu());
        Self {
            q: CayleyParam::new(rng, total, n, device),
            blocks,
            b_hidden,
            b_out: param1(vec![0.0; n], device),
            hidden: arch.hidden.clone(),
            mu,
            gamma: nu - mu,
        }
    }

    /// The explicit S and V blocks.
    pub fn matrices(&self) -> MonotoneMatrices {
        let q = self.q.matrix();
        let mut s = Vec::new();
        let mut v = Vec::new();
        let mut offset = 0;
        let mut previous: Option<(Tensor<2>, Tensor<2>)> = None; // (A_{k−1}, Q_{k−1})
        for (block, &nk) in self.blocks.iter().zip(&self.hidden) {
            let c = block.matrix();
            let a = c.clone().narrow(0, 0, nk).transpose();
            let qk = q.clone().narrow(0, offset, nk);
            offset += nk;
            let sk = match &previous {
                None => a.clone().matmul(qk.clone()),
                Some((a_prev, q_prev)) => {
                    let n_prev = a_prev.dims()[0];
                    let b = c.narrow(0, nk, n_prev).transpose();
                    v.push(b.clone().matmul(a_prev.clone().transpose()).mul_scalar(2.0));
                    a.clone().matmul(qk.clone()) - b.matmul(q_prev.clone())
                }
            };
            s.push(sk);
            previous = Some((a, qk));
        }
        MonotoneMatrices { s, v }
    }

    /// F on a batch.
    pub fn forward(&self, x: Tensor<2>) -> Tensor<2> {
        let m = self.matrices();
        let in_scale = (2.0 * self.gamma).sqrt();
        let out_scale = (self.gamma / 2.0).sqrt();
        let mut z_prev: Option<Tensor<2>> = None;
        let mut acc: Option<Tensor<2>> = None;
        for (k, sk) in m.s.iter().enumerate() {
            let mut h = x
                .clone()
                .matmul(sk.clone().transpose())
                .mul_scalar(in_scale)
                + self.b_hidden[k].val().unsqueeze::<2>();
            if let Some(z) = z_prev {
                h = h + z.matmul(m.v[k - 1].clone().transpose());
            }
            let z = relu(h);
            let term = z.clone().matmul(sk.clone());
            acc = Some(match acc {
                None => term,
                Some(a) => a + term,
            });
            z_prev = Some(z);
        }
        let out = x.mul_scalar(self.mu) + self.b_out.val().unsqueeze::<2>();
        match acc {
            Some(a) => out + a.mul_scalar(out_scale),
            None => out,
        }
    }
}

/// Dense layer out = W in + b (W is out × in).
#[derive(Module, Debug)]
pub struct Dense {
    /// W.
    pub w: Param<Tensor<2>>,
    /// b.
    pub b: Param<Tensor<1>>,
}

/// A small tanh MLP (the last layer is linear).
#[derive(Module, Debug)]
pub struct Mlp {
    /// Layers in order.
    pub layers: Vec<Dense>,
}

impl Mlp {
    fn new(
        rng: &mut ChaCha8Rng,
        input: usize,
        hidden: &[usize],
        output: usize,
        device: &Device,
    ) -> Self {
        let mut sizes = vec![input];
        sizes.extend_from_slice(hidden);
        sizes.push(output);
        let layers = sizes
            .windows(2)
            .map(|io| {
                let bound = 1.0 / (io[0] as f64).sqrt();
                Dense {
                    w: param2(uniform(rng, io[0] * io[1], bound), [io[1], io[0]], device),
                    b: param1(uniform(rng, io[1], bound), device),
                }
            })
            .collect();
        Self { layers }
    }

    /// The MLP on a batch (B × input → B × output).
    pub fn forward(&self, mut x: Tensor<2>) -> Tensor<2> {
        let last = self.layers.len() - 1;
        for (i, layer) in self.layers.iter().enumerate() {
            x = x.matmul(layer.w.val().transpose()) + layer.b.val().unsqueeze::<2>();
            if i < last {
                x = tanh(x);
            }
        }
        x
    }
}

/// The whole trainable model: G plus the surrogate-cost heads.
#[derive(Module, Debug)]
pub struct LoinkNet {
    /// O₀..O_d.
    pub orthogonal: Vec<Orthogonal>,
    /// F₀..F_{d−1}.
    pub monotone: Vec<Monotone>,
    /// M(ỹ) head (lower triangle of L).
    pub metric_head: Mlp,
    /// b(ỹ) head.
    pub value_head: Mlp,
    /// m.
    pub task_dim: usize,
    /// ε.
    pub metric_eps: f64,
}

/// What one forward pass gives: G's task part, its latent part and the surrogate cost.
pub struct Forward {
    /// G₁(x̃), B × m.
    pub task: Tensor<2>,
    /// G₂(x̃), B × (n − m); `None` when n = m (no redundancy: G is a bijection onto the task).
    pub latent: Option<Tensor<2>>,
    /// ĉ(x̃), B × 1.
    pub cost: Tensor<2>,
}

impl LoinkNet {
    /// A freshly initialised network; all randomness comes from `rng`.
    pub fn new(arch: &Architecture, rng: &mut ChaCha8Rng, device: &Device) -> Self {
        let mut orthogonal = Vec::new();
        let mut monotone = Vec::new();
        orthogonal.push(Orthogonal::new(rng, arch.dof, device));
        for _ in 0..arch.depth {
            monotone.push(Monotone::new(rng, arch, device));
            orthogonal.push(Orthogonal::new(rng, arch.dof, device));
        }
        let metric_head = Mlp::new(
            rng,
            arch.task_dim,
            &arch.head_hidden,
            arch.metric_outputs(),
            device,
        );
        let value_head = Mlp::new(rng, arch.task_dim, &arch.head_hidden, 1, device);
        Self {
            orthogonal,
            monotone,
            metric_head,
            value_head,
            task_dim: arch.task_dim,
            metric_eps: arch.metric_eps,
        }
    }

    /// G(x̃) on a batch (B × n).
    pub fn bilipnet(&self, x: Tensor<2>) -> Tensor<2> {
        let mut h = self.orthogonal[0].forward(x);
        for (f, o) in self.monotone.iter().zip(&self.orthogonal[1..]) {
            h = o.forward(f.forward(h));
        }
        h
    }

    /// ĉ = zᵀ(LLᵀ + εI)z + b(ỹ) = ‖Lᵀz‖² + ε‖z‖² + b(ỹ), heads evaluated at `task` (B × m).
    pub fn surrogate_cost(&self, task: Tensor<2>, latent: Tensor<2>) -> Tensor<2> {
        let k = latent.dims()[1];
        let entries = self.metric_head.forward(task.clone());
        let value = self.value_head.forward(task);
        let entry = |i: usize, j: usize| {
            let e = entries.clone().narrow(1, i * (i + 1) / 2 + j, 1);
            if i == j {
                softplus(e, 1.0)
            } else {
                e
            }
        };
        let mut quad = latent
            .clone()
            .square()
            .sum_dim(1)
            .mul_scalar(self.metric_eps);
        for j in 0..k {
            // (Lᵀz)_j = Σ_{i ≥ j} L_ij z_i
            let mut lz = entry(j, j) * latent.clone().narrow(1, j, 1);
            for i in j + 1..k {
                lz = lz + entry(i, j) * latent.clone().narrow(1, i, 1);
            }
            quad = quad + lz.square();
        }
        quad + value
    }

    /// The full forward pass on normalised joints x̃ (B × n).
    pub fn forward(&self, x: Tensor<2>) -> Forward {
        let g = self.bilipnet(x);
        let [_, n] = g.dims();
        if n == self.task_dim {
            // k = 0: ĉ = b(ỹ) (burn cannot narrow to an empty latent).
            let cost = self.value_head.forward(g.clone());
            return Forward {
                task: g,
                latent: None,
                cost,
            };
        }
        let task = g.clone().narrow(1, 0, self.task_dim);
        let latent = g.narrow(1, self.task_dim, n - self.task_dim);
        let cost = self.surrogate_cost(task.clone(), latent.clone());
        Forward {
            task,
            latent: Some(latent),
            cost,
        }
    }
}
