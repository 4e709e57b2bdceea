//! The soft arm through the `loink` binary: `loink data` writes the learner's rows (seeded, the
//! simulator's own y and J), `loink targets --problem soft4` makes reachable targets, and
//! `loink eval` counts the simulator calls of every classical solve in `sim_calls`.

mod common;

use std::path::{Path, PathBuf};

use common::tiny;

fn temp(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("loink-soft4-{}-{name}", std::process::id()))
}

fn run(args: &[&str]) -> std::process::Output {
    common::run(args)
}

/// `loink eval ARGS… --targets TARGETS --out RESULTS`, which must succeed; the results file
/// read back.
fn eval_csv(args: &[&str], targets: &Path, results: &PathBuf) -> Csv {
    let mut all = vec!["eval"];
    all.extend_from_slice(args);
    all.extend([
        "--targets",
        targets.to_str().unwrap(),
        "--out",
        results.to_str().unwrap(),
    ]);
    let o = run(&all);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    read_csv(results)
}

/// A results file: its header, its rows as numbers (NaN where not one) and as text.
type Csv = (Vec<String>, Vec<Vec<f64>>, Vec<Vec<String>>);

fn read_csv(path: &PathBuf) -> Csv {
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
        let o = common::eval_problem("soft4", solver, &targets, &results, &[]);
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
    let o = common::eval_problem("planar3", "dls", &targets, &results, &[]);
    assert!(o.status.success());
    assert!(!read_csv(&results).0.iter().any(|h| h == "sim_calls"));
    let _ = std::fs::remove_file(targets);
    let _ = std::fs::remove_file(results);
}

/// `loink train` tiny, from `data`, with extra flags; returns stdout + stderr.
fn train_from(data: &std::path::Path, out: &std::path::Path, extra: &[&str]) -> (bool, String) {
    let mut args = vec!["train", "--data", data.to_str().unwrap()];
    args.extend(tiny("4", "20"));
    args.extend(["--seed", "3", "--out", out.to_str().unwrap()]);
    args.extend_from_slice(extra);
    let o = run(&args);
    (o.status.success(), common::text(&o))
}

#[test]
fn a_model_trains_from_a_data_file_alone() {
    let (data, model, targets, results) = (
        temp("d.csv"),
        temp("m.json"),
        temp("dt.csv"),
        temp("dr.csv"),
    );
    let o = run(&[
        "data",
        "--problem",
        "soft4",
        "--count",
        "4000",
        "--seed",
        "2",
        "--out",
        data.to_str().unwrap(),
    ]);
    assert!(o.status.success());
    // Three bad rows appended: each reported by its line number and left out.
    let mut text = std::fs::read_to_string(&data).unwrap();
    text.push_str("1,2,3,nope,0.1,0.1,1\n1,2,3,4,NaN,0.1,1\n1,2,3\n");
    std::fs::write(&data, text).unwrap();
    let o = run(&[
        "targets",
        "--problem",
        "soft4",
        "--count",
        "30",
        "--seed",
        "8",
        "--out",
        targets.to_str().unwrap(),
    ]);
    assert!(o.status.success());

    // With the simulator named: a soft4 model, its answers replayed (sim_calls counted).
    let (ok, log) = train_from(&data, &model, &["--problem", "soft4"]);
    assert!(ok, "{log}");
    for line in [
        "line 4002: 'nope' is not a number",
        "line 4003: NaN is not finite",
        "line 4004: 3 columns",
    ] {
        assert!(log.contains(line), "{line} missing from:\n{log}");
    }
    let file = loink::artifact::load_model(&std::fs::read_to_string(&model).unwrap()).unwrap();
    let m = &file.file().metrics;
    assert!(m["last_loss"] < m["first_loss"], "{m:?}");
    assert_eq!(m["samples"], 4000.0);
    assert_eq!(file.problem().name(), "soft4");
    let (header, _, raw) = eval_csv(
        &["--model", model.to_str().unwrap(), "--refine", "3"],
        &targets,
        &results,
    );
    assert!(header.iter().any(|h| h == "sim_calls"));
    let status = header.iter().position(|h| h == "status").unwrap();
    assert!(raw.iter().filter(|r| r[status] == "converged").count() >= 25);
    // The one-shot answer costs one simulator call: its replay.
    let (header, rows, _) = eval_csv(&["--model", model.to_str().unwrap()], &targets, &results);
    let calls = header.iter().position(|h| h == "sim_calls").unwrap();
    assert!(rows.iter().all(|r| r[calls] == 1.0), "one-shot calls");

    // Without it: a data-only model, whose answers nothing can replay.
    let (ok, log) = train_from(&data, &model, &[]);
    assert!(ok, "{log}");
    assert!(log.contains("optimality check skipped"));
    let text = std::fs::read_to_string(&model).unwrap();
    let file = loink::artifact::load_model(&text).unwrap();
    assert_eq!(file.file().problem.kind, "data");
    assert!(!file.problem().replayable());
    let (header, rows, raw) = eval_csv(&["--model", model.to_str().unwrap()], &targets, &results);
    let status = header.iter().position(|h| h == "status").unwrap();
    assert!(raw.iter().all(|r| r[status] == "unverified"));
    // The learner's own word on where each answer lands: its task prediction G₁(x), which the
    // inverse put on the target.
    let predicted: Vec<usize> = ["predicted_y1", "predicted_y2"]
        .iter()
        .map(|name| header.iter().position(|h| h == name).expect(name))
        .collect();
    for r in &rows {
        for (j, &k) in predicted.iter().enumerate() {
            assert!(
                (r[k] - r[j]).abs() < 1e-6,
                "prediction {} vs target {}",
                r[k],
                r[j]
            );
        }
    }
    // --surface replays preimages: not without the simulator.
    let (ok, log) = train_from(&data, &model, &["--surface", "100"]);
    assert!(!ok && log.contains("needs the simulator"), "{log}");

    // A file without a usable row is refused (exit 2).
    std::fs::write(&data, "x1,x2,y1,J\nnope,1,1,1\n").unwrap();
    let o = run(&[
        "train",
        "--data",
        data.to_str().unwrap(),
        "--out",
        model.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    for f in [data, model, targets, results] {
        let _ = std::fs::remove_file(f);
    }
}

#[test]
fn a_planar3_data_file_trains_like_the_robot_itself() {
    let (data, a, b, targets, results) = (
        temp("p3d.csv"),
        temp("p3a.json"),
        temp("p3b.json"),
        temp("p3t.csv"),
        temp("p3r.csv"),
    );
    assert!(run(&[
        "data",
        "--problem",
        "planar3",
        "--count",
        "6000",
        "--seed",
        "4",
        "--out",
        data.to_str().unwrap(),
    ])
    .status
    .success());
    let (ok, log) = train_from(&data, &a, &["--problem", "planar3"]);
    assert!(ok, "{log}");
    let mut args = vec!["train", "--robot", "planar3", "--samples", "6000"];
    args.extend(tiny("4", "20"));
    args.extend(["--seed", "3", "--out", b.to_str().unwrap()]);
    let o = run(&args);
    assert!(o.status.success());
    assert!(run(&[
        "targets",
        "--robot",
        "planar3",
        "--count",
        "100",
        "--seed",
        "9",
        "--out",
        targets.to_str().unwrap(),
    ])
    .status
    .success());
    let within = |model: &PathBuf| {
        let (header, rows, _) = eval_csv(
            &["--model", model.to_str().unwrap(), "--refine", "3"],
            &targets,
            &results,
        );
        let gap = header.iter().position(|h| h == "gap").unwrap();
        rows.iter().filter(|r| r[gap] <= 0.01).count()
    };
    let (from_data, from_robot) = (within(&a), within(&b));
    assert!(
        from_data >= 90 && from_robot >= 90,
        "{from_data} vs {from_robot} of 100"
    );
    assert!(
        from_data.abs_diff(from_robot) <= 5,
        "{from_data} vs {from_robot} of 100"
    );
    for f in [data, a, b, targets, results] {
        let _ = std::fs::remove_file(f);
    }
}
