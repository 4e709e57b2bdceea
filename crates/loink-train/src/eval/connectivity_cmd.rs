//! `loink connectivity --robot NAME --count N [--seed S] [--grid G]`: the share of random
//! reachable targets whose self-motion set inside the limits is connected (one piece), with
//! the distribution of piece counts — the measurement behind the presets' documentation.

use clap::Args;
use loink::cost::CostSpec;
use loink::problem::Problem;
use loink::solvers::reference::planar::connected_pieces;

use super::problem_for;
use super::targets_cmd::random_targets;
use crate::cli::CliError;

/// Arguments of `loink connectivity`.
#[derive(Debug, Clone, Args)]
pub struct ConnectivityArgs {
    /// Robot preset (two to four joints); with --model the model's own problem.
    #[arg(long, visible_alias = "robot", required_unless_present = "model")]
    pub problem: Option<String>,
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
    /// A charts model file: also count the pieces inside each chart's region, per chart, and
    /// how often the chart whose region holds the global optimum sees one connected piece.
    #[arg(long)]
    pub model: Option<std::path::PathBuf>,
}

/// The preset, or its variant with the lengths/limits given on the command line.
fn problem_of(args: &ConnectivityArgs) -> Result<Problem, CliError> {
    let preset = problem_for(
        args.problem.as_deref().unwrap_or_default(),
        &Default::default(),
    )?;
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

/// Per-chart connectivity of a charts model (`--model`): for every target, the pieces of the
/// self-motion set inside each chart's region, and whether the region holding the reference
/// optimum sees it in one piece.
fn per_chart(args: &ConnectivityArgs, path: &std::path::Path) -> Result<(), CliError> {
    let set = super::learned::load(path)?;
    let problem = set.problem().clone();
    let regions: Vec<Problem> = set
        .regions()
        .iter()
        .map(|r| {
            let mut spec = problem.spec();
            spec.lower = r.lower().to_vec();
            spec.upper = r.upper().to_vec();
            Problem::from_spec(&spec, CostSpec::planar3())
                .map_err(|e| CliError::Input(e.to_string()))
        })
        .collect::<Result<_, _>>()?;
    // Per chart: targets it reaches (≥ 1 piece), of which connected (1 piece).
    let mut reach = vec![(0usize, 0usize); regions.len()];
    let (mut optimum_connected, mut optimum_known) = (0usize, 0usize);
    let bar = loink_train::progress::bar(args.count, "pieces");
    for y in random_targets(&problem, args.count, args.seed) {
        bar.inc(1);
        let pieces: Vec<usize> = regions
            .iter()
            .map(|p| connected_pieces(p, &y, args.grid).unwrap_or(0))
            .collect();
        for (k, &n) in pieces.iter().enumerate() {
            if n >= 1 {
                reach[k].0 += 1;
                reach[k].1 += usize::from(n == 1);
            }
        }
        let best = loink::solvers::reference::solve(&problem, &y);
        if let Some(k) = set.regions().iter().position(|r| r.margin(best.q()) >= 0.0) {
            optimum_known += 1;
            optimum_connected += usize::from(pieces[k] == 1);
        }
    }
    bar.finish_and_clear();
    println!(
        "{} ({} charts): the chart holding the global optimum sees one connected piece for {} of {} targets ({:.1}%) (seed {}, grid {})",
        path.display(),
        regions.len(),
        optimum_connected,
        optimum_known,
        100.0 * optimum_connected as f64 / optimum_known.max(1) as f64,
        args.seed,
        args.grid
    );
    println!(
        "{:>6} {:>9} {:>10} {:>11}  region",
        "chart", "reaches", "connected", "share"
    );
    for (k, (r, c)) in reach.iter().enumerate() {
        let region = &set.regions()[k];
        println!(
            "{k:>6} {r:>9} {c:>10} {:>10.1}%  lower {:?} upper {:?}",
            100.0 * *c as f64 / (*r).max(1) as f64,
            region.lower(),
            region.upper()
        );
    }
    Ok(())
}

/// Runs `loink connectivity`.
pub fn run(args: &ConnectivityArgs) -> Result<(), CliError> {
    if let Some(path) = &args.model {
        return per_chart(args, path);
    }
    let problem = problem_of(args)?;
    let mut histogram = std::collections::BTreeMap::new();
    let bar = loink_train::progress::bar(args.count, "pieces");
    for y in random_targets(&problem, args.count, args.seed) {
        bar.inc(1);
        let pieces = connected_pieces(&problem, &y, args.grid).ok_or_else(|| {
            CliError::Input(format!(
                "connectivity is measured for planar arms of 2–4 joints only ({})",
                problem.name()
            ))
        })?;
        *histogram.entry(pieces).or_insert(0usize) += 1;
    }
    bar.finish_and_clear();
    let connected = histogram.get(&1).copied().unwrap_or(0);
    println!(
        "{} (links {:?}, lower {:?}, upper {:?}): {} of {} random reachable targets ({:.1}%) have a connected self-motion set inside the limits (seed {}, grid {})",
        problem.name(),
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
