//! The one [`Solution`] type every solver returns.
//!
//! The IK reporting discipline: a joint vector is never returned alone. A `Solution` can only be built
//! by [`Solution::assess`] (which replays q through forward kinematics and measures residual,
//! joint-limit margin and cost itself) or [`Solution::invalid`] (for input that could not be
//! solved at all), so no solver can hand out a q without saying how good it is.

use serde::Serialize;

use crate::problem::{Problem, Reachability};

/// How a solve ended, judged after forward-map replay. One meaning for every solver.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// Feasible: the replayed residual is at most 1e-6 (task units: m), the orientation or axis
    /// error (for a task that turns the hand) at most 1e-6 rad, and every joint limit holds to
    /// 1e-6 rad ([`Tolerance::CLASSICAL`]).
    Converged,
    /// A learned answer inside the limits whose residual is above 1e-6: an estimate, reported
    /// with the residual it has (not a claim that the target is unreachable).
    Approximate,
    /// An iterative solver stopped (iteration cap or no progress) short of the target, or a
    /// search found no answer where nothing decides whether one exists.
    Capped,
    /// The target is outside what the problem can reach inside its limits (proved by the
    /// solver or decided by the problem); q is the solver's answer.
    Unreachable,
    /// q breaks a joint limit by more than 1e-6 rad.
    Limits,
    /// Nothing can replay the answer (a problem known only through data): the answer is the
    /// learner's word, neither confirmed nor refuted.
    Unverified,
    /// The input could not be solved at all (NaN, wrong dimension, …); q is empty.
    Invalid,
}

impl Status {
    /// All statuses, in report order.
    pub const ALL: [Status; 7] = [
        Status::Converged,
        Status::Approximate,
        Status::Capped,
        Status::Unreachable,
        Status::Limits,
        Status::Unverified,
        Status::Invalid,
    ];

    /// The lowercase word used in CSV files, the page and JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Converged => "converged",
            Status::Approximate => "approximate",
            Status::Capped => "capped",
            Status::Unreachable => "unreachable",
            Status::Limits => "limits",
            Status::Unverified => "unverified",
            Status::Invalid => "invalid",
        }
    }
}

impl std::fmt::Display for Status {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

pub use crate::outcome::{Termination, Tolerance};

/// A miss larger than this share of the problem's workspace radius gets a reachability
/// decision (so `unreachable` can be said); closer misses are reported as they are.
pub const REACHABILITY_CHECK_SHARE: f64 = 1e-3;

/// Whether a miss of `residual` (the position's) at `target` is one the problem shows
/// unreachable: its cheap test always, its full decision only for misses above
/// [`REACHABILITY_CHECK_SHARE`] of the workspace radius (so close learned estimates cost no
/// sweep).
fn proved_unreachable(
    problem: &Problem,
    target: &[f64],
    q: &[f64],
    residual: f64,
    decide: bool,
) -> bool {
    match problem.kinematics().reachability(target, None) {
        Reachability::Unreachable => true,
        Reachability::Reachable => false,
        Reachability::Unknown => {
            decide
                && residual > REACHABILITY_CHECK_SHARE * problem.workspace_radius()
                && problem.reachability(target, Some(q)) == Reachability::Unreachable
        }
    }
}

/// A solver's answer with its own quality report.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Solution {
    solver: String,
    target: Vec<f64>,
    seed: Option<Vec<f64>>,
    q: Vec<f64>,
    reached: Vec<f64>,
    residual: f64,
    /// The orientation or axis error (rad), for a task that turns the hand.
    #[serde(skip_serializing_if = "Option::is_none")]
    angle: Option<f64>,
    margin: f64,
    cost: f64,
    iterations: usize,
    micros: f64,
    status: Status,
    /// What the solver wants a reader to know about how it got here (e.g. a restart).
    note: Option<String>,
    /// The chart of a multi-chart model whose proposal this is (None for every other solver).
    #[serde(skip_serializing_if = "Option::is_none")]
    chart: Option<usize>,
}

/// What the order of answers reads: whether an answer converged (reached the target within the
/// limits), its cost, its residual and its limit margin. One order for every solver and for the
/// polish's never-worse rule.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Ranked {
    /// Residual ≤ 1e-6 with the limits held.
    pub converged: bool,
    /// Cost J.
    pub cost: f64,
    /// Replayed miss, the residual and the angle weighed into one length
    /// ([`Solution::weighted_miss`]).
    pub residual: f64,
    /// Limit margin (rad).
    pub margin: f64,
}

impl Ranked {
    /// Converged beats not converged; among converged the cheaper; otherwise the smaller
    /// residual (a finite one beats NaN; below 1e-12 residuals tie), then the larger margin.
    pub fn beats(&self, other: &Ranked) -> bool {
        match (self.converged, other.converged) {
            (true, false) => true,
            (false, true) => false,
            (true, true) => self.cost < other.cost,
            (false, false) => {
                let key = |r: &Ranked| {
                    let residual = if r.residual.is_nan() {
                        f64::INFINITY
                    } else {
                        r.residual.max(1e-12)
                    };
                    (residual, -r.margin)
                };
                let (a, b) = (key(self), key(other));
                a.0 < b.0 || (a.0 == b.0 && a.1 < b.1)
            }
        }
    }
}

impl Solution {
    /// [`Self::assess`] of a closed form's answer `q` to `target`: one step, from no seed.
    pub fn closed_form(
        problem: &Problem,
        solver: &str,
        target: &[f64],
        q: Vec<f64>,
        micros: f64,
        termination: Termination,
    ) -> Solution {
        Self::assess(problem, solver, target, None, q, 1, micros, termination)
    }

    /// Judges q for `target`: replays the forward map, measures residual, margin and cost, and
    /// derives the status from the solver's [`Termination`] and [`Tolerance::CLASSICAL`].
    ///
    /// Order of judgement: non-finite or wrong-length q → `invalid`; no forward map →
    /// `unverified`; the solver proved the target unreachable → `unreachable`; residual and
    /// limits within tolerance → `converged`; a miss the problem shows unreachable (its cheap
    /// test, or — for a miss larger than [`REACHABILITY_CHECK_SHARE`] of the workspace radius —
    /// its full decision) → `unreachable`; a limit broken beyond tolerance → `limits`; else
    /// `approximate` for a learned estimate and `capped` for an iterative solver.
    #[allow(clippy::too_many_arguments)]
    pub fn assess(
        problem: &Problem,
        solver: &str,
        target: &[f64],
        seed: Option<&[f64]>,
        q: Vec<f64>,
        iterations: usize,
        micros: f64,
        termination: Termination,
    ) -> Solution {
        Self::assess_replayed(
            problem,
            solver,
            target,
            seed,
            (q, None),
            iterations,
            micros,
            termination,
            true,
        )
    }

    /// [`Self::assess`] of q whose forward-map position the solver may already have replayed
    /// (`reached`, used when its length is the task's): a simulator whose calls cost is not
    /// called again for the same pose. With `decide` false a far miss is judged by the
    /// problem's cheap reachability test alone (no search), for answers that are re-judged when
    /// they matter.
    #[allow(clippy::too_many_arguments)]
    pub fn assess_replayed(
        problem: &Problem,
        solver: &str,
        target: &[f64],
        seed: Option<&[f64]>,
        (q, known): (Vec<f64>, Option<Vec<f64>>),
        iterations: usize,
        micros: f64,
        termination: Termination,
        decide: bool,
    ) -> Solution {
        let tolerance = Tolerance::CLASSICAL;
        if problem.check_q(&q).is_err() || problem.check_target(target).is_err() {
            return Self::invalid(solver, target, micros);
        }
        let margin = problem.limits().margin(&q);
        if !problem.replayable() {
            return Solution {
                solver: solver.to_string(),
                target: target.to_vec(),
                seed: seed.map(<[f64]>::to_vec),
                q,
                reached: Vec::new(),
                residual: f64::NAN,
                angle: problem.task().has_angle().then_some(f64::NAN),
                margin,
                cost: f64::NAN,
                iterations,
                micros,
                status: Status::Unverified,
                note: None,
                chart: None,
            };
        }
        let reached = match known {
            Some(reached) if reached.len() == target.len() => reached,
            _ => problem.position(&q),
        };
        let miss = problem.miss(target, &reached);
        let residual = miss.distance;
        let cost = problem.cost().value(&q);
        let within_limits = margin >= -tolerance.limits;
        let on_target =
            residual <= tolerance.residual && miss.angle.is_none_or(|a| a <= tolerance.angle);
        let status = if termination == Termination::Unreachable {
            Status::Unreachable
        } else if on_target && within_limits {
            Status::Converged
        } else if residual > tolerance.residual
            && proved_unreachable(problem, target, &q, residual, decide)
        {
            Status::Unreachable
        } else if !within_limits {
            Status::Limits
        } else if termination == Termination::Approximate {
            Status::Approximate
        } else {
            Status::Capped
        };
        Solution {
            solver: solver.to_string(),
            target: target.to_vec(),
            seed: seed.map(<[f64]>::to_vec),
            q,
            reached,
            residual,
            angle: miss.angle,
            margin,
            cost,
            iterations,
            micros,
            status,
            note: None,
            chart: None,
        }
    }

    /// The report for input that could not be solved (non-finite or wrong-dimension target).
    /// q and the reached position are empty; residual, margin and cost are NaN.
    pub fn invalid(solver: &str, target: &[f64], micros: f64) -> Solution {
        Solution {
            solver: solver.to_string(),
            target: target.to_vec(),
            seed: None,
            q: Vec::new(),
            reached: Vec::new(),
            residual: f64::NAN,
            angle: None,
            margin: f64::NAN,
            cost: f64::NAN,
            iterations: 0,
            micros,
            status: Status::Invalid,
            note: None,
            chart: None,
        }
    }

    /// Whether this is a better answer than `other` for the same target: converged beats not
    /// converged; among converged answers the cheaper; otherwise the smaller residual (a
    /// finite one beats NaN), then the larger limit margin ([`Ranked::beats`]).
    pub fn is_better_than(&self, other: &Solution) -> bool {
        let ranked = |s: &Solution| Ranked {
            converged: s.status == Status::Converged,
            cost: s.cost,
            residual: s.weighted_miss(),
            margin: s.margin,
        };
        ranked(self).beats(&ranked(other))
    }

    /// The better of two answers for the same target ([`Self::is_better_than`]; `a` on a tie).
    pub fn better_of(a: Solution, b: Solution) -> Solution {
        if b.is_better_than(&a) {
            b
        } else {
            a
        }
    }

    /// Returns the same solution with a note on how the solver got there (shown with the status).
    pub fn with_note(mut self, note: impl Into<String>) -> Self {
        self.note = Some(note.into());
        self
    }

    /// The same answer stated in another chart of its task: the target and the reached point
    /// in that chart's coordinates. Residual, angle, cost and status do not depend on the
    /// chart and stay.
    pub fn restated(mut self, target: Vec<f64>, reached: Vec<f64>) -> Self {
        self.target = target;
        if !self.reached.is_empty() {
            self.reached = reached;
        }
        self
    }

    /// Returns the same solution marked as chart `chart`'s proposal.
    pub fn with_chart(mut self, chart: usize) -> Self {
        self.chart = Some(chart);
        self
    }

    /// The chart of a multi-chart model that proposed it (None for other solvers).
    pub fn chart(&self) -> Option<usize> {
        self.chart
    }

    /// The solver's note, if any.
    pub fn note(&self) -> Option<&str> {
        self.note.as_deref()
    }

    /// Returns the same solution with its iteration count replaced (for solvers that run several
    /// times and count the work of every run).
    pub fn with_iterations(mut self, iterations: usize) -> Self {
        self.iterations = iterations;
        self
    }

    /// Returns the same solution with its solve time replaced (for callers that time the whole call).
    pub fn with_micros(mut self, micros: f64) -> Self {
        self.micros = micros;
        self
    }

    /// Solver name.
    pub fn solver(&self) -> &str {
        &self.solver
    }
    /// The target y that was asked for.
    pub fn target(&self) -> &[f64] {
        &self.target
    }
    /// The starting joint vector, if the solver used one.
    pub fn seed(&self) -> Option<&[f64]> {
        self.seed.as_deref()
    }
    /// The joint vector (empty when `Invalid`).
    pub fn q(&self) -> &[f64] {
        &self.q
    }
    /// f(q), by forward-map replay (empty when nothing can replay it).
    pub fn reached(&self) -> &[f64] {
        &self.reached
    }
    /// The position error ‖f(q) − y‖ in the task's units (NaN when nothing can replay it).
    pub fn residual(&self) -> f64 {
        self.residual
    }
    /// The orientation or axis error (rad) of a task that turns the hand (NaN when nothing can
    /// replay it); `None` for a task without one.
    pub fn angle(&self) -> Option<f64> {
        self.angle
    }
    /// The miss as one length: the residual, and for a task that turns the hand its angle
    /// weighed by the characteristic length, √(residual² + (L·angle)²).
    pub fn weighted_miss(&self) -> f64 {
        match self.angle {
            None => self.residual,
            Some(angle) => self
                .residual
                .hypot(crate::problem::task_space::CHARACTERISTIC_LENGTH * angle),
        }
    }
    /// Distance to the nearest joint limit (rad), negative when violated.
    pub fn margin(&self) -> f64 {
        self.margin
    }
    /// J(q).
    pub fn cost(&self) -> f64 {
        self.cost
    }
    /// Iterations the solver used.
    pub fn iterations(&self) -> usize {
        self.iterations
    }
    /// Solve time in microseconds.
    pub fn micros(&self) -> f64 {
        self.micros
    }
    /// The judged status.
    pub fn status(&self) -> Status {
        self.status
    }
}

/// Euclidean distance between two points of equal dimension (the residual of every report).
pub use crate::nn::linalg::distance;
