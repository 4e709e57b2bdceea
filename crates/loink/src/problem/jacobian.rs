//! Small dense kernels the iterative solvers share, for any task dimension m: the m × n
//! Jacobian stored by columns, the minimum-norm (optionally damped) step
//! Δq = Jᵀ (J Jᵀ + λ² I)⁺ r and the null-space projection (I − J⁺J) g, both restricted to a set
//! of free joints. m = 2 (planar arms, the soft arm) uses a closed-form 2 × 2 pseudo-inverse;
//! other m a Jacobi eigen-decomposition of the m × m Gram matrix. Everything works in the
//! caller's buffers: no allocation per step.

use crate::problem::Problem;

/// Relative eigenvalue cut-off below which J Jᵀ is treated as rank-deficient.
const RANK_CUTOFF: f64 = 1e-14;

/// f(q) and its Jacobian by columns, with the buffers an m × n step needs.
#[derive(Debug, Clone, PartialEq)]
pub struct Jacobian {
    m: usize,
    n: usize,
    /// f(q) of the last [`Self::eval`].
    pub y: Vec<f64>,
    /// Column i is `cols[i·m .. (i + 1)·m]` = ∂f/∂q_i.
    pub cols: Vec<f64>,
    gram: Vec<f64>,
    rhs: Vec<f64>,
    eig: Vec<f64>,
    vectors: Vec<f64>,
}

impl Jacobian {
    /// Buffers for a problem with task dimension m and n joints.
    pub fn new(m: usize, n: usize) -> Self {
        Self {
            m,
            n,
            y: vec![0.0; m],
            cols: vec![0.0; m * n],
            gram: vec![0.0; m * m],
            rhs: vec![0.0; m],
            eig: vec![0.0; m],
            vectors: vec![0.0; m * m],
        }
    }

    /// Buffers sized for `problem`.
    pub fn for_problem(problem: &Problem) -> Self {
        Self::new(problem.task_dim(), problem.dof())
    }

    /// Evaluates f(q) and the Jacobian at q (n entries), its rows weighed by the task space's
    /// weights (as [`crate::problem::TaskSpace::error_into`] weighs the error); returns f(q).
    pub fn eval(&mut self, problem: &Problem, q: &[f64]) -> &[f64] {
        problem
            .kinematics()
            .jacobian_into(q, &mut self.y, &mut self.cols);
        problem.task().weigh_rows(&mut self.cols);
        &self.y
    }

    /// Column i.
    pub fn col(&self, i: usize) -> &[f64] {
        &self.cols[i * self.m..(i + 1) * self.m]
    }

    /// J_F J_Fᵀ + λ² I over the free joints F into `self.gram` (`damping2` = λ²).
    fn fill_gram(&mut self, free: Option<&[bool]>, damping2: f64) {
        let is_free = |i: usize| free.is_none_or(|f| f[i]);
        let m = self.m;
        // The 3-D tasks (feature `spatial`): six distinct entries, on the stack. The planar
        // page has no 3-D task and leaves it out.
        #[cfg(feature = "spatial")]
        if m == 3 {
            let mut g = [0.0; 6];
            for i in (0..self.n).filter(|&i| is_free(i)) {
                let c = &self.cols[3 * i..3 * i + 3];
                g[0] += c[0] * c[0];
                g[1] += c[0] * c[1];
                g[2] += c[0] * c[2];
                g[3] += c[1] * c[1];
                g[4] += c[1] * c[2];
                g[5] += c[2] * c[2];
            }
            self.gram.copy_from_slice(&[
                g[0] + damping2,
                g[1],
                g[2],
                g[1],
                g[3] + damping2,
                g[4],
                g[2],
                g[4],
                g[5] + damping2,
            ]);
            return;
        }
        self.gram.iter_mut().for_each(|v| *v = 0.0);
        for i in (0..self.n).filter(|&i| is_free(i)) {
            let col = &self.cols[i * m..(i + 1) * m];
            for a in 0..m {
                for b in 0..m {
                    self.gram[a * m + b] += col[a] * col[b];
                }
            }
        }
        for a in 0..m {
            self.gram[a * m + a] += damping2;
        }
    }

    /// The minimum-norm (damped) least-squares step Δq = Jᵀ (J Jᵀ + λ² I)⁺ r over the free
    /// joints, into `step`; entries of joints that are not free are 0. `damping2` is λ² (0 for
    /// Gauss–Newton).
    pub fn task_step(&mut self, free: Option<&[bool]>, r: &[f64], damping2: f64, step: &mut [f64]) {
        let is_free = |i: usize| free.is_none_or(|f| f[i]);
        let m = self.m;
        if m == 2 {
            let mut g = Sym2 {
                a: 0.0,
                b: 0.0,
                c: 0.0,
            };
            for i in (0..self.n).filter(|&i| is_free(i)) {
                let col = &self.cols[2 * i..2 * i + 2];
                g.a += col[0] * col[0];
                g.b += col[0] * col[1];
                g.c += col[1] * col[1];
            }
            let w = g.pinv_apply(damping2, [r[0], r[1]]);
            for (i, s) in step.iter_mut().enumerate() {
                let col = &self.cols[2 * i..2 * i + 2];
                *s = if is_free(i) {
                    col[0] * w[0] + col[1] * w[1]
                } else {
                    0.0
                };
            }
            return;
        }
        self.fill_gram(free, damping2);
        self.rhs.copy_from_slice(&r[..m]);
        symmetric_pinv_apply(
            &mut self.gram,
            m,
            &mut self.rhs,
            &mut self.eig,
            &mut self.vectors,
        );
        for (i, s) in step.iter_mut().enumerate() {
            *s = if is_free(i) {
                let col = &self.cols[i * m..(i + 1) * m];
                col.iter().zip(&self.rhs).map(|(c, w)| c * w).sum()
            } else {
                0.0
            };
        }
    }

    /// The least-squares multipliers λ = (J_F J_Fᵀ)⁺ J_F g_F over the free joints F, into
    /// `lambda` (m): the λ with g_F ≈ J_Fᵀ λ, so g − Jᵀλ is the part of g the task cannot absorb.
    pub fn multipliers(&mut self, free: Option<&[bool]>, g: &[f64], lambda: &mut [f64]) {
        let is_free = |i: usize| free.is_none_or(|f| f[i]);
        let m = self.m;
        self.rhs.iter_mut().for_each(|v| *v = 0.0);
        for i in (0..self.n).filter(|&i| is_free(i)) {
            for (r, c) in self.rhs.iter_mut().zip(&self.cols[i * m..(i + 1) * m]) {
                *r += c * g[i];
            }
        }
        self.fill_gram(free, 0.0);
        if m == 2 {
            let gram = Sym2 {
                a: self.gram[0],
                b: self.gram[1],
                c: self.gram[3],
            };
            let w = gram.pinv_apply(0.0, [self.rhs[0], self.rhs[1]]);
            lambda[..2].copy_from_slice(&w);
            return;
        }
        symmetric_pinv_apply(
            &mut self.gram,
            m,
            &mut self.rhs,
            &mut self.eig,
            &mut self.vectors,
        );
        lambda[..m].copy_from_slice(&self.rhs);
    }

    /// The null-space projection (I − J⁺J) g over the free joints, into `out` (entries of fixed
    /// joints are 0). `scratch` needs m entries.
    pub fn nullspace_project(
        &mut self,
        free: Option<&[bool]>,
        g: &[f64],
        scratch: &mut [f64],
        out: &mut [f64],
    ) {
        let is_free = |i: usize| free.is_none_or(|f| f[i]);
        let m = self.m;
        // J g over the free joints, then subtract J⁺ (J g).
        scratch.iter_mut().for_each(|v| *v = 0.0);
        for i in (0..self.n).filter(|&i| is_free(i)) {
            for (s, c) in scratch.iter_mut().zip(&self.cols[i * m..(i + 1) * m]) {
                *s += c * g[i];
            }
        }
        self.task_step(free, scratch, 0.0, out);
        for (i, o) in out.iter_mut().enumerate() {
            *o = if is_free(i) { g[i] - *o } else { 0.0 };
        }
    }
}

/// A symmetric 2 × 2 matrix [[a, b], [b, c]].
#[derive(Debug, Clone, Copy)]
struct Sym2 {
    a: f64,
    b: f64,
    c: f64,
}

impl Sym2 {
    /// (M + λ² I)⁺ r via the eigen-decomposition, discarding eigenvalues below the cut-off.
    fn pinv_apply(self, damping2: f64, r: [f64; 2]) -> [f64; 2] {
        let (a, b, c) = (self.a + damping2, self.b, self.c + damping2);
        let scale = a.abs() + c.abs();
        if scale.is_nan() || scale <= 0.0 || !scale.is_finite() {
            return [0.0, 0.0];
        }
        let det = a * c - b * b;
        if det > RANK_CUTOFF * scale * scale {
            return [(c * r[0] - b * r[1]) / det, (a * r[1] - b * r[0]) / det];
        }
        // Rank ≤ 1: keep the dominant eigenpair only.
        let mean = 0.5 * (a + c);
        let spread = (0.25 * (a - c) * (a - c) + b * b).sqrt();
        let lambda = mean + spread;
        if lambda.is_nan() || lambda <= RANK_CUTOFF * scale {
            return [0.0, 0.0];
        }
        let (vx, vy) = if b.abs() > 0.0 {
            (lambda - c, b)
        } else if a >= c {
            (1.0, 0.0)
        } else {
            (0.0, 1.0)
        };
        // hypot: with |b| ~ 1e-300, vx² + vy² underflows to 0 and 0/0 would poison q with NaN.
        let norm = vx.hypot(vy);
        if norm.is_nan() || norm <= 0.0 {
            return [0.0, 0.0];
        }
        let (ux, uy) = (vx / norm, vy / norm);
        let k = (ux * r[0] + uy * r[1]) / lambda;
        [k * ux, k * uy]
    }
}

/// rhs ← A⁺ rhs for a symmetric m × m `a` (destroyed), by cyclic Jacobi rotations; eigenvalues
/// below the relative cut-off are discarded. `eig` (m) and `vectors` (m × m) are scratch.
fn symmetric_pinv_apply(
    a: &mut [f64],
    m: usize,
    rhs: &mut [f64],
    eig: &mut [f64],
    vectors: &mut [f64],
) {
    if m == 3 && solve3_well_conditioned(a, rhs) {
        return;
    }
    if m > 3 && cholesky_well_conditioned(a, m, rhs) {
        return;
    }
    vectors.iter_mut().for_each(|v| *v = 0.0);
    for i in 0..m {
        vectors[i * m + i] = 1.0;
    }
    let scale: f64 = (0..m).map(|i| a[i * m + i].abs()).sum();
    if !(scale.is_finite() && scale > 0.0) {
        rhs.iter_mut().for_each(|v| *v = 0.0);
        return;
    }
    for _sweep in 0..50 {
        let off: f64 = (0..m)
            .flat_map(|p| ((p + 1)..m).map(move |q| (p, q)))
            .map(|(p, q)| a[p * m + q] * a[p * m + q])
            .sum();
        if off <= 1e-30 * scale * scale {
            break;
        }
        for p in 0..m {
            for q in (p + 1)..m {
                let apq = a[p * m + q];
                if apq == 0.0 {
                    continue;
                }
                let theta = (a[q * m + q] - a[p * m + p]) / (2.0 * apq);
                let t = theta.signum() / (theta.abs() + (theta * theta + 1.0).sqrt());
                let t = if theta == 0.0 { 1.0 } else { t };
                let c = 1.0 / (t * t + 1.0).sqrt();
                let s = t * c;
                for k in 0..m {
                    let (akp, akq) = (a[k * m + p], a[k * m + q]);
                    a[k * m + p] = c * akp - s * akq;
                    a[k * m + q] = s * akp + c * akq;
                }
                for k in 0..m {
                    let (apk, aqk) = (a[p * m + k], a[q * m + k]);
                    a[p * m + k] = c * apk - s * aqk;
                    a[q * m + k] = s * apk + c * aqk;
                }
                for k in 0..m {
                    let (vkp, vkq) = (vectors[k * m + p], vectors[k * m + q]);
                    vectors[k * m + p] = c * vkp - s * vkq;
                    vectors[k * m + q] = s * vkp + c * vkq;
                }
            }
        }
    }
    // rhs ← V diag(1/λ⁺) Vᵀ rhs.
    for k in 0..m {
        let lambda = a[k * m + k];
        let proj: f64 = (0..m).map(|r| vectors[r * m + k] * rhs[r]).sum();
        eig[k] = if lambda > RANK_CUTOFF * scale {
            proj / lambda
        } else {
            0.0
        };
    }
    for (r, out) in rhs.iter_mut().enumerate() {
        *out = (0..m).map(|k| vectors[r * m + k] * eig[k]).sum();
    }
}

/// rhs ← A⁻¹ rhs for a symmetric 3 × 3 `a` by its adjugate, when A is well conditioned
/// (det A > 10⁻⁶ · trace(A)³, so every eigenvalue is far above the pseudo-inverse's cut-off and
/// the inverse is what the Jacobi path would give); false, leaving rhs alone, otherwise. A
/// 3-D task's step takes this path at almost every iteration, at a tenth of Jacobi's cost.
fn solve3_well_conditioned(a: &[f64], rhs: &mut [f64]) -> bool {
    let (a00, a01, a02, a11, a12, a22) = (a[0], a[1], a[2], a[4], a[5], a[8]);
    let c00 = a11 * a22 - a12 * a12;
    let c01 = a02 * a12 - a01 * a22;
    let c02 = a01 * a12 - a02 * a11;
    let det = a00 * c00 + a01 * c01 + a02 * c02;
    let trace = a00.abs() + a11.abs() + a22.abs();
    if !(det.is_finite() && trace.is_finite() && det > 1e-6 * trace * trace * trace) {
        return false;
    }
    let c11 = a00 * a22 - a02 * a02;
    let c12 = a01 * a02 - a00 * a12;
    let c22 = a00 * a11 - a01 * a01;
    let r = [rhs[0], rhs[1], rhs[2]];
    rhs[0] = (c00 * r[0] + c01 * r[1] + c02 * r[2]) / det;
    rhs[1] = (c01 * r[0] + c11 * r[1] + c12 * r[2]) / det;
    rhs[2] = (c02 * r[0] + c12 * r[1] + c22 * r[2]) / det;
    true
}

/// Most task coordinates the Cholesky path factors on the stack (a pose has six).
const CHOLESKY_MAX: usize = 8;

/// rhs ← A⁻¹ rhs for a symmetric m × m `a` (untouched) by its Cholesky factor L Lᵀ, when every
/// pivot is above 10⁻⁸ of the mean diagonal (the eigenvalues stay far above the pseudo-inverse's
/// cut-off: no direction to discard); false, leaving rhs alone, otherwise (then Jacobi's
/// pseudo-inverse decides). A pose task's 6 × 6 step takes this path at almost every
/// iteration, at a small share of Jacobi's cost.
fn cholesky_well_conditioned(a: &[f64], m: usize, rhs: &mut [f64]) -> bool {
    if m > CHOLESKY_MAX {
        return false;
    }
    let mean: f64 = (0..m).map(|i| a[i * m + i]).sum::<f64>() / m as f64;
    if !(mean.is_finite() && mean > 0.0) {
        return false;
    }
    let floor = 1e-8 * mean;
    let mut l = [0.0; CHOLESKY_MAX * CHOLESKY_MAX];
    for i in 0..m {
        for j in 0..=i {
            let dot: f64 = (0..j).map(|k| l[i * m + k] * l[j * m + k]).sum();
            let v = a[i * m + j] - dot;
            if i == j {
                // NaN falls here too: not positive definite.
                if v.is_nan() || v <= floor {
                    return false;
                }
                l[i * m + i] = v.sqrt();
            } else {
                l[i * m + j] = v / l[j * m + j];
            }
        }
    }
    let mut y = [0.0; CHOLESKY_MAX];
    for i in 0..m {
        let dot: f64 = (0..i).map(|k| l[i * m + k] * y[k]).sum();
        y[i] = (rhs[i] - dot) / l[i * m + i];
    }
    for i in (0..m).rev() {
        let dot: f64 = ((i + 1)..m).map(|k| l[k * m + i] * rhs[k]).sum();
        rhs[i] = (y[i] - dot) / l[i * m + i];
    }
    true
}

/// Euclidean norm.
pub fn norm(v: &[f64]) -> f64 {
    v.iter().map(|x| x * x).sum::<f64>().sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The Jacobi path agrees with the closed form on 2 × 2 and inverts a 3 × 3 system.
    #[test]
    fn pseudo_inverse_paths_agree() {
        let mut a = vec![4.0, 1.0, 1.0, 3.0];
        let mut rhs = vec![1.0, 2.0];
        let (mut eig, mut vectors) = (vec![0.0; 2], vec![0.0; 4]);
        symmetric_pinv_apply(&mut a, 2, &mut rhs, &mut eig, &mut vectors);
        let closed = Sym2 {
            a: 4.0,
            b: 1.0,
            c: 3.0,
        }
        .pinv_apply(0.0, [1.0, 2.0]);
        assert!((rhs[0] - closed[0]).abs() < 1e-14 && (rhs[1] - closed[1]).abs() < 1e-14);

        let m3 = [5.0, 1.0, 0.5, 1.0, 4.0, 0.2, 0.5, 0.2, 3.0];
        let mut a3 = m3.to_vec();
        let x = [0.3, -1.2, 2.0];
        let mut rhs3: Vec<f64> = (0..3)
            .map(|r| (0..3).map(|c| m3[r * 3 + c] * x[c]).sum())
            .collect();
        let (mut e3, mut v3) = (vec![0.0; 3], vec![0.0; 9]);
        let mut closed3 = rhs3.clone();
        symmetric_pinv_apply(&mut a3, 3, &mut rhs3, &mut e3, &mut v3);
        for k in 0..3 {
            assert!((rhs3[k] - x[k]).abs() < 1e-12, "{rhs3:?}");
        }
        // The adjugate path takes this well-conditioned system and agrees.
        assert!(solve3_well_conditioned(&m3, &mut closed3));
        for k in 0..3 {
            assert!((closed3[k] - x[k]).abs() < 1e-12, "{closed3:?}");
        }
        // A nearly singular one is left to Jacobi.
        let mut near = [1.0, 1.0, 0.0, 1.0, 1.0 + 1e-9, 0.0, 0.0, 0.0, 1.0];
        let mut untouched = vec![1.0, 2.0, 3.0];
        assert!(!solve3_well_conditioned(&near, &mut untouched));
        assert_eq!(untouched, [1.0, 2.0, 3.0]);
        near[0] = f64::NAN;
        assert!(!solve3_well_conditioned(&near, &mut untouched));
    }

    /// The Cholesky path solves a well-conditioned 6 × 6 system as Jacobi does and leaves a
    /// nearly singular one to it.
    #[test]
    fn cholesky_agrees_with_jacobi_and_declines_a_singular_system() {
        let m = 6;
        let b: Vec<f64> = (0..36)
            .map(|k| ((k * 7 + 3) % 11) as f64 / 5.0 - 1.0)
            .collect();
        let mut a = vec![0.0; 36];
        for i in 0..m {
            for j in 0..m {
                a[i * m + j] = (0..m).map(|k| b[i * m + k] * b[j * m + k]).sum::<f64>()
                    + if i == j { 0.5 } else { 0.0 };
            }
        }
        let rhs: Vec<f64> = (0..m).map(|k| k as f64 - 2.5).collect();
        let mut by_cholesky = rhs.clone();
        assert!(cholesky_well_conditioned(&a, m, &mut by_cholesky));
        let (mut by_jacobi, mut copy) = (rhs.clone(), a.clone());
        let (mut e, mut v) = (vec![0.0; m], vec![0.0; 36]);
        symmetric_pinv_apply(&mut copy, m, &mut by_jacobi, &mut e, &mut v);
        for k in 0..m {
            assert!(
                (by_cholesky[k] - by_jacobi[k]).abs() < 1e-10,
                "{by_cholesky:?}"
            );
        }
        let u = [1.0, 2.0, 2.0, 0.0, 1.0, -1.0];
        let rank_one: Vec<f64> = (0..36).map(|k| u[k / 6] * u[k % 6]).collect();
        let mut untouched = rhs.clone();
        assert!(!cholesky_well_conditioned(&rank_one, m, &mut untouched));
        assert_eq!(untouched, rhs);
    }

    /// A rank-one 3 × 3 matrix keeps only its range: the minimum-norm solution.
    #[test]
    fn rank_deficient_gram_gives_the_minimum_norm_solution() {
        let u = [1.0, 2.0, 2.0];
        let mut a: Vec<f64> = (0..9).map(|k| u[k / 3] * u[k % 3]).collect();
        let mut rhs = vec![9.0, 18.0, 18.0]; // = A u, so A⁺ rhs = u (u is in the range)
        let (mut e, mut v) = (vec![0.0; 3], vec![0.0; 9]);
        symmetric_pinv_apply(&mut a, 3, &mut rhs, &mut e, &mut v);
        for k in 0..3 {
            assert!((rhs[k] - u[k]).abs() < 1e-12, "{rhs:?}");
        }
    }
}
