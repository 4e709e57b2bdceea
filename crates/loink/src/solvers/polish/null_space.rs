//! The cost part of a polish step: the null space of the task Jacobian over the free joints,
//! the projected gradient Zᵀ∇J, and the Newton step −Z (Zᵀ H Z)⁻¹ Zᵀ ∇J with the Lagrangian's
//! reduced Hessian by finite differences (the symbols of the parent module's doc).

use super::Work;
use crate::problem::Problem;
use crate::solvers::linalg::{norm, Jacobian};

/// Finite-difference step (rad) of the reduced Hessian.
const FD_STEP: f64 = 1e-6;

/// An orthonormal basis of the null space of J over the free joints (Gram–Schmidt on the
/// projections of the free unit vectors), into `w.basis`.
pub(super) fn null_space_basis(w: &mut Work) {
    let n = w.free.len();
    w.basis_len = 0;
    if cross_product_basis(w) {
        return;
    }
    for j in 0..n {
        if !w.free[j] {
            continue;
        }
        w.unit.iter_mut().for_each(|v| *v = 0.0);
        w.unit[j] = 1.0;
        w.jac
            .nullspace_project(Some(&w.free), &w.unit, &mut w.scratch_m, &mut w.projected);
        for c in 0..w.basis_len {
            let b = &w.basis[c * n..(c + 1) * n];
            let d: f64 = w.projected.iter().zip(b).map(|(x, y)| x * y).sum();
            w.projected.iter_mut().zip(b).for_each(|(x, y)| *x -= d * y);
        }
        let len = norm(&w.projected);
        if len > 1e-6 {
            let c = w.basis_len;
            for (b, p) in w.basis[c * n..(c + 1) * n].iter_mut().zip(&w.projected) {
                *b = p / len;
            }
            w.basis_len += 1;
        }
    }
}

/// The common case of a two-dimensional task and three free joints: the null space is the line
/// along the cross product of J's two rows over the free joints. Returns false (nothing
/// written) in any other case, or when J is rank-deficient there.
fn cross_product_basis(w: &mut Work) -> bool {
    if w.r.len() != 2 || w.free.iter().filter(|&&f| f).count() != 3 {
        return false;
    }
    let n = w.free.len();
    let mut idx = [0usize; 3];
    let mut k = 0;
    for (i, &f) in w.free.iter().enumerate() {
        if f {
            idx[k] = i;
            k += 1;
        }
    }
    let col = |i: usize| w.jac.col(i);
    let (a, b, c) = (col(idx[0]), col(idx[1]), col(idx[2]));
    // Rows u = (a0, b0, c0), v = (a1, b1, c1); u × v.
    let cross = [
        b[0] * c[1] - c[0] * b[1],
        c[0] * a[1] - a[0] * c[1],
        a[0] * b[1] - b[0] * a[1],
    ];
    let len = (cross[0] * cross[0] + cross[1] * cross[1] + cross[2] * cross[2]).sqrt();
    let scale = a.iter().chain(b).chain(c).map(|v| v * v).sum::<f64>();
    if !(len.is_finite() && len > 1e-10 * scale.max(1e-300)) {
        return false;
    }
    // Same orientation as Gram–Schmidt from the first free unit vector would give.
    let sign = if cross[0] < 0.0 { -1.0 } else { 1.0 };
    w.basis[..n].iter_mut().for_each(|v| *v = 0.0);
    for (j, &i) in idx.iter().enumerate() {
        w.basis[i] = sign * cross[j] / len;
    }
    w.basis_len = 1;
    true
}

/// Zᵀ∇J into `w.gz`; returns its norm.
pub(super) fn reduced_gradient(w: &mut Work) -> f64 {
    let mut total = 0.0;
    for c in 0..w.basis_len {
        let g: f64 = w
            .basis_vector(c)
            .iter()
            .zip(&w.grad)
            .map(|(a, b)| a * b)
            .sum();
        w.gz[c] = g;
        total += g * g;
    }
    total.sqrt()
}

/// ∇L(at) = ∇J(at) − J(at)ᵀλ with the step's λ, into `out` (`probe_jac` is scratch).
fn lagrangian_gradient(
    problem: &Problem,
    probe_jac: &mut Jacobian,
    lambda: &[f64],
    at: &[f64],
    out: &mut [f64],
) {
    problem.cost().value_and_gradient_into(at, out);
    probe_jac.eval(problem, at);
    for (i, o) in out.iter_mut().enumerate() {
        *o -= probe_jac
            .col(i)
            .iter()
            .zip(lambda)
            .map(|(c, l)| c * l)
            .sum::<f64>();
    }
}

/// Adds the null-space step −Z (Zᵀ H Z)⁻¹ Zᵀ∇J to `w.step` (steepest descent −Z Zᵀ∇J when
/// the reduced Hessian is not positive definite). `w.gz` holds Zᵀ∇J.
pub(super) fn null_step(problem: &Problem, w: &mut Work, q: &[f64]) {
    let (n, k) = (q.len(), w.basis_len);
    // ∇L at q from the Jacobian and gradient already evaluated there.
    for i in 0..n {
        w.base[i] = w.grad[i]
            - w.jac
                .col(i)
                .iter()
                .zip(&w.lambda)
                .map(|(c, l)| c * l)
                .sum::<f64>();
    }
    let stiff = problem.cost().max_step().is_some();
    if w.hessian_valid && w.hessian_free == w.free && w.hessian_k == k && !stiff {
        // The reduced Hessian of an earlier step of this polish, same free joints: the
        // Lagrangian's curvature changes little over a step, and the finite differences cost
        // a Jacobian each (a stiff cost's changes: it is measured afresh).
        w.reduced[..k * k].copy_from_slice(&w.reduced_cache[..k * k]);
        return apply_null_step(w, n, k);
    }
    // H z by finite differences of ∇L along each basis vector, then Zᵀ H Z (symmetrised).
    for c in 0..k {
        for ((p, &qi), &z) in w.probe.iter_mut().zip(q).zip(&w.basis[c * n..(c + 1) * n]) {
            *p = qi + FD_STEP * z;
        }
        lagrangian_gradient(
            problem,
            &mut w.probe_jac,
            &w.lambda,
            &w.probe,
            &mut w.probe_grad,
        );
        for i in 0..n {
            w.hz[c * n + i] = (w.probe_grad[i] - w.base[i]) / FD_STEP;
        }
    }
    for a in 0..k {
        for b in 0..k {
            let za = &w.basis[a * n..(a + 1) * n];
            let zb = &w.basis[b * n..(b + 1) * n];
            let ab: f64 = za
                .iter()
                .zip(&w.hz[b * n..(b + 1) * n])
                .map(|(x, y)| x * y)
                .sum();
            let ba: f64 = zb
                .iter()
                .zip(&w.hz[a * n..(a + 1) * n])
                .map(|(x, y)| x * y)
                .sum();
            w.reduced[a * k + b] = 0.5 * (ab + ba);
        }
    }
    w.reduced_cache[..k * k].copy_from_slice(&w.reduced[..k * k]);
    w.hessian_free.copy_from_slice(&w.free);
    w.hessian_k = k;
    w.hessian_valid = true;
    apply_null_step(w, n, k);
}

/// Adds the null-space step with the reduced Hessian in `w.reduced` (destroyed).
fn apply_null_step(w: &mut Work, n: usize, k: usize) {
    // Newton: −(ZᵀHZ)⁻¹Zᵀ∇J; otherwise steepest descent, sized by the line search.
    w.unit[..k].copy_from_slice(&w.gz[..k]);
    let newton = cholesky_solve_in_place(&mut w.reduced[..k * k], k, &mut w.unit[..k]);
    for c in 0..k {
        let coefficient = if newton { -w.unit[c] } else { -w.gz[c] };
        for i in 0..n {
            w.step[i] += coefficient * w.basis[c * n + i];
        }
    }
}

/// Solves A x = b in place (b ← x) for a small symmetric positive definite A (k × k,
/// destroyed) by Cholesky; false when A is not positive definite (or not finite).
fn cholesky_solve_in_place(a: &mut [f64], k: usize, b: &mut [f64]) -> bool {
    let scale = (0..k).map(|i| a[i * k + i].abs()).fold(0.0, f64::max);
    for j in 0..k {
        let mut d = a[j * k + j];
        for p in 0..j {
            d -= a[j * k + p] * a[j * k + p];
        }
        if !(d.is_finite() && d > 1e-12 * scale.max(1e-300)) {
            return false;
        }
        let d = d.sqrt();
        a[j * k + j] = d;
        for i in j + 1..k {
            let mut v = a[i * k + j];
            for p in 0..j {
                v -= a[i * k + p] * a[j * k + p];
            }
            a[i * k + j] = v / d;
        }
    }
    for i in 0..k {
        for p in 0..i {
            b[i] -= a[i * k + p] * b[p];
        }
        b[i] /= a[i * k + i];
    }
    for i in (0..k).rev() {
        for p in i + 1..k {
            b[i] -= a[p * k + i] * b[p];
        }
        b[i] /= a[i * k + i];
    }
    b.iter().take(k).all(|v| v.is_finite())
}
