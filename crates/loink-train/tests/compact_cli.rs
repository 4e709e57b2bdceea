//! `loink compact` run as a user would: the built executable on a model file.
//!
//! The compacted copy must load in the inference crate, be smaller, keep the scalars, and answer within
//! micrometres of the original; bad requests exit 2 and write nothing.

mod common;

use std::path::PathBuf;
use std::process::Output;

use loink::artifact::{load_model, random_model, save_model};

fn loink(args: &[&str]) -> Output {
    common::run(args)
}

fn scratch(name: &str) -> PathBuf {
    common::scratch_dir("compact-cli", name)
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The number after `label` in `line` (e.g. "max 2.7e-3 mm").
fn number_after(line: &str, label: &str) -> f64 {
    let rest = &line[line
        .find(label)
        .unwrap_or_else(|| panic!("{label} in {line}"))
        + label.len()..];
    rest.split_whitespace()
        .next()
        .unwrap()
        .trim_end_matches(';')
        .parse()
        .unwrap()
}

#[test]
fn compact_writes_a_smaller_valid_file_that_answers_alike() {
    let dir = scratch("good");
    let input = dir.join("model.json");
    let output = dir.join("model-6.json");
    let original = random_model("planar3", 3, &[16, 16], 0.05, 20.0, 7).unwrap();
    std::fs::write(&input, save_model(&original)).unwrap();
    let out = loink(&[
        "compact",
        "--model",
        input.to_str().unwrap(),
        "--out",
        output.to_str().unwrap(),
        "--targets",
        "500",
    ]);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{}\n{}", stdout, text(&out.stderr));
    let written = std::fs::read_to_string(&output).unwrap();
    assert!(written.len() < save_model(&original).len());
    let compacted = load_model(&written).expect("the compacted file validates");
    let file = compacted.file();
    assert_eq!(file.hyper, original.hyper);
    assert_eq!(file.normalisation, original.normalisation);
    let (a, b) = (&file.bilipnet.monotone[0], &original.bilipnet.monotone[0]);
    assert_eq!((a.mu, a.gamma), (b.mu, b.gamma));
    // Half a unit in the sixth significant digit: at most 5e-6 relative.
    assert!((a.s[0][0] - b.s[0][0]).abs() <= 5e-6 * b.s[0][0].abs());
    assert_ne!(file.bilipnet, original.bilipnet);
    // The answers move by micrometres, measured on 500 targets.
    let line = stdout
        .lines()
        .find(|l| l.contains("end effector moved"))
        .unwrap();
    assert!(line.contains("on 500 random reachable targets"), "{line}");
    let max_mm = number_after(line, ", max ");
    assert!(max_mm.is_finite() && max_mm < 1e-2, "{line}");
    assert!(number_after(line, "statuses changed ") == 0.0, "{line}");
}

#[test]
fn compact_refuses_bad_requests_and_writes_nothing() {
    let dir = scratch("bad");
    let input = dir.join("model.json");
    let good = save_model(&random_model("planar3", 2, &[8, 8], 0.1, 4.0, 1).unwrap());
    std::fs::write(&input, &good).unwrap();
    let cut = dir.join("cut.json");
    std::fs::write(&cut, &good.as_bytes()[..good.len() / 2]).unwrap();
    let out = dir.join("out.json");
    let (input, cut, out_s) = (
        input.to_str().unwrap(),
        cut.to_str().unwrap(),
        out.to_str().unwrap(),
    );
    let cases: [(&[&str], &str); 6] = [
        (
            &["--model", input, "--out", out_s, "--digits", "2"],
            "outside 3..=17",
        ),
        (
            &["--model", input, "--out", out_s, "--digits", "18"],
            "outside 3..=17",
        ),
        (
            &["--model", input, "--out", out_s, "--targets", "0"],
            "at least 1",
        ),
        (&["--model", input, "--out", input], "is the input file"),
        (&["--model", cut, "--out", out_s], "truncated"),
        // Three digits break R's orthogonality beyond the inference crate's 1e-5.
        (
            &["--model", input, "--out", out_s, "--digits", "3"],
            "fails the inference crate's validation",
        ),
    ];
    for (args, message) in cases {
        let result = loink(&[&["compact"], args].concat());
        let stderr = text(&result.stderr);
        assert_eq!(result.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(message), "{args:?}: {stderr}");
        assert!(!out.exists(), "{args:?} wrote {out_s}");
    }
    assert_eq!(
        std::fs::read_to_string(input).unwrap(),
        good,
        "the input is untouched"
    );
}
