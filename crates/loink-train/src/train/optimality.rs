//! The quick optimality check at the end of training: on fresh held-out reachable targets
//! y = p(q_s), q_s uniform in the limits, solve with the inference crate's inverse (`loink::surrogate`,
//! exactly what the page runs on the exported file) and compare with the global reference optimum
//! J\* (`loink::solvers::reference::solve`).
//!
//! "Within 1 %" is planar3.md's definition: feasible (‖p(q) − y‖ < 1e-6 m, limits held to 1e-6
//! rad) and (J − J\*)/J\* ≤ 0.01.

use super::summary::Row;
use loink::problem::Problem;
use loink::solvers::reference;
use loink::stats::median_p95;
use loink::surrogate::ChartSet;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// Feasibility tolerances of "within 1 %".
pub const FEASIBLE_RESIDUAL_M: f64 = 1e-6;
/// Joint-limit tolerance of "within 1 %".
pub const FEASIBLE_LIMITS_RAD: f64 = 1e-6;

/// `count` reachable targets y = f(q_s), q_s uniform in the limits, seeded.
pub fn random_targets(problem: &Problem, count: usize, seed: u64) -> Vec<Vec<f64>> {
    problem.random_targets(count, &mut ChaCha8Rng::seed_from_u64(seed))
}

/// What the check measured.
#[derive(Debug, Clone, PartialEq)]
pub struct Optimality {
    /// Targets used.
    pub targets: usize,
    /// Unrefined end-effector error, median (m).
    pub ee_median_m: f64,
    /// Unrefined end-effector error, 95th percentile (m).
    pub ee_p95_m: f64,
    /// After `refine` steps: share within 1 % of J\*.
    pub within_1pct: f64,
    /// After refinement: median relative gap (J − J\*)/J\* over feasible answers.
    pub gap_median: f64,
    /// After refinement: 95th percentile of the gap.
    pub gap_p95: f64,
    /// Refinement steps used.
    pub refine: usize,
}

impl Optimality {
    /// The summary rows of the check (also stored in the artifact's metrics).
    pub fn rows(&self) -> Vec<Row> {
        let o = self;
        vec![
            Row::new(
                "check_targets",
                o.targets as f64,
                "held-out reachable targets",
            ),
            Row::new(
                "ee_error_median_m",
                o.ee_median_m,
                "m, inference inverse, no refinement",
            ),
            Row::new(
                "ee_error_p95_m",
                o.ee_p95_m,
                "m, inference inverse, no refinement",
            ),
            Row::new("check_refine_steps", o.refine as f64, "polish steps below"),
            Row::new(
                "within_1pct",
                o.within_1pct,
                "share feasible and (J − J*)/J* ≤ 1 %",
            ),
            Row::new("gap_median", o.gap_median, "(J − J*)/J*, median"),
            Row::new("gap_p95", o.gap_p95, "(J − J*)/J*, 95th percentile"),
        ]
    }
}

/// Runs the check on `count` targets with `refine` polish steps after the inverse (a charts
/// file: after every chart's, the cheapest feasible answer winning).
pub fn check(json: &str, count: usize, refine: usize, seed: u64) -> Result<Optimality, String> {
    let plain = ChartSet::from_json(json).map_err(|e| e.to_string())?;
    let refined = plain.clone().with_refinement(refine);
    let problem = plain.problem().clone();
    let targets = random_targets(&problem, count, seed);
    let mut ee = Vec::with_capacity(count);
    let mut gaps = Vec::with_capacity(count);
    let mut within = 0usize;
    for y in &targets {
        let raw = plain.solve_cold(y);
        ee.push(raw.residual());
        let best = reference::solve(&problem, y);
        let answer = refined.solve_cold(y);
        let feasible =
            answer.residual() < FEASIBLE_RESIDUAL_M && answer.margin() >= -FEASIBLE_LIMITS_RAD;
        if feasible && best.cost().is_finite() {
            let gap = (answer.cost() - best.cost()) / best.cost().abs().max(1e-12);
            gaps.push(gap);
            if gap <= 0.01 {
                within += 1;
            }
        } else {
            gaps.push(f64::INFINITY);
        }
    }
    let (ee_median_m, ee_p95_m) = median_p95(&ee);
    // Infeasible answers count as +∞: the gap quantiles are over every target.
    let mut sorted = gaps.clone();
    sorted.sort_by(f64::total_cmp);
    Ok(Optimality {
        targets: count,
        ee_median_m,
        ee_p95_m,
        within_1pct: within as f64 / count.max(1) as f64,
        gap_median: loink::stats::quantile_sorted(&sorted, 0.5),
        gap_p95: loink::stats::quantile_sorted(&sorted, 0.95),
        refine,
    })
}
