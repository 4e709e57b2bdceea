//! BiLipNet G = O_d ∘ F_{d−1} ∘ O_{d−1} ∘ … ∘ F₀ ∘ O₀ (loink-math.md §2): d monotone layers between
//! d + 1 orthogonal layers, width n throughout, μ = Π μ_l, ν = Π ν_l, distortion τ = ν/μ, so
//! μ‖Δx‖ ≤ ‖ΔG‖ ≤ ν‖Δx‖. The inverse runs outside-in: orthogonal layers by transpose, each
//! monotone layer by DYS or Newton, with per-layer work and warm-start state in [`BiLipState`].

use rand::Rng;

use super::inverse::{InverseOptions, LayerReport, Stop};
use super::monotone::{ActiveSet, MonotoneLayer, MonotoneState};
use super::orthogonal::OrthogonalLayer;
use crate::error::{ensure_finite, ensure_len, LoinkError, Result};

/// The bi-Lipschitz network on explicit matrices.
#[derive(Debug, Clone, PartialEq)]
pub struct BiLipNet {
    orthogonal: Vec<OrthogonalLayer>,
    monotone: Vec<MonotoneLayer>,
}

/// Work buffers and warm-start state of a [`BiLipNet`] inverse (one per network; reuse it).
#[derive(Debug, Clone, PartialEq)]
pub struct BiLipState {
    layers: Vec<MonotoneState>,
    a: Vec<f64>,
    b: Vec<f64>,
    scratch: Vec<f64>,
    z: Vec<f64>,
    /// The active units of the forward pass's current layer.
    active: ActiveSet,
}

impl BiLipState {
    /// Per monotone layer (in forward order F₀..F_{d−1}): the last solve's report.
    pub fn layer_reports(&self) -> impl Iterator<Item = LayerReport> + '_ {
        self.layers.iter().map(|l| l.last)
    }
    /// Whether any layer holds a warm start (a converged solve or a seeded guess).
    pub fn is_warm(&self) -> bool {
        self.layers.iter().any(|l| l.x_valid)
    }
    /// Forgets every warm start.
    pub fn reset(&mut self) {
        self.layers.iter_mut().for_each(MonotoneState::reset);
    }

    /// The Newton warm starts of all layers, flattened (depth · n; NaN where a layer has none),
    /// into `out`: the `previous` of a later [`Self::extrapolate`].
    pub fn warm_starts(&self, out: &mut Vec<f64>) {
        out.clear();
        for layer in &self.layers {
            if layer.x_valid {
                out.extend_from_slice(&layer.x_warm);
            } else {
                out.extend(layer.x_warm.iter().map(|_| f64::NAN));
            }
        }
    }

    /// Continuation predictor for a path of equally spaced targets: each layer's warm start x
    /// becomes 2x − p, p its value one target earlier (`previous`, from [`Self::warm_starts`]).
    /// Each layer is piecewise linear, so where the activation pattern holds along the step the
    /// prediction is the solution and Newton only verifies it. Layers without both values, and
    /// a `previous` of the wrong length, are left alone.
    pub fn extrapolate(&mut self, previous: &[f64]) {
        let total: usize = self.layers.iter().map(|l| l.x_warm.len()).sum();
        if previous.len() != total {
            return;
        }
        let mut offset = 0;
        for layer in &mut self.layers {
            let n = layer.x_warm.len();
            let p = &previous[offset..offset + n];
            offset += n;
            if layer.x_valid && p.iter().all(|v| v.is_finite()) {
                for (x, &before) in layer.x_warm.iter_mut().zip(p) {
                    *x = 2.0 * *x - before;
                }
                layer.fx_warm_valid = false;
            }
        }
    }
}

/// Summary of one inverse solve (the per-layer details stay in the [`BiLipState`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct InverseReport {
    /// Sum of iterations over the monotone layers.
    pub iterations: usize,
    /// Largest iteration count of one layer.
    pub max_layer_iterations: usize,
    /// An upper bound on ‖G(x) − y‖ of the returned x: each layer's own forward residual at its
    /// answer, amplified by the Lipschitz constants of the layers after it (a certificate;
    /// ‖G⁻¹(y) − x‖ ≤ residual/μ).
    pub residual: f64,
    /// The worst layer's stop.
    pub stop: Stop,
}

impl InverseReport {
    /// True when every layer met its forward-residual tolerance.
    pub fn converged(&self) -> bool {
        self.stop.converged()
    }
}

/// An owned inverse result: x, per-layer iterations and stops, the forward residual.
#[derive(Debug, Clone, PartialEq)]
pub struct Inverse {
    /// The preimage x (finite even when not converged: the best finite iterate).
    pub x: Vec<f64>,
    /// Iterations per monotone layer, forward order F₀..F_{d−1}.
    pub layer_iterations: Vec<usize>,
    /// Stop per monotone layer, forward order.
    pub layer_stops: Vec<Stop>,
    /// ‖G(x) − y‖.
    pub residual: f64,
    /// True when every layer converged.
    pub converged: bool,
}

impl BiLipNet {
    /// Composes the layers: `orthogonal` has d + 1 entries, `monotone` d, all of one width.
    pub fn new(orthogonal: Vec<OrthogonalLayer>, monotone: Vec<MonotoneLayer>) -> Result<Self> {
        if orthogonal.len() != monotone.len() + 1 {
            return Err(LoinkError::Dimension {
                what: "orthogonal layers (d + 1)".into(),
                expected: monotone.len() + 1,
                got: orthogonal.len(),
            });
        }
        let n = orthogonal[0].dim();
        if let Some(bad) = orthogonal
            .iter()
            .map(OrthogonalLayer::dim)
            .chain(monotone.iter().map(MonotoneLayer::dim))
            .find(|&d| d != n)
        {
            return Err(LoinkError::Dimension {
                what: "layer width".into(),
                expected: n,
                got: bad,
            });
        }
        Ok(Self {
            orthogonal,
            monotone,
        })
    }

    /// A random valid network: width n, d = `depth` monotone layers with blocks `hidden`, per
    /// layer μ_l = μ^{1/d}, ν_l = ν^{1/d} (so the overall bounds are exactly μ and ν).
    pub fn random<G: Rng>(
        n: usize,
        depth: usize,
        hidden: &[usize],
        mu: f64,
        nu: f64,
        rng: &mut G,
    ) -> Result<Self> {
        if depth == 0 || !(mu > 0.0 && mu < nu && nu.is_finite()) {
            return Err(LoinkError::OutOfRange {
                what: "BiLipNet bounds".into(),
                detail: format!("depth {depth}, μ = {mu}, ν = {nu} (need depth ≥ 1, 0 < μ < ν)"),
            });
        }
        let (mu_l, nu_l) = (mu.powf(1.0 / depth as f64), nu.powf(1.0 / depth as f64));
        let mut orthogonal = vec![OrthogonalLayer::random(n, rng)?];
        let mut monotone = Vec::with_capacity(depth);
        for _ in 0..depth {
            monotone.push(MonotoneLayer::random(n, hidden, mu_l, nu_l, rng)?);
            orthogonal.push(OrthogonalLayer::random(n, rng)?);
        }
        Self::new(orthogonal, monotone)
    }

    /// Width n.
    pub fn dim(&self) -> usize {
        self.orthogonal[0].dim()
    }
    /// Depth d (number of monotone layers).
    pub fn depth(&self) -> usize {
        self.monotone.len()
    }
    /// O₀..O_d.
    pub fn orthogonal(&self) -> &[OrthogonalLayer] {
        &self.orthogonal
    }
    /// F₀..F_{d−1}.
    pub fn monotone(&self) -> &[MonotoneLayer] {
        &self.monotone
    }
    /// Lower Lipschitz bound μ = Π μ_l.
    pub fn mu(&self) -> f64 {
        self.monotone.iter().map(MonotoneLayer::mu).product()
    }
    /// Upper Lipschitz bound ν = Π ν_l.
    pub fn nu(&self) -> f64 {
        self.monotone.iter().map(MonotoneLayer::nu).product()
    }
    /// Distortion τ = ν/μ.
    pub fn tau(&self) -> f64 {
        self.nu() / self.mu()
    }

    /// The most hidden units of any monotone layer (the states' buffers hold one layer's).
    fn widest_layer(&self) -> usize {
        self.monotone
            .iter()
            .map(MonotoneLayer::hidden_total)
            .max()
            .unwrap_or(0)
    }

    /// A fresh state for [`Self::inverse_into`].
    pub fn new_state(&self) -> BiLipState {
        let n = self.dim();
        let widest = self.widest_layer();
        BiLipState {
            layers: self.monotone.iter().map(MonotoneLayer::new_state).collect(),
            a: vec![0.0; n],
            b: vec![0.0; n],
            scratch: vec![0.0; n],
            z: vec![0.0; widest],
            active: ActiveSet::new(
                widest,
                self.monotone
                    .iter()
                    .map(|m| m.hidden().len())
                    .max()
                    .unwrap_or(0),
            ),
        }
    }

    /// G(x) into `out` without allocating (buffers in `state`). Slices must have n entries and
    /// `state` must come from this network; otherwise `out` is all NaN (no panic).
    pub fn forward_into(&self, x: &[f64], state: &mut BiLipState, out: &mut [f64]) {
        let n = self.dim();
        let widest = self.widest_layer();
        if x.len() != n
            || out.len() != n
            || state.a.len() != n
            || state.b.len() != n
            || state.z.len() < widest
            || !self
                .monotone
                .iter()
                .all(|m| state.active.fits(m.hidden_total(), m.hidden().len()))
        {
            out.iter_mut().for_each(|v| *v = f64::NAN);
            return;
        }
        let BiLipState {
            a, b, z, active, ..
        } = state;
        self.orthogonal[0].forward_into(x, a);
        for (f, o) in self.monotone.iter().zip(&self.orthogonal[1..]) {
            f.forward_active(a, &mut z[..f.hidden_total()], active, b);
            o.forward_into(b, a);
        }
        out.copy_from_slice(a);
    }

    /// Whether `state` was made for this network (its buffers and every layer's state fit).
    fn fits(&self, state: &BiLipState) -> bool {
        let n = self.dim();
        state.layers.len() == self.depth()
            && state.a.len() == n
            && state.b.len() == n
            && state.scratch.len() == n
            && state
                .layers
                .iter()
                .zip(&self.monotone)
                .all(|(s, m)| s.fits(n, m.hidden_total(), m.hidden().len()))
    }

    /// Seeds every monotone layer's Newton warm start from a guess `x` of the preimage: the
    /// forward pass at `x`, each layer's input becoming its start with that pass (hidden state,
    /// active units and output) kept in the layer's state, so the inverse's first residual costs
    /// nothing more. Returns false, seeding nothing, when `x` is not a finite vector of width n
    /// or `state` is not this network's.
    pub fn seed_warm_starts(&self, x: &[f64], state: &mut BiLipState) -> bool {
        if x.len() != self.dim() || !x.iter().all(|v| v.is_finite()) || !self.fits(state) {
            return false;
        }
        #[cfg(target_arch = "x86_64")]
        if super::simd::wide() {
            // SAFETY: the CPU reports AVX2 and FMA, all the wide build needs.
            unsafe { self.seed_layers_wide(x, state) };
            return true;
        }
        self.seed_layers(x, state);
        true
    }

    /// [`Self::seed_layers`] compiled with AVX2 and FMA ([`super::simd`]).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,fma")]
    fn seed_layers_wide(&self, x: &[f64], state: &mut BiLipState) {
        self.seed_layers(x, state);
    }

    /// The forward pass of [`Self::seed_warm_starts`] on checked input.
    #[inline(always)]
    fn seed_layers(&self, x: &[f64], state: &mut BiLipState) {
        let BiLipState { a, layers, .. } = state;
        self.orthogonal[0].forward_into(x, a);
        for ((f, o), layer) in self.monotone.iter().zip(&self.orthogonal[1..]).zip(layers) {
            layer.x_warm.copy_from_slice(a);
            f.forward_active(
                &layer.x_warm,
                &mut layer.z,
                &mut layer.active,
                &mut layer.fx_warm,
            );
            o.forward_into(&layer.fx_warm, a);
            // A guess that overflows inside G seeds nothing past it (the layer starts cold).
            let finite = layer.fx_warm.iter().all(|v| v.is_finite());
            layer.x_valid = finite;
            layer.fx_warm_valid = finite;
            if !finite {
                break;
            }
        }
    }

    /// G(x), checked (dimension and finiteness).
    pub fn forward(&self, x: &[f64]) -> Result<Vec<f64>> {
        ensure_len("BiLipNet input", x, self.dim())?;
        ensure_finite("BiLipNet input", x)?;
        let mut state = self.new_state();
        let mut out = vec![0.0; self.dim()];
        self.forward_into(x, &mut state, &mut out);
        Ok(out)
    }

    /// x = G⁻¹(y) into `x`, outside-in, reusing (and updating) the warm starts in `state`.
    ///
    /// The tolerance bounds the **overall** forward residual: layer F_k gets
    /// `tolerance / (d · a_k)` with a_k = ‖R_d‖·Π_{j>k} ν_j‖R_j‖, the most its error can be
    /// amplified by the layers applied after it, so the errors sum to at most `tolerance`. The
    /// returned residual is that sum for the layers' actual residuals: an upper bound on
    /// ‖G(x) − y‖. Errors only for wrong dimensions or non-finite y.
    pub fn inverse_into(
        &self,
        y: &[f64],
        state: &mut BiLipState,
        options: &InverseOptions,
        x: &mut [f64],
    ) -> Result<InverseReport> {
        let n = self.dim();
        ensure_len("BiLipNet target", y, n)?;
        ensure_len("BiLipNet preimage buffer", x, n)?;
        ensure_finite("BiLipNet target", y)?;
        if !self.fits(state) {
            return Err(LoinkError::Dimension {
                what: "BiLipNet state (made for another network)".into(),
                expected: self.depth(),
                got: state.layers.len(),
            });
        }
        let d = self.depth();
        let mut report = InverseReport {
            iterations: 0,
            max_layer_iterations: 0,
            residual: f64::NAN,
            stop: Stop::Converged,
        };
        // Layer k's output error reaches G's output through O_{k+1}, F_{k+1}, …, O_d: at most
        // amplified by ‖R_d‖·Π_{j>k} ν_j‖R_j‖. Each layer's solve ends with F_k evaluated at
        // its answer, so Σ_k ‖F_k(x_k) − y_k‖·amplification_k bounds ‖G(x) − y‖ without
        // another forward pass.
        let mut amplification = self.orthogonal[d].norm();
        let mut bound = 0.0;
        self.orthogonal[d].inverse_into(y, &mut state.scratch, &mut state.a);
        for k in (0..d).rev() {
            let layer = &self.monotone[k];
            let layer_options = InverseOptions {
                tolerance: options.tolerance / (d as f64 * amplification),
                ..*options
            };
            let layer_report =
                layer.inverse_with(&state.a, &mut state.b, &mut state.layers[k], &layer_options);
            report.iterations += layer_report.iterations;
            report.max_layer_iterations = report.max_layer_iterations.max(layer_report.iterations);
            report.stop = report.stop.worst(layer_report.stop);
            bound += layer_report.residual * amplification;
            amplification *= layer.nu() * self.orthogonal[k].norm();
            self.orthogonal[k].inverse_into(&state.b, &mut state.scratch, &mut state.a);
        }
        x.copy_from_slice(&state.a);
        report.residual = bound;
        if !report.residual.is_finite() || x.iter().any(|v| !v.is_finite()) {
            report.stop = Stop::Diverged;
        }
        Ok(report)
    }

    /// G⁻¹(y) with a fresh (cold) state, returning x with per-layer details.
    pub fn inverse(&self, y: &[f64], options: &InverseOptions) -> Result<Inverse> {
        let mut state = self.new_state();
        self.inverse_with_state(y, &mut state, options)
    }

    /// G⁻¹(y) reusing `state`, returning x with per-layer details (allocates the result).
    pub fn inverse_with_state(
        &self,
        y: &[f64],
        state: &mut BiLipState,
        options: &InverseOptions,
    ) -> Result<Inverse> {
        let mut x = vec![0.0; self.dim()];
        let report = self.inverse_into(y, state, options, &mut x)?;
        Ok(Inverse {
            x,
            layer_iterations: state.layer_reports().map(|r| r.iterations).collect(),
            layer_stops: state.layer_reports().map(|r| r.stop).collect(),
            residual: report.residual,
            converged: report.converged(),
        })
    }
}
