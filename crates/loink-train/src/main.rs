//! `loink`: the native companion binary (train, eval, bench, check).

use std::process::ExitCode;

use clap::{Parser, Subcommand};
use loink_train::{bench, train};

#[derive(Parser)]
#[command(name = "loink", version, about = "Learned optimal inverse kinematics: train, eval, bench, check")]
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
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Train(args) => train::run(&args).map(|_| ()).map_err(|e| e.to_string()),
        Command::Bench(args) => bench::run(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::FAILURE
        }
    }
}
