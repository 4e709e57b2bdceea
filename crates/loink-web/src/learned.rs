//! The learned solver as the playground uses it: a loaded [`Loink`] model with its warm-start
//! [`SolverState`], and the evaluations the panels need — the learned solution set
//! z ↦ G⁻¹([y; z]) with its true cost J and the surrogate zᵀM(y)z + b(y), and the latent
//! image z = G₂(x) of a configuration.
//!
//! Latent coordinates are the model's normalised latent units throughout (the units σ is
//! given in).

use loink::nn::PathPredictor;
use loink::problem::Problem;
use loink::report::Solution;
use loink::surrogate::{ChartSet, Loink, SolverState};

use crate::model_json::Decoded;

/// Most latent coordinates a link may name (a probe's, a slice's axes).
pub const MAX_PROBE_DIM: usize = 8;

/// A loaded model (one LOInK chart or several) and the solver state of the chart the latent
/// panel shows.
pub struct LoinkView {
    set: ChartSet,
    /// The chart the latent panel and the samples read (the last winner of a charts model).
    shown: usize,
    state: SolverState,
    untrained: bool,
}

/// True and surrogate cost along the learned solution set, sampled over one latent axis.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct LatentCurve {
    /// Axis label.
    pub axis: String,
    /// Latent coordinates sampled.
    pub z: Vec<f64>,
    /// J(G⁻¹([y; z])).
    pub true_cost: Vec<f64>,
    /// The surrogate zᵀM(y)z + b(y), in cost units.
    pub surrogate: Vec<f64>,
}

/// The true cost over the latent space on a grid (rows = 1 for a one-dimensional latent).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct LatentMap {
    /// Grid columns (z₁).
    pub cols: usize,
    /// Grid rows (z₂, row 0 at the top); 1 for a 1-D latent.
    pub rows: usize,
    /// Range of each latent axis.
    pub z_range: [f64; 2],
    /// The two latent axes the map spans (columns, rows), 0-based: `[0, 1]` unless a latent
    /// space of three or more coordinates is sliced along others.
    pub axes: [usize; 2],
    /// The latent point the slice passes through: every coordinate off `axes` keeps its value
    /// here (the probe's, or 0).
    pub base: Vec<f64>,
    /// J(G⁻¹([y; z])) per cell (NaN where the inverse failed or is not computed yet).
    pub cost: Vec<f64>,
    /// Whether the cell's pose breaks a joint limit (the colour scale leaves these out).
    pub outside_limits: Vec<bool>,
    /// Whether the cell's pose, inside the limits, leaves the problem's useful domain (a kind
    /// with a [`loink::problem::capability::Domain`] capability; all false otherwise).
    pub outside_domain: Vec<bool>,
    /// Colour scale bounds.
    pub cost_range: (f64, f64),
    /// Latent points of the samples.
    pub samples: Vec<Vec<f64>>,
    /// z of the reference optimum, G₂(x*).
    pub optimum_z: Option<Vec<f64>>,
    /// Cells computed so far (row-major).
    pub done: usize,
}

impl LatentMap {
    /// Whether every cell is computed.
    pub fn complete(&self) -> bool {
        self.done >= self.cost.len()
    }

    /// Whether the map's slice passes through latent point `z` (empty: the origin): every
    /// coordinate off the map's axes agrees.
    pub fn holds(&self, z: &[f64]) -> bool {
        (0..self.base.len())
            .filter(|i| !self.axes.contains(i))
            .all(|i| z.get(i).copied().unwrap_or(0.0) == self.base[i])
    }

    /// The map's coordinates of latent point `z`: (along the columns' axis, along the rows').
    pub fn point(&self, z: &[f64]) -> (f64, f64) {
        let at = |i: usize| z.get(i).copied().unwrap_or(0.0);
        (
            at(self.axes[0]),
            if self.rows > 1 { at(self.axes[1]) } else { 0.0 },
        )
    }
}

impl LoinkView {
    /// Parses and validates a model file (shapes, finiteness, bi-Lipschitz certificate).
    pub fn from_json(json: &str) -> Result<Self, String> {
        Self::from_file(crate::model_json::decode(json).map_err(|e| e.to_string())?)
    }

    /// Validates a decoded model file of either kind (shapes, finiteness, bi-Lipschitz
    /// certificate of every chart).
    pub fn from_file(file: Decoded) -> Result<Self, String> {
        let set = match file {
            Decoded::Loink(file) => {
                ChartSet::from(Loink::from_file(file).map_err(|e| e.to_string())?)
            }
            #[cfg(feature = "multi-chart")]
            Decoded::Charts(file) => ChartSet::from_validated(
                loink::artifact::validate_charts(*file).map_err(|e| e.to_string())?,
            ),
            #[cfg(feature = "flow")]
            Decoded::Flow(_) => {
                return Err("a flow is its problem's baseline solver, not a LOInK model".into())
            }
        };
        let state = set.chart(0).new_state();
        let untrained = set
            .charts()
            .iter()
            .any(|c| c.model().file().metrics.contains_key("untrained"));
        Ok(LoinkView {
            set,
            shown: 0,
            state,
            untrained,
        })
    }

    /// The learned solver, every chart (for the registry to build the page's solver from).
    pub fn set(&self) -> &ChartSet {
        &self.set
    }

    /// The chart the latent panel shows.
    pub fn loink(&self) -> &Loink {
        self.set.chart(self.shown)
    }

    /// The training figures the file carries (a charts file's own: the whole set's check).
    pub fn metrics(&self) -> &std::collections::BTreeMap<String, f64> {
        match self.set.meta() {
            Some(meta) => &meta.metrics,
            None => &self.set.chart(0).model().file().metrics,
        }
    }

    /// The model file's card: its name, description, the command that trained it, and what of
    /// the paper its view reproduces and does not.
    pub fn about(&self) -> &loink::artifact::About {
        match self.set.meta() {
            Some(meta) => &meta.about,
            None => &self.set.chart(0).model().file().about,
        }
    }

    /// The command that trained the model (its card).
    pub fn command(&self) -> &str {
        &self.about().command
    }

    /// Number of charts (1 for a plain LOInK model).
    pub fn chart_count(&self) -> usize {
        self.set.len()
    }

    /// The chart the latent panel and the samples read.
    pub fn shown_chart(&self) -> usize {
        self.shown
    }

    /// Shows chart `k` in the latent panel (its own warm start; out of range is ignored).
    pub fn show_chart(&mut self, k: usize) {
        if k < self.set.len() && k != self.shown {
            self.shown = k;
            self.state = self.set.chart(k).new_state();
        }
    }

    /// Every chart's answer for `target` from a cold start, with `refine` polish steps and the
    /// current feedback rounds, each marked with its chart (a charts model's ghosts).
    pub fn proposals(&self, target: &[f64], refine: usize) -> Vec<Solution> {
        let set = self.set.clone().with_refinement(refine);
        set.propose(&mut set.new_states(), target)
    }

    /// The problem and cost the model was trained for.
    pub fn problem(&self) -> &Problem {
        self.set.problem()
    }

    /// Latent dimension n − m.
    pub fn latent_dim(&self) -> usize {
        self.loink().latent_dim()
    }

    /// Whether the file says it is an untrained stand-in (`metrics.untrained`).
    pub fn is_untrained(&self) -> bool {
        self.untrained
    }

    /// The warm-start state, to restore with [`Self::restore_state`].
    pub fn save_state(&self) -> SolverState {
        self.state.clone()
    }

    /// Restores a saved warm-start state.
    pub fn restore_state(&mut self, state: &SolverState) {
        self.state.clone_from(state);
    }

    /// Forgets the warm start.
    pub fn reset(&mut self) {
        self.state.reset();
    }

    /// x* = G⁻¹([y; 0]) (then the feedback rounds) on the shown chart, warm-started from the
    /// previous frame.
    pub fn solve(&mut self, target: &[f64]) -> Solution {
        let own = self.set.in_chart(self.shown, target);
        let answer = self.set.chart(self.shown).solve(&mut self.state, &own);
        self.set.from_chart(self.shown, target, answer)
    }

    /// Task-feedback rounds after each inverse (`loink::surrogate::feedback`; 0 = one-shot).
    pub fn set_feedback(&mut self, rounds: u32) {
        self.set.set_feedback(rounds as usize);
    }

    /// x* = G⁻¹([y; 0]) (then the feedback rounds) from a fresh state (no warm start).
    pub fn solve_cold(&self, target: &[f64]) -> Solution {
        self.set.solve_cold(target)
    }

    /// The one-shot x* = G⁻¹([y; 0]) from a fresh state, whatever the feedback setting: for
    /// caches (the gap map) that must not depend on when a setting changed.
    pub fn solve_cold_one_shot(&self, target: &[f64]) -> Solution {
        if self.set.is_multi() {
            self.set.clone().with_feedback(0).solve_cold(target)
        } else {
            self.set.chart(0).solve_cold_one_shot(target)
        }
    }

    /// Configurations at z ~ N(0, σ²I), seeded, with their latent points.
    pub fn sample(
        &self,
        target: &[f64],
        sigma: f64,
        count: usize,
        seed: u64,
    ) -> Vec<(Vec<f64>, Vec<f64>)> {
        let own = self.set.in_chart(self.shown, target);
        let Ok(solutions) = self.loink().sample(&own, sigma, count, seed) else {
            return Vec::new();
        };
        solutions
            .into_iter()
            .filter(|s| !s.q().is_empty())
            .filter_map(|s| {
                let z = self.loink().latent(s.q()).ok()?;
                Some((s.q().to_vec(), z))
            })
            .collect()
    }

    /// Target y (the model's coordinates) as the shown chart states it.
    fn own(&self, target: &[f64]) -> Vec<f64> {
        self.set.in_chart(self.shown, target)
    }

    /// The pose G⁻¹([y; z]) (then `rounds` feedback rounds) on the shown chart, judged like any
    /// answer and stated in the model's coordinates.
    pub fn solve_latent(&self, target: &[f64], z: &[f64], rounds: usize) -> Solution {
        let chart = self.loink();
        let own = self.own(target);
        let answer = chart.solve_latent_rounds(&mut chart.new_state(), &own, z, rounds);
        self.set.from_chart(self.shown, target, answer)
    }

    /// z = G₂(x) of a configuration.
    pub fn latent(&self, q: &[f64]) -> Option<Vec<f64>> {
        self.loink().latent(q).ok()
    }

    /// J(G⁻¹([y; z])) with the raw preimage (no replay): NaN when the inverse fails.
    fn true_cost_at(&self, state: &mut SolverState, target: &[f64], z: &[f64]) -> f64 {
        match self.loink().preimage(state, &self.own(target), z) {
            Ok((q, _)) => self.problem().cost().value(&q),
            Err(_) => f64::NAN,
        }
    }

    /// The surrogate along latent direction `axis` (unit vector): b(y) + cost_scale·zᵀM z.
    fn surrogate_fn(&self, target: &[f64]) -> Option<impl Fn(&[f64]) -> f64> {
        let own = self.own(target);
        let b = self.loink().value(&own).ok()?;
        let metric = self.loink().metric(&own).ok()?;
        let scale = self.loink().model().file().normalisation.cost_scale;
        Some(move |z: &[f64]| {
            let k = z.len().min(metric.nrows());
            let mut quad = 0.0;
            for i in 0..k {
                for j in 0..k {
                    quad += z[i] * metric[[i, j]] * z[j];
                }
            }
            b + scale * quad
        })
    }

    /// The landscape curve over z₁ ∈ [−half, half] (other latent coordinates 0), `points` samples.
    pub fn curve(&self, target: &[f64], half: f64, points: usize) -> Option<LatentCurve> {
        let label = match self.latent_dim() {
            1 => "latent z (normalised)",
            #[cfg(feature = "view3d")]
            3.. => "latent z₁ (normalised; the other zᵢ = 0)",
            _ => "latent z₁ (normalised; z₂ = 0)",
        };
        self.curve_along(target, 0, label, half, points)
    }

    /// The landscape curve over z_axis ∈ [−half, half] (other latent coordinates 0), its axis
    /// labelled `label`.
    pub fn curve_along(
        &self,
        target: &[f64],
        axis: usize,
        label: &str,
        half: f64,
        points: usize,
    ) -> Option<LatentCurve> {
        let k = self.latent_dim();
        if axis >= k || points < 2 {
            return None;
        }
        let surrogate = self.surrogate_fn(target)?;
        let mut state = self.state.clone();
        let mut curve = LatentCurve {
            axis: label.to_string(),
            ..LatentCurve::default()
        };
        // Walk outward from z = 0 in both directions so each inverse warm-starts from its
        // neighbour, extrapolated from the two before (39 % fewer Newton steps on planar3); the
        // negative half continues the path from z = 0. Then sort by z.
        let mut z = vec![0.0; k];
        let mut rows: Vec<(f64, f64, f64)> = Vec::with_capacity(points + 1);
        let half_points = points / 2;
        let mut path = PathPredictor::new();
        state.predict(&mut path);
        rows.push((
            0.0,
            self.true_cost_at(&mut state, target, &z),
            surrogate(&z),
        ));
        let origin = (state.clone(), path.clone());
        for direction in [1.0, -1.0] {
            let (mut warm, mut path) = origin.clone();
            for i in 1..=half_points {
                warm.predict(&mut path);
                z[axis] = direction * half * i as f64 / half_points.max(1) as f64;
                rows.push((
                    z[axis],
                    self.true_cost_at(&mut warm, target, &z),
                    surrogate(&z),
                ));
            }
        }
        loink::stats::sort_by_cost(&mut rows, |r| r.0);
        for (zv, j, s) in rows {
            curve.z.push(zv);
            curve.true_cost.push(j);
            curve.surrogate.push(s);
        }
        Some(curve)
    }

    /// An empty latent map for `target` (cells filled by [`Self::fill_map`]).
    /// `axes` and `through` choose the slice of a latent space of three or more coordinates
    /// ([`LatentMap::axes`], [`LatentMap::base`]).
    pub fn new_map(
        &self,
        half: f64,
        cells: usize,
        samples: Vec<Vec<f64>>,
        optimum_z: Option<Vec<f64>>,
        axes: [usize; 2],
        through: &[f64],
    ) -> LatentMap {
        let k = self.latent_dim();
        let two_d = k >= 2;
        let rows = if two_d { cells } else { 1 };
        let axes = if axes[0] < k && axes[1] < k && axes[0] != axes[1] {
            axes
        } else {
            [0, 1]
        };
        let mut base = through.to_vec();
        base.resize(k, 0.0);
        LatentMap {
            cols: cells,
            rows,
            z_range: [-half, half],
            axes,
            base,
            cost: vec![f64::NAN; cells * rows],
            outside_limits: vec![false; cells * rows],
            outside_domain: vec![false; cells * rows],
            cost_range: (f64::NAN, f64::NAN),
            samples,
            optimum_z,
            done: 0,
        }
    }

    /// Fills cells of `map` until `budget_micros` has passed; returns whether any changed.
    pub fn fill_map(&self, map: &mut LatentMap, target: &[f64], budget_micros: f64) -> bool {
        let start = crate::clock::now_micros();
        let k = self.latent_dim();
        if k == 0 {
            // No redundancy: there is no latent space to map.
            map.done = map.cost.len();
            return false;
        }
        let mut state = self.state.clone();
        let own = self.own(target);
        let mut z = map.base.clone();
        z.resize(k, 0.0);
        let [a, b] = map.axes;
        let [lo, hi] = map.z_range;
        let mut changed = false;
        // Along a row the cells are equally spaced: each row is a path (a resumed row, and a
        // row's first two cells, start plainly).
        let mut path = PathPredictor::new();
        let domain = self.problem().capabilities().domain;
        while !map.complete() {
            let cell = map.done;
            let (row, col) = (cell / map.cols, cell % map.cols);
            z[a] = lo + (col as f64 + 0.5) / map.cols as f64 * (hi - lo);
            if k >= 2 {
                z[b] = hi - (row as f64 + 0.5) / map.rows as f64 * (hi - lo);
            }
            if col == 0 {
                path.restart();
            }
            state.predict(&mut path);
            (
                map.cost[cell],
                map.outside_limits[cell],
                map.outside_domain[cell],
            ) = match self.loink().preimage(&mut state, &own, &z) {
                Ok((q, _)) => (
                    self.problem().cost().value(&q),
                    self.problem().limits().margin(&q) < -1e-6,
                    domain.is_some_and(|d| !d.contains(&q)),
                ),
                Err(_) => (f64::NAN, false, false),
            };
            map.done += 1;
            changed = true;
            if crate::clock::now_micros() - start >= budget_micros {
                break;
            }
        }
        if changed {
            // The colour scale spans the poses inside the limits and the useful domain (all
            // poses when none is).
            let range = |inside_only: bool| {
                (map.cost.iter().zip(&map.outside_limits))
                    .zip(&map.outside_domain)
                    .filter(|((c, out), off)| c.is_finite() && !(inside_only && (**out || **off)))
                    .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), ((c, _), _)| {
                        (a.min(*c), b.max(*c))
                    })
            };
            let inside = range(true);
            map.cost_range = if inside.0.is_finite() {
                inside
            } else {
                range(false)
            };
        }
        changed
    }
}
