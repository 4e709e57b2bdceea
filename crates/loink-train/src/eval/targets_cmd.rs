//! `loink targets --robot NAME --count N --seed S --out T.csv`: random reachable targets
//! y = f(q_s), q_s uniform inside the joint limits (ChaCha8 seeded), header `x,y` for a
//! two-dimensional task (`y1,…,ym` otherwise).

use loink::problem::Problem;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::problem_for;
use super::results_csv::{number, CsvOut};
use crate::cli::CliError;

/// Most targets one call writes.
pub const MAX_COUNT: usize = 10_000_000;

/// Arguments of `loink targets`.
pub type TargetsArgs = super::sampling_args::SamplingArgs;

/// `count` targets f(q_s), q_s uniform in the limits, from `seed`.
pub fn random_targets(problem: &Problem, count: usize, seed: u64) -> Vec<Vec<f64>> {
    problem.random_targets(count, &mut ChaCha8Rng::seed_from_u64(seed))
}

/// Runs `loink targets`.
pub fn run(args: &TargetsArgs) -> Result<(), CliError> {
    let problem = problem_for(&args.problem, &args.robot_file)?;
    if args.count > MAX_COUNT {
        return Err(CliError::Input(format!(
            "--count {} exceeds {MAX_COUNT}",
            args.count
        )));
    }
    let mut out = CsvOut::create(&args.out, "")?;
    out.row(super::targets_csv::columns_of(&problem))?;
    let bar = loink_train::progress::bar(args.count, "targets");
    for y in random_targets(&problem, args.count, args.seed) {
        out.row(y.iter().map(|&v| number(v)))?;
        bar.inc(1);
    }
    bar.finish_and_clear();
    out.finish()?;
    println!(
        "wrote {} random reachable {} targets (seed {}) to {}",
        args.count,
        args.problem,
        args.seed,
        args.out.display()
    );
    Ok(())
}
