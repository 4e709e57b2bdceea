//! `loink`: the native companion binary (train, eval, bench, check, compact).

use std::process::ExitCode;

use clap::{Parser, Subcommand};
use loink_train::train::ModelKind;
use loink_train::train_baseline;
use loink_train::train_flow;
use loink_train::{bench, cli, train};

mod catalog;
mod check;
mod compact;
mod eval;

#[derive(Parser)]
#[command(
    name = "loink",
    version,
    about = "Learned optimal inverse kinematics: train, eval, bench, check, compact, catalog"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Train a LOInK model with burn and write the model artifact (JSON).
    Train(Box<train::TrainArgs>),
    /// Benchmark LOInK against IPOPT and the classical solvers on one targets file, in one run.
    Bench(bench::BenchArgs),
    /// Measure a model's guarantees at scale (bi-Lipschitz pairs, inverse round trip, certificates).
    Check(check::CheckArgs),
    /// Solve a targets file with any solver (the learned ones with --model); write one results row per target.
    Eval(eval::EvalArgs),
    /// Write a smaller copy of a model file (weights to fewer digits), validated, with the drift measured.
    Compact(compact::CompactArgs),
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

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Train(mut args) => {
            args.command = command_line();
            match args.kind {
                ModelKind::Loink if !args.charts.is_empty() => train::charts::run(&args),
                ModelKind::Loink => train::run(&args).map(|_| ()),
                _ if !args.charts.is_empty() => Err(train::TrainError::Argument(
                    "--charts trains LOInK charts: it needs --kind loink".into(),
                )),
                ModelKind::Mse | ModelKind::Mdn => train_baseline::run(&args).map(|_| ()),
                ModelKind::Flow => train_flow::run(&args).map(|_| ()),
            }
            .map_err(cli::CliError::from)
        }
        Command::Bench(args) => bench::run(&args),
        Command::Check(args) => check::run(&args),
        Command::Eval(args) => eval::run(&args),
        Command::Compact(args) => compact::run(&args),
        Command::Targets(args) => eval::targets_cmd::run(&args),
        Command::Data(args) => eval::data_cmd::run(&args),
        Command::Connectivity(args) => eval::connectivity_cmd::run(&args),
        Command::Card(args) => catalog::card(&args),
        Command::Catalog(args) => catalog::catalog(&args),
    };
    cli::exit_code(result)
}
