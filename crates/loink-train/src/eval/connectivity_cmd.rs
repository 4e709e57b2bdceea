//! `loink connectivity --robot NAME --count N [--seed S] [--grid G]`: the share of random
//! reachable targets whose self-motion set inside the limits is connected (one piece), with
//! the distribution of piece counts — the measurement behind the presets' documentation.

use clap::Args;
use loink::cost::CostSpec;
use loink::problem::planar::reference::connected_pieces;
use loink::problem::Problem;

use super::problem_for;
use super::targets_cmd::random_targets;
use crate::cli::CliError;

/// Arguments of `loink connectivity`.
#[derive(Debug, Clone, Args)]
pub struct ConnectivityArgs {
    /// Robot preset (two to four joints).
    #[arg(long)]
    pub robot: String,
    /// Number of random reachable targets.
    #[arg(long, default_value_t = 1000)]
    pub count: usize,
    /// RNG seed (ChaCha8), as `loink targets`.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Four links: grid points over each of q₁ and q₂.
    #[arg(long, default_value_t = 200)]
    pub grid: usize,
    /// Explore a variant of the preset: comma-separated link lengths (m).
    #[arg(long, value_delimiter = ',')]
    pub lengths: Option<Vec<f64>>,
    /// Explore a variant: comma-separated lower joint limits (rad).
    #[arg(long, value_delimiter = ',', allow_hyphen_values = true)]
    pub lower: Option<Vec<f64>>,
    /// Explore a variant: comma-separated upper joint limits (rad).
    #[arg(long, value_delimiter = ',', allow_hyphen_values = true)]
    pub upper: Option<Vec<f64>>,
}

/// The preset, or its variant with the lengths/limits given on the command line.
fn problem_of(args: &ConnectivityArgs) -> Result<Problem, CliError> {
    let preset = problem_for(&args.robot)?;
    if args.lengths.is_none() && args.lower.is_none() && args.upper.is_none() {
        return Ok(preset);
    }
    let mut spec = preset.spec();
    spec.name = format!("{}-variant", spec.name);
    if let Some(l) = &args.lengths {
        spec.link_lengths = l.clone();
    }
    if let Some(l) = &args.lower {
        spec.lower = l.clone();
    }
    if let Some(u) = &args.upper {
        spec.upper = u.clone();
    }
    Problem::from_spec(&spec, CostSpec::planar3()).map_err(|e| CliError::Input(e.to_string()))
}

/// Runs `loink connectivity`.
pub fn run(args: &ConnectivityArgs) -> Result<(), CliError> {
    let problem = problem_of(args)?;
    let mut histogram = std::collections::BTreeMap::new();
    let bar = loink_train::progress::bar(args.count, "pieces");
    for y in random_targets(&problem, args.count, args.seed) {
        bar.inc(1);
        let pieces = connected_pieces(&problem, &y, args.grid).ok_or_else(|| {
            CliError::Input(format!(
                "connectivity is measured for planar arms of 2–4 joints only ({})",
                args.robot
            ))
        })?;
        *histogram.entry(pieces).or_insert(0usize) += 1;
    }
    bar.finish_and_clear();
    let connected = histogram.get(&1).copied().unwrap_or(0);
    println!(
        "{} (links {:?}, lower {:?}, upper {:?}): {} of {} random reachable targets ({:.1}%) have a connected self-motion set inside the limits (seed {}, grid {})",
        args.robot,
        problem.spec().link_lengths,
        problem.limits().lower(),
        problem.limits().upper(),
        connected,
        args.count,
        100.0 * connected as f64 / args.count.max(1) as f64,
        args.seed,
        args.grid
    );
    println!("{:>8} {:>8}", "pieces", "targets");
    for (pieces, count) in histogram {
        println!("{pieces:>8} {count:>8}");
    }
    Ok(())
}
