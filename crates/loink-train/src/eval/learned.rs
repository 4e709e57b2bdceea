//! `loink eval --model FILE.json`: the learned solver on a targets file — same results columns as
//! the classical `eval`, plus the gap to the global reference optimum.
//!
//! `loink eval --model FILE.json --targets T.csv --out R.csv [--refine K] [--sigma S --samples N
//! --seed S]` (`--solver loink` is implied; `--robot`, if given, must match the model's).
//! - Default: x\* = G⁻¹([y; 0]) per target (cold solve, one target per call, timed alone).
//! - `--feedback K`: at most K task-feedback rounds after the first inverse (see
//!   `loink::surrogate::feedback`); 0, the default, is the one-shot inverse.
//! - `--refine K`: at most K limit-aware Gauss–Newton steps after the inverse; `residual` is
//!   then the refined answer's.
//! - `--sigma S --samples N`: N diverse solutions per target at z ~ N(0, S²I) (seeded by
//!   `--seed`, default 0), written as N consecutive rows per target with a `sample` column.
//!
//! Extra columns: `gap` = (J − J\*)/J\* against `reference::solve` (NaN when the answer is not
//! feasible to 1e-6 m / 1e-6 rad or J\* does not exist) and `ee_error_m` (= the residual, kept
//! under its own name so summaries read alike with and without refinement). The summary adds the
//! share within 1 % of J\* (planar3.md: feasible and gap ≤ 0.01) and the gap's median and p95.

use std::path::Path;
use std::time::Instant;

use loink::report::Solution;
use loink::robot::Robot;
use loink::solvers::reference;
use loink::surrogate::Loink;

use super::summary::{summary_table, ExtraColumn};
use super::targets_csv::{self, TargetRow};
use super::{results_csv, EvalArgs};
use crate::cli::CliError;

/// Feasibility tolerance of "within 1 %" (m).
pub const FEASIBLE_RESIDUAL_M: f64 = 1e-6;
/// Joint-limit tolerance of "within 1 %" (rad).
pub const FEASIBLE_LIMITS_RAD: f64 = 1e-6;

/// Loads a model file into the learned solver (typed error naming the file on failure).
pub fn load(path: &Path) -> Result<Loink, CliError> {
    let bytes = std::fs::read(path)
        .map_err(|e| CliError::Input(format!("cannot read model file {}: {e}", path.display())))?;
    let model = loink::artifact::load_model_bytes(&bytes)
        .map_err(|e| CliError::Input(format!("model file {}: {e}", path.display())))?;
    Ok(Loink::new(model))
}

/// (J − J\*)/J\* of a feasible answer, NaN otherwise.
pub fn gap(answer: &Solution, best: &Solution) -> f64 {
    let feasible =
        answer.residual() < FEASIBLE_RESIDUAL_M && answer.margin() >= -FEASIBLE_LIMITS_RAD;
    if feasible && best.cost().is_finite() && best.q().len() == answer.q().len() {
        (answer.cost() - best.cost()) / best.cost().abs().max(1e-12)
    } else {
        f64::NAN
    }
}

/// Runs `loink eval --model`.
pub fn run(args: &EvalArgs, model_path: &Path) -> Result<(), CliError> {
    let mut solver = load(model_path)?;
    let robot = solver.problem().arm.name().to_string();
    if let Some(asked) = &args.robot {
        if asked != &robot {
            return Err(CliError::Input(format!(
                "--robot {asked} does not match the model's robot {robot}"
            )));
        }
    }
    if args.refine > 0 {
        solver = solver.with_refinement(args.refine);
    }
    solver = solver.with_feedback(args.feedback as usize);
    let problem = solver.problem().clone();
    let rows = targets_csv::read_targets(&args.targets)?;
    let samples = match (args.sigma, args.samples) {
        (Some(s), n) if !(s.is_finite() && s >= 0.0) || n == 0 => {
            return Err(CliError::Input(format!(
                "--sigma {s} --samples {n}: need σ ≥ 0 and N ≥ 1"
            )))
        }
        (Some(sigma), n) => Some((sigma, n)),
        (None, 1) => None,
        (None, n) => {
            return Err(CliError::Input(format!(
                "--samples {n} needs --sigma (the latent spread to sample at)"
            )))
        }
    };
    let mut out_rows: Vec<TargetRow> = Vec::new();
    let mut solutions = Vec::new();
    let mut sample_index = Vec::new();
    let mut gaps = Vec::new();
    for (r, row) in rows.iter().enumerate() {
        let y = row.values();
        let answers: Vec<Solution> = match samples {
            None => {
                let start = Instant::now();
                let s = solver.solve_cold(&y);
                vec![s.with_micros(start.elapsed().as_secs_f64() * 1e6)]
            }
            Some((sigma, n)) => {
                let seed = args.seed.unwrap_or(0).wrapping_add(r as u64);
                let start = Instant::now();
                match solver.sample(&y, sigma, n, seed) {
                    Ok(list) => {
                        let each = start.elapsed().as_secs_f64() * 1e6 / n as f64;
                        list.into_iter().map(|s| s.with_micros(each)).collect()
                    }
                    Err(e) => return Err(CliError::Input(e.to_string())),
                }
            }
        };
        let best = reference::solve(&problem, &y);
        for (k, a) in answers.into_iter().enumerate() {
            gaps.push(gap(&a, &best));
            sample_index.push(k as f64);
            out_rows.push(row.clone());
            solutions.push(a);
        }
    }
    let mut extra = vec![
        ExtraColumn {
            name: "gap".into(),
            values: gaps.clone(),
        },
        ExtraColumn {
            name: "ee_error_m".into(),
            values: solutions.iter().map(Solution::residual).collect(),
        },
    ];
    if samples.is_some() {
        extra.push(ExtraColumn {
            name: "sample".into(),
            values: sample_index,
        });
    }
    results_csv::write_results(&args.out, problem.arm.dof(), &out_rows, &solutions, &extra)?;
    let within = gaps.iter().filter(|g| **g <= 0.01).count();
    println!(
        "loink eval: model {} (robot {robot}), solver {}, feedback {}, refine {}, {} rows -> {}",
        model_path.display(),
        if args.refine > 0 {
            "loink+refine"
        } else {
            "loink"
        },
        args.feedback,
        args.refine,
        solutions.len(),
        args.out.display()
    );
    print!("{}", summary_table(&solutions, &extra[..2]));
    let mut all_gaps: Vec<f64> = gaps
        .iter()
        .map(|g| if g.is_nan() { f64::INFINITY } else { *g })
        .collect();
    all_gaps.sort_by(f64::total_cmp);
    // Nearest rank over all rows, infeasible ones included as +∞.
    let rank = |q: f64| {
        let len = all_gaps.len();
        all_gaps
            .get(((q * len as f64).ceil() as usize).clamp(1, len.max(1)) - 1)
            .copied()
            .unwrap_or(f64::NAN)
    };
    println!(
        "gap to J*: within 1% {:.2}% ({within}/{}), median {:.4}%, p95 {:.4}% (infeasible counts as ∞)",
        100.0 * within as f64 / solutions.len().max(1) as f64,
        solutions.len(),
        100.0 * rank(0.5),
        100.0 * rank(0.95),
    );
    Ok(())
}
