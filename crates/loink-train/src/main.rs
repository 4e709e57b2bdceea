//! `loink`: the native companion binary (train, eval, bench, check, compact).

use std::process::ExitCode;

use clap::{Parser, Subcommand};
use loink_train::train_baseline::{self, ModelKind};
use loink_train::{bench, train};

mod check;
mod cli;
mod compact;
mod eval;

#[derive(Parser)]
#[command(
    name = "loink",
    version,
    about = "Learned optimal inverse kinematics: train, eval, bench, check, compact"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Train a LOInK model with burn and write the model artifact (JSON).
    Train(train::TrainArgs),
    /// Benchmark LOInK against IPOPT and the classical solvers on one targets file, in one run.
    Bench(bench::BenchArgs),
    /// Measure a model's guarantees at scale (bi-Lipschitz pairs, inverse round trip, certificates).
    Check(check::CheckArgs),
    /// Solve a targets file with a classical solver; write one results row per target.
    Eval(eval::EvalArgs),
    /// Write a smaller copy of a model file (weights to fewer digits), validated, with the drift measured.
    Compact(compact::CompactArgs),
    /// Write random reachable targets (q uniform in the limits) as a CSV with header x,y.
    Targets(eval::targets_cmd::TargetsArgs),
    /// Measure the share of targets whose self-motion set inside the limits is connected.
    Connectivity(eval::connectivity_cmd::ConnectivityArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Train(args) => {
            let trained = match args.kind {
                ModelKind::Loink => train::run(&args).map(|_| ()),
                ModelKind::Mse | ModelKind::Mdn => train_baseline::run(&args).map(|_| ()),
            };
            return cli::exit_code(trained.map_err(cli::CliError::from));
        }
        Command::Bench(args) => bench::run(&args),
        Command::Check(args) => return check::run(&args),
        Command::Eval(args) => return cli::exit_code(eval::run(&args)),
        Command::Compact(args) => return cli::exit_code(compact::run(&args)),
        Command::Targets(args) => return cli::exit_code(eval::targets_cmd::run(&args)),
        Command::Connectivity(args) => return cli::exit_code(eval::connectivity_cmd::run(&args)),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}
