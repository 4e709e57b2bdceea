//! The model-free pipeline through the `loink` binary, small: `loink data` writes soft-arm rows,
//! `loink train --data` fits LOInK and `loink train --kind flow --data` the flow on them (the
//! loss must fall), and `loink eval` reads both model files — the flow with one sample at z = 0
//! and with the best of K, counting K simulator calls; `loink compact` shrinks the flow.

mod common;

use std::path::{Path, PathBuf};

use common::run;

fn temp(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("loink-flow-{}-{name}", std::process::id()))
}

fn ok(args: &[&str]) -> String {
    let o = run(args);
    assert!(
        o.status.success(),
        "loink {args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8_lossy(&o.stdout).to_string()
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// The named column of a results file, as numbers.
fn column(path: &Path, name: &str) -> Vec<f64> {
    let text = std::fs::read_to_string(path).unwrap();
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let k = header
        .iter()
        .position(|h| *h == name)
        .unwrap_or_else(|| panic!("no column {name} in {header:?}"));
    lines
        .map(|l| l.split(',').nth(k).unwrap().parse().unwrap_or(f64::NAN))
        .collect()
}

fn metric(model: &Path, name: &str) -> f64 {
    let file: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(model).unwrap()).unwrap();
    file["metrics"][name]
        .as_f64()
        .unwrap_or_else(|| panic!("no metric {name}"))
}

#[test]
fn data_to_both_learners_to_eval() {
    let (data, targets) = (temp("data.csv"), temp("targets.csv"));
    let (lo, flow, flow_small) = (temp("loink.json"), temp("flow.json"), temp("flow-c.json"));
    let (r_lo, r_flow, r_best) = (temp("r-loink.csv"), temp("r-flow.csv"), temp("r-best.csv"));
    ok(&[
        "data",
        "--problem",
        "soft4",
        "--count",
        "6000",
        "--seed",
        "3",
        "--out",
        s(&data),
    ]);
    ok(&[
        "targets",
        "--problem",
        "soft4",
        "--count",
        "40",
        "--seed",
        "5",
        "--out",
        s(&targets),
    ]);

    let common = [
        "--data",
        s(&data),
        "--problem",
        "soft4",
        "--epochs",
        "6",
        "--seed",
        "1",
    ];
    let mut args = vec![
        "train",
        "--hidden",
        "8,8",
        "--head-hidden",
        "8",
        "--data-surface",
        "1500",
        "--surface-task-weight",
        "2",
        "--check-targets",
        "0",
        "--out",
        s(&lo),
    ];
    args.extend_from_slice(&common);
    ok(&args);
    assert!(metric(&lo, "last_loss") < metric(&lo, "first_loss"));
    // The simulator's surface and the data's are two ways to the same rows: one at a time.
    let mut both = vec![
        "train",
        "--surface",
        "100",
        "--data-surface",
        "100",
        "--out",
        s(&lo),
    ];
    both.extend_from_slice(&common);
    assert_eq!(run(&both).status.code(), Some(2));

    let mut args = vec![
        "train",
        "--kind",
        "flow",
        "--depth",
        "3",
        "--hidden",
        "16",
        "--lr",
        "3e-3",
        "--out",
        s(&flow),
    ];
    args.extend_from_slice(&common);
    let out = ok(&args);
    assert!(out.contains("heldout_nll"), "{out}");
    let (first, last) = (
        metric(&flow, "first_epoch_train_nll"),
        metric(&flow, "last_epoch_train_nll"),
    );
    assert!(
        last < first - 0.5,
        "the flow's likelihood did not rise: {first} -> {last}"
    );
    // The held-out NLL the file reports is the inference crate's, and agrees with burn's to f32.
    assert!((metric(&flow, "heldout_nll") - metric(&flow, "best_val_nll")).abs() < 1e-3);

    // LOInK: one simulator call (the replay) per answer.
    let out = ok(&[
        "eval",
        "--model",
        s(&lo),
        "--targets",
        s(&targets),
        "--out",
        s(&r_lo),
    ]);
    assert!(out.contains("effort gap"), "{out}");
    assert!(column(&r_lo, "sim_calls").iter().all(|&c| c == 1.0));
    assert_eq!(column(&r_lo, "ee_error_m").len(), 40);

    // The flow: z = 0 costs one call; the best of 8 costs 8 and is seeded.
    ok(&[
        "eval",
        "--model",
        s(&flow),
        "--targets",
        s(&targets),
        "--out",
        s(&r_flow),
    ]);
    let miss = column(&r_flow, "ee_error_m");
    assert_eq!(miss.len(), 40);
    assert!(miss.iter().all(|m| m.is_finite()));
    assert!(column(&r_flow, "sim_calls").iter().all(|&c| c == 1.0));
    let gaps = column(&r_flow, "effort_gap");
    assert!(
        gaps.iter().filter(|g| g.is_finite()).count() >= 30,
        "{gaps:?}"
    );
    let best = ["--samples", "8", "--sigma", "0.5", "--seed", "2"];
    let eval_best = || {
        let out = common::eval_model(&flow, &targets, &r_best, &best);
        assert!(out.status.success(), "{}", common::text(&out));
    };
    eval_best();
    assert!(column(&r_best, "sim_calls").iter().all(|&c| c == 8.0));
    let first_run = std::fs::read_to_string(&r_best).unwrap();
    eval_best();
    let strip_micros = |t: &str| -> Vec<String> {
        t.lines()
            .map(|l| {
                let mut cells: Vec<&str> = l.split(',').collect();
                cells.remove(11); // micros
                cells.join(",")
            })
            .collect()
    };
    assert_eq!(
        strip_micros(&first_run),
        strip_micros(&std::fs::read_to_string(&r_best).unwrap())
    );

    // Flags of the other learner are refused with exit 2; so is a bad sample count.
    for extra in [
        vec!["--refine", "3"],
        vec!["--feedback", "1"],
        vec!["--samples", "4"],
        vec!["--samples", "0", "--sigma", "1"],
    ] {
        let out = common::eval_model(&flow, &targets, &r_best, &extra);
        assert_eq!(out.status.code(), Some(2), "{extra:?}");
    }

    // A compact copy validates and its z = 0 answers barely move.
    let out = ok(&[
        "compact",
        "--model",
        s(&flow),
        "--out",
        s(&flow_small),
        "--digits",
        "5",
        "--targets",
        "50",
    ]);
    assert!(out.contains("z = 0 samples"), "{out}");
    assert!(
        std::fs::metadata(&flow_small).unwrap().len() < std::fs::metadata(&flow).unwrap().len()
    );

    for p in [data, targets, lo, flow, flow_small, r_lo, r_flow, r_best] {
        let _ = std::fs::remove_file(p);
    }
}

#[test]
fn hostile_flow_files_exit_2() {
    let targets = temp("t2.csv");
    ok(&[
        "targets",
        "--problem",
        "soft4",
        "--count",
        "3",
        "--seed",
        "1",
        "--out",
        s(&targets),
    ]);
    let bad = temp("bad-flow.json");
    for text in [
        r#"{"format":"loink-model","version":2,"kind":"flow"}"#,
        r#"{"format":"loink-model","version":2,"kind":"flow","about":{},"problem":{"kind":"soft4","name":"soft4","lower":[0,0,0,0],"upper":[1,1,1,1]},"cost":{"terms":[]},"normalisation":{"y_shift":[0,0],"y_scale":[1,1],"x_shift":[0,0,0,0],"x_scale":[1,1,1,1]},"clamp":2,"blocks":[],"metrics":{},"data_seed":0,"git_revision":""}"#,
        r#"{"format":"loink-model","version":2,"kind":"flow","about":"#,
    ] {
        std::fs::write(&bad, text).unwrap();
        let o = run(&[
            "eval",
            "--model",
            s(&bad),
            "--targets",
            s(&targets),
            "--out",
            s(&temp("x.csv")),
        ]);
        assert_eq!(o.status.code(), Some(2), "{text}");
        assert!(String::from_utf8_lossy(&o.stderr).contains("model file"));
    }
    let _ = std::fs::remove_file(bad);
    let _ = std::fs::remove_file(targets);
}
