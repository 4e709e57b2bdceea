//! `loink data --problem NAME --count N --seed S [--cone DEG] --out D.csv`: a data file, the
//! model-free learner's only input: one row `x1,…,xn,y1,…,ym,J` per configuration x drawn
//! uniformly in the joint box (ChaCha8 seeded, one draw per joint in order, as `loink targets`),
//! y = f(x) from the problem's simulator and J its cost. The header names the columns; a task
//! that turns the hand names its chart coordinates (`x,y,z,rx,ry,rz` for a pose, `x,y,z,sx,sy`
//! for an axis) in place of `y1…ym`.

use super::problem_for;
use super::results_csv::{number, CsvOut};
use super::sampling_args::Draws;
use crate::cli::CliError;

/// Most rows one call writes.
pub const MAX_COUNT: usize = 10_000_000;

/// Arguments of `loink data`.
pub type DataArgs = super::sampling_args::SamplingArgs;

/// The header: `x1,…,xn`, the task's coordinates (`y1,…,ym`, or the chart coordinates' names
/// of a task that turns the hand), `J`.
pub fn header(dof: usize, task: &loink::problem::TaskSpace) -> Vec<String> {
    let names = if task.has_angle() {
        task.names()
    } else {
        (1..=task.dim()).map(|i| format!("y{i}")).collect()
    };
    (1..=dof)
        .map(|i| format!("x{i}"))
        .chain(names)
        .chain(std::iter::once("J".to_string()))
        .collect()
}

/// Runs `loink data`.
pub fn run(args: &DataArgs) -> Result<(), CliError> {
    let problem = problem_for(&args.problem, &args.robot_file)?;
    if args.count == 0 || args.count > MAX_COUNT {
        return Err(CliError::Input(format!(
            "--count {} is outside 1..={MAX_COUNT}",
            args.count
        )));
    }
    let cone = args.cone(&problem)?;
    let mut out = CsvOut::create(&args.out, "")?;
    out.row(header(problem.dof(), problem.task()))?;
    let bar = loink_train::progress::bar(args.count, "rows");
    let simulator = problem.capabilities().simulator;
    let calls_before = simulator.map(|s| s.calls());
    let mut written = 0;
    for (x, y) in Draws::unfiltered(&problem, args.seed, cone).take(args.count) {
        let j = problem.cost().value(&x);
        written += 1;
        let row = x
            .iter()
            .chain(&y)
            .chain(std::iter::once(&j))
            .map(|&v| number(v));
        out.row(row)?;
        bar.inc(1);
    }
    bar.finish_and_clear();
    out.finish()?;
    if written < args.count {
        return Err(CliError::Input(format!(
            "only {written} of {} rows drawn: the joint box holds almost none inside the cone",
            args.count
        )));
    }
    let calls = match (calls_before, simulator) {
        (Some(a), Some(s)) => format!(", {} simulator calls", s.calls() - a),
        _ => String::new(),
    };
    println!(
        "wrote {} rows of {} (x1..x{}, y1..y{}, J; seed {}{calls}) to {}",
        args.count,
        problem.name(),
        problem.dof(),
        problem.task_dim(),
        args.seed,
        args.out.display()
    );
    Ok(())
}
