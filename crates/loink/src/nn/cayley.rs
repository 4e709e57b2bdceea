//! The Cayley transform: a free matrix W ∈ R^{p×q} (p ≥ q) becomes R ∈ R^{p×q} with RᵀR = I
//! (loink-math.md §2). Split W = [U; V] with U ∈ R^{q×q}; Z = U − Uᵀ + VᵀV (so I + Z is always
//! invertible: its symmetric part is I + VᵀV ≻ 0); R = [(I+Z)⁻¹(I−Z); −2V(I+Z)⁻¹].
//! A wide W (p < q) is transposed first and the result transposed back.
//!
//! The trainer parameterises every orthogonal factor this way; the inference crate uses it to build valid
//! random networks for tests and benchmarks (the artifact itself stores the explicit matrices).

use ndarray::{s, Array2};

use super::linalg::solve;
use crate::error::{LoinkError, Result};

/// Cayley transform of `w` (p × q). Wide inputs (p < q) give a result with orthonormal rows.
pub fn cayley(w: &Array2<f64>) -> Result<Array2<f64>> {
    let (p, q) = w.dim();
    if p < q {
        return Ok(cayley(&w.t().to_owned())?.t().to_owned());
    }
    if q == 0 || w.iter().any(|v| !v.is_finite()) {
        return Err(LoinkError::OutOfRange {
            what: "Cayley argument".into(),
            detail: format!("{p}×{q} matrix must be non-empty and finite"),
        });
    }
    let u = w.slice(s![..q, ..]);
    let v = w.slice(s![q.., ..]);
    let z = &u - &u.t() + v.t().dot(&v);
    let eye = Array2::<f64>::eye(q);
    let i_plus_z = &eye + &z;
    let i_minus_z = &eye - &z;
    // (I+Z)⁻¹(I−Z) and V(I+Z)⁻¹ = ((I+Z)⁻ᵀ Vᵀ)ᵀ — both by linear solves.
    let top = solve(&i_plus_z, &i_minus_z).ok_or_else(singular)?;
    let bottom_t = solve(&i_plus_z.t().to_owned(), &v.t().to_owned()).ok_or_else(singular)?;
    let mut r = Array2::zeros((p, q));
    r.slice_mut(s![..q, ..]).assign(&top);
    r.slice_mut(s![q.., ..])
        .assign(&(bottom_t.t().mapv(|x| -2.0 * x)));
    Ok(r)
}

/// The weight-norm variant: cayley((a/‖W‖_F)·W). With `a = ‖W‖_F` it equals [`cayley`].
pub fn cayley_weight_norm(w: &Array2<f64>, a: f64) -> Result<Array2<f64>> {
    let frobenius = w.iter().map(|x| x * x).sum::<f64>().sqrt();
    if !(frobenius > 0.0 && a.is_finite()) {
        return Err(LoinkError::OutOfRange {
            what: "Cayley weight norm".into(),
            detail: format!("‖W‖_F = {frobenius}, a = {a}"),
        });
    }
    cayley(&w.mapv(|x| x * a / frobenius))
}

fn singular() -> LoinkError {
    LoinkError::OutOfRange {
        what: "Cayley transform".into(),
        detail: "I + Z is numerically singular".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nn::linalg::orthonormality_defect;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn tall_square_and_wide_are_orthonormal() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        for &(p, q) in &[(3, 3), (7, 3), (3, 7), (32, 16)] {
            let w = Array2::from_shape_fn((p, q), |_| rng.random_range(-2.0..2.0));
            let r = cayley(&w).expect("finite input");
            assert_eq!(r.dim(), (p, q));
            let defect = if p >= q {
                orthonormality_defect(&r)
            } else {
                orthonormality_defect(&r.t().to_owned())
            };
            assert!(defect < 1e-12, "{p}×{q}: {defect}");
        }
    }

    #[test]
    fn weight_norm_with_frobenius_scale_is_plain_cayley() {
        let w = Array2::from_shape_fn((4, 2), |(i, j)| (i as f64) - 0.3 * j as f64);
        let a = w.iter().map(|x| x * x).sum::<f64>().sqrt();
        let diff = cayley_weight_norm(&w, a).expect("ok") - cayley(&w).expect("ok");
        assert!(diff.iter().all(|d| d.abs() < 1e-14));
        assert!(cayley(&Array2::from_elem((2, 2), f64::NAN)).is_err());
    }
}
