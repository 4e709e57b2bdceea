//! `loink compact --model IN --out OUT [--digits D]`: a smaller copy of a model file for the page to
//! download, with every weight rounded to D significant decimal digits (default 6) instead of the
//! trainer's f32 shortest decimals (up to 9).
//!
//! The weights are G's (R, b, S, V and the biases) and both heads'; the per-layer scalars μ_l, γ_l,
//! the normalisation and the metrics are kept exactly (see
//! [`round_weights_split`](loink_train::train::export::round_weights_split)). The rounded file must
//! pass the inference crate's own validation (orthogonality and the monotone certificate to 1e-5, on the
//! stored numbers) or nothing is written. Then both files solve the same seeded random reachable
//! targets unrefined, x₀ = G⁻¹([ỹ; 0]), and the command prints how far the answers moved (joint
//! vector and end effector) next to the original residuals, so the cost of the rounding is a
//! measured number, not a hope. The stored `metrics` still describe the unrounded network.

use std::path::PathBuf;

use clap::Args;
use loink::artifact::{load_any, LoadedModel, ModelFile};
use loink::report::{distance, Solution};
use loink::stats::median_p95;
use loink::surrogate::ChartSet;
use loink_train::train::export::{round_to_digits, round_weights_split, to_json};

use crate::cli::CliError;
use crate::eval::targets_cmd::random_targets;

/// Fewest significant digits accepted (below this no trained model passes validation).
pub const MIN_DIGITS: usize = 3;
/// Most significant digits accepted (f64 needs at most 17).
pub const MAX_DIGITS: usize = 17;

/// Arguments of `loink compact`.
#[derive(Debug, Clone, Args)]
pub struct CompactArgs {
    /// The model file to compact (a `loink-model` file).
    #[arg(long)]
    pub model: PathBuf,
    /// Where to write the compacted file (never the input: links name a file's weights).
    #[arg(long)]
    pub out: PathBuf,
    /// Significant decimal digits kept per weight (3–17).
    #[arg(long, default_value_t = 6)]
    pub digits: usize,
    /// Significant digits of the orthogonal layers' R (default: --digits). R must stay
    /// orthonormal to 1e-5 on load, which can take a digit more than the other weights.
    #[arg(long)]
    pub orthogonal_digits: Option<usize>,
    /// Random reachable targets on which the two files' unrefined answers are compared.
    #[arg(long, default_value_t = 10_000)]
    pub targets: usize,
    /// Seed of those targets (ChaCha8, as `loink targets`).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// How far the compacted file's unrefined answers moved from the original's.
#[derive(Debug, Clone, PartialEq)]
pub struct Drift {
    /// Largest ‖Δq‖ (rad).
    pub max_joint: f64,
    /// Median and largest ‖p(q′) − p(q)‖ (m).
    pub end_effector: (f64, f64),
    /// The original's residual, median and p95 (m), for scale.
    pub original_residual: (f64, f64),
    /// The compacted file's residual, median and p95 (m).
    pub compacted_residual: (f64, f64),
    /// Targets whose status differs between the two.
    pub status_changes: usize,
}

/// Writes the compacted file and says what it saved.
fn write_compacted(
    args: &CompactArgs,
    name: &str,
    original_bytes: usize,
    compact_text: &str,
    digits: usize,
) -> Result<(), CliError> {
    std::fs::write(&args.out, compact_text)
        .map_err(|e| CliError::Input(format!("cannot write {}: {e}", args.out.display())))?;
    println!(
        "loink compact: {name} ({original_bytes} B) -> {} ({} B), weights at {digits} significant digits",
        args.out.display(),
        compact_text.len()
    );
    Ok(())
}

/// Solves `targets` with both solvers (cold, unrefined) and measures the drift.
pub fn drift(original: &ChartSet, compacted: &ChartSet, targets: &[Vec<f64>]) -> Drift {
    let pairs: Vec<(Solution, Solution)> = targets
        .iter()
        .map(|y| (original.solve_cold(y), compacted.solve_cold(y)))
        .collect();
    let joint: Vec<f64> = pairs.iter().map(|(a, b)| distance(a.q(), b.q())).collect();
    let moved: Vec<f64> = pairs
        .iter()
        .map(|(a, b)| distance(a.reached(), b.reached()))
        .collect();
    let residuals = |pick: fn(&(Solution, Solution)) -> f64| {
        median_p95(&pairs.iter().map(pick).collect::<Vec<_>>())
    };
    Drift {
        max_joint: joint.iter().copied().fold(0.0, f64::max),
        end_effector: (
            median_p95(&moved).0,
            moved.iter().copied().fold(0.0, f64::max),
        ),
        original_residual: residuals(|(a, _)| a.residual()),
        compacted_residual: residuals(|(_, b)| b.residual()),
        status_changes: pairs
            .iter()
            .filter(|(a, b)| a.status() != b.status())
            .count(),
    }
}

/// Runs `loink compact`.
pub fn run(args: &CompactArgs) -> Result<(), CliError> {
    let r_digits = args.orthogonal_digits.unwrap_or(args.digits);
    for (flag, d) in [("--digits", args.digits), ("--orthogonal-digits", r_digits)] {
        if !(MIN_DIGITS..=MAX_DIGITS).contains(&d) {
            return Err(CliError::Input(format!(
                "{flag} {d} is outside {MIN_DIGITS}..={MAX_DIGITS}"
            )));
        }
    }
    if args.targets == 0 {
        return Err(CliError::Input("--targets must be at least 1".into()));
    }
    if same_file(&args.model, &args.out) {
        return Err(CliError::Input(format!(
            "--out {} is the input file: write the compacted copy under a new name",
            args.out.display()
        )));
    }
    let name = args.model.display();
    let text = std::fs::read_to_string(&args.model)
        .map_err(|e| CliError::Input(format!("cannot read model file {name}: {e}")))?;
    if crate::eval::flow::is_flow(&args.model) {
        return compact_flow(args, &text);
    }
    let original =
        ChartSet::from_json(&text).map_err(|e| CliError::Input(format!("{name}: {e}")))?;
    let digits = args.digits;
    let round = |file: &mut ModelFile| {
        round_weights_split(
            file,
            |v| round_to_digits(v, digits),
            |v| round_to_digits(v, r_digits),
        )
    };
    // The card says how the file was made: the training command, then this one.
    let mut compact_command = format!(
        "loink compact --model {} --out {} --digits {digits}",
        args.model.display(),
        args.out.display()
    );
    if let Some(r) = args.orthogonal_digits {
        compact_command.push_str(&format!(" --orthogonal-digits {r}"));
    }
    let card = |about: &mut loink::artifact::About| {
        about.command = if about.command.is_empty() {
            compact_command.clone()
        } else {
            format!("{} && {compact_command}", about.command)
        };
        if let Some(stem) = args.out.file_stem() {
            about.name = stem.to_string_lossy().to_string();
        }
    };
    // A charts file: every chart's weights rounded alike; the set's card rewritten.
    let compact_text = match load_any(&text).map_err(|e| CliError::Input(format!("{name}: {e}")))? {
        LoadedModel::Loink(model) => {
            let mut file = model.file().clone();
            round(&mut file);
            card(&mut file.about);
            to_json(&file)
        }
        LoadedModel::Charts(_) => {
            let mut file: loink::artifact::ChartsFile =
                serde_json::from_str(&text).map_err(|e| CliError::Input(format!("{name}: {e}")))?;
            for entry in &mut file.charts {
                round(&mut entry.model);
            }
            card(&mut file.about);
            serde_json::to_string(&file).map_err(|e| CliError::Internal(e.to_string()))?
        }
    };
    let compacted = ChartSet::from_json(&compact_text).map_err(|e| {
        CliError::Input(format!(
            "{name} rounded to {digits} digits (R to {r_digits}) fails the inference crate's validation \
             ({e}); nothing written: keep more digits"
        ))
    })?;
    let targets = random_targets(original.problem(), args.targets, args.seed);
    let d = drift(&original, &compacted, &targets);
    write_compacted(args, &name.to_string(), text.len(), &compact_text, digits)?;
    let mm = |m: f64| m * 1e3;
    println!(
        "  unrefined answers on {} random reachable targets (seed {}): end effector moved median \
         {:.2e} mm, max {:.2e} mm; max |Δq| {:.2e} rad; statuses changed {}",
        targets.len(),
        args.seed,
        mm(d.end_effector.0),
        mm(d.end_effector.1),
        d.max_joint,
        d.status_changes
    );
    println!(
        "  residual median / p95: original {:.4} / {:.4} mm, compacted {:.4} / {:.4} mm",
        mm(d.original_residual.0),
        mm(d.original_residual.1),
        mm(d.compacted_residual.0),
        mm(d.compacted_residual.1)
    );
    Ok(())
}

/// `loink compact` on a flow file: every conditioner weight and bias rounded to `--digits`
/// (the permutations, normalisation, clamp and metrics kept), the result validated, and the
/// z = 0 samples of both files compared on the seeded random targets.
fn compact_flow(args: &CompactArgs, text: &str) -> Result<(), CliError> {
    use loink::flow::{Flow, FlowFile, FlowSolver};
    let name = args.model.display();
    let original = Flow::from_json(text).map_err(|e| CliError::Input(format!("{name}: {e}")))?;
    let mut file: FlowFile =
        serde_json::from_str(text).map_err(|e| CliError::Input(format!("{name}: {e}")))?;
    let digits = args.digits;
    for block in &mut file.blocks {
        for layer in &mut block.net.layers {
            layer
                .w
                .iter_mut()
                .flatten()
                .for_each(|v| *v = round_to_digits(*v, digits));
            layer
                .b
                .iter_mut()
                .for_each(|v| *v = round_to_digits(*v, digits));
        }
    }
    let command = format!(
        "loink compact --model {} --out {} --digits {digits}",
        args.model.display(),
        args.out.display()
    );
    file.about.command = if file.about.command.is_empty() {
        command
    } else {
        format!("{} && {command}", file.about.command)
    };
    if let Some(stem) = args.out.file_stem() {
        file.about.name = stem.to_string_lossy().to_string();
    }
    let compact_text =
        serde_json::to_string(&file).map_err(|e| CliError::Internal(e.to_string()))?;
    let compacted = Flow::from_json(&compact_text).map_err(|e| {
        CliError::Input(format!(
            "{name} rounded to {digits} digits fails validation ({e}); nothing written"
        ))
    })?;
    let targets = random_targets(original.problem(), args.targets, args.seed);
    let solver = |flow: &Flow| FlowSolver::new(flow.clone(), 1, 0.0, 0);
    let (mut a, mut b) = (
        solver(&original).map_err(|e| CliError::Internal(e.to_string()))?,
        solver(&compacted).map_err(|e| CliError::Internal(e.to_string()))?,
    );
    let pairs: Vec<(Solution, Solution)> =
        targets.iter().map(|y| (a.solve(y), b.solve(y))).collect();
    let moved: Vec<f64> = pairs
        .iter()
        .map(|(a, b)| distance(a.reached(), b.reached()))
        .collect();
    let residual = |pick: fn(&(Solution, Solution)) -> f64| {
        median_p95(&pairs.iter().map(pick).collect::<Vec<_>>())
    };
    let (before, after) = (
        residual(|(a, _)| a.residual()),
        residual(|(_, b)| b.residual()),
    );
    write_compacted(args, &name.to_string(), text.len(), &compact_text, digits)?;
    println!(
        "  z = 0 samples on {} random reachable targets (seed {}): end effector moved median {:.2e} mm, max {:.2e} mm",
        targets.len(),
        args.seed,
        median_p95(&moved).0 * 1e3,
        moved.iter().copied().fold(0.0, f64::max) * 1e3
    );
    println!(
        "  residual median / p95: original {:.4} / {:.4} mm, compacted {:.4} / {:.4} mm",
        before.0 * 1e3,
        before.1 * 1e3,
        after.0 * 1e3,
        after.1 * 1e3
    );
    Ok(())
}

/// Whether two paths name the same existing file (so the input is never overwritten).
fn same_file(a: &std::path::Path, b: &std::path::Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(x), Ok(y)) => x == y,
        _ => false,
    }
}
