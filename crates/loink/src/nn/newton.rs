//! Semi-smooth Newton inverse of a monotone layer on x (loink-math.md §3).
//!
//! F is piecewise linear and μ_l-strongly monotone; at x its generalised Jacobian is
//! J_F(x) = μ_l I + γ Sᵀ (I − D V)⁻¹ D S with D = diag(ReLU active). J_F + J_Fᵀ ⪰ 2μ_l I, so
//! d = −J_F⁻¹(F(x) − y) is a descent direction of ½‖F(x) − y‖²; an Armijo backtracking line
//! search makes it globally convergent, and once the activation pattern is right a full step
//! lands on the solution. Per step: one forward pass, the rows of T = (I − DV)⁻¹ D S at the
//! active units only, and an n × n LU solve — all in preallocated buffers. The Jacobian is
//! cached with its activation pattern and rebuilt only when the pattern changes.

use super::inverse::{InverseOptions, LayerReport, Stop};
use super::linalg::{distance, lu_solve_in_place};
use super::monotone::{MonotoneLayer, MonotoneState};
use super::widths::{by_width, ByWidth};

/// Armijo constant c in ‖r(x + t d)‖² ≤ (1 − 2ct)‖r(x)‖².
const ARMIJO: f64 = 1e-4;
/// Halvings of the step before the line search gives up.
const MAX_HALVINGS: usize = 40;

impl MonotoneLayer {
    /// J_F(x) (row-major n × n, into `state.jac_cache`) from the active units of the last
    /// forward pass (`state.active`), remembering them in `state.pattern_active`.
    ///
    /// Only active units carry a row of T = (I − DV)⁻¹ D S, so the work scales with the active
    /// units squared, not with N.
    #[inline(always)]
    fn jacobian_from_pattern(&self, state: &mut MonotoneState) {
        // Fixed-size rows where the width has a kernel of its own (`super::widths`).
        struct Jacobian<'a> {
            layer: &'a MonotoneLayer,
            state: &'a mut MonotoneState,
        }
        impl ByWidth for Jacobian<'_> {
            type Output = ();
            #[inline(always)]
            fn fixed<const N: usize>(self) {
                self.layer.jacobian_fixed::<N>(self.state)
            }
            #[inline(always)]
            fn any(self) {
                self.layer.jacobian_any(self.state)
            }
        }
        by_width(self.n, Jacobian { layer: self, state });
        state.pattern_active.clear();
        state.pattern_active.extend_from_slice(state.active.units());
        state.pattern_valid = true;
    }

    /// J_F for any width n: T's rows (compact: row j belongs to the j-th active unit), block
    /// by block T_i = S_i + Σ_l V_k[i, l] T_l over the active units l of the block before, then
    /// J = μ_l I + γ Σ_i S_iᵀ T_i.
    #[inline(always)]
    fn jacobian_any(&self, state: &mut MonotoneState) {
        let n = self.n;
        let MonotoneState {
            t,
            active,
            jac_cache,
            ..
        } = state;
        let mut begin = 0;
        let mut prev_begin = 0;
        for k in 0..self.hidden.len() {
            let block = active.block(k);
            let (done, current) = t.split_at_mut(begin * n);
            let (start_k, cols) = (self.offsets[k], if k > 0 { self.hidden[k - 1] } else { 0 });
            for (&i, row) in block.iter().zip(current.chunks_exact_mut(n)) {
                row.copy_from_slice(&self.s_flat[i * n..(i + 1) * n]);
                if k > 0 {
                    let prev = self.offsets[k - 1];
                    let v_row = &self.v_rows[k - 1][(i - start_k) * cols..(i - start_k + 1) * cols];
                    let prev_rows = &done[prev_begin * n..];
                    for (&l, tl) in active.block(k - 1).iter().zip(prev_rows.chunks_exact(n)) {
                        let v = v_row[l - prev];
                        for (r, &tc) in row.iter_mut().zip(tl) {
                            *r += v * tc;
                        }
                    }
                }
            }
            prev_begin = begin;
            begin += block.len();
        }
        jac_cache.iter_mut().for_each(|v| *v = 0.0);
        for (&i, t_i) in active.units().iter().zip(t.chunks_exact(n)) {
            for (a, &sa) in self.s_flat[i * n..(i + 1) * n].iter().enumerate() {
                for (j, &tb) in jac_cache[a * n..(a + 1) * n].iter_mut().zip(t_i) {
                    *j += sa * tb;
                }
            }
        }
        for a in 0..n {
            for b in 0..n {
                let diagonal = if a == b { self.mu } else { 0.0 };
                jac_cache[a * n + b] = diagonal + self.gamma * jac_cache[a * n + b];
            }
        }
    }

    /// [`Self::jacobian_any`] for width `N` known at compile time (rows as arrays). Each sum
    /// is the same, added in the same order, as in [`Self::jacobian_any`]; on x86-64 the loops
    /// are arranged so that independent sums run side by side in registers instead of one long
    /// chain of dependent additions (the page's wasm keeps the plain loops: less code).
    #[inline(always)]
    fn jacobian_fixed<const N: usize>(&self, state: &mut MonotoneState) {
        let MonotoneState {
            t,
            active,
            jac_cache,
            ..
        } = state;
        let row_of = |flat: &[f64]| -> [f64; N] {
            let mut r = [0.0; N];
            r.copy_from_slice(&flat[..N]);
            r
        };
        let mut begin = 0;
        let mut prev_begin = 0;
        for k in 0..self.hidden.len() {
            let block = active.block(k);
            let (done, current) = t.split_at_mut(begin * N);
            let (start_k, cols) = (self.offsets[k], if k > 0 { self.hidden[k - 1] } else { 0 });
            #[allow(unused_mut)]
            let mut first = 0;
            #[cfg(target_arch = "x86_64")]
            if k > 0 {
                let inputs = (active.block(k - 1), &done[prev_begin * N..]);
                first = self.t_rows_by_four::<N>(k, block, inputs, current);
            }
            let rows = current[first * N..].chunks_exact_mut(N);
            for (&i, row) in block[first..].iter().zip(rows) {
                let mut acc = row_of(&self.s_flat[i * N..]);
                if k > 0 {
                    let prev = self.offsets[k - 1];
                    let v_row = &self.v_rows[k - 1][(i - start_k) * cols..(i - start_k + 1) * cols];
                    let prev_rows = &done[prev_begin * N..];
                    for (&l, tl) in active.block(k - 1).iter().zip(prev_rows.chunks_exact(N)) {
                        let v = v_row[l - prev];
                        for c in 0..N {
                            acc[c] += v * tl[c];
                        }
                    }
                }
                row.copy_from_slice(&acc);
            }
            prev_begin = begin;
            begin += block.len();
        }
        let mut jac = [[0.0; N]; N];
        #[cfg(target_arch = "x86_64")]
        if N > 4 {
            self.jacobian_sum_by_three::<N>(active.units(), t, &mut jac);
        }
        if cfg!(not(target_arch = "x86_64")) || N <= 4 {
            // Up to 16 sums fit in registers as they are.
            for (&i, t_i) in active.units().iter().zip(t.chunks_exact(N)) {
                let s_i = row_of(&self.s_flat[i * N..]);
                for a in 0..N {
                    for b in 0..N {
                        jac[a][b] += s_i[a] * t_i[b];
                    }
                }
            }
        }
        for a in 0..N {
            for b in 0..N {
                let diagonal = if a == b { self.mu } else { 0.0 };
                jac_cache[a * N + b] = diagonal + self.gamma * jac[a][b];
            }
        }
    }

    /// The rows T_i = S_i + Σ_l V_k[i, l] T_l of block k ≥ 1's active units `block`, four at a
    /// time, from the active units of the block before and their rows (`inputs`): each T_l
    /// loaded serves four independent sums. Returns how many rows it wrote (a multiple of four;
    /// the caller writes the rest one by one).
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn t_rows_by_four<const N: usize>(
        &self,
        k: usize,
        block: &[usize],
        (inputs, input_rows): (&[usize], &[f64]),
        rows: &mut [f64],
    ) -> usize {
        let (start, cols, prev) = (self.offsets[k], self.hidden[k - 1], self.offsets[k - 1]);
        let v = &self.v_rows[k - 1];
        let v_row = |i: usize| &v[(i - start) * cols..(i - start + 1) * cols];
        let s_row = |i: usize| {
            let mut r = [0.0; N];
            r.copy_from_slice(&self.s_flat[i * N..(i + 1) * N]);
            r
        };
        let mut written = 0;
        for (quad, out) in block.chunks_exact(4).zip(rows.chunks_exact_mut(4 * N)) {
            let mut acc = [
                s_row(quad[0]),
                s_row(quad[1]),
                s_row(quad[2]),
                s_row(quad[3]),
            ];
            let v_quad = [
                v_row(quad[0]),
                v_row(quad[1]),
                v_row(quad[2]),
                v_row(quad[3]),
            ];
            for (&l, t_l) in inputs.iter().zip(input_rows.chunks_exact(N)) {
                for (acc_r, v_r) in acc.iter_mut().zip(&v_quad) {
                    let w = v_r[l - prev];
                    for c in 0..N {
                        acc_r[c] += w * t_l[c];
                    }
                }
            }
            for (row, acc_r) in out.chunks_exact_mut(N).zip(&acc) {
                row.copy_from_slice(acc_r);
            }
            written += 4;
        }
        written
    }

    /// Σ_i S_i T_iᵀ over the active units into `jac`, three rows of J at a time, each padded to
    /// eight columns (two four-lane vectors): all 36 or 49 sums at once would spill.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn jacobian_sum_by_three<const N: usize>(
        &self,
        units: &[usize],
        t: &[f64],
        jac: &mut [[f64; N]; N],
    ) {
        for first in (0..N).step_by(3) {
            let mut acc = [[0.0; 8]; 3];
            for (&i, t_i) in units.iter().zip(t.chunks_exact(N)) {
                let s_i = &self.s_flat[i * N..(i + 1) * N];
                let mut t8 = [0.0; 8];
                t8[..N].copy_from_slice(t_i);
                for (r, acc_r) in acc.iter_mut().enumerate() {
                    let a = (first + r).min(N - 1);
                    for c in 0..8 {
                        acc_r[c] += s_i[a] * t8[c];
                    }
                }
            }
            for (r, acc_r) in acc.iter().enumerate().take(N - first) {
                jac[first + r].copy_from_slice(&acc_r[..N]);
            }
        }
    }

    /// F at `state.x` (or `state.x_trial` when `trial`) into `state.fx`, listing the active units.
    #[inline(always)]
    fn forward_state(&self, state: &mut MonotoneState, trial: bool) {
        let MonotoneState {
            x,
            x_trial,
            z,
            active,
            fx,
            ..
        } = state;
        let at = if trial { &*x_trial } else { &*x };
        self.forward_active(at, z, active, fx);
    }

    /// Solves F(x) = y by semi-smooth Newton with backtracking to `options.tolerance` on
    /// ‖F(x) − y‖, starting from y (cold) or the last converged x (warm). On a CPU with AVX2
    /// and FMA it runs the wide build ([`super::simd`]), with the same result.
    pub fn inverse_newton(
        &self,
        y: &[f64],
        out: &mut [f64],
        state: &mut MonotoneState,
        options: &InverseOptions,
    ) -> LayerReport {
        #[cfg(target_arch = "x86_64")]
        if super::simd::wide() {
            // SAFETY: the CPU reports AVX2 and FMA, all the wide build needs.
            return unsafe { self.inverse_newton_wide(y, out, state, options) };
        }
        self.newton_solve(y, out, state, options)
    }

    /// [`Self::inverse_newton`] compiled with AVX2 and FMA (the loops it inlines vectorise four
    /// lanes wide).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,fma")]
    pub(crate) fn inverse_newton_wide(
        &self,
        y: &[f64],
        out: &mut [f64],
        state: &mut MonotoneState,
        options: &InverseOptions,
    ) -> LayerReport {
        self.newton_solve(y, out, state, options)
    }

    /// The Newton solve itself, inlined into each build.
    #[inline(always)]
    pub(crate) fn newton_solve(
        &self,
        y: &[f64],
        out: &mut [f64],
        state: &mut MonotoneState,
        options: &InverseOptions,
    ) -> LayerReport {
        if let Some(report) = MonotoneState::misfit(self, y, out, state) {
            return report;
        }
        let n = self.n;
        if options.warm_start && state.x_valid {
            state.x.copy_from_slice(&state.x_warm);
            if state.fx_warm_valid {
                // The last solve ended with the forward pass at x_warm: z, the active units
                // and F(x_warm) are still in the state.
                state.fx.copy_from_slice(&state.fx_warm);
            } else {
                self.forward_state(state, false);
            }
        } else {
            state.x.copy_from_slice(y);
            self.forward_state(state, false);
        }
        let mut residual = distance(&state.fx, y);
        let mut iterations = 0;
        let stop = loop {
            if !residual.is_finite() {
                break Stop::Diverged;
            }
            if residual <= options.tolerance {
                break Stop::Converged;
            }
            if iterations >= options.max_iterations {
                break Stop::IterationCap;
            }
            // J_F depends on x only through the activation pattern: reuse it when unchanged
            // (the common case when tracking a slowly moving target).
            if !(state.pattern_valid && state.pattern_active == state.active.units()) {
                self.jacobian_from_pattern(state);
            }
            state.jac.copy_from_slice(&state.jac_cache);
            for ((step, &yj), &fj) in state.step.iter_mut().zip(y).zip(&state.fx) {
                *step = yj - fj;
            }
            if !lu_solve_in_place(&mut state.jac, n, &mut state.step, 1) {
                break Stop::Stalled;
            }
            iterations += 1;
            let mut t = 1.0;
            let mut accepted = false;
            for _ in 0..MAX_HALVINGS {
                for j in 0..n {
                    state.x_trial[j] = state.x[j] + t * state.step[j];
                }
                self.forward_state(state, true);
                let trial = distance(&state.fx, y);
                if trial.is_finite()
                    && trial * trial <= (1.0 - 2.0 * ARMIJO * t) * residual * residual
                {
                    residual = trial;
                    accepted = true;
                    break;
                }
                t *= 0.5;
            }
            if !accepted {
                break Stop::Stalled;
            }
            state.x.copy_from_slice(&state.x_trial);
        };
        out.copy_from_slice(&state.x);
        state.x_valid = stop == Stop::Converged;
        // Every exit but a stalled line search leaves the last forward pass at x.
        state.fx_warm_valid = state.x_valid;
        if state.x_valid {
            state.x_warm.copy_from_slice(&state.x);
            state.fx_warm.copy_from_slice(&state.fx);
        }
        let report = LayerReport {
            iterations,
            residual,
            stop,
        };
        state.last = report;
        report
    }

    /// Solves F(x) = y with the method in `options`.
    pub fn inverse_with(
        &self,
        y: &[f64],
        out: &mut [f64],
        state: &mut MonotoneState,
        options: &InverseOptions,
    ) -> LayerReport {
        match options.method {
            #[cfg(feature = "davis-yin")]
            super::inverse::InverseMethod::DavisYin => self.inverse_dys(y, out, state, options),
            super::inverse::InverseMethod::Newton => self.inverse_newton(y, out, state, options),
        }
    }
}

#[cfg(test)]
mod tests {
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use super::super::monotone::MonotoneLayer;

    /// The Jacobian on fixed-size rows is the generic one, bit for bit, on every width that has
    /// one and on blocks whose active units do and do not fill whole groups of four.
    #[test]
    fn fixed_width_jacobians_are_the_generic_one() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        for n in 2..=7 {
            for hidden in [&[9, 13, 7][..], &[32, 32, 32, 32], &[5, 1, 17]] {
                let layer = MonotoneLayer::random(n, hidden, 0.3, 4.0, &mut rng).unwrap();
                for _ in 0..10 {
                    let x: Vec<f64> = (0..n).map(|_| rng.random_range(-2.0..2.0)).collect();
                    let mut state = layer.new_state();
                    state.x.copy_from_slice(&x);
                    layer.forward_state(&mut state, false);
                    layer.jacobian_from_pattern(&mut state);
                    let fixed = state.jac_cache.clone();
                    layer.jacobian_any(&mut state);
                    let bits = |v: &[f64]| v.iter().map(|a| a.to_bits()).collect::<Vec<_>>();
                    assert_eq!(bits(&fixed), bits(&state.jac_cache), "n {n}, {hidden:?}");
                    assert!(fixed.iter().all(|v| v.is_finite()));
                }
            }
        }
    }
}
