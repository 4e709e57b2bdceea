//! Davis–Yin splitting inverse of a monotone layer (loink-math.md §3).
//!
//! Eliminating x = (y − b_y − √(γ/2) Sᵀz)/μ_l leaves z = ReLU((V − (γ/μ_l) S Sᵀ) z + b_z) with
//! b_z = (√(2γ)/μ_l) S (y − b_y) + b_h, i.e. 0 ∈ Az + Bz + Cz with A = I − V, B the normal cone
//! of the orthant (resolvent ReLU) and C(z) = (γ/μ_l) S Sᵀ z − b_z. From u (zero or warm):
//! ẑ = ReLU(u); û = 2ẑ − u; z⁺ = (I + α(I − V))⁻¹(û − α C(ẑ)); u ← u + λ(z⁺ − ẑ).
//! The resolvent of A is a block forward substitution because V is strictly block-lower;
//! S Sᵀ ẑ is two thin products (rank n). Stops on the **forward residual** ‖F(x) − y‖ of
//! x(z⁺), on the cap, or on a non-finite / blown-up iterate (returning the best finite x).

use super::inverse::{InverseOptions, LayerReport, Stop};
use super::linalg::{axpy, distance, mat_t_vec};
use super::monotone::{MonotoneLayer, MonotoneState};

/// A residual this many times the starting residual (plus one) counts as divergence.
const BLOW_UP: f64 = 1e8;

impl MonotoneLayer {
    /// x = (y − b_y − √(γ/2) Sᵀ z)/μ_l, with `st` (n) as scratch.
    #[inline]
    fn x_from_hidden(&self, y: &[f64], z: &[f64], st: &mut [f64], x: &mut [f64]) {
        mat_t_vec(&self.s_flat, self.n, z, st);
        for j in 0..self.n {
            x[j] = (y[j] - self.b_out_flat[j] - self.out_scale * st[j]) / self.mu;
        }
    }

    /// Solves F(x) = y by Davis–Yin splitting to `options.tolerance` on ‖F(x) − y‖.
    /// `y` and `out` have n entries; `state` comes from [`MonotoneLayer::new_state`].
    /// With `options.warm_start` the last converged u is the starting point.
    pub fn inverse_dys(
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
        let alpha = options.alpha_factor * self.mu / self.gamma;
        let a = alpha / (1.0 + alpha);
        let inv = 1.0 / (1.0 + alpha);
        let c1 = self.gamma / self.mu;
        let lambda = options.relaxation;
        let check_every = options.check_every.max(1);
        let st = &mut state.st;

        for j in 0..n {
            st[j] = (y[j] - self.b_out_flat[j]) / self.mu;
        }
        let total = self.hidden_total();
        state.b_z.copy_from_slice(&self.b_hidden_flat);
        for (j, &sj) in st.iter().enumerate() {
            axpy(
                sj,
                &self.s_in_cols[j * total..(j + 1) * total],
                &mut state.b_z,
            );
        }
        if !(options.warm_start && state.u_valid) {
            state.u.iter_mut().for_each(|u| *u = 0.0);
        }
        // Best finite iterate so far, starting from x(ReLU(u)).
        for (zh, &u) in state.z_hat.iter_mut().zip(&state.u) {
            *zh = if u > 0.0 { u } else { 0.0 };
        }
        self.x_from_hidden(y, &state.z_hat, st, &mut state.best_x);
        self.forward_with(&state.best_x, &mut state.z, &mut state.fx);
        let mut best = distance(&state.fx, y);
        let start = if best.is_finite() { best } else { 1.0 };
        let mut report = LayerReport {
            iterations: 0,
            residual: best,
            stop: Stop::IterationCap,
        };
        if !best.is_finite() {
            report.stop = Stop::Diverged;
        } else if best <= options.tolerance {
            report.stop = Stop::Converged;
        }
        let mut iteration = 0;
        while report.stop == Stop::IterationCap && iteration < options.max_iterations {
            iteration += 1;
            for ((zh, uh), &u) in state.z_hat.iter_mut().zip(&mut state.u_hat).zip(&state.u) {
                *zh = if u > 0.0 { u } else { 0.0 };
                *uh = 2.0 * *zh - u;
            }
            // r = a (b_z − (γ/μ_l) S Sᵀ ẑ) + û/(1+α), then the block forward substitution.
            mat_t_vec(&self.s_flat, n, &state.z_hat, st);
            for ((zp, &bz), &uh) in state.z_plus.iter_mut().zip(&state.b_z).zip(&state.u_hat) {
                *zp = a * bz + uh * inv;
            }
            for (j, &sj) in st.iter().enumerate() {
                axpy(
                    -a * c1 * sj,
                    &self.s_cols[j * total..(j + 1) * total],
                    &mut state.z_plus,
                );
            }
            for k in 1..self.hidden.len() {
                let (prev, start_k, end_k) =
                    (self.offsets[k - 1], self.offsets[k], self.offsets[k + 1]);
                let (before, rest) = state.z_plus.split_at_mut(start_k);
                self.add_block_product(k, &before[prev..], a, &mut rest[..end_k - start_k]);
            }
            for ((u, &zp), &zh) in state.u.iter_mut().zip(&state.z_plus).zip(&state.z_hat) {
                *u += lambda * (zp - zh);
            }
            if iteration % check_every == 0 || iteration == options.max_iterations {
                self.x_from_hidden(y, &state.z_plus, st, &mut state.x);
                self.forward_with(&state.x, &mut state.z, &mut state.fx);
                let residual = distance(&state.fx, y);
                if !residual.is_finite() || residual > BLOW_UP * (1.0 + start) {
                    report.stop = Stop::Diverged;
                    break;
                }
                if residual < best {
                    best = residual;
                    state.best_x.copy_from_slice(&state.x);
                }
                if residual <= options.tolerance {
                    report.stop = Stop::Converged;
                }
            }
        }
        report.iterations = iteration;
        report.residual = best;
        out.copy_from_slice(&state.best_x);
        state.u_valid = report.stop == Stop::Converged && state.u.iter().all(|u| u.is_finite());
        state.last = report;
        report
    }
}
