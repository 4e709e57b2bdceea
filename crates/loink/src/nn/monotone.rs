//! Monotone Lipschitz layer F (loink-math.md §2), input size n, hidden blocks n₁..n_L
//! (N = Σ n_k), bounds 0 < μ_l < ν_l, γ = ν_l − μ_l:
//!
//! z₁ = ReLU(√(2γ) S₁x + b₁), z_k = ReLU(V_k z_{k−1} + √(2γ) S_k x + b_k),
//! F(x) = μ_l x + √(γ/2) Sᵀz + b_y.
//!
//! With S Sᵀ ⪯ I − ½(V + Vᵀ) (true by the Cayley construction, checked by the artifact
//! validator) F is μ_l-strongly monotone and ν_l-Lipschitz. The two inverses live in
//! [`super::dys`] and [`super::newton`]; both use the preallocated [`MonotoneState`].

use ndarray::{s, Array1, Array2};
use rand::Rng;

use super::cayley::cayley;
use super::linalg::axpy;
pub use super::monotone_state::{ActiveSet, MonotoneState};
use crate::error::{LoinkError, Result};

/// Largest total hidden size N accepted (bounds the work a hostile file can ask for).
pub const MAX_HIDDEN_TOTAL: usize = 1024;

/// One monotone Lipschitz layer on explicit matrices.
#[derive(Debug, Clone, PartialEq)]
pub struct MonotoneLayer {
    pub(crate) n: usize,
    pub(crate) hidden: Vec<usize>,
    /// Row offset of each block in S and z (L + 1 entries, last = N).
    pub(crate) offsets: Vec<usize>,
    pub(crate) mu: f64,
    pub(crate) gamma: f64,
    s: Array2<f64>,
    v: Vec<Array2<f64>>,
    b_hidden: Array1<f64>,
    b_out: Array1<f64>,
    /// S row-major (N × n).
    pub(crate) s_flat: Vec<f64>,
    /// S column-major (Sᵀ row-major, n × N), for the Newton Jacobian.
    pub(crate) s_cols: Vec<f64>,
    /// √(2γ)·S column-major (n columns of N).
    pub(crate) s_in_cols: Vec<f64>,
    /// V_k column-major (n_{k−1} columns of n_k) for k = 2..L: the kernels run as column
    /// updates (axpy), which vectorise and skip inactive (zero) inputs.
    pub(crate) v_cols: Vec<Vec<f64>>,
    /// V_k row-major (n_k rows of n_{k−1}) for k = 2..L: the Newton Jacobian reads one row per
    /// active unit, at the active units of the block before.
    pub(crate) v_rows: Vec<Vec<f64>>,
    pub(crate) b_hidden_flat: Vec<f64>,
    pub(crate) b_out_flat: Vec<f64>,
    /// √(γ/2).
    pub(crate) out_scale: f64,
}

impl MonotoneLayer {
    /// Builds a layer from explicit matrices, checking shapes, finiteness and 0 < μ_l, 0 < γ.
    /// (The certificate S Sᵀ ⪯ I − ½(V+Vᵀ) is checked by the artifact validator.)
    pub fn new(
        mu: f64,
        gamma: f64,
        hidden: Vec<usize>,
        s: Array2<f64>,
        v: Vec<Array2<f64>>,
        b_hidden: Array1<f64>,
        b_out: Array1<f64>,
    ) -> Result<Self> {
        let range = |what: &str, detail: String| LoinkError::OutOfRange {
            what: what.into(),
            detail,
        };
        if !(mu > 0.0 && mu.is_finite() && gamma > 0.0 && gamma.is_finite()) {
            return Err(range("monotone bounds", format!("μ_l = {mu}, γ = {gamma}")));
        }
        let total: usize = hidden.iter().sum();
        if hidden.is_empty() || hidden.contains(&0) || total > MAX_HIDDEN_TOTAL {
            return Err(range(
                "hidden blocks",
                format!("{hidden:?} (non-empty, positive, Σ ≤ {MAX_HIDDEN_TOTAL})"),
            ));
        }
        let n = b_out.len();
        let dim = |what: &str, expected: usize, got: usize| LoinkError::Dimension {
            what: what.into(),
            expected,
            got,
        };
        if n == 0 || s.dim() != (total, n) {
            return Err(dim("monotone S rows", total, s.nrows()));
        }
        if b_hidden.len() != total {
            return Err(dim("monotone b_hidden", total, b_hidden.len()));
        }
        if v.len() != hidden.len() - 1 {
            return Err(dim("monotone V blocks", hidden.len() - 1, v.len()));
        }
        for (k, vk) in v.iter().enumerate() {
            if vk.dim() != (hidden[k + 1], hidden[k]) {
                return Err(dim("monotone V block rows", hidden[k + 1], vk.nrows()));
            }
        }
        let finite = s
            .iter()
            .chain(b_hidden.iter())
            .chain(b_out.iter())
            .all(|x| x.is_finite())
            && v.iter().all(|vk| vk.iter().all(|x| x.is_finite()));
        if !finite {
            return Err(LoinkError::NonFinite {
                what: "monotone layer".into(),
                value: f64::NAN,
            });
        }
        let mut offsets = vec![0];
        for h in &hidden {
            offsets.push(offsets[offsets.len() - 1] + h);
        }
        let s_flat: Vec<f64> = s.iter().copied().collect();
        let root = (2.0 * gamma).sqrt();
        Ok(Self {
            n,
            offsets,
            mu,
            gamma,
            s_in_cols: s.t().iter().map(|x| root * x).collect(),
            s_cols: s.t().iter().copied().collect(),
            s_flat,
            v_cols: v
                .iter()
                .map(|vk| vk.t().iter().copied().collect())
                .collect(),
            v_rows: v.iter().map(|vk| vk.iter().copied().collect()).collect(),
            b_hidden_flat: b_hidden.to_vec(),
            b_out_flat: b_out.to_vec(),
            out_scale: (gamma / 2.0).sqrt(),
            hidden,
            s,
            v,
            b_hidden,
            b_out,
        })
    }

    /// The Cayley construction from free parameters (loink-math.md §2):
    /// Q = cayley(`f_q`) with `f_q` ∈ R^{N×n} (so Q ∈ R^{N×n}, QᵀQ = I; this is the transpose of
    /// the note's Qᵀ = cayley(F_q) with F_q = `f_q`ᵀ), [A_kᵀ; B_kᵀ] = cayley(F_k) with
    /// F_k = `f_blocks[k]` ∈ R^{(n_k+n_{k−1})×n_k}; S₁ = A₁Q₁, S_k = A_kQ_k − B_kQ_{k−1},
    /// V_k = 2B_kA_{k−1}ᵀ. The result satisfies the certificate up to rounding.
    #[allow(clippy::too_many_arguments)]
    pub fn from_free(
        mu: f64,
        gamma: f64,
        hidden: Vec<usize>,
        f_q: &Array2<f64>,
        f_blocks: &[Array2<f64>],
        b_hidden: Array1<f64>,
        b_out: Array1<f64>,
    ) -> Result<Self> {
        let n = b_out.len();
        let total: usize = hidden.iter().sum();
        if f_q.dim() != (total, n) || total < n || f_blocks.len() != hidden.len() {
            return Err(LoinkError::Dimension {
                what: "monotone free parameters F_q".into(),
                expected: total,
                got: f_q.nrows(),
            });
        }
        let q = cayley(f_q)?;
        let mut a_blocks: Vec<Array2<f64>> = Vec::with_capacity(hidden.len());
        let mut s = Array2::zeros((total, n));
        let mut v = Vec::new();
        let mut offset = 0;
        for (k, (&nk, fk)) in hidden.iter().zip(f_blocks).enumerate() {
            let prev = if k == 0 { 0 } else { hidden[k - 1] };
            if fk.dim() != (nk + prev, nk) {
                return Err(LoinkError::Dimension {
                    what: format!("monotone free parameters F_{}", k + 1),
                    expected: nk + prev,
                    got: fk.nrows(),
                });
            }
            let c = cayley(fk)?;
            let a = c.slice(s![..nk, ..]).t().to_owned();
            let qk = q.slice(s![offset..offset + nk, ..]);
            let mut sk = a.dot(&qk);
            if k > 0 {
                let b = c.slice(s![nk.., ..]).t().to_owned();
                let q_prev = q.slice(s![offset - prev..offset, ..]);
                sk = sk - b.dot(&q_prev);
                v.push(b.dot(&a_blocks[k - 1].t()).mapv(|x| 2.0 * x));
            }
            s.slice_mut(s![offset..offset + nk, ..]).assign(&sk);
            a_blocks.push(a);
            offset += nk;
        }
        Self::new(mu, gamma, hidden, s, v, b_hidden, b_out)
    }

    /// A random valid layer with bounds μ_l < ν_l: free parameters uniform in [−1, 1], hidden
    /// biases uniform in [−1, 1] (about half the units active), output bias in [−0.5, 0.5].
    pub fn random<G: Rng>(
        n: usize,
        hidden: &[usize],
        mu: f64,
        nu: f64,
        rng: &mut G,
    ) -> Result<Self> {
        let total: usize = hidden.iter().sum();
        let mut uniform =
            |shape: (usize, usize)| Array2::from_shape_fn(shape, |_| rng.random_range(-1.0..1.0));
        let f_q = uniform((total, n));
        let f_blocks: Vec<Array2<f64>> = hidden
            .iter()
            .enumerate()
            .map(|(k, &nk)| uniform((nk + if k == 0 { 0 } else { hidden[k - 1] }, nk)))
            .collect();
        let b_hidden = Array1::from_shape_fn(total, |_| rng.random_range(-1.0..1.0));
        let b_out = Array1::from_shape_fn(n, |_| rng.random_range(-0.5..0.5));
        Self::from_free(
            mu,
            nu - mu,
            hidden.to_vec(),
            &f_q,
            &f_blocks,
            b_hidden,
            b_out,
        )
    }

    /// Input/output width n.
    pub fn dim(&self) -> usize {
        self.n
    }
    /// Total hidden size N.
    pub fn hidden_total(&self) -> usize {
        self.offsets[self.offsets.len() - 1]
    }
    /// Block sizes n₁..n_L.
    pub fn hidden(&self) -> &[usize] {
        &self.hidden
    }
    /// μ_l.
    pub fn mu(&self) -> f64 {
        self.mu
    }
    /// γ = ν_l − μ_l.
    pub fn gamma(&self) -> f64 {
        self.gamma
    }
    /// ν_l = μ_l + γ.
    pub fn nu(&self) -> f64 {
        self.mu + self.gamma
    }
    /// S (N × n).
    pub fn s(&self) -> &Array2<f64> {
        &self.s
    }
    /// V₂..V_L.
    pub fn v(&self) -> &[Array2<f64>] {
        &self.v
    }
    /// Stacked hidden biases.
    pub fn b_hidden(&self) -> &Array1<f64> {
        &self.b_hidden
    }
    /// Output bias b_y.
    pub fn b_out(&self) -> &Array1<f64> {
        &self.b_out
    }

    /// The full strictly block-lower N × N matrix V (for the certificate check).
    pub fn v_full(&self) -> Array2<f64> {
        let total = self.hidden_total();
        let mut full = Array2::zeros((total, total));
        for (k, vk) in self.v.iter().enumerate() {
            let (r0, c0) = (self.offsets[k + 1], self.offsets[k]);
            full.slice_mut(s![r0..r0 + vk.nrows(), c0..c0 + vk.ncols()])
                .assign(vk);
        }
        full
    }

    /// Hidden state z at x (z has N entries): all pre-activations b_h + √(2γ) S x first, then
    /// block by block z_k = ReLU(pre_k + V_k z_{k−1}).
    #[inline]
    pub(crate) fn hidden_into(&self, x: &[f64], z: &mut [f64]) {
        let total = self.hidden_total();
        z.copy_from_slice(&self.b_hidden_flat);
        for (j, &xj) in x.iter().enumerate() {
            axpy(xj, &self.s_in_cols[j * total..(j + 1) * total], z);
        }
        for k in 0..self.hidden.len() {
            let (start, end) = (self.offsets[k], self.offsets[k + 1]);
            let (before, rest) = z.split_at_mut(start);
            let block = &mut rest[..end - start];
            if k > 0 {
                self.add_block_product(k, &before[self.offsets[k - 1]..], 1.0, block);
            }
            for v in block.iter_mut() {
                *v = if *v > 0.0 { *v } else { 0.0 };
            }
        }
    }

    /// out_k += scale · V_k input (input = block k − 1, skipping zero entries), k ≥ 1.
    #[inline]
    pub(crate) fn add_block_product(&self, k: usize, input: &[f64], scale: f64, out: &mut [f64]) {
        let rows = out.len();
        let vk = &self.v_cols[k - 1];
        for (l, &il) in input.iter().enumerate() {
            if il != 0.0 {
                axpy(scale * il, &vk[l * rows..(l + 1) * rows], out);
            }
        }
    }

    /// out = μ_l x + √(γ/2) Sᵀ z + b_y given the hidden state z.
    #[inline]
    pub(crate) fn output_from_hidden(&self, x: &[f64], z: &[f64], out: &mut [f64]) {
        let n = self.n;
        for j in 0..n {
            out[j] = self.mu * x[j] + self.b_out_flat[j];
        }
        for (row, &zi) in self.s_flat.chunks_exact(n).zip(z) {
            if zi != 0.0 {
                let w = self.out_scale * zi;
                for (o, &sij) in out.iter_mut().zip(row) {
                    *o += w * sij;
                }
            }
        }
    }

    /// F(x) into `out`, using `z` (N) as the hidden-state buffer. Slices of the wrong length
    /// give an all-NaN `out` instead of a panic.
    #[inline]
    pub fn forward_with(&self, x: &[f64], z: &mut [f64], out: &mut [f64]) {
        if x.len() != self.n || out.len() != self.n || z.len() != self.hidden_total() {
            out.iter_mut().for_each(|v| *v = f64::NAN);
            return;
        }
        self.hidden_into(x, z);
        self.output_from_hidden(x, z, out);
    }

    /// F(x), allocating (convenience; the solvers use [`Self::forward_with`]).
    pub fn forward(&self, x: &[f64]) -> Vec<f64> {
        let mut z = vec![0.0; self.hidden_total()];
        let mut out = vec![0.0; self.n];
        self.forward_with(x, &mut z, &mut out);
        out
    }

    /// A fresh work and warm-start state sized for this layer.
    pub fn new_state(&self) -> MonotoneState {
        MonotoneState::new(self.n, self.hidden_total(), self.hidden.len())
    }
}
