//! Several LOInK charts solving one problem: every chart k proposes xₖ = Gₖ⁻¹([y; 0]) (then its
//! feedback rounds and polish), every proposal is replayed on the whole problem, and the
//! cheapest feasible one wins.
//!
//! "Feasible" is the one meaning of `converged` (residual ≤ 1e-6 m, limits held) when a
//! proposal reaches it. One-shot proposals rarely do (their residual is the network's fit
//! error, a fraction of a millimetre), so among unconverged proposals inside the limits the
//! ones whose residual is at most [`NEAR_SHARE`] of the workspace radius, or at most
//! [`NEAR_FACTOR`] times the best such residual, count as near: the cheapest near proposal
//! wins. A chart whose region holds no solution of the target lands far off (its residual is
//! the distance to the region's workspace) and never wins on cost. When no proposal is near,
//! the order of answers ([`Solution::is_better_than`]) picks.
//!
//! **Order and early exit.** Each chart's value head b(y) is its learned optimal cost: what the
//! chart expects J\* to be for y. [`ChartSet::solve`] inverts the charts in increasing b(y) and
//! stops before a chart that expects to cost more than the cheapest feasible answer found by
//! [`SKIP_SHARE`]: the chart whose region holds the optimum expects about J\* and comes first or
//! nearly so. On planar3-wide (`loink eval --refine 3`, 1,000 held-out targets) the shipped
//! eight charts are then as often within 1 % of J\* as with every chart inverted (99.9 %), in
//! 30 µs instead of 73 µs median. [`ChartSet::propose`] (the page's ghosts) inverts every chart.
//!
//! **Charts of part of the task.** A chart may narrow the file's problem: a pose chart states
//! orientations about its own reference (turned about the tool axis) and covers those within
//! its `cover` of it. Every chart takes the target restated in its own coordinates, every
//! answer is stated back in the file's, and the charts whose cover holds the target come first
//! (the others only when none of those lands).
//!
//! **A finish on the chart's piece.** With refinement, a chart's polish restores the task
//! before it descends the cost when the chart's answer lands far off
//! ([`Loink::with_restore_first`]): the set compares its charts' polished answers, and the
//! comparison means something only when each stays on the piece of the answers its chart
//! proposed, instead of a rescue sliding to the bottom of another.
//!
//! A set of one chart is a plain LOInK model: its answers are exactly [`Loink::solve`]'s.

use std::sync::Arc;

use super::{Loink, SolverState};
use crate::artifact::{load_any, ArtifactError, ChartsFile, LoadedModel, ValidatedCharts};
use crate::problem::{JointLimits, Problem};
use crate::report::{Solution, Status, Tolerance};
use crate::solvers::{clock, micros_since};

/// An unconverged proposal inside the limits is near when its residual is at most this share of
/// the workspace radius (1.2 mm on the planar arms) …
pub const NEAR_SHARE: f64 = 1e-3;
/// … or at most this many times the smallest residual of the proposals inside the limits.
pub const NEAR_FACTOR: f64 = 3.0;
/// With refinement asked, a chart's raw proposal is polished only when its residual is at most
/// this share of the workspace radius (24 mm on the planar arms), or at most
/// [`CANDIDATE_FIT_FACTOR`] times the chart's own validation fit (`task_rmse_m`), when larger:
/// a pose chart's one-shot misses by centimetres where its answer is still in the right basin.
/// A chart whose region cannot reach the target lands farther off, and polishing it would cost
/// a rescue search for nothing.
pub const CANDIDATE_SHARE: f64 = 0.02;
/// A chart's raw proposal is a candidate for the polish up to this many times its validation
/// fit: the fit is a root mean square, and a pose chart's answer on the right piece often lands
/// a few times it off (docs/pose.md, "A finish that stays on its piece").
pub const CANDIDATE_FIT_FACTOR: f64 = 3.0;
/// The solve inverts the charts in the order of their learned optimal cost b(y) (the value head:
/// what each chart expects J\* to be) and skips the rest once a feasible answer costs less than
/// their expectation by more than this share.
pub const SKIP_SHARE: f64 = 0.05;

/// One or more LOInK charts of one problem (clones are cheap: the models are shared).
#[derive(Debug, Clone, PartialEq)]
pub struct ChartSet {
    charts: Vec<Loink>,
    /// Polish steps after a candidate proposal (a charts file; a single model's chart polishes
    /// by itself).
    refine: usize,
    regions: Vec<JointLimits>,
    /// The charts file's own fields (None for a single `loink` model).
    meta: Option<Arc<ChartsFile>>,
    /// The file's problem: targets come and answers go in its task's coordinates.
    problem: Problem,
    /// Per chart: the largest raw miss (weighted, m) of a proposal the polish still takes on.
    candidate: Vec<f64>,
    /// Per chart: whether its task states targets in other coordinates than the file's.
    restates: Vec<bool>,
}

impl From<Loink> for ChartSet {
    fn from(loink: Loink) -> Self {
        let region = loink.problem().limits().clone();
        let problem = loink.problem().clone();
        let candidate = vec![candidate_miss(&loink, &problem)];
        ChartSet {
            charts: vec![loink],
            refine: 0,
            regions: vec![region],
            meta: None,
            problem,
            restates: vec![false],
            candidate,
        }
    }
}

impl ChartSet {
    /// The set of a validated charts file. Its charts' proposals skip the problem's
    /// reachability search (most charts miss a target their region cannot reach); the winner
    /// is judged with it.
    pub fn from_validated(charts: ValidatedCharts) -> Self {
        let regions = charts.regions().to_vec();
        let meta = Arc::new(charts.meta().clone());
        let problem = charts.problem().clone();
        let restates = charts
            .charts()
            .iter()
            .map(|m| m.problem().task().measure() != problem.task().measure())
            .collect();
        let charts: Vec<Loink> = charts
            .charts()
            .iter()
            .cloned()
            .map(|m| {
                Loink::new(m)
                    .with_reachability_decision(false)
                    // Without multi-chart solving a set is one chart: its polish stays as a
                    // single model's (and the slim page's bundle without the restoration).
                    .with_restore_first(cfg!(feature = "charts"))
            })
            .collect();
        let candidate = charts.iter().map(|c| candidate_miss(c, &problem)).collect();
        ChartSet {
            charts,
            refine: 0,
            regions,
            meta: Some(meta),
            problem,
            restates,
            candidate,
        }
    }

    /// Loads a model file of either kind (`loink`: a set of one; `charts` needs the `charts`
    /// feature, and is refused by its kind without it).
    pub fn from_json(json: &str) -> Result<Self, ArtifactError> {
        Ok(match load_any(json)? {
            LoadedModel::Loink(model) => ChartSet::from(Loink::new(*model)),
            LoadedModel::Charts(charts) => ChartSet::from_validated(*charts),
        })
    }

    /// Number of charts K.
    pub fn len(&self) -> usize {
        self.charts.len()
    }
    /// Never true: a set holds at least one chart.
    pub fn is_empty(&self) -> bool {
        self.charts.is_empty()
    }
    /// Whether the set came from a charts file (kind `charts`), however many charts it holds.
    /// Always false without the `charts` feature: the multi-chart paths then compile away.
    #[inline]
    pub fn is_multi(&self) -> bool {
        cfg!(feature = "charts") && self.meta.is_some()
    }
    /// Chart `k` (the first for an index out of range).
    pub fn chart(&self, k: usize) -> &Loink {
        self.charts.get(k).unwrap_or(&self.charts[0])
    }
    /// The charts in index order.
    pub fn charts(&self) -> &[Loink] {
        &self.charts
    }
    /// Each chart's training region (a single model's: its joint limits).
    pub fn regions(&self) -> &[JointLimits] {
        &self.regions
    }
    /// The charts file's own fields (None for a single model).
    pub fn meta(&self) -> Option<&ChartsFile> {
        self.meta.as_deref()
    }
    /// The problem the set solves (a charts file's own; each chart solves it or part of it).
    pub fn problem(&self) -> &Problem {
        &self.problem
    }

    /// Target y (the set's coordinates) as chart `k` states it.
    pub fn in_chart(&self, k: usize, y: &[f64]) -> Vec<f64> {
        // Without multi-chart solving a set is one chart in the file's own coordinates: the
        // restating compiles away.
        match self.restates.get(k).filter(|_| cfg!(feature = "charts")) {
            Some(true) => self.charts[k]
                .problem()
                .task()
                .restate(self.problem.task(), y),
            _ => y.to_vec(),
        }
    }

    /// Chart `k`'s answer to target y (the set's coordinates) stated in the set's coordinates.
    pub fn from_chart(&self, k: usize, y: &[f64], solution: Solution) -> Solution {
        if !cfg!(feature = "charts") || !self.restates.get(k).copied().unwrap_or(false) {
            return solution;
        }
        let own = self.charts[k].problem().task();
        let reached = self.problem.task().restate(own, solution.reached());
        solution.restated(y.to_vec(), reached)
    }

    /// Whether target y (the set's coordinates) is chart `k`'s own: its domain holds y and,
    /// among pose charts about several references, its reference is the nearest to y's
    /// orientation (pose.md: the nearest reference picks the chart).
    pub fn covers(&self, k: usize, y: &[f64]) -> bool {
        self.covering(y).get(k).copied().unwrap_or(false)
    }

    /// [`Self::covers`] for every chart.
    fn covering(&self, y: &[f64]) -> Vec<bool> {
        let own: Vec<Vec<f64>> = (0..self.charts.len())
            .map(|k| self.in_chart(k, y))
            .collect();
        let angles: Vec<Option<f64>> = (0..self.charts.len())
            .map(|k| self.charts[k].problem().task().chart_angle(&own[k]))
            .collect();
        let nearest = angles
            .iter()
            .flatten()
            .copied()
            .fold(f64::INFINITY, f64::min);
        (0..self.charts.len())
            .map(|k| {
                let domain = self.charts[k].problem().capabilities().domain;
                domain.is_none_or(|d| d.covers(&own[k]))
                    && angles[k].is_none_or(|a| a <= nearest + 1e-9)
            })
            .collect()
    }

    /// At most `steps` polish steps after the inverse: a single model's own, or every candidate
    /// proposal's of a charts file (see [`CANDIDATE_SHARE`]).
    pub fn with_refinement(mut self, steps: usize) -> Self {
        if self.is_multi() {
            self.refine = steps;
        } else {
            self.charts[0] = self.charts[0].clone().with_refinement(steps);
        }
        self
    }
    /// Every chart with at most `rounds` task-feedback rounds.
    pub fn with_feedback(mut self, rounds: usize) -> Self {
        self.set_feedback(rounds);
        self
    }
    /// [`Self::with_feedback`] in place.
    pub fn set_feedback(&mut self, rounds: usize) {
        for chart in &mut self.charts {
            chart.set_feedback(rounds);
        }
    }

    /// A fresh state per chart.
    pub fn new_states(&self) -> Vec<SolverState> {
        self.charts.iter().map(Loink::new_state).collect()
    }

    /// Every chart's answer for `y` (warm-started from its state), marked with its chart, each
    /// polished as `proposal` says. `states` must hold one state per chart
    /// ([`Self::new_states`]).
    pub fn propose(&self, states: &mut [SolverState], y: &[f64]) -> Vec<Solution> {
        (0..self.charts.len())
            .map(|k| self.proposal(k, &mut states[k], y))
            .collect()
    }

    /// Chart `k`'s answer for `y`: its inverse, then, with refinement, the polish when the raw
    /// residual is within [`CANDIDATE_SHARE`] of the workspace radius (warm at this target).
    fn proposal(&self, k: usize, state: &mut SolverState, y: &[f64]) -> Solution {
        let own = self.in_chart(k, y);
        let raw = self.charts[k].solve(state, &own).with_chart(k);
        if self.refine == 0 || raw.weighted_miss() > self.candidate[k] {
            return self.from_chart(k, y, raw);
        }
        let polished = self.charts[k].clone().with_refinement(self.refine);
        self.from_chart(k, y, polished.solve(state, &own).with_chart(k))
    }

    /// `count` configurations at z ~ N(0, σ²I) (see [`Loink::sample`]) on the chart whose
    /// answer at z = 0 wins (a single model: its own), marked with that chart.
    pub fn sample(
        &self,
        y: &[f64],
        sigma: f64,
        count: usize,
        seed: u64,
    ) -> crate::error::Result<Vec<Solution>> {
        if !self.is_multi() {
            return self.charts[0].sample(y, sigma, count, seed);
        }
        let k = self.solve_cold(y).chart().unwrap_or(0);
        Ok(self
            .chart(k)
            .sample(&self.in_chart(k, y), sigma, count, seed)?
            .into_iter()
            .map(|s| self.from_chart(k, y, s.with_chart(k)))
            .collect())
    }

    /// [`Self::solve`] from fresh states (no warm start).
    pub fn solve_cold(&self, y: &[f64]) -> Solution {
        self.solve(&mut self.new_states(), y)
    }

    /// The answer for `y`: a single chart's own, or the winning proposal of several (its
    /// time is that of all the charts' solves).
    pub fn solve(&self, states: &mut [SolverState], y: &[f64]) -> Solution {
        if !self.is_multi() {
            return self.charts[0].solve(&mut states[0], y);
        }
        let start = clock();
        let mut proposals = self.propose_cheapest_first(states, y);
        let winner = pick(self.problem(), &proposals);
        let mut answer = proposals.swap_remove(winner);
        let winner = answer.chart().unwrap_or(0);
        if answer.status() != Status::Converged {
            // Judged like a single model's answer: the problem decides a far miss's target.
            // The same work as the proposal had: polished when it was a candidate.
            let refine = if answer.solver() == super::REFINED_SOLVER_NAME {
                self.refine
            } else {
                0
            };
            let chart = self.charts[winner]
                .clone()
                .with_refinement(refine)
                .with_reachability_decision(true);
            let mut fresh = chart.new_state();
            let own = self.in_chart(winner, y);
            answer = self.from_chart(winner, y, chart.solve(&mut fresh, &own).with_chart(winner));
        }
        answer.with_micros(micros_since(start))
    }
}

impl ChartSet {
    /// The proposals [`Self::solve`] needs: the charts whose domain covers y first, each group
    /// in the order of the charts' learned optimal cost b(y), each inverted (and, with refinement, polished when its raw residual is within
    /// [`CANDIDATE_SHARE`] of the workspace radius), until the next chart expects to cost more
    /// than the cheapest feasible answer so far by [`SKIP_SHARE`]. A chart whose region holds the
    /// optimum expects about J\*, so it is reached before the skip.
    fn propose_cheapest_first(&self, states: &mut [SolverState], y: &[f64]) -> Vec<Solution> {
        let expected: Vec<f64> = (0..self.charts.len())
            .map(|k| {
                let value = self.charts[k].value(&self.in_chart(k, y));
                value.unwrap_or(f64::INFINITY)
            })
            .collect();
        let covered = self.covering(y);
        let mut order: Vec<usize> = (0..self.charts.len()).collect();
        order.sort_by(|&a, &b| {
            (!covered[a])
                .cmp(&!covered[b])
                .then(expected[a].total_cmp(&expected[b]))
        });
        let radius = self.problem().workspace_radius();
        let mut proposals = Vec::with_capacity(order.len());
        let mut best = f64::INFINITY;
        for k in order {
            let past_cover = !covered[k] && best.is_finite();
            if past_cover || expected[k] > best * (1.0 + SKIP_SHARE) {
                break;
            }
            let proposal = self.proposal(k, &mut states[k], y);
            let feasible = if self.refine > 0 {
                proposal.status() == Status::Converged
            } else {
                proposal.weighted_miss() <= NEAR_SHARE * radius
                    && proposal.margin() >= -Tolerance::CLASSICAL.limits
            };
            if feasible {
                best = best.min(proposal.cost());
            }
            proposals.push(proposal);
        }
        proposals
    }
}

/// The index of the winning proposal (see the module docs); 0 for an empty list.
pub fn pick(problem: &Problem, proposals: &[Solution]) -> usize {
    let limits_held = |s: &Solution| s.margin() >= -Tolerance::CLASSICAL.limits;
    let best_residual = proposals
        .iter()
        .filter(|s| limits_held(s) && s.weighted_miss().is_finite())
        .map(Solution::residual)
        .fold(f64::INFINITY, f64::min);
    let near_limit = (NEAR_SHARE * problem.workspace_radius()).max(NEAR_FACTOR * best_residual);
    // 0: converged; 1: near (see the module docs); 2: the rest.
    let class = |s: &Solution| {
        if s.status() == Status::Converged {
            0
        } else if limits_held(s) && s.weighted_miss() <= near_limit && s.cost().is_finite() {
            1
        } else {
            2
        }
    };
    let beats = |a: &Solution, b: &Solution| match (class(a), class(b)) {
        (ca, cb) if ca != cb => ca < cb,
        (2, _) => a.is_better_than(b),
        _ => a.cost() < b.cost(),
    };
    let mut winner = 0;
    for (k, proposal) in proposals.iter().enumerate().skip(1) {
        if beats(proposal, &proposals[winner]) {
            winner = k;
        }
    }
    winner
}

/// The largest raw miss of chart `chart`'s proposals the polish takes on (see
/// [`CANDIDATE_SHARE`]).
fn candidate_miss(chart: &Loink, problem: &Problem) -> f64 {
    let fit = chart.model().file().metrics.get("task_rmse_m").copied();
    let share = CANDIDATE_SHARE * problem.workspace_radius();
    fit.filter(|f| f.is_finite())
        .map_or(share, |f| (CANDIDATE_FIT_FACTOR * f).max(share))
}
