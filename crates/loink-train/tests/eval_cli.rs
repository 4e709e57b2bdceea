//! `loink eval` and `loink targets` through the built binary: header, row count, invalid rows,
//! exit codes.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn loink() -> Command {
    Command::new(env!("CARGO_BIN_EXE_loink"))
}

/// `loink eval ARGS --targets TARGETS --out OUT`.
fn eval(args: &[&str], targets: &Path, out: &Path) -> Output {
    loink()
        .arg("eval")
        .args(args)
        .arg("--targets")
        .arg(targets)
        .arg("--out")
        .arg(out)
        .output()
        .unwrap()
}

/// `loink targets --robot planar3 --count COUNT --seed SEED --out OUT`.
fn planar3_targets(count: &str, seed: &str, out: &Path) -> Output {
    loink()
        .args([
            "targets", "--robot", "planar3", "--count", count, "--seed", seed, "--out",
        ])
        .arg(out)
        .output()
        .unwrap()
}

/// [`eval`], which must succeed, and the results file's rows (header first).
fn eval_rows(args: &[&str], targets: &Path, results: &PathBuf) -> (Output, Vec<Vec<String>>) {
    let out = eval(args, targets, results);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    (out, rows(results))
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("loink-eval-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

fn rows(path: &PathBuf) -> Vec<Vec<String>> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| l.split(',').map(str::to_string).collect())
        .collect()
}

#[test]
fn targets_then_eval_writes_one_row_per_target() {
    let targets = scratch("t.csv");
    let out = planar3_targets("20", "3", &targets);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let t = rows(&targets);
    assert_eq!(t[0], ["x", "y"]);
    assert_eq!(t.len(), 21);
    // Same seed, same file.
    let again = scratch("t2.csv");
    assert!(planar3_targets("20", "3", &again).status.success());
    assert_eq!(
        std::fs::read(&targets).unwrap(),
        std::fs::read(&again).unwrap()
    );

    for solver in ["reference", "dls"] {
        let results = scratch(&format!("r-{solver}.csv"));
        let (out, r) = eval_rows(
            &["--robot", "planar3", "--solver", solver],
            &targets,
            &results,
        );
        assert_eq!(
            r[0].join(","),
            "x,y,q1,q2,q3,residual,cost,margin,status,iterations,micros"
        );
        assert_eq!(r.len(), 21);
        for (row, target) in r[1..].iter().zip(&t[1..]) {
            assert_eq!(&row[..2], &target[..2]);
            let residual: f64 = row[5].parse().unwrap();
            let status = row[8].as_str();
            assert!(["converged", "capped", "unreachable", "limits"].contains(&status));
            if status == "converged" {
                assert!(residual <= 1e-6);
            }
            if solver == "reference" {
                assert_eq!(status, "converged");
                assert!(residual <= 1e-12);
            }
            // Every row reports its solve time (a figure, never a bound).
            let micros: f64 = row[10].parse().unwrap();
            assert!(micros.is_finite() && micros >= 0.0);
        }
        let stdout = String::from_utf8_lossy(&out.stdout);
        for word in [
            "converged",
            "invalid",
            "residual",
            "cost",
            "µs",
            "median",
            "p95",
        ] {
            assert!(stdout.contains(word), "summary lacks '{word}':\n{stdout}");
        }
    }
}

#[test]
fn bad_rows_become_invalid_rows() {
    let targets = scratch("bad.csv");
    std::fs::write(
        &targets,
        "\u{feff}id,x,y\r\n1,0.6,0.3\r\n\r\n2,abc,0.1\r\n3,NaN,1\r\n4,inf,2\r\n5,1e300,0\r\n6,5,0\r\n",
    )
    .unwrap();
    let results = scratch("bad-out.csv");
    let (out, r) = eval_rows(
        &["--robot", "planar3", "--solver", "dls", "--seed", "4"],
        &targets,
        &results,
    );
    assert_eq!(r.len(), 7);
    let status: Vec<&str> = r[1..].iter().map(|row| row[8].as_str()).collect();
    assert_eq!(status[1..5], ["invalid", "invalid", "invalid", "invalid"]);
    assert_eq!(status[5], "unreachable");
    assert_eq!(r[2][0], "abc");
    assert_eq!(r[5][0], "1e300");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout
            .lines()
            .any(|l| l.starts_with("invalid") && l.trim_end().ends_with('4')),
        "{stdout}"
    );
}

#[test]
fn input_errors_exit_with_code_2() {
    let results = scratch("never.csv");
    let missing = loink()
        .args([
            "eval",
            "--robot",
            "planar3",
            "--solver",
            "reference",
            "--targets",
            "/nonexistent/t.csv",
            "--out",
        ])
        .arg(&results)
        .output()
        .unwrap();
    assert_eq!(missing.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&missing.stderr).contains("cannot read targets file"));

    let no_columns = scratch("cols.csv");
    std::fs::write(&no_columns, "a,b\n1,2\n").unwrap();
    let out = eval(
        &["--robot", "planar3", "--solver", "reference"],
        &no_columns,
        &results,
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no column 'x'"));

    let targets = scratch("ok.csv");
    std::fs::write(&targets, "x,y\n0.5,0.5\n").unwrap();
    for args in [
        ["--robot", "planar9", "--solver", "reference"],
        ["--robot", "planar3", "--solver", "analytic"],
    ] {
        let out = eval(&args, &targets, &results);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
    }
    assert!(!results.exists());
}

#[test]
fn analytic_runs_on_two_links() {
    let targets = scratch("two.csv");
    std::fs::write(&targets, "x,y\n1.2,0.4\n3,0\n").unwrap();
    let results = scratch("two-out.csv");
    let out = eval(
        &["--robot", "planar2", "--solver", "analytic"],
        &targets,
        &results,
    );
    assert!(out.status.success());
    let r = rows(&results);
    assert_eq!(
        r[0].join(","),
        "x,y,q1,q2,residual,cost,margin,status,iterations,micros"
    );
    assert_eq!(r[1][7], "converged");
    assert_eq!(r[2][7], "unreachable");
}

/// `--feedback K` on the shipped default model: every residual at most the one-shot's, the
/// median far lower, the summary names the rounds; out of range or without `--model` exits 2.
#[test]
fn feedback_rounds_lower_the_learned_residual() {
    let model = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../web/models/planar3-h38w.json"
    );
    let targets = scratch("fb-t.csv");
    assert!(planar3_targets("40", "5", &targets).status.success());
    let residuals = |feedback: &str| -> Vec<f64> {
        let results = scratch(&format!("fb-{feedback}.csv"));
        let out = eval(
            &["--model", model, "--feedback", feedback],
            &targets,
            &results,
        );
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            stdout.contains(&format!("feedback {feedback},")),
            "{stdout}"
        );
        rows(&results)[1..]
            .iter()
            .map(|r| r[5].parse().unwrap())
            .collect()
    };
    let (one_shot, fed) = (residuals("0"), residuals("2"));
    for (a, b) in one_shot.iter().zip(&fed) {
        assert!(b <= a, "feedback raised a residual: {a} -> {b}");
    }
    let median = |v: &[f64]| {
        let mut v = v.to_vec();
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    assert!(
        median(&fed) < median(&one_shot) / 100.0,
        "median {} -> {} m",
        median(&one_shot),
        median(&fed)
    );
    let results = scratch("fb-never.csv");
    for args in [
        vec!["--model", model, "--feedback", "17"],
        vec!["--model", model, "--feedback", "-1"],
        vec!["--robot", "planar3", "--solver", "dls", "--feedback", "2"],
        vec!["--robot", "planar3", "--solver", "dls", "--refine", "3"],
        vec!["--robot", "planar3", "--solver", "dls", "--sigma", "0.5"],
        vec!["--model", model, "--samples", "4"],
    ] {
        let out = eval(&args, &targets, &results);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
    }
    assert!(!results.exists());
}

#[test]
fn every_help_text_reads_as_plain_sentences() {
    let subcommands = [
        "train",
        "bench",
        "check",
        "eval",
        "compact",
        "targets",
        "connectivity",
        "card",
        "catalog",
    ];
    for sub in subcommands {
        let out = loink().args([sub, "--help"]).output().unwrap();
        assert!(out.status.success(), "{sub} --help");
        let text = String::from_utf8_lossy(&out.stdout);
        // Rustdoc link syntax ([`name`]) means nothing to a reader of --help.
        assert!(
            !text.contains("[`"),
            "{sub} --help shows doc-link syntax:\n{text}"
        );
        assert!(text.contains("Usage: loink"), "{sub}");
    }
}
