//! The per-target work the panels need and the page does while the pointer rests: the
//! reference pass (J*, the gap, the self-motion set of the landscape), the samples, the learned
//! curve and latent map, and the re-timing of the last solve by repetition.

use loink::report::{Solution, Status, Termination};
use loink::solvers::reference::planar as reference;

use super::{
    latent_half_range, Engine, Optimum, CURVE_POINTS, FRAME_DENSE, LATENT_CELLS_1D,
    LATENT_CELLS_2D, MOTION_SAMPLES, TIMING_MIN_REPEATS, TIMING_REPEATS,
};
use crate::clock::now_micros;
use crate::learned::{LatentCurve, LatentMap};
use crate::settings::SolverKind;

impl Engine {
    /// The per-target work the panels need, deferred by [`Self::move_target`]: the frame
    /// reference pass on three links (J*, the gap, the landscape), the σ-samples and the
    /// learned curve. Returns whether it ran (false when nothing was pending).
    pub fn prepare_panels(&mut self) -> bool {
        if !self.panels_pending {
            return false;
        }
        self.panels_pending = false;
        let target = self.target.clone();
        if self.solution.status() == Status::Unreachable {
            self.closest = self
                .problem
                .closest_pose(&target)
                .map(|q| loink::report::distance(&self.problem.position(&q), &target));
        }
        if self.motion.is_none() && self.sweep_gives_reference() {
            self.compute_reference(FRAME_DENSE);
        }
        self.chart_proposals(&target);
        self.sweep_pieces(&target);
        if self.sample_flow(&target) {
            return true;
        }
        let drawn = match self.models.get(self.entry.name) {
            Some(m) if self.settings.sigma > 0.0 && self.settings.samples > 0 => m.sample(
                &target,
                self.settings.sigma,
                self.settings.samples as usize,
                self.settings.seed,
            ),
            _ => Vec::new(),
        };
        (self.samples, self.sample_z) = drawn.into_iter().unzip();
        if self.motion.is_some() {
            self.compute_curve();
        }
        self.revision = self.revision.wrapping_add(1);
        true
    }

    /// A multi-chart model: every chart's answer (with the solver's refinement when it refines)
    /// for the ghosts, and the latent panel turned to the chart of the answer (the learned
    /// solver's winner, else the proposals' winner).
    #[cfg(not(feature = "multi-chart"))]
    fn chart_proposals(&mut self, _target: &[f64]) {}

    /// A multi-chart model: every chart's answer (with the solver's refinement when it refines)
    /// for the ghosts, and the latent panel turned to the chart of the answer (the learned
    /// solver's winner, else the proposals' winner).
    #[cfg(feature = "multi-chart")]
    fn chart_proposals(&mut self, target: &[f64]) {
        let refine = if self.settings.solver == SolverKind::LoinkRefine {
            self.settings.refine as usize
        } else {
            0
        };
        let Some(model) = self
            .models
            .get_mut(self.entry.name)
            .filter(|m| m.chart_count() > 1)
        else {
            return;
        };
        self.proposals = model.proposals(target, refine);
        if let Some(k) = self.solution.chart() {
            // The learned solver's own (warm-started) answer stands for its chart.
            if let Some(p) = self.proposals.get_mut(k) {
                *p = self.solution.clone();
            }
        }
        let winner = loink::surrogate::charts::pick(&self.problem, &self.proposals);
        model.show_chart(self.solution.chart().unwrap_or(winner));
    }

    /// Whether the reference optimum of the current target has not been computed yet (the
    /// gap is then unknown, not "none feasible").
    pub fn optimum_pending(&self) -> bool {
        if let Some(pending) = self.unswept_optimum_pending() {
            return pending;
        }
        self.motion.is_none()
            && self.optimum.is_none()
            && loink::solvers::reference::available(&self.problem)
    }

    /// The reference optimum of the current self-motion pass as a judged [`Solution`].
    pub(super) fn reference_solution(&self, target: &[f64]) -> Option<Solution> {
        let best = self.motion.as_ref()?.minima.first()?;
        Some(Solution::assess(
            &self.problem,
            loink::solvers::reference::NAME,
            target,
            None,
            best.q.clone(),
            1,
            0.0,
            Termination::Converged,
        ))
    }

    /// Whether the reference optimum and the self-motion set come from the full-density sweep
    /// (the frame pass on three links uses a coarser one; [`Self::idle`] replaces it when the
    /// pointer rests).
    pub fn reference_full(&self) -> bool {
        self.motion_full
    }

    /// Does deferred work within about `budget_micros`: the reference optimum and self-motion
    /// set at full density (or, for longer arms, at all), the landscape curve, then the latent
    /// map. Returns whether it changed anything (then panels redraw).
    pub fn idle(&mut self, budget_micros: f64) -> bool {
        if self.prepare_panels() {
            return true;
        }
        if self.timed.is_none() && self.time_last_solve(budget_micros) {
            return true;
        }
        if self.idle_reference() {
            if self.models.contains_key(self.entry.name) {
                self.latent_map = None;
                self.compute_curve();
            }
            self.revision = self.revision.wrapping_add(1);
            return true;
        }
        if !self.motion_full && loink::solvers::reference::sweeps(&self.problem) {
            let start = now_micros();
            self.compute_reference(reference::SAMPLES);
            if self.settings.solver == SolverKind::Reference && self.sweep_gives_reference() {
                let target = self.target.clone();
                if let Some(s) = self.reference_solution(&target) {
                    self.solution = s.with_micros(now_micros() - start);
                }
            }
            self.compute_curve();
            self.revision = self.revision.wrapping_add(1);
            return true;
        }
        let Some(model) = self
            .models
            .get(self.entry.name)
            .filter(|m| m.latent_dim() > 0)
        else {
            return self.settle_timing(budget_micros);
        };
        let target = self.target.clone();
        if self.latent_map.is_none() {
            let optimum_z = self.optimum.as_ref().and_then(|o| model.latent(&o.q));
            let half = latent_half_range(optimum_z.as_deref(), self.settings.sigma, &self.sample_z);
            let cells = if model.latent_dim() >= 2 {
                LATENT_CELLS_2D
            } else {
                LATENT_CELLS_1D
            };
            let (axes, through) = self.latent_slice();
            self.latent_map = Some(model.new_map(
                half,
                cells,
                self.sample_z.clone(),
                optimum_z,
                axes,
                &through,
            ));
        }
        match self.latent_map.as_mut() {
            Some(map) if !map.complete() => model.fill_map(map, &target, budget_micros),
            _ => self.settle_timing(budget_micros),
        }
    }

    /// Times the solve again once everything else is done, when the readout still shows the
    /// timing taken on opening the page: a browser compiles wasm to fast code in the background
    /// during the first moments, so that figure can be several times what a drag costs.
    fn settle_timing(&mut self, budget_micros: f64) -> bool {
        if !self.timing_provisional {
            return false;
        }
        self.timing_provisional = false;
        self.time_last_solve(budget_micros)
    }

    /// Times the last solve again by repeating it from the solver's state before it, for about
    /// `budget_micros` (at least [`TIMING_MIN_REPEATS`] times, so a pause of the page's thread
    /// during one repeat never stands alone; at most [`TIMING_REPEATS`]): the page's clock is
    /// coarse, one solve can be far below its step. The first quarter of the budget runs
    /// untimed (a browser compiles a function to fast code only after it has run a while: the
    /// first calls are not what a drag costs), the rest in batches whose fastest mean is kept,
    /// and the copy of the solver's state each repeat starts from is timed alone and taken off.
    /// Returns whether it ran.
    fn time_last_solve(&mut self, budget_micros: f64) -> bool {
        /// Batches of copies timed, the fastest taken off.
        const COPY_BATCHES: usize = 3;
        let Some(before) = self.before_solve.as_ref() else {
            return false;
        };
        let target = self.target.clone();
        let budget = budget_micros.clamp(500.0, 4_000.0);
        let warm_until = now_micros() + 0.25 * budget;
        while now_micros() < warm_until {
            std::hint::black_box(before.boxed_clone().solve(&target));
        }
        // The timed repeats run in batches of about a fifth of their window, and the fastest
        // batch's mean stands: a pause of the page's thread (the browser compiling or collecting
        // in the background) inflates one batch, not the figure.
        let start = now_micros();
        let mut repeats = 0;
        let (mut batch_start, mut batch_len) = (start, 0usize);
        let mut fastest = (f64::INFINITY, 0usize);
        while repeats < TIMING_REPEATS {
            let mut solver = before.boxed_clone();
            std::hint::black_box(solver.solve(&target));
            repeats += 1;
            batch_len += 1;
            let now = now_micros();
            let done = (now - start >= 0.75 * budget && repeats >= TIMING_MIN_REPEATS)
                || repeats == TIMING_REPEATS;
            let elapsed = now - batch_start;
            let full = elapsed >= 0.15 * budget;
            if full || done {
                // The last batch is cut short by the window's end: on a coarse clock it may
                // read 0 µs, so it counts only where no full batch was timed.
                let counts = full || (fastest.1 == 0 && elapsed > 0.0);
                let mean = elapsed / batch_len as f64;
                if counts && mean < fastest.0 {
                    fastest = (mean, batch_len);
                }
                (batch_start, batch_len) = (now, 0);
            }
            if done {
                if fastest.1 == 0 {
                    fastest = ((now - start) / repeats as f64, repeats);
                }
                break;
            }
        }
        // The copies are timed the same way, fastest of a few batches: a pause inflating the
        // copies' one batch would otherwise be taken off the solve's figure, down to nothing.
        let mut copies = f64::INFINITY;
        for _ in 0..COPY_BATCHES {
            let start = now_micros();
            for _ in 0..fastest.1 {
                std::hint::black_box(before.boxed_clone());
            }
            copies = copies.min((now_micros() - start) / fastest.1.max(1) as f64);
        }
        // The copies' time is taken off; when the clock's noise makes it exceed the batch's, the
        // batch's own figure (copies included, an upper bound) stands rather than a zero.
        let per_solve = if fastest.0 > copies {
            fastest.0 - copies
        } else {
            fastest.0
        };
        self.timed = Some((per_solve, repeats));
        self.revision = self.revision.wrapping_add(1);
        true
    }

    /// Times the current solve by repetition now (the page's first frame), for about
    /// `budget_micros`; the readout then shows it, said to be provisional until the idle work
    /// times it again.
    pub fn time_solve(&mut self, budget_micros: f64) {
        self.timing_provisional = self.time_last_solve(budget_micros);
    }

    /// Whether [`Self::idle`] still has work for the current target.
    pub fn idle_pending(&self) -> bool {
        self.panels_pending
            || (self.timed.is_none() && self.before_solve.is_some())
            || self.timing_provisional
            || (!self.motion_full && loink::solvers::reference::sweeps(&self.problem))
            || (self
                .models
                .get(self.entry.name)
                .is_some_and(|m| m.latent_dim() > 0)
                && !self.latent_map.as_ref().is_some_and(LatentMap::complete))
    }

    fn compute_curve(&mut self) {
        let Some(model) = self.models.get(self.entry.name) else {
            self.curve = None;
            return;
        };
        let optimum_z = self.optimum.as_ref().and_then(|o| model.latent(&o.q));
        let half = latent_half_range(optimum_z.as_deref(), self.settings.sigma, &self.sample_z);
        self.curve = model.curve(&self.target, half, CURVE_POINTS);
        // Without a swept self-motion set the landscape's lower rows show the other axes.
        self.compute_other_curves(half);
    }

    /// The landscape curve of the learned set (None without a model or while pending).
    pub fn curve(&self) -> Option<&LatentCurve> {
        self.curve.as_ref()
    }

    /// The latent map (None without a model; partially filled while idle work runs).
    pub fn latent_map(&self) -> Option<&LatentMap> {
        self.latent_map.as_ref()
    }

    /// The self-motion set and the optimum at sweep density `dense` (three links; longer arms
    /// always use the reference search).
    pub(super) fn compute_reference(&mut self, dense: usize) {
        let motion =
            reference::self_motion_with(&self.problem, &self.target, MOTION_SAMPLES, dense);
        self.optimum = motion.minima.first().map(|m| Optimum {
            q: m.q.clone(),
            cost: m.cost,
        });
        self.motion_full = dense >= reference::SAMPLES || !self.sweep_gives_reference();
        self.motion = Some(motion);
    }

    /// Runs the solver for `target` `repeats` times from the same state (the solver is rebuilt
    /// and warmed to where it was before each repeat), then keeps the last answer's state (the
    /// benchmark's unit of work). Returns whether it converged.
    pub fn time_solver(&mut self, target: &[f64], repeats: usize) -> bool {
        let saved = self.solver.boxed_clone();
        let mut last = None;
        for _ in 0..repeats.max(1) {
            self.solver = saved.boxed_clone();
            last = Some(self.solver.solve(target));
        }
        last.is_some_and(|s| s.status() == Status::Converged)
    }
}
