//! Small dense linear algebra on row-major slices: the few kernels the layers and the artifact
//! validator need (matrix–vector products, an LU solve with partial pivoting, a Cholesky test).
//!
//! Sizes here are tiny (n = 2..8 for the Newton system, q ≤ a few hundred for Cayley and the
//! certificate), so plain loops beat any dispatch overhead and need no BLAS on wasm.

use ndarray::{Array2, ArrayView2};

/// A B for the small matrices of a model (a few dozen rows): plain loops. ndarray's `dot` on
/// two matrices goes through matrixmultiply's blocked kernels, kilobytes of the page's download
/// for sizes where they buy nothing.
pub fn matmul(a: ArrayView2<f64>, b: ArrayView2<f64>) -> Array2<f64> {
    let (n, inner, m) = (a.nrows(), a.ncols(), b.ncols());
    debug_assert_eq!(inner, b.nrows());
    let mut out = Array2::<f64>::zeros((n, m));
    for i in 0..n {
        for k in 0..inner.min(b.nrows()) {
            let aik = a[[i, k]];
            for j in 0..m {
                out[[i, j]] += aik * b[[k, j]];
            }
        }
    }
    out
}

/// y = A x for a row-major `rows × cols` matrix `a`.
#[cfg_attr(target_arch = "x86_64", inline(always))]
#[cfg_attr(not(target_arch = "x86_64"), inline)]
pub fn mat_vec(a: &[f64], cols: usize, x: &[f64], y: &mut [f64]) {
    for (row, yi) in a.chunks_exact(cols).zip(y.iter_mut()) {
        *yi = dot(row, x);
    }
}

/// y = Aᵀ x for a row-major `rows × cols` matrix `a` (y has `cols` entries).
#[inline]
pub fn mat_t_vec(a: &[f64], cols: usize, x: &[f64], y: &mut [f64]) {
    y.iter_mut().for_each(|v| *v = 0.0);
    for (row, &xi) in a.chunks_exact(cols).zip(x) {
        if xi != 0.0 {
            for (yj, &aij) in y.iter_mut().zip(row) {
                *yj += aij * xi;
            }
        }
    }
}

/// ⟨a, b⟩ over the common length. Four independent accumulators let the compiler use SIMD
/// (a single running sum cannot be reordered under IEEE rules).
#[cfg_attr(target_arch = "x86_64", inline(always))]
#[cfg_attr(not(target_arch = "x86_64"), inline)]
pub fn dot(a: &[f64], b: &[f64]) -> f64 {
    let len = a.len().min(b.len());
    let (a, b) = (&a[..len], &b[..len]);
    let mut acc = [0.0; 4];
    let (a4, b4) = (a.chunks_exact(4), b.chunks_exact(4));
    let (ra, rb) = (a4.remainder(), b4.remainder());
    for (x, y) in a4.zip(b4) {
        acc[0] += x[0] * y[0];
        acc[1] += x[1] * y[1];
        acc[2] += x[2] * y[2];
        acc[3] += x[3] * y[3];
    }
    let tail: f64 = ra.iter().zip(rb).map(|(x, y)| x * y).sum();
    (acc[0] + acc[1]) + (acc[2] + acc[3]) + tail
}

/// y += a·x over the common length (independent lanes: vectorises).
#[cfg_attr(target_arch = "x86_64", inline(always))]
#[cfg_attr(not(target_arch = "x86_64"), inline)]
pub fn axpy(a: f64, x: &[f64], y: &mut [f64]) {
    for (yi, &xi) in y.iter_mut().zip(x) {
        *yi += a * xi;
    }
}

/// out[..R] += Σ a · column[..R] over `terms`, the R sums held in registers: the same sums,
/// added in the same order, as one [`axpy`] per term, without a store and a load between terms.
#[cfg_attr(target_arch = "x86_64", inline(always))]
#[cfg_attr(not(target_arch = "x86_64"), inline)]
pub fn add_columns<'a, const R: usize>(
    out: &mut [f64],
    terms: impl Iterator<Item = (f64, &'a [f64])>,
) {
    let mut acc = [0.0; R];
    acc.copy_from_slice(&out[..R]);
    for (a, column) in terms {
        let column = &column[..R];
        for r in 0..R {
            acc[r] += a * column[r];
        }
    }
    out[..R].copy_from_slice(&acc);
}

/// ReLU on `block` (its units numbered from `start`), appending the active (z > 0) units'
/// numbers to `units` from `count`; returns the new count. The pass over the values builds a
/// bit mask per 64 units (it vectorises) and only the active units are then written: a branch
/// per unit would be mispredicted half the time, the pattern being random.
#[cfg_attr(target_arch = "x86_64", inline(always))]
#[cfg_attr(not(target_arch = "x86_64"), inline)]
pub(crate) fn relu_listing_active(
    block: &mut [f64],
    start: usize,
    units: &mut [usize],
    mut count: usize,
) -> usize {
    for (c, chunk) in block.chunks_mut(64).enumerate() {
        let mut mask = 0u64;
        for (i, v) in chunk.iter_mut().enumerate() {
            let on = *v > 0.0;
            mask |= u64::from(on) << i;
            *v = if on { *v } else { 0.0 };
        }
        let first = start + 64 * c;
        while mask != 0 {
            units[count] = first + mask.trailing_zeros() as usize;
            count += 1;
            mask &= mask - 1;
        }
    }
    count
}

/// ‖a‖₂.
#[inline]
pub fn norm(a: &[f64]) -> f64 {
    dot(a, a).sqrt()
}

/// ‖a − b‖₂.
#[cfg_attr(target_arch = "x86_64", inline(always))]
#[cfg_attr(not(target_arch = "x86_64"), inline)]
pub fn distance(a: &[f64], b: &[f64]) -> f64 {
    a.iter()
        .zip(b)
        .map(|(x, y)| (x - y) * (x - y))
        .sum::<f64>()
        .sqrt()
}

/// An upper bound on ‖A‖₂: √‖AᵀA‖_∞ (an induced norm bounds the spectral radius of AᵀA, whose
/// largest eigenvalue is ‖A‖₂²), rounded up by a relative 1e-12. Exact for an orthogonal A; for a
/// stored, nearly orthogonal one it exceeds 1 by about n times its orthogonality error. NaN for
/// a non-finite A.
pub fn spectral_norm_bound(a: &Array2<f64>) -> f64 {
    if a.iter().any(|v| !v.is_finite()) {
        return f64::NAN;
    }
    let ata = matmul(a.t(), a.view());
    let largest_row_sum = ata
        .rows()
        .into_iter()
        .map(|row| row.iter().map(|v| v.abs()).sum::<f64>())
        .fold(0.0, f64::max);
    largest_row_sum.sqrt() * (1.0 + 1e-12)
}

/// Solves A X = B in place by Gaussian elimination with partial pivoting.
///
/// `a` is row-major `n × n` (destroyed), `b` is row-major `n × k` (overwritten by X).
/// Returns `false` when A is numerically singular (a pivot below `1e-300` or non-finite).
#[cfg_attr(target_arch = "x86_64", inline(always))]
pub fn lu_solve_in_place(a: &mut [f64], n: usize, b: &mut [f64], k: usize) -> bool {
    if a.len() != n * n || b.len() != n * k {
        return false;
    }
    for col in 0..n {
        let mut pivot_row = col;
        let mut pivot_abs = a[col * n + col].abs();
        for row in col + 1..n {
            let v = a[row * n + col].abs();
            if v > pivot_abs {
                pivot_abs = v;
                pivot_row = row;
            }
        }
        if pivot_abs.is_nan() || pivot_abs <= 1e-300 {
            return false;
        }
        if pivot_row != col {
            for j in 0..n {
                a.swap(col * n + j, pivot_row * n + j);
            }
            for j in 0..k {
                b.swap(col * k + j, pivot_row * k + j);
            }
        }
        let pivot = a[col * n + col];
        for row in col + 1..n {
            let factor = a[row * n + col] / pivot;
            if factor != 0.0 {
                a[row * n + col] = 0.0;
                for j in col + 1..n {
                    a[row * n + j] -= factor * a[col * n + j];
                }
                for j in 0..k {
                    b[row * k + j] -= factor * b[col * k + j];
                }
            }
        }
    }
    for col in (0..n).rev() {
        let pivot = a[col * n + col];
        for j in 0..k {
            let mut v = b[col * k + j];
            for m in col + 1..n {
                v -= a[col * n + m] * b[m * k + j];
            }
            b[col * k + j] = v / pivot;
        }
    }
    b.iter().all(|v| v.is_finite())
}

/// Solves A X = B for square A (ndarray convenience over [`lu_solve_in_place`]).
/// `None` when A is singular or the shapes disagree.
pub fn solve(a: &Array2<f64>, b: &Array2<f64>) -> Option<Array2<f64>> {
    let n = a.nrows();
    if a.ncols() != n || b.nrows() != n {
        return None;
    }
    let k = b.ncols();
    let mut a_flat: Vec<f64> = a.iter().copied().collect();
    let mut b_flat: Vec<f64> = b.iter().copied().collect();
    if !lu_solve_in_place(&mut a_flat, n, &mut b_flat, k) {
        return None;
    }
    Array2::from_shape_vec((n, k), b_flat).ok()
}

/// Cholesky factorisation test of a symmetric matrix: `Ok(())` when A ≻ 0, otherwise
/// `Err((pivot index, pivot value))` for the first non-positive pivot.
pub fn cholesky_positive_definite(a: &Array2<f64>) -> Result<(), (usize, f64)> {
    let n = a.nrows();
    if a.ncols() != n {
        return Err((0, f64::NAN));
    }
    // L row by row (row-major), each entry one `dot` of two row prefixes: contiguous slices, so
    // a model load (one hidden-total-square factorisation per layer) runs without bounds checks.
    let mut l = vec![0.0; n * n];
    for j in 0..n {
        let (done, rest) = l.split_at_mut((j + 1) * n);
        let row_j = &mut done[j * n..];
        let d = a[[j, j]] - dot(&row_j[..j], &row_j[..j]);
        if d.is_nan() || d <= 0.0 {
            return Err((j, d));
        }
        let d = d.sqrt();
        row_j[j] = d;
        let row_j = &row_j[..j];
        for (k, row_i) in rest.chunks_exact_mut(n).enumerate() {
            row_i[j] = (a[[j + 1 + k, j]] - dot(&row_i[..j], row_j)) / d;
        }
    }
    Ok(())
}

/// Largest absolute entry of AᵀA − I (how far A is from having orthonormal columns).
pub fn orthonormality_defect(a: &Array2<f64>) -> f64 {
    let gram = matmul(a.t(), a.view());
    let mut worst: f64 = 0.0;
    for ((i, j), &g) in gram.indexed_iter() {
        let target = if i == j { 1.0 } else { 0.0 };
        let dev = (g - target).abs();
        if dev.is_nan() {
            return f64::INFINITY;
        }
        worst = worst.max(dev);
    }
    worst
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;

    /// The sums held in registers are the sums of one axpy per term, bit for bit.
    #[test]
    fn columns_in_registers_add_like_axpys() {
        let columns: Vec<Vec<f64>> = (0..7)
            .map(|j| {
                (0..32)
                    .map(|r| ((j * 32 + r) as f64 * 0.37).sin())
                    .collect()
            })
            .collect();
        let weights = [0.3, -1.7, 2.2, 1e-3, -0.0, 5.5, -0.25];
        let start: Vec<f64> = (0..32).map(|r| (r as f64).cos()).collect();
        let mut by_axpy = start.clone();
        for (&w, column) in weights.iter().zip(&columns) {
            axpy(w, column, &mut by_axpy);
        }
        let mut held = start;
        add_columns::<32>(
            &mut held,
            weights.iter().zip(&columns).map(|(&w, c)| (w, &c[..])),
        );
        let bits = |v: &[f64]| v.iter().map(|a| a.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(&held), bits(&by_axpy));
    }

    #[test]
    fn lu_solves_pivoting_system() {
        let a = array![[0.0, 2.0, 1.0], [1.0, 1.0, 0.0], [3.0, 0.0, 1.0]];
        let x_true = array![[1.0], [-2.0], [0.5]];
        let b = a.dot(&x_true);
        let x = solve(&a, &b).expect("regular");
        assert!((&x - &x_true).iter().all(|d| d.abs() < 1e-14));
        let singular = array![[1.0, 2.0], [2.0, 4.0]];
        assert!(solve(&singular, &array![[1.0], [1.0]]).is_none());
    }

    #[test]
    fn cholesky_detects_indefinite() {
        assert!(cholesky_positive_definite(&array![[2.0, 1.0], [1.0, 2.0]]).is_ok());
        assert_eq!(
            cholesky_positive_definite(&array![[1.0, 2.0], [2.0, 1.0]]).map_err(|e| e.0),
            Err(1)
        );
    }

    #[test]
    fn cholesky_finds_the_first_bad_pivot_of_a_larger_matrix() {
        // A = B Bᵀ + I (n = 37, not a multiple of the dot product's 4 lanes) is positive definite.
        let n = 37;
        let b = Array2::from_shape_fn((n, n), |(i, j)| ((i * 7 + j * 3) % 11) as f64 / 11.0 - 0.5);
        let a = b.dot(&b.t()) + Array2::<f64>::eye(n);
        assert!(cholesky_positive_definite(&a).is_ok());
        // Pulling one diagonal entry far down makes pivot 20 the first non-positive one.
        let mut bad = a.clone();
        bad[[20, 20]] -= 1e3;
        let (pivot, value) = cholesky_positive_definite(&bad).unwrap_err();
        assert_eq!(pivot, 20);
        assert!(value < 0.0);
        // A non-square or NaN matrix is refused, never accepted.
        assert!(cholesky_positive_definite(&Array2::zeros((2, 3))).is_err());
        bad[[3, 3]] = f64::NAN;
        assert!(cholesky_positive_definite(&bad).is_err());
    }
}
