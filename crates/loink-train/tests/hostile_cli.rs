//! Hostile input to the `loink` binary, run as a user would: the built executable.
//!
//! Exit codes: 0 success, 2 bad input or files (with a message on stderr naming the problem),
//! 1 a failed check. A bad *row* of a targets file is an `invalid` results row, not an abort;
//! every other row is still solved.

mod common;

use std::path::{Path, PathBuf};
use std::process::Output;

use loink::artifact::{random_model, save_model};

fn loink(args: &[&str]) -> Output {
    common::run(args)
}

fn code(out: &Output) -> i32 {
    out.status.code().expect("exited normally, not by a signal")
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// A fresh scratch directory per test.
fn scratch(name: &str) -> PathBuf {
    common::scratch_dir("hostile-cli", name)
}

fn write(dir: &Path, name: &str, bytes: &[u8]) -> String {
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path.to_str().unwrap().to_string()
}

fn eval(targets: &str, out: &str, robot: &str, solver: &str) -> Output {
    loink(&[
        "eval",
        "--robot",
        robot,
        "--solver",
        solver,
        "--targets",
        targets,
        "--out",
        out,
    ])
}

/// The results file as (header, rows of fields).
fn results(path: &str) -> (Vec<String>, Vec<Vec<String>>) {
    common::csv_rows(std::path::Path::new(path))
}

#[test]
fn bad_files_and_arguments_exit_2_with_a_message() {
    let dir = scratch("bad-files");
    let out = dir.join("r.csv");
    let out = out.to_str().unwrap();
    let cases: Vec<(&str, String, &str)> = vec![
        (
            "missing file",
            dir.join("nope.csv").to_str().unwrap().into(),
            "cannot read",
        ),
        ("a directory", dir.to_str().unwrap().into(), "cannot read"),
        ("empty file", write(&dir, "empty.csv", b""), "empty"),
        (
            "blank lines only",
            write(&dir, "blank.csv", b"\n\r\n  \n"),
            "empty",
        ),
        ("no x column", write(&dir, "nox.csv", b"a,y\n1,2\n"), "'x'"),
        ("no y column", write(&dir, "noy.csv", b"x\n1\n"), "'y'"),
        (
            "not UTF-8",
            write(&dir, "latin1.csv", b"x,y\n0.5,\xe90.3\n"),
            "UTF-8",
        ),
        (
            "binary",
            write(&dir, "bin.csv", &[0, 159, 146, 150, 255, 0]),
            "UTF-8",
        ),
    ];
    for (what, path, needle) in cases {
        let o = eval(&path, out, "planar3", "reference");
        assert_eq!(code(&o), 2, "{what}: {}", stderr(&o));
        assert!(
            stderr(&o).contains(needle),
            "{what}: stderr '{}' lacks '{needle}'",
            stderr(&o)
        );
        assert!(stderr(&o).starts_with("error: "), "{what}");
    }
    let good = write(&dir, "good.csv", b"x,y\n0.6,0.3\n");
    for (what, args) in [
        (
            "unknown problem",
            vec![
                "eval",
                "--robot",
                "planar9",
                "--solver",
                "dls",
                "--targets",
                &good,
                "--out",
                out,
            ],
        ),
        (
            "analytic on three links",
            vec![
                "eval",
                "--robot",
                "planar3",
                "--solver",
                "analytic",
                "--targets",
                &good,
                "--out",
                out,
            ],
        ),
        (
            "unknown solver",
            vec![
                "eval",
                "--robot",
                "planar3",
                "--solver",
                "ipopt",
                "--targets",
                &good,
                "--out",
                out,
            ],
        ),
        (
            "missing --out",
            vec![
                "eval",
                "--robot",
                "planar3",
                "--solver",
                "dls",
                "--targets",
                &good,
            ],
        ),
        (
            "unwritable --out",
            vec![
                "eval",
                "--robot",
                "planar3",
                "--solver",
                "dls",
                "--targets",
                &good,
                "--out",
                "/nonexistent-dir/r.csv",
            ],
        ),
        ("unknown subcommand", vec!["solve"]),
    ] {
        let o = loink(&args);
        assert_eq!(code(&o), 2, "{what}: {}", stderr(&o));
        assert!(!stderr(&o).trim().is_empty(), "{what}: no message");
    }
}

#[test]
fn hostile_rows_are_invalid_rows_and_the_rest_still_solve() {
    let dir = scratch("rows");
    // BOM, CRLF, blank lines, spaces, an extra column, and one hostile value per row.
    let text = "\u{feff}id,x,y\r\n\
        good,0.6,0.3\r\n\
        \r\n\
        text,abc,0.3\r\n\
        nan,NaN,0.3\r\n\
        inf,inf,0\r\n\
        neginf,0,-inf\r\n\
        huge,1e300,0\r\n\
        overflow,1e999,0\r\n\
        negzero,-0.0,0.6\r\n\
        far,100,100\r\n\
        boundary,1.2,0\r\n\
        base,0,0\r\n\
        short,0.5\r\n\
        empty,,\r\n\
        spaces, 0.5 , 0.4 \r\n";
    let targets = write(&dir, "t.csv", text.as_bytes());
    let out = dir.join("r.csv");
    let out = out.to_str().unwrap();
    let o = eval(&targets, out, "planar3", "reference");
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let (header, rows) = results(out);
    assert_eq!(
        header.join(","),
        "x,y,q1,q2,q3,residual,cost,margin,status,iterations,micros"
    );
    let status = header.iter().position(|h| h == "status").unwrap();
    let got: Vec<&str> = rows.iter().map(|r| r[status].as_str()).collect();
    assert_eq!(
        got,
        [
            "converged",
            "invalid",
            "invalid",
            "invalid",
            "invalid",
            "invalid",
            "invalid",
            "converged",
            "unreachable",
            "converged",
            "converged",
            "invalid",
            "invalid",
            "converged",
        ],
        "{}",
        std::fs::read_to_string(out).unwrap()
    );
    // The summary counts every status.
    let summary = stdout(&o);
    assert!(summary.contains("invalid"), "{summary}");
    // Same file through DLS: same invalid rows, nothing aborts.
    let o = eval(&targets, out, "planar3", "dls");
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let (_, rows) = results(out);
    let invalid: Vec<usize> = rows
        .iter()
        .enumerate()
        .filter(|(_, r)| r[status] == "invalid")
        .map(|(i, _)| i)
        .collect();
    assert_eq!(invalid, [1, 2, 3, 4, 5, 6, 11, 12]);
}

#[test]
fn check_rejects_bad_model_files_with_exit_2() {
    let dir = scratch("check-bad");
    let good = save_model(&random_model("planar3", 2, &[8, 8], 0.1, 4.0, 1).unwrap());
    let mut nan_file = random_model("planar3", 2, &[8, 8], 0.1, 4.0, 1).unwrap();
    nan_file.bilipnet.orthogonal[0].r[0][0] = f64::NAN;
    let mut skew = random_model("planar3", 2, &[8, 8], 0.1, 4.0, 1).unwrap();
    skew.bilipnet.orthogonal[1].r[0][0] += 0.01;
    // Each case's bytes (None: no file at all), written to a file named after it.
    let cases: Vec<(&str, Option<Vec<u8>>, &str)> = vec![
        ("missing", None, "No such file"),
        ("empty", Some(Vec::new()), "truncated"),
        (
            "truncated",
            Some(good.as_bytes()[..good.len() / 2].to_vec()),
            "truncated",
        ),
        (
            "not JSON",
            Some(b"<html>404</html>".to_vec()),
            "does not parse",
        ),
        (
            "nested",
            Some("[".repeat(100_000).into_bytes()),
            "model file",
        ),
        (
            "1e999",
            Some(
                good.replacen("\"cost_scale\": 1.0", "\"cost_scale\": 1e999", 1)
                    .into_bytes(),
            ),
            "does not parse",
        ),
        (
            "null weight",
            Some(save_model(&nan_file).into_bytes()),
            "does not parse",
        ),
        (
            "version 3",
            Some(
                good.replacen("\"version\": 2", "\"version\": 3", 1)
                    .into_bytes(),
            ),
            "version 3",
        ),
        (
            "not orthogonal",
            Some(save_model(&skew).into_bytes()),
            "bilipnet.orthogonal[1].r",
        ),
    ];
    let cases = cases.into_iter().map(|(what, bytes, needle)| {
        let name = format!("{}.json", what.replace(' ', "-"));
        let path = match bytes {
            Some(bytes) => write(&dir, &name, &bytes),
            None => dir.join(&name).to_str().unwrap().to_string(),
        };
        (what, path, needle)
    });
    for (what, path, needle) in cases {
        let o = loink(&[
            "check",
            "--model",
            &path,
            "--pairs",
            "10",
            "--targets",
            "10",
        ]);
        assert_eq!(code(&o), 2, "{what}: {}", stderr(&o));
        assert!(
            stderr(&o).contains(needle),
            "{what}: stderr '{}' lacks '{needle}'",
            stderr(&o)
        );
    }
    let model = write(&dir, "good.json", good.as_bytes());
    for bad in [
        ["--pairs", "0"],
        ["--targets", "-3"],
        ["--method", "bfgs"],
        ["--seed", "x"],
    ] {
        let o = loink(&["check", "--model", &model, bad[0], bad[1]]);
        assert_eq!(code(&o), 2, "{bad:?}: {}", stderr(&o));
    }
}

#[test]
fn check_passes_a_valid_model_and_fails_a_starved_inverse() {
    let dir = scratch("check-run");
    let model = write(
        &dir,
        "m.json",
        save_model(&random_model("planar4", 2, &[8], 0.1, 4.0, 2).unwrap()).as_bytes(),
    );
    let o = loink(&[
        "check",
        "--model",
        &model,
        "--pairs",
        "2000",
        "--targets",
        "2000",
        "--seed",
        "3",
    ]);
    assert_eq!(code(&o), 0, "{}{}", stdout(&o), stderr(&o));
    let table = stdout(&o);
    for row in [
        "bi-Lipschitz",
        "F0 monotone",
        "F1 certificate",
        "round trip",
        "recovery",
    ] {
        assert!(table.contains(row), "no '{row}' row:\n{table}");
    }
    assert!(!table.contains("| NO"), "{table}");
    // One Newton step per layer cannot reach 1e-10: the round trip must fail, and say so.
    let o = loink(&[
        "check",
        "--model",
        &model,
        "--pairs",
        "100",
        "--targets",
        "200",
        "--max-iterations",
        "1",
    ]);
    assert_eq!(code(&o), 1, "{}", stdout(&o));
    assert!(stdout(&o).contains("| NO"), "{}", stdout(&o));
}

#[test]
fn an_unknown_problem_lists_every_preset_the_registry_has() {
    let dir = scratch("presets");
    let out = dir.join("t.csv");
    let out = out.to_str().unwrap();
    let o = loink(&["targets", "--robot", "nosuch", "--count", "3", "--out", out]);
    assert_eq!(code(&o), 2, "{}", stderr(&o));
    let message = stderr(&o);
    for name in loink::problem::registry::preset_names() {
        assert!(message.contains(name), "'{name}' not offered: {message}");
    }
    assert!(!Path::new(out).exists(), "nothing is written");
    // The help offers the same list.
    for sub in ["targets", "eval", "data", "train"] {
        let help = stdout(&loink(&[sub, "--help"]));
        for name in loink::problem::registry::preset_names() {
            assert!(help.contains(name), "`loink {sub} --help` lacks '{name}'");
        }
    }
}
