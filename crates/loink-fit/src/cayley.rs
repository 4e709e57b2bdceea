//! The Cayley transform (loink-math.md §2), twice: differentiable on burn tensors for training,
//! and in plain f64 for export.
//!
//! For a tall W = [U; V] ∈ R^{p×q} (p ≥ q): Z = U − Uᵀ + VᵀV, and
//! cayley(W) = [(I+Z)⁻¹(I−Z); −2V(I+Z)⁻¹] has orthonormal columns.
//!
//! burn 0.22 has no differentiable linear solve, so (I+Z)⁻¹ is built from differentiable
//! elementary ops: C = (I+Z)⁻¹ is computed numerically outside the graph (f64 Gauss–Jordan on a
//! detached copy) and the graph gets Inv = 2C − C(I+Z)C with C constant. Its value is C (one
//! Newton–Schulz step from the exact inverse, so it even polishes f32 rounding) and its
//! derivative is −C dZ C, the true derivative of (I+Z)⁻¹. `tests::gradient_matches_finite_differences`
//! checks it.

use burn::tensor::{Tensor, TensorData};

/// Inverse of the row-major n × n matrix `a` by Gauss–Jordan elimination with partial pivoting,
/// or `None` when it is (numerically) singular.
pub fn invert_f64(a: &[f64], n: usize) -> Option<Vec<f64>> {
    let mut m = a.to_vec();
    let mut inv = vec![0.0; n * n];
    for i in 0..n {
        inv[i * n + i] = 1.0;
    }
    for col in 0..n {
        let pivot =
            (col..n).max_by(|&r, &s| m[r * n + col].abs().total_cmp(&m[s * n + col].abs()))?;
        let p = m[pivot * n + col];
        if p.is_nan() || p.abs() <= 1e-300 {
            return None;
        }
        if pivot != col {
            for j in 0..n {
                m.swap(pivot * n + j, col * n + j);
                inv.swap(pivot * n + j, col * n + j);
            }
        }
        for j in 0..n {
            m[col * n + j] /= p;
            inv[col * n + j] /= p;
        }
        for r in 0..n {
            let f = m[r * n + col];
            if r != col && f != 0.0 {
                for j in 0..n {
                    m[r * n + j] -= f * m[col * n + j];
                    inv[r * n + j] -= f * inv[col * n + j];
                }
            }
        }
    }
    Some(inv)
}

/// The skew-plus-PSD argument Z = U − Uᵀ + VᵀV of a tall row-major p × q matrix (f64).
fn cayley_argument_f64(w: &[f64], p: usize, q: usize) -> Vec<f64> {
    let mut z = vec![0.0; q * q];
    for i in 0..q {
        for j in 0..q {
            let mut v = w[i * q + j] - w[j * q + i];
            for r in q..p {
                v += w[r * q + i] * w[r * q + j];
            }
            z[i * q + j] = v;
        }
    }
    z
}

/// cayley(W) in f64 for a tall row-major p × q matrix: a p × q matrix with orthonormal columns.
pub fn cayley_f64(w: &[f64], p: usize, q: usize) -> Vec<f64> {
    assert!(
        p >= q && w.len() == p * q,
        "cayley_f64 needs a tall p × q matrix"
    );
    let z = cayley_argument_f64(w, p, q);
    let mut i_plus_z = z.clone();
    for i in 0..q {
        i_plus_z[i * q + i] += 1.0;
    }
    // I + Z = I + skew + PSD is never singular (its symmetric part is ⪰ I).
    let inv = invert_f64(&i_plus_z, q).expect("I + Z is invertible by construction");
    let mut out = vec![0.0; p * q];
    for i in 0..q {
        for j in 0..q {
            // ((I+Z)⁻¹(I−Z))_ij = inv_ij − Σ_k inv_ik z_kj
            let mut v = inv[i * q + j];
            for k in 0..q {
                v -= inv[i * q + k] * z[k * q + j];
            }
            out[i * q + j] = v;
        }
    }
    for r in q..p {
        for j in 0..q {
            let mut v = 0.0;
            for k in 0..q {
                v += w[r * q + k] * inv[k * q + j];
            }
            out[r * q + j] = -2.0 * v;
        }
    }
    out
}

/// Row-major f64 copy of a tensor's values (any rank; f32 values widen exactly).
pub fn values<const D: usize>(t: &Tensor<D>) -> Vec<f64> {
    t.to_data()
        .try_to_vec_as::<f64>()
        .expect("a float tensor converts to f64")
}

/// Row-major f64 copy of a rank-2 tensor.
pub fn to_f64(t: &Tensor<2>) -> Vec<f64> {
    values(t)
}

/// A constant (non-tracked) tensor on `like`'s device from row-major f64 values.
fn constant(values: Vec<f64>, shape: [usize; 2], like: &Tensor<2>) -> Tensor<2> {
    let data: Vec<f32> = values.into_iter().map(|v| v as f32).collect();
    Tensor::from_data(TensorData::new(data, shape), &like.device())
}

/// Differentiable (I + Z)⁻¹ for a square Z whose I + Z is invertible (see the module docs).
pub fn inverse_i_plus(z: Tensor<2>) -> Tensor<2> {
    let [q, _] = z.dims();
    let mut a = to_f64(&z);
    for i in 0..q {
        a[i * q + i] += 1.0;
    }
    let c_values = invert_f64(&a, q).expect("I + Z is invertible by construction");
    let c = constant(c_values, [q, q], &z);
    let i_plus_z = z + Tensor::eye(q, &c.device());
    c.clone().mul_scalar(2.0) - c.clone().matmul(i_plus_z).matmul(c)
}

/// Differentiable cayley(W) for a tall p × q tensor W.
pub fn cayley(w: Tensor<2>) -> Tensor<2> {
    let [p, q] = w.dims();
    let u = w.clone().narrow(0, 0, q);
    let mut z = u.clone() - u.transpose();
    let v = (p > q).then(|| w.narrow(0, q, p - q));
    if let Some(v) = &v {
        z = z + v.clone().transpose().matmul(v.clone());
    }
    let eye = Tensor::eye(q, &z.device());
    let inv = inverse_i_plus(z.clone());
    let top = inv.clone().matmul(eye - z);
    match v {
        Some(v) => Tensor::cat(vec![top, v.matmul(inv).mul_scalar(-2.0)], 0),
        None => top,
    }
}

/// The weight-norm trick on a Cayley argument: (a/‖W‖_F)·W with a learnable scalar a.
pub fn weight_norm(w: Tensor<2>, a: Tensor<1>) -> Tensor<2> {
    let norm = w.clone().square().sum().sqrt();
    w * (a / norm).unsqueeze::<2>()
}

/// The same in f64 for export.
pub fn weight_norm_f64(w: &[f64], a: f64) -> Vec<f64> {
    let norm = w.iter().map(|v| v * v).sum::<f64>().sqrt();
    w.iter().map(|v| v * a / norm).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    fn random(rng: &mut ChaCha8Rng, len: usize) -> Vec<f64> {
        (0..len).map(|_| rng.random_range(-1.0..1.0)).collect()
    }

    #[test]
    fn f64_cayley_has_orthonormal_columns() {
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        for &(p, q) in &[(3, 3), (7, 3), (64, 16), (5, 1)] {
            let w = random(&mut rng, p * q);
            let r = cayley_f64(&w, p, q);
            for i in 0..q {
                for j in 0..q {
                    let dot: f64 = (0..p).map(|k| r[k * q + i] * r[k * q + j]).sum();
                    let expected = if i == j { 1.0 } else { 0.0 };
                    assert!(
                        (dot - expected).abs() < 1e-12,
                        "({p},{q}) RᵀR[{i}{j}] = {dot}"
                    );
                }
            }
        }
    }

    #[test]
    fn burn_cayley_matches_f64() {
        let mut rng = ChaCha8Rng::seed_from_u64(2);
        let device = crate::model::cpu_device();
        let (p, q) = (9, 4);
        let w = random(&mut rng, p * q);
        let expected = cayley_f64(&w, p, q);
        let t = Tensor::<2>::from_data(
            TensorData::new(w.iter().map(|&v| v as f32).collect::<Vec<_>>(), [p, q]),
            &device,
        );
        let got = to_f64(&cayley(t));
        for (g, e) in got.iter().zip(&expected) {
            assert!((g - e).abs() < 1e-5, "{g} vs {e}");
        }
    }

    /// d/dW of Σ cayley(W) ⊙ G (a fixed random G) by autodiff against central differences in f64.
    #[test]
    fn gradient_matches_finite_differences() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let device = crate::model::cpu_device().autodiff();
        let (p, q) = (6, 3);
        let w = random(&mut rng, p * q);
        let g = random(&mut rng, p * q);
        let objective =
            |w: &[f64]| -> f64 { cayley_f64(w, p, q).iter().zip(&g).map(|(r, g)| r * g).sum() };
        let wt = Tensor::<2>::from_data(
            TensorData::new(w.iter().map(|&v| v as f32).collect::<Vec<_>>(), [p, q]),
            &device,
        )
        .require_grad();
        let gt = Tensor::<2>::from_data(
            TensorData::new(g.iter().map(|&v| v as f32).collect::<Vec<_>>(), [p, q]),
            &device,
        );
        let loss = (cayley(wt.clone()) * gt).sum();
        let grads = loss.backward();
        let auto = to_f64(&wt.grad(&grads).expect("gradient of W"));
        let h = 1e-6;
        for k in 0..p * q {
            let (mut plus, mut minus) = (w.clone(), w.clone());
            plus[k] += h;
            minus[k] -= h;
            let fd = (objective(&plus) - objective(&minus)) / (2.0 * h);
            assert!(
                (auto[k] - fd).abs() < 1e-4 * (1.0 + fd.abs()),
                "entry {k}: autodiff {} vs finite difference {fd}",
                auto[k]
            );
        }
    }
}
