//! The one [`Solution`] type every solver returns.
//!
//! Seed 002's discipline: a joint vector is never returned alone. A `Solution` can only be built
//! by [`Solution::assess`] (which replays q through forward kinematics and measures residual,
//! joint-limit margin and cost itself) or [`Solution::invalid`] (for input that could not be
//! solved at all), so no solver can hand out a q without saying how good it is.

use serde::Serialize;

use crate::problem::Problem;
use crate::robot::Robot;

/// How a solve ended, as judged after forward-kinematics replay.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// Residual within tolerance, limits held, and the solver met its own stopping test.
    Converged,
    /// The solver stopped at its iteration cap (its answer may still be close).
    Capped,
    /// The target is outside the reachable set; q is the closest attempt.
    Unreachable,
    /// q reaches the target but violates a joint limit by more than the tolerance.
    Limits,
    /// The input could not be solved at all (NaN, wrong dimension, …); q is empty.
    Invalid,
}

impl Status {
    /// All statuses, in report order.
    pub const ALL: [Status; 5] = [
        Status::Converged,
        Status::Capped,
        Status::Unreachable,
        Status::Limits,
        Status::Invalid,
    ];

    /// The lowercase word used in CSV files, the page and JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Converged => "converged",
            Status::Capped => "capped",
            Status::Unreachable => "unreachable",
            Status::Limits => "limits",
            Status::Invalid => "invalid",
        }
    }
}

impl std::fmt::Display for Status {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What the solver itself says about why it stopped (before replay is checked).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Termination {
    /// Its stopping test was met.
    Converged,
    /// It ran out of iterations.
    IterationCap,
    /// It proved (or detected) the target unreachable.
    Unreachable,
}

/// Tolerances used to judge a solution.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Tolerance {
    /// Largest task residual ‖p(q) − y‖ (m) that counts as reaching the target.
    pub residual: f64,
    /// Largest joint-limit violation (rad) that still counts as within limits.
    pub limits: f64,
}

impl Tolerance {
    /// The classical solvers' tolerances: 1e-6 m and 1e-6 rad (planar3.md's "feasible").
    pub const CLASSICAL: Tolerance = Tolerance {
        residual: 1e-6,
        limits: 1e-6,
    };
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
    margin: f64,
    cost: f64,
    iterations: usize,
    micros: f64,
    status: Status,
}

impl Solution {
    /// Judges q for `target`: replays forward kinematics, measures residual, margin and cost,
    /// and derives the status from the solver's [`Termination`] and the tolerances.
    ///
    /// Order of judgement: non-finite or wrong-length q → `Invalid`; the solver found the target
    /// unreachable → `Unreachable`; a limit violated beyond tolerance → `Limits`; residual above
    /// tolerance → `Unreachable` when the target lies outside the arm's annulus, else `Capped`;
    /// iteration cap → `Capped`; otherwise `Converged`.
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
        tolerance: Tolerance,
    ) -> Solution {
        let arm = &problem.arm;
        if arm.check_q(&q).is_err() || arm.check_target(target).is_err() {
            return Self::invalid(solver, target, micros);
        }
        let reached = arm.position(&q).to_vec();
        let residual = distance(&reached, target);
        let margin = arm.limits().margin(&q);
        let cost = problem.cost.value(&q);
        let radius = distance(target, &[0.0, 0.0]);
        let outside_annulus = radius > arm.reach() + tolerance.residual
            || radius < arm.inner_radius() - tolerance.residual;
        let status = if termination == Termination::Unreachable {
            Status::Unreachable
        } else if margin < -tolerance.limits {
            Status::Limits
        } else if residual.is_nan() || residual > tolerance.residual {
            if outside_annulus {
                Status::Unreachable
            } else {
                Status::Capped
            }
        } else if termination == Termination::IterationCap {
            Status::Capped
        } else {
            Status::Converged
        };
        Solution {
            solver: solver.to_string(),
            target: target.to_vec(),
            seed: seed.map(<[f64]>::to_vec),
            q,
            reached,
            residual,
            margin,
            cost,
            iterations,
            micros,
            status,
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
            margin: f64::NAN,
            cost: f64::NAN,
            iterations: 0,
            micros,
            status: Status::Invalid,
        }
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
    /// p(q), by forward-kinematics replay.
    pub fn reached(&self) -> &[f64] {
        &self.reached
    }
    /// ‖p(q) − y‖ in metres.
    pub fn residual(&self) -> f64 {
        self.residual
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

/// Euclidean distance between two points of equal dimension.
pub fn distance(a: &[f64], b: &[f64]) -> f64 {
    a.iter()
        .zip(b)
        .map(|(x, y)| (x - y) * (x - y))
        .sum::<f64>()
        .sqrt()
}
