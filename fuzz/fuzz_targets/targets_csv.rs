//! Fuzz the `loink eval` targets-CSV reader (`crates/loink-train/src/targets_csv.rs`,
//! compiled in directly so the fuzz build does not instrument burn), for points, a full pose and
//! a tool axis. Any text → a typed error or rows; a row has a target only when every field
//! parses to a finite number (and a quaternion or direction is within 10 % of unit length),
//! and a point's target is exactly what its text says; any other row says why.
#![no_main]

use libfuzzer_sys::fuzz_target;
use loink::problem::{Problem, TaskSpace};

/// The reader's one dependency inside `loink-train`.
#[allow(dead_code)]
mod cli {
    #[derive(Debug, Clone, PartialEq)]
    pub enum CliError {
        Input(String),
        Internal(String),
    }
}

#[allow(dead_code)]
#[path = "../../crates/loink-train/src/targets_csv.rs"]
mod targets_csv;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    // Two- and three-dimensional points, a full pose and a tool axis.
    let pose = Problem::preset("panda-pose").expect("the pose preset");
    let axis = Problem::preset("panda-axis").expect("the axis preset");
    let tasks = [
        TaskSpace::points(2),
        TaskSpace::points(3),
        pose.task().clone(),
        axis.task().clone(),
    ];
    for task in &tasks {
        let columns = task.columns().len();
        match targets_csv::parse_targets(text, task) {
            Err(message) => assert!(!message.is_empty()),
            Ok(parsed) => {
                assert_eq!(parsed.names.len(), columns);
                for row in parsed.rows {
                    assert_eq!(row.texts.len(), columns, "{row:?}");
                    match &row.target {
                        Some(target) => {
                            assert_eq!(target.len(), task.dim());
                            assert!(target.iter().all(|v| v.is_finite()), "{row:?}");
                            assert!(row.reason.is_none());
                            assert_eq!(&row.values(), target);
                            if !task.has_angle() {
                                for (v, text) in target.iter().zip(&row.texts) {
                                    assert_eq!(text.parse::<f64>().ok(), Some(*v), "{row:?}");
                                }
                            }
                        }
                        None => {
                            assert!(row.reason.as_ref().is_some_and(|r| !r.is_empty()));
                            assert_eq!(row.values().len(), task.dim());
                            assert!(!row.values().iter().all(|v| v.is_finite()), "{row:?}");
                        }
                    }
                }
            }
        }
    }
});
