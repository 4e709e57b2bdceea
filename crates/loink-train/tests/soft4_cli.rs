//! The soft arm through the `loink` binary: `loink data` writes the learner's rows (seeded, the
//! simulator's own y and J), `loink targets --problem soft4` makes reachable targets, and
//! `loink eval` counts the simulator calls of every classical solve in `sim_calls`.

use std::path::PathBuf;
use std::process::Command;

fn loink() -> Command {
    Command::new(env!("CARGO_BIN_EXE_loink"))
}

fn temp(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("loink-soft4-{}-{name}", std::process::id()))
}

fn run(args: &[&str]) -> std::process::Output {
    loink().args(args).output().expect("the loink binary runs")
}

fn read_csv(path: &PathBuf) -> (Vec<String>, Vec<Vec<f64>>, Vec<Vec<String>>) {
    let text = std::fs::read_to_string(path).unwrap();
    let mut lines = text.lines();
    let header: Vec<String> = lines.next().unwrap().split(',').map(String::from).collect();
    let raw: Vec<Vec<String>> = lines
        .map(|l| l.split(',').map(String::from).collect())
        .collect();
    let numbers = raw
        .iter()
        .map(|r| r.iter().map(|v| v.parse().unwrap_or(f64::NAN)).collect())
        .collect();
    (header, numbers, raw)
}

#[test]
fn data_rows_are_the_simulators_and_reproduce_by_seed() {
    let (a, b) = (temp("a.csv"), temp("b.csv"));
    for out in [&a, &b] {
        let o = run(&[
            "data",
            "--problem",
            "soft4",
            "--count",
            "50",
            "--seed",
            "9",
            "--out",
            out.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        assert!(String::from_utf8_lossy(&o.stdout).contains("50 simulator calls"));
    }
    assert_eq!(std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());
    let (header, rows, _) = read_csv(&a);
    assert_eq!(header, ["x1", "x2", "x3", "x4", "y1", "y2", "J"]);
    assert_eq!(rows.len(), 50);
    let problem = loink::problem::Problem::preset("soft4").unwrap();
    for r in &rows {
        let x = &r[..4];
        assert!(problem.limits().margin(x) >= 0.0);
        let y = problem.position(x);
        assert_eq!(&r[4..6], &y[..]);
        assert_eq!(r[6], problem.cost().value(x));
    }
    // Bad input: no rows, an unknown problem.
    for args in [
        vec!["data", "--problem", "soft4", "--count", "0", "--out"],
        vec!["data", "--problem", "soft5", "--count", "3", "--out"],
    ] {
        let mut args = args.clone();
        let out = temp("bad.csv");
        args.push(out.to_str().unwrap());
        assert_eq!(run(&args).status.code(), Some(2), "{args:?}");
    }
    let _ = std::fs::remove_file(a);
    let _ = std::fs::remove_file(b);
}

#[test]
fn eval_counts_the_simulator_calls_of_every_solve() {
    let (targets, results) = (temp("t.csv"), temp("r.csv"));
    let o = run(&[
        "targets",
        "--problem",
        "soft4",
        "--count",
        "20",
        "--seed",
        "5",
        "--out",
        targets.to_str().unwrap(),
    ]);
    assert!(o.status.success());
    for solver in ["reference", "dls"] {
        let o = run(&[
            "eval",
            "--problem",
            "soft4",
            "--solver",
            solver,
            "--targets",
            targets.to_str().unwrap(),
            "--out",
            results.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        assert!(String::from_utf8_lossy(&o.stdout).contains("sim_calls"));
        let (header, rows, raw) = read_csv(&results);
        let calls = header
            .iter()
            .position(|h| h == "sim_calls")
            .expect("sim_calls column");
        let status = header.iter().position(|h| h == "status").unwrap();
        for (r, text) in rows.iter().zip(&raw) {
            assert_eq!(text[status], "converged", "{solver}: {text:?}");
            // At least the replay and a finite-difference Jacobian.
            assert!(r[calls] >= 6.0, "{solver}: {} calls", r[calls]);
        }
    }
    // A planar arm's simulator does not count: no column.
    let o = run(&[
        "targets",
        "--robot",
        "planar3",
        "--count",
        "3",
        "--out",
        targets.to_str().unwrap(),
    ]);
    assert!(o.status.success());
    let o = run(&[
        "eval",
        "--robot",
        "planar3",
        "--solver",
        "dls",
        "--targets",
        targets.to_str().unwrap(),
        "--out",
        results.to_str().unwrap(),
    ]);
    assert!(o.status.success());
    assert!(!read_csv(&results).0.iter().any(|h| h == "sim_calls"));
    let _ = std::fs::remove_file(targets);
    let _ = std::fs::remove_file(results);
}
