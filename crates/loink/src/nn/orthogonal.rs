//! Orthogonal layer O(x) = R x + b with R square and RᵀR = I; inverse x = R⁻¹(u − b).
//! An isometry, so it never changes the network's Lipschitz bounds.
//!
//! R⁻¹ is computed once (LU) rather than taken as Rᵀ: a trained R is orthogonal only to f32
//! precision (the loader accepts max |RᵀR − I| ≤ 1e-5), and Rᵀ would then leave a round-trip
//! error of that size while every monotone layer reports convergence to 1e-10.

use ndarray::{Array1, Array2};
use rand::Rng;

use super::cayley::cayley;
use super::linalg::{mat_vec, solve};
use crate::error::{LoinkError, Result};

/// u = R x + b.
#[derive(Debug, Clone, PartialEq)]
pub struct OrthogonalLayer {
    r: Array2<f64>,
    b: Array1<f64>,
    /// R row-major, for the allocation-free kernels.
    r_flat: Vec<f64>,
    /// R⁻¹ row-major (Rᵀ when R is numerically singular, which a validated R never is).
    r_inv_flat: Vec<f64>,
    /// An upper bound on ‖R‖₂ (1 up to the stored precision), for the inverse's residual bound.
    norm: f64,
}

impl OrthogonalLayer {
    /// Builds the layer from explicit R (n × n) and b (n). Checks shapes and finiteness only;
    /// orthogonality is the artifact validator's job (it needs a tolerance and a field path).
    pub fn new(r: Array2<f64>, b: Array1<f64>) -> Result<Self> {
        let n = b.len();
        if r.dim() != (n, n) || n == 0 {
            return Err(LoinkError::Dimension {
                what: "orthogonal layer R".into(),
                expected: n,
                got: r.nrows(),
            });
        }
        if r.iter().chain(b.iter()).any(|v| !v.is_finite()) {
            return Err(LoinkError::NonFinite {
                what: "orthogonal layer".into(),
                value: f64::NAN,
            });
        }
        let r_flat = r.iter().copied().collect();
        let r_inv_flat = solve(&r, &Array2::eye(n))
            .filter(|inv| inv.iter().all(|v| v.is_finite()))
            .unwrap_or_else(|| r.t().to_owned())
            .iter()
            .copied()
            .collect();
        let norm = super::linalg::spectral_norm_bound(&r);
        Ok(Self {
            r,
            b,
            r_flat,
            r_inv_flat,
            norm,
        })
    }

    /// A random layer: R = cayley(W) with W entries uniform in [−1, 1], b uniform in [−0.5, 0.5].
    pub fn random<G: Rng>(n: usize, rng: &mut G) -> Result<Self> {
        let w = Array2::from_shape_fn((n, n), |_| rng.random_range(-1.0..1.0));
        let b = Array1::from_shape_fn(n, |_| rng.random_range(-0.5..0.5));
        Self::new(cayley(&w)?, b)
    }

    /// Width n.
    pub fn dim(&self) -> usize {
        self.b.len()
    }
    /// An upper bound on ‖R‖₂: 1 for an exactly orthogonal R, within about n times the
    /// loader's orthogonality tolerance of 1 for a stored one.
    pub fn norm(&self) -> f64 {
        self.norm
    }
    /// R.
    pub fn r(&self) -> &Array2<f64> {
        &self.r
    }
    /// b.
    pub fn b(&self) -> &Array1<f64> {
        &self.b
    }

    /// out = R x + b (slices of length n).
    #[inline]
    pub fn forward_into(&self, x: &[f64], out: &mut [f64]) {
        mat_vec(&self.r_flat, self.dim(), x, out);
        for (o, b) in out.iter_mut().zip(self.b.iter()) {
            *o += b;
        }
    }

    /// out = R⁻¹(u − b), using `scratch` (n) for u − b.
    #[inline]
    pub fn inverse_into(&self, u: &[f64], scratch: &mut [f64], out: &mut [f64]) {
        for ((s, ui), b) in scratch.iter_mut().zip(u).zip(self.b.iter()) {
            *s = ui - b;
        }
        mat_vec(&self.r_inv_flat, self.dim(), scratch, out);
    }
}
