//! `loink eval`: solve every target of a targets file with one solver and write one results
//! row per target, then print a summary table.
//!
//! Contract: `loink eval (--robot NAME | --urdf FILE --base LINK --tip LINK | --model FILE)
//! [--solver KIND] --targets T.csv --out R.csv [--seed S] [--refine K] [--feedback K]
//! [--sigma S --samples N] [--no-gap]`.
//! - The problem comes from the model file when one is given (`--robot`, if also given, must
//!   name the same problem), else from the preset `--robot` names or the chain `--urdf` reads.
//! - The solver is built by the registry (`loink::solvers::registry`), exactly as the page
//!   builds it: `--solver` picks it; with `--model` and no `--solver` it is `loink` (or
//!   `loink-refine` when `--refine K` > 0). Every solve starts cold (mid-range seed, fresh
//!   state) unless `--seed` asks DLS for seeded random starts.
//! - With a model: the columns `gap` = (J − J\*)/J\* against the reference optimum (computed on
//!   every core, with a progress bar; `--no-gap` skips it) and `ee_error_m`.
//!
//! See [`targets_csv`] for what is read, [`results_csv`] for what is written and [`summary`]
//! for the table. A bad row becomes an `invalid` row; a missing or unreadable file, missing
//! columns, an unknown problem or a solver that does not apply exit with code 2.

pub mod connectivity_cmd;
pub mod data_cmd;
pub mod flow;
pub mod learned;
pub mod regressor;
pub mod results_csv;
pub mod sampling_args;
pub mod summary;
pub mod targets_cmd;
pub use loink_train::targets_csv;

use std::path::PathBuf;
use std::time::Instant;

use clap::Args;
use loink::flow::Flow;
use loink::model::LearnedModel;
use loink::problem::Problem;
use loink::regressor::Regressor;
use loink::report::Solution;
use loink::solvers::registry::{self, SolverKind, SolverSettings, Start};
use loink::surrogate::{ChartSet, MAX_FEEDBACK_ROUNDS};

use crate::cli::CliError;
use loink_train::robot_file::RobotFileArgs;
use targets_csv::TargetRow;

/// Arguments of `loink eval`.
#[derive(Debug, Clone, Args)]
pub struct EvalArgs {
    #[arg(
        long,
        visible_alias = "robot",
        required_unless_present_any = ["model", "urdf"],
        help = loink_train::cli::preset_help(" With --model it is optional and must name the model's problem.")
    )]
    pub problem: Option<String>,
    #[command(flatten)]
    pub robot_file: RobotFileArgs,
    /// The solver: loink, loink-refine (both need --model), dls, analytic (two-link arms) or
    /// reference. With --model the default is loink (loink-refine when --refine is above 0).
    #[arg(long, value_parser = parse_solver, required_unless_present = "model")]
    pub solver: Option<SolverKind>,
    /// A trained model file: its problem is the one solved, and the learned solvers use it.
    #[arg(long)]
    pub model: Option<PathBuf>,
    /// Learned solver: at most K polish steps after the inverse (restore the task and descend the cost in its null space, inside the limits; never worse than the learned answer). Steps that end just short of the target take up to 4 more to finish it, damped least squares when they are stuck far from it.
    #[arg(long, default_value_t = 0)]
    pub refine: usize,
    /// Learned solver: at most K task-feedback rounds after the first inverse (more inverses
    /// aimed at y' ← y' + (y − f(q)); 0 is the one-shot inverse; at most 16).
    #[arg(long, default_value_t = 0,
          value_parser = clap::value_parser!(u64).range(0..=MAX_FEEDBACK_ROUNDS as u64))]
    pub feedback: u64,
    /// Learned solver: draw N diverse solutions per target at z ~ N(0, σ²I). A flow model:
    /// the scale s of its K samples.
    #[arg(long)]
    pub sigma: Option<f64>,
    /// With --sigma: solutions per target. A flow model: K samples per target, the cheapest
    /// near one kept (K simulator calls; 1, the default, is the z = 0 sample).
    #[arg(long, default_value_t = 1)]
    pub samples: usize,
    /// Targets CSV with a header naming the task's columns (x,y or y1,…,ym).
    #[arg(long)]
    pub targets: PathBuf,
    /// Results CSV to write.
    #[arg(long)]
    pub out: PathBuf,
    /// DLS only: start every solve from a seeded uniform random configuration inside the
    /// limits (ChaCha8, one draw per row) instead of the mid-range. With --sigma: the sampling
    /// seed (target row r uses seed + r).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Skip the reference optimum behind the gap column (with --model): no J*, no gap.
    #[arg(long)]
    pub no_gap: bool,
}

fn parse_solver(word: &str) -> Result<SolverKind, String> {
    SolverKind::parse(word).ok_or_else(|| {
        let known: Vec<&str> = SolverKind::ALL.iter().map(|k| k.as_str()).collect();
        format!("'{word}' is not a solver (known: {})", known.join(", "))
    })
}

/// Builds the problem for a preset name (unknown names are input errors).
pub fn problem_for(name: &str, robot_file: &RobotFileArgs) -> Result<Problem, CliError> {
    robot_file
        .problem(name)
        .map_err(|e| CliError::Input(e.to_string()))
}

/// Most timings of one row's solve; its `micros` is the fastest of them.
pub const TIMING_REPEATS: usize = 5;
/// No further timing of a row starts once its timings have taken this long (µs): a slow solver
/// (the reference search) is timed once or twice, a fast one five times.
pub const TIMING_BUDGET_MICROS: f64 = 2_000.0;

/// A solver [`evaluate`] can time: every registry solver, and the regression baselines
/// ([`regressor`]), which are no registry solver.
pub trait Timed {
    /// The progress bar's label.
    fn label(&self) -> &'static str;
    /// One solve.
    fn solve(&mut self, y: &[f64]) -> Solution;
    /// A copy in the same state, to time the same solve again from it.
    fn snapshot(&self) -> Box<dyn Timed>;
}

impl Timed for Box<dyn registry::Solver> {
    fn label(&self) -> &'static str {
        self.kind().as_str()
    }
    fn solve(&mut self, y: &[f64]) -> Solution {
        self.as_mut().solve(y)
    }
    fn snapshot(&self) -> Box<dyn Timed> {
        Box::new(self.boxed_clone())
    }
}

/// Solves every row with `solver`, with a progress bar. Each row's answer is the solver's first
/// solve (its state carried to the next row, as a user's calls would); its `micros` is the
/// fastest of up to [`TIMING_REPEATS`] timings of that same solve from the same state (clones
/// of the solver, within [`TIMING_BUDGET_MICROS`]), so a pause of the process (a page fault,
/// another program, the scheduler) does not count as solve time. Invalid rows are still passed
/// to the solver (which must report them `invalid`), so a seeded solver draws the same stream
/// for every file layout. For a simulator that counts its calls (the soft arm) the second value
/// is each row's number of calls (of the first solve).
pub fn evaluate(
    rows: &[TargetRow],
    solver: &mut dyn Timed,
    problem: &Problem,
) -> (Vec<Solution>, Option<Vec<f64>>) {
    let bar = loink_train::progress::bar(rows.len(), solver.label());
    let counter = problem.capabilities().simulator;
    let mut calls = counter.map(|_| Vec::with_capacity(rows.len()));
    let solutions = rows
        .iter()
        .map(|row| {
            let y = row.values();
            let snapshot = solver.snapshot();
            let before = counter.map(|s| s.calls());
            let start = Instant::now();
            let solution = solver.solve(&y);
            let mut micros = start.elapsed().as_secs_f64() * 1e6;
            if let (Some(list), Some(a), Some(b)) =
                (calls.as_mut(), before, counter.map(|s| s.calls()))
            {
                list.push(b.saturating_sub(a) as f64);
            }
            let mut spent = micros;
            for _ in 1..TIMING_REPEATS {
                if spent >= TIMING_BUDGET_MICROS {
                    break;
                }
                let mut again = snapshot.snapshot();
                let start = Instant::now();
                std::hint::black_box(again.solve(&y));
                let took = start.elapsed().as_secs_f64() * 1e6;
                micros = micros.min(took);
                spent += took;
            }
            bar.inc(1);
            solution.with_micros(micros)
        })
        .collect();
    bar.finish_and_clear();
    (solutions, calls)
}

/// The `sim_calls` column, when the problem's simulator counts its calls.
pub fn calls_column(calls: Option<Vec<f64>>) -> Vec<summary::ExtraColumn> {
    calls
        .map(|values| summary::ExtraColumn {
            name: "sim_calls".into(),
            values,
        })
        .into_iter()
        .collect()
}

/// What `eval` runs: the problem, the model if any, and the solver settings.
struct Plan {
    problem: Problem,
    model: Option<ChartSet>,
    settings: SolverSettings,
}

fn plan(args: &EvalArgs, model: Option<ChartSet>) -> Result<Plan, CliError> {
    let problem = match (&model, args.problem.as_deref()) {
        (Some(m), Some(asked)) if asked != m.problem().name() => {
            return Err(CliError::Input(format!(
                "--robot {asked} does not match the model's problem {}",
                m.problem().name()
            )))
        }
        (Some(_), _) if args.robot_file.urdf.is_some() => {
            return Err(CliError::Input(
                "--urdf names the problem of a run without --model: a model carries its own".into(),
            ))
        }
        (Some(m), _) => m.problem().clone(),
        (None, name) if args.robot_file.urdf.is_some() => {
            problem_for(name.unwrap_or_default(), &args.robot_file)?
        }
        (None, Some(name)) => problem_for(name, &args.robot_file)?,
        (None, None) => return Err(CliError::Input("need --robot or --model".into())),
    };
    let kind = match (args.solver, &model) {
        (Some(kind), _) => kind,
        (None, Some(_)) if args.refine > 0 => SolverKind::LoinkRefine,
        (None, Some(_)) => SolverKind::Loink,
        (None, None) => return Err(CliError::Input("need --solver (or --model)".into())),
    };
    // Checked here, not with clap's `requires`: that let these through (a default counts as
    // present).
    let learned_only = [
        ("--refine", args.refine > 0),
        ("--feedback", args.feedback > 0),
        ("--sigma", args.sigma.is_some()),
        ("--samples", args.samples != 1),
        ("--no-gap", args.no_gap),
    ];
    if !kind.is_learned() {
        if let Some((flag, _)) = learned_only.iter().find(|(_, given)| *given) {
            return Err(CliError::Input(format!(
                "{flag} applies to the learned solver: it needs --model"
            )));
        }
    } else if args.seed.is_some() && args.sigma.is_none() {
        return Err(CliError::Input(
            "--seed applies to dls starts or to --sigma sampling".into(),
        ));
    }
    if kind == SolverKind::LoinkRefine && args.refine == 0 {
        return Err(CliError::Input(
            "--solver loink-refine needs --refine K with K ≥ 1".into(),
        ));
    }
    let settings = SolverSettings {
        refine: args.refine,
        feedback: args.feedback as usize,
        start: match (kind, args.seed) {
            (SolverKind::Dls, Some(seed)) => Start::Random(seed),
            _ => Start::Cold,
        },
        ..SolverSettings::new(kind)
    };
    let learned = model.clone().map(LearnedModel::from);
    loink::model::applies(kind, &problem, learned.as_ref())
        .map_err(|e| CliError::Input(e.to_string()))?;
    Ok(Plan {
        problem,
        model,
        settings,
    })
}

/// Runs `loink eval`.
pub fn run(args: &EvalArgs) -> Result<(), CliError> {
    let loaded = args.model.as_deref().map(learned::load_any).transpose()?;
    if let Some(model) = &loaded {
        if let Some(flow) = model.downcast::<Flow>() {
            return flow::run(args, flow);
        }
        if let Some(regressor) = model.downcast::<Regressor>() {
            return regressor::run(args, regressor);
        }
    }
    let model = loaded.as_ref().and_then(LearnedModel::charts).cloned();
    let plan = plan(args, model)?;
    let targets = targets_csv::read_targets(&args.targets, plan.problem.task())?;
    targets.report_invalid(&args.targets);
    if plan.settings.kind.is_learned() {
        let model = plan
            .model
            .as_ref()
            .ok_or_else(|| CliError::Input("the learned solver needs --model".into()))?;
        return learned::run(args, model, &plan.settings, &targets);
    }
    let mut solver = registry::build(&plan.problem, &plan.settings)
        .map_err(|e| CliError::Input(e.to_string()))?;
    let (solutions, calls) = evaluate(&targets.rows, &mut solver, &plan.problem);
    let extra = calls_column(calls);
    results_csv::write_results(
        &args.out,
        &targets,
        plan.problem.dof(),
        &targets.rows,
        &solutions,
        &extra,
    )?;
    println!(
        "loink eval: problem {}, solver {}, {} rows -> {}",
        plan.problem.name(),
        plan.settings.kind.as_str(),
        targets.rows.len(),
        args.out.display()
    );
    print!("{}", summary::summary_table(&solutions, &extra));
    Ok(())
}
