//! `loink check --model FILE`: the model's guarantees measured at scale.
//!
//! For one model file it measures, on seeded random samples:
//! - the **bi-Lipschitz bounds** μ‖Δx‖ ≤ ‖G(a) − G(b)‖ ≤ ν‖Δx‖ of the whole network on `--pairs`
//!   random pairs (μ = Π μ_l, ν = Π ν_l as the file claims);
//! - each **monotone layer**'s bounds ⟨ΔF, Δx⟩ ≥ μ_l‖Δx‖² and ‖ΔF‖ ≤ ν_l‖Δx‖ on as many pairs;
//! - the **inverse round trip** ‖G(G⁻¹(t)) − t‖ on `--targets` random targets t = [ỹ; z]
//!   (half the task targets the solver uses, z = 0; half latent samples z ~ N(0, I)), cold
//!   starts, with iterations; and the **recovery** bound ‖G⁻¹(G(x)) − x‖ ≤ residual/μ;
//! - the **certificate margins**: λ_min(I − ½(V + Vᵀ) − S Sᵀ) per monotone layer and
//!   max |RᵀR − I| per orthogonal layer.
//!
//! Prints one table. Exit 0 when every check holds, 1 when any fails, 2 when the file cannot
//! be read or is rejected by the loader (its typed error is printed), as every subcommand.

mod certificate;
mod measure;

use std::path::PathBuf;
use std::time::Instant;

use clap::Args;
use loink::artifact::load_model_bytes;
use loink::nn::{InverseMethod, InverseOptions};
use loink_train::cli::CliError;

/// Arguments of `loink check`.
#[derive(Debug, Clone, Args)]
pub struct CheckArgs {
    /// The model file to check.
    #[arg(long)]
    pub model: PathBuf,
    /// Random pairs for the bi-Lipschitz bounds (and per monotone layer).
    #[arg(long, default_value_t = 100_000)]
    pub pairs: usize,
    /// Random targets for the inverse round trip (this many task targets, as many latent samples).
    #[arg(long, default_value_t = 100_000)]
    pub targets: usize,
    /// Seed of every random sample (ChaCha8).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Inverse used for the round trip: newton (the inference crate's default) or dys.
    #[arg(long, default_value = "newton")]
    pub method: String,
    /// Per-layer iteration cap of the inverse (default: the method's own, 50 Newton / 20 000 DYS).
    #[arg(long)]
    pub max_iterations: Option<usize>,
}

/// One line of the table.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    /// What was checked.
    pub check: String,
    /// Samples it was measured on.
    pub samples: usize,
    /// The measured figure(s), formatted.
    pub measured: String,
    /// The bound it is held to, formatted.
    pub bound: String,
    /// Whether it holds.
    pub holds: bool,
}

/// Runs `loink check`: exit 2 for a file that cannot be read or is rejected (bad input), 1 when
/// a check fails.
pub fn run(args: &CheckArgs) -> Result<(), CliError> {
    let method = match args.method.as_str() {
        "newton" => InverseMethod::Newton,
        "dys" => InverseMethod::DavisYin,
        other => {
            return Err(CliError::Input(format!(
                "unknown --method '{other}' (known: newton, dys)"
            )))
        }
    };
    if args.pairs == 0 || args.targets == 0 {
        return Err(CliError::Input(
            "--pairs and --targets must be at least 1".into(),
        ));
    }
    let bytes = std::fs::read(&args.model)
        .map_err(|e| CliError::Input(format!("{}: {e}", args.model.display())))?;
    let model = load_model_bytes(&bytes)
        .map_err(|e| CliError::Input(format!("{}: rejected: {e}", args.model.display())))?;
    let start = Instant::now();
    let base = InverseOptions::NEWTON.with_method(method);
    let options = InverseOptions {
        warm_start: false,
        max_iterations: args.max_iterations.unwrap_or(base.max_iterations),
        ..base
    };
    let rows = check_model(&model, args.pairs, args.targets, args.seed, &options);
    let file = model.file();
    println!(
        "loink check {} — problem {}, depth {}, hidden {:?}, μ = {}, ν = {}, seed {}, inverse {} (cold, cap {})",
        args.model.display(),
        file.problem.name,
        file.hyper.depth,
        file.hyper.hidden,
        file.hyper.mu,
        file.hyper.nu,
        args.seed,
        method.as_str(),
        options.max_iterations
    );
    print!("{}", table(&rows));
    let failed = rows.iter().filter(|r| !r.holds).count();
    println!(
        "{} checks, {} failed, {:.1} s",
        rows.len(),
        failed,
        start.elapsed().as_secs_f64()
    );
    if failed == 0 {
        Ok(())
    } else {
        Err(CliError::Internal(format!(
            "{failed} checks failed (NO in the table)"
        )))
    }
}

/// Every check on a loaded model (the library side of [`run`], for tests).
pub fn check_model(
    model: &loink::artifact::ValidatedModel,
    pairs: usize,
    targets: usize,
    seed: u64,
    options: &InverseOptions,
) -> Vec<Row> {
    let net = model.net();
    let bar = loink_train::progress::bar(4, "check");
    let mut rows = certificate::margins(net);
    rows.push(measure::bilipschitz(net, pairs, seed));
    bar.inc(1);
    rows.extend(measure::layers(net, pairs, seed.wrapping_add(1)));
    bar.inc(1);
    rows.extend(measure::round_trip(
        model,
        targets,
        seed.wrapping_add(2),
        options,
    ));
    bar.inc(1);
    rows.push(measure::recovery(
        net,
        targets / 10 + 1,
        seed.wrapping_add(3),
        options,
    ));
    bar.finish_and_clear();
    rows
}

/// The rows as an aligned Markdown table.
pub fn table(rows: &[Row]) -> String {
    let header = ["check", "samples", "measured", "bound", "holds"];
    let cells: Vec<[String; 5]> = rows
        .iter()
        .map(|r| {
            [
                r.check.clone(),
                r.samples.to_string(),
                r.measured.clone(),
                r.bound.clone(),
                if r.holds { "yes" } else { "NO" }.to_string(),
            ]
        })
        .collect();
    let width = |k: usize| {
        cells
            .iter()
            .map(|c| c[k].chars().count())
            .chain([header[k].len()])
            .max()
            .unwrap_or(0)
    };
    let widths: Vec<usize> = (0..5).map(width).collect();
    let line = |c: [&str; 5]| {
        let padded: Vec<String> = c
            .iter()
            .zip(&widths)
            .map(|(s, &w)| format!("{s}{}", " ".repeat(w - s.chars().count())))
            .collect();
        format!("| {} |\n", padded.join(" | "))
    };
    let mut out = line(header);
    out.push_str(&format!(
        "|{}|\n",
        widths
            .iter()
            .map(|w| "-".repeat(w + 2))
            .collect::<Vec<_>>()
            .join("|")
    ));
    for c in &cells {
        out.push_str(&line([&c[0], &c[1], &c[2], &c[3], &c[4]]));
    }
    out
}
