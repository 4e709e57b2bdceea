//! `loink targets --robot NAME --count N --seed S --out T.csv`: random reachable targets
//! y = p(q_s), q_s uniform inside the joint limits (ChaCha8 seeded), header `x,y`.

use std::path::PathBuf;

use clap::Args;
use loink::robot::{PlanarArm, Robot};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::problem_for;
use crate::cli::CliError;

/// Most targets one call writes.
pub const MAX_COUNT: usize = 10_000_000;

/// Arguments of `loink targets`.
#[derive(Debug, Clone, Args)]
pub struct TargetsArgs {
    /// Robot preset.
    #[arg(long)]
    pub robot: String,
    /// Number of targets.
    #[arg(long)]
    pub count: usize,
    /// RNG seed (ChaCha8).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Output CSV.
    #[arg(long)]
    pub out: PathBuf,
}

/// `count` targets p(q_s), q_s uniform in the limits, from `seed`.
pub fn random_targets(arm: &PlanarArm, count: usize, seed: u64) -> Vec<[f64; 2]> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let limits = arm.limits();
    (0..count)
        .map(|_| {
            let q: Vec<f64> = (0..arm.dof())
                .map(|i| rng.random_range(limits.lower()[i]..=limits.upper()[i]))
                .collect();
            arm.position(&q)
        })
        .collect()
}

/// Runs `loink targets`.
pub fn run(args: &TargetsArgs) -> Result<(), CliError> {
    let problem = problem_for(&args.robot)?;
    if args.count > MAX_COUNT {
        return Err(CliError::Input(format!(
            "--count {} exceeds {MAX_COUNT}",
            args.count
        )));
    }
    let fail = |e: &dyn std::fmt::Display| {
        CliError::Input(format!("cannot write {}: {e}", args.out.display()))
    };
    let mut writer = csv::Writer::from_path(&args.out).map_err(|e| fail(&e))?;
    let fail = |e: &dyn std::fmt::Display| {
        CliError::Internal(format!("writing {}: {e}", args.out.display()))
    };
    writer.write_record(["x", "y"]).map_err(|e| fail(&e))?;
    for [x, y] in random_targets(&problem.arm, args.count, args.seed) {
        writer
            .write_record([super::results_csv::number(x), super::results_csv::number(y)])
            .map_err(|e| fail(&e))?;
    }
    writer.flush().map_err(|e| fail(&e))?;
    println!(
        "wrote {} random reachable {} targets (seed {}) to {}",
        args.count,
        args.robot,
        args.seed,
        args.out.display()
    );
    Ok(())
}
