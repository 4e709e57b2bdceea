//! `loink targets --problem NAME --count N --seed S [--cone DEG] --out T.csv`: random reachable
//! targets y = f(q_s), q_s uniform inside the joint limits (ChaCha8 seeded), written in the
//! task's columns (`x,y`, `x,y,z`, `y1,…,ym`, a pose's `x,y,z,qw,qx,qy,qz`, an axis's
//! `x,y,z,ax,ay,az`); with `--cone` only the hand orientations within DEG of straight down.

use loink::problem::Problem;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::problem_for;
use super::results_csv::{number, CsvOut};
use super::sampling_args::Draws;
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
    let cone = args.cone(&problem)?;
    let mut out = CsvOut::create(&args.out, "")?;
    out.row(super::targets_csv::columns_of(&problem))?;
    let bar = loink_train::progress::bar(args.count, "targets");
    let mut written = 0;
    for (_, y) in Draws::new(&problem, args.seed, cone).take(args.count) {
        out.row(problem.task().to_columns(&y).iter().map(|&v| number(v)))?;
        written += 1;
        bar.inc(1);
    }
    bar.finish_and_clear();
    out.finish()?;
    if written < args.count {
        return Err(CliError::Input(format!(
            "only {written} of {} targets drawn: the joint box holds almost none inside the cone",
            args.count
        )));
    }
    let within = args.cone.map_or(String::new(), |deg| {
        format!(", hand within {deg}° of straight down")
    });
    println!(
        "wrote {} random reachable {} targets (seed {}{within}) to {}",
        args.count,
        problem.name(),
        args.seed,
        args.out.display()
    );
    Ok(())
}
