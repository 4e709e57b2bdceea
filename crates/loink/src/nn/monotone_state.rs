//! The preallocated state of a monotone layer's forward pass and inverses: the active units
//! of the last pass ([`ActiveSet`]) and every buffer the Newton and DYS iterations use
//! ([`MonotoneState`]), so no solve allocates.

use super::inverse::LayerReport;
use super::monotone::MonotoneLayer;

/// The active (z > 0) units of one forward pass: their indices in order, block after block.
#[derive(Debug, Clone, PartialEq)]
pub struct ActiveSet {
    /// Indices of the active units in the first `ends[L − 1]` entries (N slots).
    pub(crate) units: Vec<usize>,
    /// The end of each block's run in `units`.
    pub(crate) ends: Vec<usize>,
}

impl ActiveSet {
    /// Room for `total` units in `blocks` blocks.
    pub fn new(total: usize, blocks: usize) -> Self {
        Self {
            units: vec![0; total],
            ends: vec![0; blocks],
        }
    }
    /// Whether it has room for a layer of `total` units in `blocks` blocks.
    pub fn fits(&self, total: usize, blocks: usize) -> bool {
        self.units.len() >= total && self.ends.len() >= blocks
    }
    /// All active units, in order.
    pub fn units(&self) -> &[usize] {
        &self.units[..self.ends.last().copied().unwrap_or(0)]
    }
    /// The active units of block k.
    pub(crate) fn block(&self, k: usize) -> &[usize] {
        let begin = if k == 0 { 0 } else { self.ends[k - 1] };
        &self.units[begin..self.ends[k]]
    }
}

/// Preallocated work buffers and warm-start data of one monotone layer's inverse.
/// Reuse one per layer across solves: no allocation happens inside the iterations.
#[derive(Debug, Clone, PartialEq)]
pub struct MonotoneState {
    /// DYS warm start u (N) and whether it holds a converged value.
    pub(crate) u: Vec<f64>,
    pub(crate) u_valid: bool,
    /// Newton warm start x (n) and whether it holds a converged value.
    pub(crate) x_warm: Vec<f64>,
    pub(crate) x_valid: bool,
    /// F(x_warm), while `z`, `active` and this still hold the forward pass at x_warm (a warm
    /// start then skips it).
    pub(crate) fx_warm: Vec<f64>,
    pub(crate) fx_warm_valid: bool,
    pub(crate) z: Vec<f64>,
    pub(crate) z_hat: Vec<f64>,
    pub(crate) u_hat: Vec<f64>,
    pub(crate) z_plus: Vec<f64>,
    pub(crate) b_z: Vec<f64>,
    /// Newton: the rows of T = (I − DV)⁻¹ D S at the active units, in their order (n each).
    pub(crate) t: Vec<f64>,
    /// Newton: the active units of the last forward pass.
    pub(crate) active: ActiveSet,
    /// Newton: the active units the cached Jacobian belongs to.
    pub(crate) pattern_active: Vec<usize>,
    pub(crate) x: Vec<f64>,
    pub(crate) fx: Vec<f64>,
    pub(crate) st: Vec<f64>,
    pub(crate) x_trial: Vec<f64>,
    pub(crate) step: Vec<f64>,
    pub(crate) jac: Vec<f64>,
    /// Newton: the last J_F built (unfactorised); valid for `pattern_active`.
    pub(crate) jac_cache: Vec<f64>,
    pub(crate) pattern_valid: bool,
    pub(crate) best_x: Vec<f64>,
    /// The last solve's report.
    pub last: LayerReport,
}

impl MonotoneState {
    /// Buffers for width n, hidden size N and `blocks` hidden blocks.
    pub fn new(n: usize, hidden_total: usize, blocks: usize) -> Self {
        Self {
            u: vec![0.0; hidden_total],
            u_valid: false,
            x_warm: vec![0.0; n],
            x_valid: false,
            fx_warm: vec![0.0; n],
            fx_warm_valid: false,
            z: vec![0.0; hidden_total],
            z_hat: vec![0.0; hidden_total],
            u_hat: vec![0.0; hidden_total],
            z_plus: vec![0.0; hidden_total],
            b_z: vec![0.0; hidden_total],
            t: vec![0.0; hidden_total * n],
            active: ActiveSet::new(hidden_total, blocks),
            pattern_active: Vec::with_capacity(hidden_total),
            x: vec![0.0; n],
            fx: vec![0.0; n],
            st: vec![0.0; n],
            x_trial: vec![0.0; n],
            step: vec![0.0; n],
            jac: vec![0.0; n * n],
            jac_cache: vec![0.0; n * n],
            pattern_valid: false,
            best_x: vec![0.0; n],
            last: LayerReport::EMPTY,
        }
    }

    /// True when the buffers are sized for width n, hidden size N and `blocks` blocks.
    pub fn fits(&self, n: usize, hidden_total: usize, blocks: usize) -> bool {
        self.u.len() == hidden_total
            && self.t.len() == hidden_total * n
            && self.x.len() == n
            && self.jac.len() == n * n
            && self.active.fits(hidden_total, blocks)
            && self.active.ends.len() == blocks
    }

    /// The report for a call whose slices or state do not fit `layer` (x set to NaN).
    pub(crate) fn misfit(
        layer: &MonotoneLayer,
        y: &[f64],
        out: &mut [f64],
        state: &Self,
    ) -> Option<LayerReport> {
        let n = layer.dim();
        if y.len() == n
            && out.len() == n
            && state.fits(n, layer.hidden_total(), layer.hidden().len())
        {
            return None;
        }
        out.iter_mut().for_each(|v| *v = f64::NAN);
        Some(LayerReport {
            iterations: 0,
            residual: f64::NAN,
            stop: super::inverse::Stop::Invalid,
        })
    }

    /// Forgets the warm start and the cached Jacobian (the next solve starts cold).
    pub fn reset(&mut self) {
        self.u_valid = false;
        self.x_valid = false;
        self.fx_warm_valid = false;
        self.pattern_valid = false;
    }
}
