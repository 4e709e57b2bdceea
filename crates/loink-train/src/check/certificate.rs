//! Certificate margins of a loaded network: how far each layer is inside its constraint.
//!
//! - Monotone layer: λ_min(I − ½(V + Vᵀ) − S Sᵀ), found by bisection on the shift s with a
//!   Cholesky test of A − sI (Gershgorin brackets, 60 halvings). The loader accepts a layer when
//!   A + tol·I is positive definite, so the margin must be ≥ −tol.
//! - Orthogonal layer: max |RᵀR − I| against the loader's tolerance.

use loink::artifact::validate::{CERTIFICATE_TOLERANCE, ORTHOGONALITY_TOLERANCE};
use loink::nn::linalg::{cholesky_positive_definite, orthonormality_defect};
use loink::nn::{BiLipNet, MonotoneLayer};
use ndarray::Array2;

use super::Row;

/// λ_min of a symmetric matrix by bisection (accurate to ~1e-12 relative to its scale).
pub fn smallest_eigenvalue(a: &Array2<f64>) -> f64 {
    let n = a.nrows();
    let (mut lo, mut hi) = (f64::INFINITY, f64::INFINITY);
    for i in 0..n {
        let off: f64 = (0..n).filter(|&j| j != i).map(|j| a[[i, j]].abs()).sum();
        lo = lo.min(a[[i, i]] - off);
        hi = hi.min(a[[i, i]]);
    }
    if !(lo.is_finite() && hi.is_finite()) {
        return f64::NAN;
    }
    let eye = Array2::<f64>::eye(n);
    for _ in 0..60 {
        let mid = 0.5 * (lo + hi);
        if cholesky_positive_definite(&(a - &eye * mid)).is_ok() {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    lo
}

/// I − ½(V + Vᵀ) − S Sᵀ of a monotone layer.
fn certificate_matrix(layer: &MonotoneLayer) -> Array2<f64> {
    let v = layer.v_full();
    let s = layer.s();
    Array2::<f64>::eye(layer.hidden_total()) - (&v + &v.t()) * 0.5 - s.dot(&s.t())
}

/// One row per monotone layer (certificate margin) and one for all orthogonal layers.
pub fn margins(net: &BiLipNet) -> Vec<Row> {
    let mut rows: Vec<Row> = net
        .monotone()
        .iter()
        .enumerate()
        .map(|(k, layer)| {
            let margin = smallest_eigenvalue(&certificate_matrix(layer));
            Row {
                check: format!("F{k} certificate λmin(I − ½(V+Vᵀ) − SSᵀ)"),
                samples: 1,
                measured: format!("{margin:.3e}"),
                bound: format!("≥ −{CERTIFICATE_TOLERANCE:.0e}"),
                holds: margin >= -CERTIFICATE_TOLERANCE,
            }
        })
        .collect();
    let worst = net
        .orthogonal()
        .iter()
        .map(|o| orthonormality_defect(o.r()))
        .fold(0.0, f64::max);
    rows.push(Row {
        check: format!("O0..O{} max |RᵀR − I|", net.orthogonal().len() - 1),
        samples: net.orthogonal().len(),
        measured: format!("{worst:.3e}"),
        bound: format!("≤ {ORTHOGONALITY_TOLERANCE:.0e}"),
        holds: worst <= ORTHOGONALITY_TOLERANCE,
    });
    rows
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;

    #[test]
    fn smallest_eigenvalue_of_known_matrices() {
        let a = array![[2.0, 1.0], [1.0, 2.0]]; // eigenvalues 1 and 3
        assert!((smallest_eigenvalue(&a) - 1.0).abs() < 1e-12);
        let b = array![[1.0, 0.0, 0.0], [0.0, -0.5, 0.0], [0.0, 0.0, 4.0]];
        assert!((smallest_eigenvalue(&b) + 0.5).abs() < 1e-12);
    }
}
