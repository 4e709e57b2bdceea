//! `loink`: the native companion binary (train, eval, bench, check, compact, distill).

use std::process::ExitCode;

use clap::{ArgMatches, CommandFactory, FromArgMatches, Parser, Subcommand};
use loink_train::train::ModelKind;
use loink_train::train_baseline;
use loink_train::train_flow;
use loink_train::{bench, cli, train};

mod catalog;
mod check;
mod compact;
mod distill;
mod eval;
mod recipe;
mod spheres;

#[derive(Parser)]
#[command(
    name = "loink",
    version,
    about = "Learned optimal inverse kinematics: train, eval, bench, check, compact, distill, catalog"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Train a model with burn and write its file (JSON): from flags, or by a recipe
    /// (`--recipe recipes/NAME.toml [--set KEY=VALUE …]`).
    #[command(args_override_self = true)]
    Train(Box<train::TrainArgs>),
    /// Benchmark LOInK against IPOPT and the classical solvers on one targets file, in one run.
    Bench(bench::BenchArgs),
    /// Measure a model's guarantees at scale (bi-Lipschitz pairs, inverse round trip, certificates).
    Check(check::CheckArgs),
    /// Solve a targets file with any solver (the learned ones with --model); write one results row per target.
    Eval(eval::EvalArgs),
    /// Write a smaller copy of a model file (weights to fewer digits), validated, with the drift measured.
    Compact(compact::CompactArgs),
    /// Fit a model's section head σ(ỹ) ≈ G⁻¹([ỹ; 0]), the start of a cold inverse, and write the file with it.
    Distill(distill::DistillArgs),
    /// Write random reachable targets (q uniform in the limits) as a CSV with header x,y.
    Targets(eval::targets_cmd::TargetsArgs),
    /// Write a data file of x1..xn,y1..ym,J rows (x uniform in the limits, y and J from the simulator).
    Data(eval::data_cmd::DataArgs),
    /// Measure the share of targets whose self-motion set inside the limits is connected.
    Connectivity(eval::connectivity_cmd::ConnectivityArgs),
    /// Rewrite a model file's card (name, one-line description, the command that made it).
    Card(catalog::CardArgs),
    /// Write (or check) the page's model catalog from the model files' cards.
    Catalog(catalog::CatalogArgs),
    /// Cover each link's collision geometry (URDF meshes and primitives) with spheres, graded against it.
    Spheres(spheres::SpheresArgs),
}

/// This run's command line as `loink ARGS…` (arguments quoted where a shell would need it), for
/// the model card of the file it writes.
fn command_line() -> String {
    let quote = |a: String| {
        if !a.is_empty()
            && a.chars()
                .all(|c| c.is_ascii_alphanumeric() || "-_=.,/:+".contains(c))
        {
            a
        } else {
            format!("'{}'", a.replace('\'', "'\\''"))
        }
    };
    std::iter::once("loink".to_string())
        .chain(std::env::args().skip(1).map(quote))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The arguments of `loink train` with the ids of the ones the command line gave (checked:
/// none its trainer does not read).
fn train_args(matches: &ArgMatches) -> Result<(train::TrainArgs, Vec<String>), cli::CliError> {
    let train = matches
        .subcommand_matches("train")
        .ok_or_else(|| cli::CliError::Internal("not a train command".into()))?;
    let args = train::TrainArgs::from_arg_matches(train)
        .map_err(|e| cli::CliError::Input(e.to_string()))?;
    let given: Vec<String> = train
        .ids()
        .filter(|id| {
            train.value_source(id.as_str()) == Some(clap::parser::ValueSource::CommandLine)
        })
        .map(|id| id.as_str().to_string())
        .collect();
    let ids: Vec<&str> = given.iter().map(String::as_str).collect();
    train::args::check_given(args.kind, &ids)?;
    Ok((args, given))
}

/// Runs `loink train` on checked arguments.
fn train(args: &train::TrainArgs) -> Result<(), cli::CliError> {
    match args.kind {
        ModelKind::Loink
            if !args.charts.is_empty()
                || !args.split.is_empty()
                || !args.region.is_empty()
                || !args.turns.is_empty() =>
        {
            train::charts::run(args)
        }
        ModelKind::Loink => train::run(args).map(|_| ()),
        _ if !args.charts.is_empty() => Err(train::TrainError::Argument(
            "--charts trains LOInK charts: it needs --kind loink".into(),
        )),
        ModelKind::Mse | ModelKind::Mdn => train_baseline::run(args).map(|_| ()),
        ModelKind::Flow => train_flow::run(args).map(|_| ()),
    }
    .map_err(cli::CliError::from)
}

/// `loink train`: from its flags, or by a recipe (made into flags, then checked alike).
fn train_command(matches: &ArgMatches) -> Result<(), cli::CliError> {
    let (mut args, given) = train_args(matches)?;
    let Some(path) = args.recipe.clone() else {
        args.command = command_line();
        args.argv = std::env::args().skip(1).collect();
        return train(&args);
    };
    if let Some(other) = given
        .iter()
        .find(|id| !["recipe", "set"].contains(&id.as_str()))
    {
        return Err(cli::CliError::Input(format!(
            "{} goes with --recipe only as --set KEY=VALUE",
            train::args::flag(other)
        )));
    }
    let recipe = recipe::Recipe::load(&path, &args.set)?;
    let argv = std::iter::once("loink".to_string()).chain(recipe.train_args());
    let matches = Cli::command()
        .try_get_matches_from(argv)
        .map_err(|e| cli::CliError::Input(format!("recipe {}: {e}", path.display())))?;
    let (mut trained, _) = train_args(&matches)?;
    trained.command = command_line();
    trained.argv = recipe.train_args().into_iter().collect();
    trained.recipe_card = Some(recipe.identity.clone());
    println!(
        "recipe {} (sha256 {}): loink {}",
        recipe.identity.0,
        &recipe.identity.1[..12],
        recipe.train_args().join(" ")
    );
    if let (Some(data), Some(file)) = (&recipe.data, recipe.data_file()) {
        if !file.exists() {
            std::fs::create_dir_all("target/data")
                .map_err(|e| cli::CliError::Input(format!("cannot create target/data: {e}")))?;
            eval::data_cmd::run(&eval::sampling_args::SamplingArgs {
                problem: trained.problem.clone(),
                robot_file: trained.robot_file.clone(),
                count: data.count,
                seed: data.seed,
                cone: data.cone,
                out: file,
            })?;
        }
    }
    if let Some(out) = recipe.compact.as_ref().map(|_| recipe.trained_file()) {
        if let Some(dir) = out.parent() {
            std::fs::create_dir_all(dir).map_err(|e| {
                cli::CliError::Input(format!("cannot create {}: {e}", dir.display()))
            })?;
        }
    }
    train(&trained)?;
    if let Some(spec) = recipe.compact {
        compact::run(&compact::CompactArgs {
            model: recipe.trained_file(),
            out: recipe.out.clone(),
            digits: spec.digits,
            orthogonal_digits: spec.orthogonal_digits,
            targets: 10_000,
            seed: 1,
        })?;
    }
    if let Some(spec) = recipe.distill {
        distill::run(&distill::DistillArgs {
            model: recipe.out.clone(),
            out: recipe.out.clone(),
            hidden: spec.hidden,
            samples: spec.samples,
            epochs: spec.epochs,
            seed: spec.seed,
            ..distill::DistillArgs::defaults()
        })?;
    }
    Ok(())
}

fn main() -> ExitCode {
    let matches = Cli::command().get_matches();
    let cli = match Cli::from_arg_matches(&matches) {
        Ok(cli) => cli,
        Err(e) => e.exit(),
    };
    let result = match cli.command {
        Command::Train(_) => train_command(&matches),
        Command::Bench(args) => bench::run(&args),
        Command::Check(args) => check::run(&args),
        Command::Eval(args) => eval::run(&args),
        Command::Compact(args) => compact::run(&args),
        Command::Distill(args) => distill::run(&args),
        Command::Targets(args) => eval::targets_cmd::run(&args),
        Command::Data(args) => eval::data_cmd::run(&args),
        Command::Connectivity(args) => eval::connectivity_cmd::run(&args),
        Command::Card(args) => catalog::card(&args),
        Command::Catalog(args) => catalog::catalog(&args),
        Command::Spheres(args) => spheres::run(&args),
    };
    cli::exit_code(result)
}
