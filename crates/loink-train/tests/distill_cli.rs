//! `loink distill` run as a user would: the built executable on a shipped model file.
//!
//! The written file carries a section head that loads, starts a cold inverse in fewer Newton
//! steps than the plain start, and leaves G and the cost heads untouched; bad requests exit 2
//! and write nothing.

mod common;

use std::path::PathBuf;
use std::process::Output;

use loink::artifact::load_model;

fn loink(args: &[&str]) -> Output {
    common::run(args)
}

fn scratch(name: &str) -> PathBuf {
    common::scratch_dir("distill-cli", name)
}

fn shipped(name: &str) -> String {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../web/models/");
    format!("{path}{name}")
}

#[test]
fn distill_adds_a_head_that_saves_newton_steps() {
    let dir = scratch("good");
    let out = dir.join("planar3.json");
    let input = shipped("planar3-h16.json");
    let run = loink(&[
        "distill",
        "--model",
        &input,
        "--out",
        out.to_str().unwrap(),
        "--hidden",
        "32,32",
        "--samples",
        "20000",
        "--epochs",
        "15",
    ]);
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert!(
        run.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let before = load_model(&std::fs::read_to_string(&input).unwrap()).unwrap();
    let after = load_model(&std::fs::read_to_string(&out).unwrap()).unwrap();
    let head = after.section_head().expect("the file has a section head");
    assert_eq!(
        (head.inputs(), head.outputs(), head.hidden()),
        (2, 3, vec![32, 32])
    );
    assert_eq!(
        before.file().bilipnet,
        after.file().bilipnet,
        "G is untouched"
    );
    assert_eq!(before.file().value_head, after.file().value_head);
    let metrics = &after.file().metrics;
    let (cold, seeded) = (
        metrics["section_cold_iterations"],
        metrics["section_head_iterations"],
    );
    assert!(
        seeded < cold,
        "{seeded} Newton steps from the head against {cold} from y"
    );
    assert!(metrics["section_rmse"] < 0.2, "{metrics:?}");
    assert!(after.file().about.command.contains("loink distill --model"));
    assert!(stdout.contains("section_head_iterations"), "{stdout}");
}

#[test]
fn bad_requests_exit_2_and_write_nothing() {
    let dir = scratch("bad");
    let out = dir.join("never.json");
    let input = shipped("planar3-h16.json");
    let o = out.to_str().unwrap();
    for args in [
        vec!["distill", "--model", &input, "--out", o, "--hidden", "0"],
        vec![
            "distill",
            "--model",
            &input,
            "--out",
            o,
            "--hidden",
            "8,8,8,8,8",
        ],
        vec!["distill", "--model", &input, "--out", o, "--samples", "10"],
        vec!["distill", "--model", &input, "--out", o, "--lr", "nan"],
        vec!["distill", "--model", "/nonexistent.json", "--out", o],
    ] {
        let run = loink(&args);
        assert_eq!(
            run.status.code(),
            Some(2),
            "{args:?}: {}",
            String::from_utf8_lossy(&run.stderr)
        );
        assert!(!out.exists(), "{args:?} wrote a file");
    }
    let flow = shipped("soft4-flow.json");
    let run = loink(&["distill", "--model", &flow, "--out", o]);
    assert_eq!(run.status.code(), Some(2));
    assert!(!out.exists());
}
