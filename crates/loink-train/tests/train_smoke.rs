//! Smoke training for CI (run from a release build: `cargo test --release -p loink-train`):
//! a tiny network trains through the `loink` binary in a few seconds, its loss falls, the file
//! it writes is a valid model that `loink eval --model` reads, and the same seed gives the same
//! bytes.

mod common;

use std::path::{Path, PathBuf};

use common::{loink, tiny};

fn temp(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("loink-smoke-{}-{name}", std::process::id()))
}

fn train_tiny(out: &Path) -> String {
    train_tiny_with(out, &[])
}

fn train_tiny_with(out: &Path, extra: &[&str]) -> String {
    let output = loink()
        .args(["train", "--robot", "planar3", "--samples", "4000"])
        .args(tiny("4", "20"))
        .args(["--seed", "7", "--out"])
        .arg(out)
        .args(extra)
        .output()
        .expect("the loink binary runs");
    let stdout = String::from_utf8_lossy(&output.stdout).to_string();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "loink train failed:\n{stdout}\n{stderr}"
    );
    // Both streams: the summary is on stdout, the per-epoch lines on stderr.
    format!("{stdout}{stderr}")
}

#[test]
fn tiny_training_lowers_the_loss_and_eval_reads_the_model() {
    let model = temp("model.json");
    let stdout = train_tiny(&model);
    assert!(stdout.contains("summary"), "no summary table:\n{stdout}");

    let json = std::fs::read_to_string(&model).unwrap();
    let file = loink::artifact::load_model(&json).expect("the trained file validates");
    let metrics = &file.file().metrics;
    let (first, last) = (metrics["first_loss"], metrics["last_loss"]);
    assert!(
        last < 0.5 * first,
        "loss did not fall: first {first}, last {last}"
    );
    assert!(
        metrics["task_rmse_m"] < 0.3,
        "task RMSE {}",
        metrics["task_rmse_m"]
    );
    assert_eq!(file.file().data_seed, 7);
    assert_eq!(metrics["epochs"], 4.0);

    // Same command (same seed, same --out), same machine: the same bytes. The card records the
    // command, so the run repeats it exactly.
    assert!(file
        .file()
        .about
        .command
        .starts_with("loink train --robot planar3 "));
    assert!(file.file().about.command.contains("--seed 7"));
    train_tiny(&model);
    assert_eq!(
        json,
        std::fs::read_to_string(&model).unwrap(),
        "training is not reproducible"
    );

    let targets = temp("targets.csv");
    std::fs::write(&targets, "x,y\n0.6,0.4\n-0.2,0.9\n0.3,-0.5\nnan,1\n").unwrap();
    let results = temp("results.csv");
    let output = common::eval_model(&model, &targets, &results, &["--refine", "3"]);
    let stdout = String::from_utf8_lossy(&output.stdout).to_string();
    assert!(
        output.status.success(),
        "eval failed: {stdout}\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(stdout.contains("within 1%"), "no gap summary:\n{stdout}");
    let csv = std::fs::read_to_string(&results).unwrap();
    let mut lines = csv.lines();
    let header = lines.next().unwrap();
    assert!(
        header.starts_with("x,y,q1,q2,q3,residual,cost,margin,status,iterations,micros,gap"),
        "{header}"
    );
    let rows: Vec<&str> = lines.collect();
    assert_eq!(rows.len(), 4);
    assert!(
        rows[3].contains(",invalid,"),
        "the NaN target must be reported invalid: {}",
        rows[3]
    );

    // A truncated model file is a clean input error (exit code 2), not a panic.
    let broken = temp("broken.json");
    std::fs::write(&broken, &json[..json.len() / 2]).unwrap();
    let output = common::eval_model(&broken, &targets, &results, &[]);
    assert_eq!(output.status.code(), Some(2));

    for p in [model, targets, results, broken] {
        let _ = std::fs::remove_file(p);
    }
}

#[test]
fn surface_resampling_trains_on_the_networks_own_preimages() {
    let model = temp("surface.json");
    let stdout = train_tiny_with(&model, &["--surface", "1000", "--surface-from", "0.5"]);
    // Epochs 3 and 4 of 4 draw surface points and say so (progress lines go to stderr).
    for epoch in [3, 4] {
        assert!(
            stdout.contains(&format!("epoch   {epoch}: "))
                && stdout.contains("surface points of 1000 targets"),
            "no surface line for epoch {epoch}:\n{stdout}"
        );
    }
    assert!(
        !stdout.contains("epoch   2: "),
        "surface points before --surface-from"
    );
    let json = std::fs::read_to_string(&model).unwrap();
    let file = loink::artifact::load_model(&json).expect("the trained file validates");
    let metrics = &file.file().metrics;
    let points = metrics["surface_points"];
    assert!(points > 0.0 && points <= 1000.0, "surface points {points}");
    assert!(metrics["surface_residual_m"] > 0.0 && metrics["surface_residual_m"] < 1.0);
    assert!(metrics["last_loss"] < 0.5 * metrics["first_loss"]);
    // Deterministic too: the draws come from the seeded stream.
    train_tiny_with(&model, &["--surface", "1000", "--surface-from", "0.5"]);
    assert_eq!(json, std::fs::read_to_string(&model).unwrap());
    // A surface task weight of 1 is the default; another weight trains another model.
    let weighted = |w: &str| {
        let out = temp(&format!("surface-weight-{w}.json"));
        let flags = ["--surface", "1000", "--surface-from", "0.5"];
        train_tiny_with(&out, &[&flags[..], &["--surface-task-weight", w]].concat());
        std::fs::read_to_string(&out).unwrap()
    };
    // Everything but the card (which records each command line) is the same.
    let without_card = |text: &str| {
        let mut file = loink::artifact::parse_model(text).expect("parses");
        file.about = Default::default();
        loink::artifact::save_model(&file)
    };
    assert_eq!(without_card(&json), without_card(&weighted("1")));
    let weighted_json = weighted("4");
    loink::artifact::load_model(&weighted_json).expect("the weighted run's file validates");
    assert_ne!(without_card(&json), without_card(&weighted_json));
    // Out-of-range values are refused before any work.
    for bad in [
        ["--surface-from", "1.5"],
        ["--surface", "99999"],
        ["--surface-pool", "0"],
        ["--surface-task-weight", "0"],
        ["--surface-task-weight", "NaN"],
        ["--surface-task-weight", "4"], // without --surface it would weigh nothing
    ] {
        let output = loink()
            .args(["train", "--robot", "planar3", "--samples", "4000", "--out"])
            .arg(temp("never.json"))
            .args(bad)
            .output()
            .unwrap();
        assert_eq!(
            output.status.code(),
            Some(2),
            "{bad:?}: a bad flag value exits 2"
        );
    }
}

#[test]
fn norm_task_loss_trains_a_valid_different_model() {
    let squared = temp("squared.json");
    let norm = temp("norm.json");
    train_tiny(&squared);
    let stdout = train_tiny_with(&norm, &["--task-loss", "norm", "--task-weight", "1"]);
    assert!(stdout.contains("task_rmse_m"), "{stdout}");
    let json = std::fs::read_to_string(&norm).unwrap();
    let file = loink::artifact::load_model(&json).expect("the trained file validates");
    let metrics = &file.file().metrics;
    assert!(metrics["last_loss"] < metrics["first_loss"], "{metrics:?}");
    // A tiny net after four epochs: the task error is finite and under the arm's reach.
    assert!(
        metrics["task_rmse_m"] > 0.0 && metrics["task_rmse_m"] < 1.0,
        "{metrics:?}"
    );
    assert_ne!(json, std::fs::read_to_string(&squared).unwrap());
    let output = loink()
        .args([
            "train",
            "--robot",
            "planar3",
            "--task-loss",
            "cubic",
            "--out",
        ])
        .arg(temp("never.json"))
        .output()
        .unwrap();
    assert!(
        !output.status.success(),
        "an unknown task loss was accepted"
    );
    for p in [&squared, &norm] {
        let _ = std::fs::remove_file(p);
    }
}

#[test]
fn tiny_charts_train_chart_by_chart_and_eval_names_the_winner() {
    let model = temp("charts.json");
    let output = loink()
        .args([
            "train",
            "--robot",
            "planar3-wide",
            "--charts",
            "2",
            "--samples",
            "3000",
        ])
        .args(tiny("3", "10"))
        .args(["--seed", "3", "--out"])
        .arg(&model)
        .output()
        .expect("the loink binary runs");
    let text = common::text(&output);
    assert!(
        output.status.success(),
        "loink train --charts failed:\n{text}"
    );
    // The progress says which chart it is on.
    assert!(text.contains("chart 1/2 epoch"), "{text}");
    assert!(text.contains("== chart 2/2: q2 ≥ 0"), "{text}");
    let json = std::fs::read_to_string(&model).unwrap();
    let set = match loink::artifact::load_any(&json).expect("the charts file validates") {
        loink::artifact::LoadedModel::Charts(set) => set,
        loink::artifact::LoadedModel::Loink(_) => panic!("not a charts file"),
    };
    assert_eq!(set.charts().len(), 2);
    assert_eq!(set.regions()[0].upper()[1], 0.0);
    for k in 0..2 {
        let m = &set.charts()[k].file().metrics;
        assert!(m["last_loss"] < m["first_loss"], "chart {k}: {m:?}");
    }
    assert!(set.meta().metrics.contains_key("within_1pct"));

    let targets = temp("charts-targets.csv");
    std::fs::write(&targets, "x,y\n0.5,0.2\n-0.3,0.4\n0.1,-0.6\n").unwrap();
    let results = temp("charts-results.csv");
    let output = loink()
        .args(["eval", "--refine", "2", "--model"])
        .arg(&model)
        .arg("--targets")
        .arg(&targets)
        .arg("--out")
        .arg(&results)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let csv = std::fs::read_to_string(&results).unwrap();
    let mut lines = csv.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let chart = header
        .iter()
        .position(|c| *c == "chart")
        .expect("a chart column");
    for line in lines {
        let k: f64 = line.split(',').nth(chart).unwrap().parse().unwrap();
        assert!(k == 0.0 || k == 1.0, "{line}");
    }
    // --charts trains LOInK charts only.
    let refused = loink()
        .args([
            "train",
            "--robot",
            "planar3-wide",
            "--kind",
            "mse",
            "--charts",
            "2",
            "--out",
        ])
        .arg(temp("no.json"))
        .output()
        .unwrap();
    assert_eq!(refused.status.code(), Some(2));
    for f in [model, targets, results] {
        let _ = std::fs::remove_file(f);
    }
}
