//! Pinned `loink eval` rows: for every shipped model (one-shot, two feedback rounds, three
//! refinement steps, σ-sampling) and every classical solver, the first targets of seeded target
//! sets give exactly the recorded rows — every column but `micros`, to the last digit.
//!
//! `tests/fixtures/eval-pins.json` holds each case's arguments, targets and rows;
//! `python3 scripts/eval-pins.py` writes it (and `--check` compares). A change that moves an
//! answer (a different inverse, a new refinement) shows up here first; regenerate the fixture
//! only when the change is meant to, and say so where it lands.

use std::path::PathBuf;
use std::process::Command;

use serde::Deserialize;

#[derive(Deserialize)]
struct Case {
    name: String,
    args: Vec<String>,
    targets: Vec<Vec<String>>,
    header: Vec<String>,
    rows: Vec<Vec<String>>,
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

#[test]
fn eval_rows_match_the_pinned_rows() {
    let text = std::fs::read_to_string(
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/eval-pins.json"),
    )
    .expect("fixture");
    let cases: Vec<Case> = serde_json::from_str(&text).expect("fixture parses");
    assert!(cases.len() >= 20, "{} cases", cases.len());
    let dir = std::env::temp_dir().join(format!("loink-eval-pins-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut failures = Vec::new();
    for case in &cases {
        let targets = dir.join(format!("{}-targets.csv", case.name));
        let body: String = case
            .targets
            .iter()
            .map(|t| format!("{}\n", t.join(",")))
            .collect();
        std::fs::write(&targets, format!("x,y\n{body}")).unwrap();
        let out = dir.join(format!("{}-out.csv", case.name));
        let run = Command::new(env!("CARGO_BIN_EXE_loink"))
            .current_dir(root())
            .arg("eval")
            .args(&case.args)
            .arg("--targets")
            .arg(&targets)
            .arg("--out")
            .arg(&out)
            .output()
            .unwrap();
        assert!(
            run.status.success(),
            "{}: {}",
            case.name,
            String::from_utf8_lossy(&run.stderr)
        );
        let got: Vec<Vec<String>> = std::fs::read_to_string(&out)
            .unwrap()
            .lines()
            .map(|l| l.split(',').map(str::to_string).collect())
            .collect();
        assert_eq!(got[0], case.header, "{}: header", case.name);
        assert_eq!(got.len() - 1, case.rows.len(), "{}: row count", case.name);
        let micros = case.header.iter().position(|h| h == "micros");
        for (r, (want, have)) in case.rows.iter().zip(&got[1..]).enumerate() {
            for (c, (a, b)) in want.iter().zip(have).enumerate() {
                if Some(c) != micros && a != b {
                    failures.push(format!(
                        "{} row {r} {}: pinned {a}, got {b}",
                        case.name, case.header[c]
                    ));
                }
            }
        }
    }
    std::fs::remove_dir_all(&dir).ok();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
