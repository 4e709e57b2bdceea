//! `loink data --problem NAME --count N --seed S --out D.csv`: a data file, the model-free
//! learner's only input: one row `x1,…,xn,y1,…,ym,J` per configuration x drawn uniformly in the
//! joint box (ChaCha8 seeded, one draw per joint in order, as `loink targets`), y = f(x) from the
//! problem's simulator and J its cost. The header names the columns.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::problem_for;
use super::results_csv::{number, CsvOut};
use crate::cli::CliError;

/// Most rows one call writes.
pub const MAX_COUNT: usize = 10_000_000;

/// Arguments of `loink data`.
pub type DataArgs = super::sampling_args::SamplingArgs;

/// The header: `x1,…,xn,y1,…,ym,J`.
pub fn header(dof: usize, task_dim: usize) -> Vec<String> {
    (1..=dof)
        .map(|i| format!("x{i}"))
        .chain((1..=task_dim).map(|i| format!("y{i}")))
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
    let mut out = CsvOut::create(&args.out, "")?;
    out.row(header(problem.dof(), problem.task_dim()))?;
    let limits = problem.limits().clone();
    let mut rng = ChaCha8Rng::seed_from_u64(args.seed);
    let bar = loink_train::progress::bar(args.count, "rows");
    let calls_before = problem.kinematics().simulator_calls();
    for _ in 0..args.count {
        let x: Vec<f64> = (0..limits.len())
            .map(|i| rng.random_range(limits.lower()[i]..=limits.upper()[i]))
            .collect();
        let y = problem.position(&x);
        let j = problem.cost().value(&x);
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
    let calls = match (calls_before, problem.kinematics().simulator_calls()) {
        (Some(a), Some(b)) => format!(", {} simulator calls", b - a),
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
