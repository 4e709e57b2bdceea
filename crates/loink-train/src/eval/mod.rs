//! `loink eval`: solve every target of a targets file with one solver and write one results
//! row per target, then print a summary table.
//!
//! Contract: `loink eval --robot NAME --solver reference|dls|analytic --targets T.csv
//! --out R.csv [--seed S]`. See [`targets_csv`] for what is read, [`results_csv`] for what is
//! written and [`summary`] for the table. A bad row becomes an `invalid` row; a missing or
//! unreadable file, missing columns, an unknown robot or a solver that does not apply exit
//! with code 2.
//!
//! The per-target solve is a closure `FnMut(&[f64]) -> Solution` ([`Solve`]), so another
//! solver (the learned one, `--model`) plugs into [`evaluate`] unchanged, and
//! [`summary::summary_table`] takes extra columns (gap to the optimum, …).

pub mod connectivity_cmd;
pub mod learned;
pub mod results_csv;
pub mod summary;
pub mod targets_cmd;
pub mod targets_csv;

use std::path::PathBuf;
use std::time::Instant;

use clap::{Args, ValueEnum};
use loink::problem::Problem;
use loink::report::Solution;
use loink::robot::Robot;
use loink::solvers::{analytic, dls, reference};
use loink::surrogate::MAX_FEEDBACK_ROUNDS;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::cli::CliError;
use targets_csv::TargetRow;

/// A per-target solver: target in, assessed solution out.
pub type Solve<'a> = Box<dyn FnMut(&[f64]) -> Solution + 'a>;

/// The classical solvers `eval` can run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SolverKind {
    /// The global reference optimum (self-motion sweep).
    Reference,
    /// Damped least squares with null-space cost descent (default options).
    Dls,
    /// Closed-form two-link IK, the cheaper feasible branch (two-link arms only).
    Analytic,
}

/// Arguments of `loink eval`.
#[derive(Debug, Clone, Args)]
pub struct EvalArgs {
    /// Robot preset (planar2, planar3, planar3-wide, planar4); with `--model`, optional and
    /// checked against the model's robot.
    #[arg(long, required_unless_present = "model")]
    pub robot: Option<String>,
    /// Classical solver to run (not with `--model`, which implies the learned solver).
    #[arg(
        long,
        value_enum,
        required_unless_present = "model",
        conflicts_with = "model"
    )]
    pub solver: Option<SolverKind>,
    /// A trained model file: evaluate the learned solver instead (see [`learned`]).
    #[arg(long)]
    pub model: Option<PathBuf>,
    /// With `--model`: at most K Gauss–Newton refinement steps after the inverse.
    #[arg(long, default_value_t = 0)]
    pub refine: usize,
    /// With `--model`: at most K task-feedback rounds after the first inverse (more inverses
    /// aimed at y' ← y' + (y − p(q)); 0 = the one-shot inverse; at most 16).
    #[arg(long, default_value_t = 0,
          value_parser = clap::value_parser!(u64).range(0..=MAX_FEEDBACK_ROUNDS as u64))]
    pub feedback: u64,
    /// With `--model`: sample N diverse solutions per target at z ~ N(0, σ²I).
    #[arg(long)]
    pub sigma: Option<f64>,
    /// With `--sigma`: solutions per target.
    #[arg(long, default_value_t = 1)]
    pub samples: usize,
    /// Targets CSV with a header naming columns x and y.
    #[arg(long)]
    pub targets: PathBuf,
    /// Results CSV to write.
    #[arg(long)]
    pub out: PathBuf,
    /// DLS only: start from a seeded uniform random configuration inside the limits
    /// (ChaCha8, one draw per row) instead of the mid-range c. With `--sigma`: the sampling
    /// seed (target row r uses seed + r).
    #[arg(long)]
    pub seed: Option<u64>,
}

/// Builds the problem for a preset name (unknown names are input errors).
pub fn problem_for(robot: &str) -> Result<Problem, CliError> {
    Problem::preset(robot).map_err(|e| CliError::Input(e.to_string()))
}

/// Builds the per-target closure for a classical solver.
pub fn classical_solver<'a>(
    problem: &'a Problem,
    kind: SolverKind,
    seed: Option<u64>,
) -> Result<Solve<'a>, CliError> {
    Ok(match kind {
        SolverKind::Reference => Box::new(move |y: &[f64]| reference::solve(problem, y)),
        SolverKind::Analytic => {
            if problem.arm.dof() != 2 {
                return Err(CliError::Input(format!(
                    "solver 'analytic' needs a two-link arm; '{}' has {} joints",
                    problem.arm.name(),
                    problem.arm.dof()
                )));
            }
            Box::new(move |y: &[f64]| {
                analytic::solve_best(problem, y)
                    .unwrap_or_else(|_| Solution::invalid(analytic::NAME, y, 0.0))
            })
        }
        SolverKind::Dls => {
            let opts = dls::DlsOptions::default();
            let limits = problem.arm.limits().clone();
            let mut rng = seed.map(ChaCha8Rng::seed_from_u64);
            Box::new(move |y: &[f64]| {
                let start: Vec<f64> = match rng.as_mut() {
                    Some(rng) => (0..limits.len())
                        .map(|i| rng.random_range(limits.lower()[i]..=limits.upper()[i]))
                        .collect(),
                    None => limits.centres(),
                };
                dls::solve(problem, y, &start, &opts)
            })
        }
    })
}

/// Solves every row, timing each call on its own. Invalid rows are still passed to the solver
/// (which must report them `invalid`), so a seeded solver draws the same stream for every file
/// layout.
pub fn evaluate(rows: &[TargetRow], solve: &mut dyn FnMut(&[f64]) -> Solution) -> Vec<Solution> {
    rows.iter()
        .map(|row| {
            let y = row.values();
            let start = Instant::now();
            let solution = solve(&y);
            let micros = start.elapsed().as_secs_f64() * 1e6;
            solution.with_micros(micros)
        })
        .collect()
}

/// Runs `loink eval`.
pub fn run(args: &EvalArgs) -> Result<(), CliError> {
    if let Some(model) = &args.model {
        return learned::run(args, model);
    }
    // Checked here, not with clap's `requires`: that let these through (a default counts as
    // present).
    let learned_only = [
        ("--refine", args.refine > 0),
        ("--feedback", args.feedback > 0),
        ("--sigma", args.sigma.is_some()),
        ("--samples", args.samples != 1),
    ];
    if let Some((flag, _)) = learned_only.iter().find(|(_, given)| *given) {
        return Err(CliError::Input(format!(
            "{flag} applies to the learned solver: it needs --model"
        )));
    }
    let (Some(robot), Some(solver)) = (args.robot.as_deref(), args.solver) else {
        return Err(CliError::Input(
            "need --robot and --solver (or --model)".into(),
        ));
    };
    let problem = problem_for(robot)?;
    let rows = targets_csv::read_targets(&args.targets)?;
    let mut solve = classical_solver(&problem, solver, args.seed)?;
    let solutions = evaluate(&rows, &mut solve);
    results_csv::write_results(&args.out, problem.arm.dof(), &rows, &solutions, &[])?;
    println!(
        "loink eval: robot {}, solver {}, {} rows -> {}",
        robot,
        solver
            .to_possible_value()
            .map_or(String::new(), |v| v.get_name().to_string()),
        rows.len(),
        args.out.display()
    );
    print!("{}", summary::summary_table(&solutions, &[]));
    Ok(())
}
