//! `loink eval --model FILE.json`: the learned solver on a targets file — the same results
//! columns as the classical `eval`, plus the gap to the global reference optimum.
//!
//! - Default: x\* = G⁻¹([y; 0]) per target (cold solve, one target per call, timed alone).
//! - `--feedback K`: at most K task-feedback rounds after the first inverse (see
//!   `loink::surrogate::feedback`); 0, the default, is the one-shot inverse.
//! - `--refine K`: at most K polish steps after the inverse (task restoration and null-space
//!   cost descent inside the limits); `residual` is then the polished answer's.
//! - `--sigma S --samples N`: N diverse solutions per target at z ~ N(0, S²I) (seeded by
//!   `--seed`, default 0), written as N consecutive rows per target with a `sample` column.
//!
//! Extra columns: `gap` = (J − J\*)/J\* against the reference optimum, or J − J\* itself where
//! |J\*| is below `loink::gap::GAP_FLOOR` (`gap_absolute` = 1 on those rows; NaN when the answer
//! is not feasible to 1e-6 m / 1e-6 rad or J\* does not exist; both are left out with `--no-gap`
//! or when the problem has no reference) and `ee_error_m` (= the residual, kept under its own
//! name so summaries read alike with and without refinement). The summary adds the share within
//! 1 % of J\* (planar3.md: feasible and (J − J\*)/max(|J\*|, floor) ≤ 0.01) and the gap's median
//! and p95 on that scale.

use std::path::Path;
use std::time::Instant;

use loink::gap::Gap;
use loink::model::LearnedModel;
use loink::problem::Problem;
use loink::report::Solution;
use loink::solvers::reference;
use loink::solvers::registry::{self, SolverSettings};
use loink::surrogate::ChartSet;
use rayon::prelude::*;

use super::summary::{summary_table, ExtraColumn};
use super::targets_csv::{TargetRow, Targets};
use super::{results_csv, EvalArgs};
use crate::cli::CliError;

/// Feasibility tolerance of "within 1 %" (m).
pub const FEASIBLE_RESIDUAL_M: f64 = 1e-6;
/// Joint-limit tolerance of "within 1 %" (rad).
pub const FEASIBLE_LIMITS_RAD: f64 = 1e-6;
/// End-effector tolerance of the soft arm's "within 0.01 mm and 1 % of J\*" (m).
pub const NEAR_RESIDUAL_M: f64 = 1e-5;

/// Loads a model file of either kind (`loink`, `charts`) into the learned solver (typed error
/// naming the file on failure).
pub fn load(path: &Path) -> Result<ChartSet, CliError> {
    let model = load_any(path)?;
    model.charts().cloned().ok_or_else(|| {
        CliError::Input(format!(
            "model file {}: a {} model, where a LOInK model is needed",
            path.display(),
            model.kind().word()
        ))
    })
}

/// Reads a model file of any kind ([`LearnedModel::from_json`]).
pub fn load_any(path: &Path) -> Result<LearnedModel, CliError> {
    let bytes = std::fs::read(path)
        .map_err(|e| CliError::Input(format!("cannot read model file {}: {e}", path.display())))?;
    let text = std::str::from_utf8(&bytes)
        .map_err(|e| CliError::Input(format!("model file {}: not UTF-8: {e}", path.display())))?;
    LearnedModel::from_json(text)
        .map_err(|e| CliError::Input(format!("model file {}: {e}", path.display())))
}

/// The gap of a feasible answer to the optimum ([`Gap`]: (J − J\*)/J\*, or J − J\* where J\*
/// is near 0); None for an infeasible answer or where J\* does not exist.
pub fn gap(answer: &Solution, best: &Solution) -> Option<Gap> {
    let feasible =
        answer.residual() < FEASIBLE_RESIDUAL_M && answer.margin() >= -FEASIBLE_LIMITS_RAD;
    (feasible && best.cost().is_finite() && best.q().len() == answer.q().len())
        .then(|| Gap::of(answer.cost(), best.cost()))
}

/// The reference optimum of every target, on every core, with a progress bar.
pub fn reference_pass(problem: &Problem, targets: &[Vec<f64>]) -> Vec<Solution> {
    let bar = loink_train::progress::bar(targets.len(), "reference J*");
    let out = targets
        .par_iter()
        .map(|y| {
            let s = reference::solve(problem, y);
            bar.inc(1);
            s
        })
        .collect();
    bar.finish_and_clear();
    out
}

/// The answers per target: one cold solve each, or `--samples` samples at `--sigma`.
fn answers(
    args: &EvalArgs,
    model: &ChartSet,
    settings: &SolverSettings,
    rows: &[TargetRow],
    counted: &mut Option<Vec<f64>>,
) -> Result<Vec<Vec<Solution>>, CliError> {
    match (args.sigma, args.samples) {
        (Some(s), n) if !(s.is_finite() && s >= 0.0) || n == 0 => Err(CliError::Input(format!(
            "--sigma {s} --samples {n}: need σ ≥ 0 and N ≥ 1"
        ))),
        (Some(sigma), n) => {
            let sampler = model
                .clone()
                .with_feedback(settings.feedback)
                .with_refinement(if settings.kind == registry::SolverKind::LoinkRefine {
                    settings.refine
                } else {
                    0
                });
            let bar = loink_train::progress::bar(rows.len(), "samples");
            let mut out = Vec::with_capacity(rows.len());
            for (r, row) in rows.iter().enumerate() {
                let seed = args.seed.unwrap_or(0).wrapping_add(r as u64);
                let start = Instant::now();
                let list = sampler
                    .sample(&row.values(), sigma, n, seed)
                    .map_err(|e| CliError::Input(e.to_string()))?;
                let each = start.elapsed().as_secs_f64() * 1e6 / n as f64;
                out.push(list.into_iter().map(|s| s.with_micros(each)).collect());
                bar.inc(1);
            }
            bar.finish_and_clear();
            Ok(out)
        }
        (None, 1) => {
            let mut solver = model
                .solver(settings)
                .map_err(|e| CliError::Input(e.to_string()))?;
            let (solutions, calls) = super::evaluate(rows, &mut solver, model.problem());
            *counted = calls;
            Ok(solutions.into_iter().map(|s| vec![s]).collect())
        }
        (None, n) => Err(CliError::Input(format!(
            "--samples {n} needs --sigma (the latent spread to sample at)"
        ))),
    }
}

/// Runs `loink eval` with a learned solver.
pub fn run(
    args: &EvalArgs,
    model: &ChartSet,
    settings: &SolverSettings,
    targets: &Targets,
) -> Result<(), CliError> {
    let mut counted = None;
    let per_target = answers(args, model, settings, &targets.rows, &mut counted)?;
    // A problem known only from data: the model's own prediction of where each answer lands.
    let predicted = (!model.problem().replayable()).then(|| {
        let m = model.problem().task_dim();
        let rows: Vec<Vec<f64>> = per_target
            .iter()
            .flatten()
            .map(|a| {
                let chart = model.chart(a.chart().unwrap_or(0).min(model.len() - 1));
                chart
                    .predicted_task(a.q())
                    .unwrap_or_else(|_| vec![f64::NAN; m])
            })
            .collect();
        (0..m)
            .map(|j| ExtraColumn {
                name: format!("predicted_y{}", j + 1),
                values: rows.iter().map(|r| r[j]).collect(),
            })
            .collect::<Vec<_>>()
    });
    let refine = if settings.kind == registry::SolverKind::LoinkRefine {
        settings.refine
    } else {
        0
    };
    let line = format!(
        "solver {}, feedback {}, refine {refine}",
        settings.kind.as_str(),
        settings.feedback
    );
    report(
        args,
        model.problem(),
        targets,
        per_target,
        Answered {
            calls: counted,
            multi: model.is_multi(),
            predicted: predicted.unwrap_or_default(),
            sampled: args.sigma.is_some(),
            solver_line: line,
        },
    )
}

/// What a learned run adds to its answers for [`report`].
pub struct Answered {
    /// Simulator calls per target (a counting simulator only).
    pub calls: Option<Vec<f64>>,
    /// A multi-chart model: add the `chart` column.
    pub multi: bool,
    /// Columns of the learner's own task prediction (data-only problems).
    pub predicted: Vec<ExtraColumn>,
    /// Several answers per target (LOInK's `--sigma` samples): add the `sample` column.
    pub sampled: bool,
    /// "solver …, feedback …" for the closing line.
    pub solver_line: String,
}

/// [`report`] for a solver with one answer per target and nothing but its calls to add (the
/// flow, the regressors), `solver_line` closing the summary.
pub fn report_single(
    args: &EvalArgs,
    problem: &Problem,
    targets: &Targets,
    (solutions, calls): (Vec<Solution>, Option<Vec<f64>>),
    solver_line: String,
) -> Result<(), CliError> {
    let per_target = solutions.into_iter().map(|s| vec![s]).collect();
    let answered = Answered {
        calls,
        multi: false,
        predicted: Vec::new(),
        sampled: false,
        solver_line,
    };
    report(args, problem, targets, per_target, answered)
}

/// The learned solvers' results file and summary: the gap to the reference optimum (when it
/// exists), `ee_error_m`, `sim_calls`, and for a simulator that counts its calls the effort gap
/// of every answer and the share within 0.01 mm and 1 % of J\*.
pub fn report(
    args: &EvalArgs,
    problem: &Problem,
    targets: &Targets,
    per_target: Vec<Vec<Solution>>,
    answered: Answered,
) -> Result<(), CliError> {
    let with_gap = !args.no_gap && reference::available(problem);
    let best = if with_gap {
        let ys: Vec<Vec<f64>> = targets.rows.iter().map(TargetRow::values).collect();
        reference_pass(problem, &ys)
    } else {
        Vec::new()
    };
    let counting = answered.calls.is_some();
    let mut out_rows: Vec<TargetRow> = Vec::new();
    let mut solutions = Vec::new();
    let mut sample_index = Vec::new();
    let mut gaps = Vec::new();
    let mut efforts = Vec::new();
    for (r, answers) in per_target.into_iter().enumerate() {
        for (k, a) in answers.into_iter().enumerate() {
            gaps.push(best.get(r).and_then(|b| gap(&a, b)));
            efforts.push(best.get(r).map_or(f64::NAN, |b| effort_gap(&a, b)));
            sample_index.push(k as f64);
            out_rows.push(targets.rows[r].clone());
            solutions.push(a);
        }
    }
    let mut extra = Vec::new();
    if with_gap {
        extra.push(ExtraColumn {
            name: "gap".into(),
            values: gaps
                .iter()
                .map(|g| g.map_or(f64::NAN, Gap::value))
                .collect(),
        });
    }
    extra.push(ExtraColumn {
        name: "ee_error_m".into(),
        values: solutions.iter().map(Solution::residual).collect(),
    });
    extra.extend(super::calls_column(answered.calls));
    if with_gap && counting {
        extra.push(ExtraColumn {
            name: "effort_gap".into(),
            values: efforts.clone(),
        });
    }
    // The table summarises every gap on one scale; the file says which rows' gap is J − J*.
    let mut table_columns = extra.clone();
    if with_gap {
        table_columns[0].values = gaps
            .iter()
            .map(|g| g.map_or(f64::NAN, Gap::scaled))
            .collect();
        extra.push(ExtraColumn {
            name: "gap_absolute".into(),
            values: gaps
                .iter()
                .map(|g| g.map_or(f64::NAN, |g| f64::from(u8::from(g.kind() == "absolute"))))
                .collect(),
        });
    }
    if answered.multi {
        extra.push(ExtraColumn {
            name: "chart".into(),
            values: solutions
                .iter()
                .map(|s| s.chart().map_or(f64::NAN, |k| k as f64))
                .collect(),
        });
    }
    if answered.sampled {
        extra.push(ExtraColumn {
            name: "sample".into(),
            values: sample_index,
        });
    }
    extra.extend(answered.predicted);
    results_csv::write_results(
        &args.out,
        targets,
        problem.dof(),
        &out_rows,
        &solutions,
        &extra,
    )?;
    println!(
        "loink eval: model {} (problem {}), {}, {} rows -> {}",
        args.model
            .as_deref()
            .map_or(String::new(), |p| p.display().to_string()),
        problem.name(),
        answered.solver_line,
        solutions.len(),
        args.out.display()
    );
    print!("{}", summary_table(&solutions, &table_columns));
    if with_gap {
        let within = gaps.iter().flatten().filter(|g| g.within(0.01)).count();
        // Infeasible answers count as +∞: the quantiles are over every row, each gap on the one
        // scale (J − J*)/max(|J*|, floor).
        let mut all: Vec<f64> = gaps
            .iter()
            .map(|g| g.map_or(f64::INFINITY, Gap::scaled))
            .collect();
        all.sort_by(f64::total_cmp);
        println!(
            "gap to J*: within 1% {:.2}% ({within}/{}), median {}, p95 {} (infeasible counts as ∞)",
            100.0 * within as f64 / solutions.len().max(1) as f64,
            solutions.len(),
            loink::gap::percent(loink::stats::quantile_sorted(&all, 0.5)),
            loink::gap::percent(loink::stats::quantile_sorted(&all, 0.95)),
        );
        let absolute = gaps
            .iter()
            .flatten()
            .filter(|g| g.kind() == "absolute")
            .count();
        if absolute > 0 {
            println!(
                "J* is below {} on {absolute} rows: their gap column holds J − J* (gap_absolute = 1), within 1% meaning J − J* ≤ 1% of {}",
                loink::gap::GAP_FLOOR,
                loink::gap::GAP_FLOOR
            );
        }
    }
    if with_gap && counting {
        let near = solutions
            .iter()
            .zip(&efforts)
            .filter(|(s, e)| {
                s.residual() <= NEAR_RESIDUAL_M && s.margin() >= -FEASIBLE_LIMITS_RAD && **e <= 0.01
            })
            .count();
        let finite: Vec<f64> = efforts.iter().copied().filter(|e| e.is_finite()).collect();
        println!(
            "effort gap (J − J*)/J* of every answer: median {:.4}%, p95 {:.4}%; within 0.01 mm and 1% of J*: {:.2}% ({near}/{})",
            100.0 * loink::stats::quantile(&finite, 0.5),
            100.0 * loink::stats::quantile(&finite, 0.95),
            100.0 * near as f64 / solutions.len().max(1) as f64,
            solutions.len(),
        );
    }
    Ok(())
}

/// The gap of any answer inside the limits (reached or not; NaN without J\* or q), on the one
/// scale of [`Gap::scaled`]: the effort of an approximate answer, which the `gap` column leaves
/// out.
pub fn effort_gap(answer: &Solution, best: &Solution) -> f64 {
    if answer.q().is_empty() || !best.cost().is_finite() || answer.margin() < -FEASIBLE_LIMITS_RAD {
        return f64::NAN;
    }
    Gap::of(answer.cost(), best.cost()).scaled()
}
