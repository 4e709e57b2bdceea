//! What the CLI tests share: the binary, a run's combined output, and the network of a tiny,
//! fast training run.
#![allow(dead_code)]

use std::path::Path;
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

/// A fresh, empty scratch directory for test `name` of suite `suite` (this process's own).
pub fn scratch_dir(suite: &str, name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("loink-{suite}-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A path as an argument.
pub fn arg(path: &Path) -> &str {
    path.to_str().expect("a UTF-8 path")
}

/// `loink eval HEAD… --targets TARGETS --out OUT EXTRA…`.
fn eval(head: &[&str], targets: &Path, out: &Path, extra: &[&str]) -> Output {
    let mut args = vec!["eval"];
    args.extend(head);
    args.extend(["--targets", arg(targets), "--out", arg(out)]);
    args.extend(extra);
    run(&args)
}

/// `loink eval --model MODEL --targets TARGETS --out OUT EXTRA…`.
pub fn eval_model(model: &Path, targets: &Path, out: &Path, extra: &[&str]) -> Output {
    eval(&["--model", arg(model)], targets, out, extra)
}

/// `loink eval --problem PROBLEM --solver SOLVER --targets TARGETS --out OUT EXTRA…`.
pub fn eval_problem(
    problem: &str,
    solver: &str,
    targets: &Path,
    out: &Path,
    extra: &[&str],
) -> Output {
    eval(
        &["--problem", problem, "--solver", solver],
        targets,
        out,
        extra,
    )
}

/// Runs `loink ARGS…`, checks that it exits with code 2 (bad input) and returns its stderr.
pub fn refused(args: &[&str]) -> String {
    let out = run(args);
    let message = String::from_utf8_lossy(&out.stderr).to_string();
    assert_eq!(
        out.status.code(),
        Some(2),
        "loink {}: {message}",
        args.join(" ")
    );
    message
}

/// A CSV file as (header, rows of fields).
pub fn csv_rows(path: &Path) -> (Vec<String>, Vec<Vec<String>>) {
    let text = std::fs::read_to_string(path).expect("a CSV file written");
    let mut lines = text.lines();
    let header = lines
        .next()
        .unwrap_or_default()
        .split(',')
        .map(str::to_string)
        .collect();
    let rows = lines
        .map(|l| l.split(',').map(str::to_string).collect())
        .collect();
    (header, rows)
}
