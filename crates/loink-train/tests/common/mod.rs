//! What the CLI tests share: the binary, a run's combined output, and the network of a tiny,
//! fast training run.
#![allow(dead_code)]

use std::process::{Command, Output};

/// The `loink` binary built for these tests.
pub fn loink() -> Command {
    Command::new(env!("CARGO_BIN_EXE_loink"))
}

/// Runs `loink ARGS…`.
pub fn run(args: &[&str]) -> Output {
    loink().args(args).output().expect("the loink binary runs")
}

/// Stdout then stderr of a finished run, as text.
pub fn text(output: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

/// The flags of a tiny network trained briefly: `epochs` epochs of a depth-2, 8-wide network,
/// `check_targets` targets in the closing check; seconds on a release build.
pub fn tiny(epochs: &'static str, check_targets: &'static str) -> [&'static str; 12] {
    [
        "--epochs",
        epochs,
        "--depth",
        "2",
        "--hidden",
        "8,8",
        "--head-hidden",
        "8",
        "--batch",
        "128",
        "--check-targets",
        check_targets,
    ]
}
