//! Semi-smooth Newton inverse of a monotone layer on x (loink-math.md §3).
//!
//! F is piecewise linear and μ_l-strongly monotone; at x its generalised Jacobian is
//! J_F(x) = μ_l I + γ Sᵀ (I − D V)⁻¹ D S with D = diag(ReLU active). J_F + J_Fᵀ ⪰ 2μ_l I, so
//! d = −J_F⁻¹(F(x) − y) is a descent direction of ½‖F(x) − y‖²; an Armijo backtracking line
//! search makes it globally convergent, and once the activation pattern is right a full step
//! lands on the solution. Per step: one forward pass, n block triangular solves (skipping
//! inactive units), and an n × n LU solve — all in preallocated buffers. The Jacobian is
//! cached with its activation pattern and rebuilt only when the pattern changes.

use super::inverse::{InverseOptions, LayerReport, Stop};
use super::linalg::{distance, dot, lu_solve_in_place};
use super::monotone::{MonotoneLayer, MonotoneState};

/// Armijo constant c in ‖r(x + t d)‖² ≤ (1 − 2ct)‖r(x)‖².
const ARMIJO: f64 = 1e-4;
/// Halvings of the step before the line search gives up.
const MAX_HALVINGS: usize = 40;

impl MonotoneLayer {
    /// J_F(x) (row-major n × n, into `state.jac_cache`) from the activation pattern in
    /// `state.z`, remembering the pattern in `state.pattern`.
    ///
    /// T = (I − DV)⁻¹ D S is built column by column (column-major in `state.t`) by block forward
    /// substitution T_k = D_k(S_k + V_k T_{k−1}); inactive entries are zero, so the V_k products
    /// are plain dense dot products (vectorisable, branch-free). Then J = μ_l I + γ Sᵀ T.
    fn jacobian_from_pattern(&self, state: &mut MonotoneState) {
        let n = self.n;
        let total = self.hidden_total();
        for b in 0..n {
            let tb = &mut state.t[b * total..(b + 1) * total];
            tb.copy_from_slice(&self.s_cols[b * total..(b + 1) * total]);
            for k in 0..self.hidden.len() {
                let (start, end) = (self.offsets[k], self.offsets[k + 1]);
                let (before, rest) = tb.split_at_mut(start);
                let block = &mut rest[..end - start];
                if k > 0 {
                    self.add_block_product(k, &before[self.offsets[k - 1]..], 1.0, block);
                }
                for (t, &zi) in block.iter_mut().zip(&state.z[start..end]) {
                    *t = if zi > 0.0 { *t } else { 0.0 };
                }
            }
        }
        for (p, &zi) in state.pattern.iter_mut().zip(&state.z) {
            *p = zi > 0.0;
        }
        state.pattern_valid = true;
        for a in 0..n {
            let sa = &self.s_cols[a * total..(a + 1) * total];
            for b in 0..n {
                let tb = &state.t[b * total..(b + 1) * total];
                let diagonal = if a == b { self.mu } else { 0.0 };
                state.jac_cache[a * n + b] = diagonal + self.gamma * dot(sa, tb);
            }
        }
    }

    /// Solves F(x) = y by semi-smooth Newton with backtracking to `options.tolerance` on
    /// ‖F(x) − y‖, starting from y (cold) or the last converged x (warm).
    pub fn inverse_newton(
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
        } else {
            state.x.copy_from_slice(y);
        }
        self.forward_with(&state.x, &mut state.z, &mut state.fx);
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
            let same_pattern = state.pattern_valid
                && state
                    .pattern
                    .iter()
                    .zip(&state.z)
                    .all(|(&p, &zi)| p == (zi > 0.0));
            if !same_pattern {
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
                self.forward_with(&state.x_trial, &mut state.z, &mut state.fx);
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
        if state.x_valid {
            state.x_warm.copy_from_slice(&state.x);
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
            super::inverse::InverseMethod::DavisYin => self.inverse_dys(y, out, state, options),
            super::inverse::InverseMethod::Newton => self.inverse_newton(y, out, state, options),
        }
    }
}
