//! Small dense kernels for planar arms: the 2 × n Jacobian as columns, and the minimum-norm
//! (optionally damped) solves Δq = Jᵀ (J Jᵀ + λ² I)⁺ r and null-space projections
//! (I − J⁺J) g restricted to a set of free joints. Everything is O(n) with a 2 × 2 inverse,
//! so refinement and DLS steps cost well under a microsecond for the presets.

/// Relative eigenvalue cut-off below which J Jᵀ is treated as rank-deficient.
const RANK_CUTOFF: f64 = 1e-14;

/// Writes the Jacobian columns ∂p/∂q_i = Σ_{k≥i} l_k (−sin s_k, cos s_k) into `cols` and
/// returns p(q). `q` and `lengths` must have equal length.
pub fn jacobian_columns(lengths: &[f64], q: &[f64], cols: &mut Vec<[f64; 2]>) -> [f64; 2] {
    cols.clear();
    let mut s = 0.0;
    let (mut x, mut y) = (0.0, 0.0);
    for (&l, &qi) in lengths.iter().zip(q) {
        s += qi;
        let (sin, cos) = s.sin_cos();
        let (dx, dy) = (l * cos, l * sin);
        x += dx;
        y += dy;
        // Temporarily store the link vector; the suffix sum below turns it into the column.
        cols.push([-dy, dx]);
    }
    let (mut jx, mut jy) = (0.0, 0.0);
    for col in cols.iter_mut().rev() {
        jx += col[0];
        jy += col[1];
        *col = [jx, jy];
    }
    [x, y]
}

/// A symmetric 2 × 2 matrix [[a, b], [b, c]].
#[derive(Debug, Clone, Copy)]
struct Sym2 {
    a: f64,
    b: f64,
    c: f64,
}

impl Sym2 {
    /// J Jᵀ over the free columns.
    fn gram(cols: &[[f64; 2]], free: Option<&[bool]>) -> Sym2 {
        let mut m = Sym2 {
            a: 0.0,
            b: 0.0,
            c: 0.0,
        };
        for (i, col) in cols.iter().enumerate() {
            if free.is_some_and(|f| !f[i]) {
                continue;
            }
            m.a += col[0] * col[0];
            m.b += col[0] * col[1];
            m.c += col[1] * col[1];
        }
        m
    }

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

/// The minimum-norm (damped) least-squares step Δq = Jᵀ (J Jᵀ + λ² I)⁺ r over the free joints;
/// entries of joints that are not free are 0. `damping2` is λ² (0 for Gauss–Newton).
pub fn task_step(cols: &[[f64; 2]], free: Option<&[bool]>, r: [f64; 2], damping2: f64) -> Vec<f64> {
    let w = Sym2::gram(cols, free).pinv_apply(damping2, r);
    cols.iter()
        .enumerate()
        .map(|(i, col)| {
            if free.is_some_and(|f| !f[i]) {
                0.0
            } else {
                col[0] * w[0] + col[1] * w[1]
            }
        })
        .collect()
}

/// The null-space projection (I − J⁺J) g over the free joints (entries of fixed joints are 0).
pub fn nullspace_project(cols: &[[f64; 2]], free: Option<&[bool]>, g: &[f64]) -> Vec<f64> {
    let is_free = |i: usize| free.is_none_or(|f| f[i]);
    // J g over the free joints, then subtract J⁺ (J g).
    let mut jg = [0.0, 0.0];
    for (i, col) in cols.iter().enumerate() {
        if is_free(i) {
            jg[0] += col[0] * g[i];
            jg[1] += col[1] * g[i];
        }
    }
    let back = task_step(cols, free, jg, 0.0);
    g.iter()
        .zip(back)
        .enumerate()
        .map(|(i, (gi, bi))| if is_free(i) { gi - bi } else { 0.0 })
        .collect()
}

/// Euclidean norm.
pub fn norm(v: &[f64]) -> f64 {
    v.iter().map(|x| x * x).sum::<f64>().sqrt()
}
