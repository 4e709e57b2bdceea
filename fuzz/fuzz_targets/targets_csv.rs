//! Fuzz the `loink eval` targets-CSV reader (`crates/loink-train/src/eval/targets_csv.rs`,
//! compiled in directly so the fuzz build does not instrument burn). Any text → a typed error
//! or rows; a row has a target only when every field parses to a finite number, and then the
//! target is exactly what its text says.
#![no_main]

use libfuzzer_sys::fuzz_target;

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
#[path = "../../crates/loink-train/src/eval/targets_csv.rs"]
mod targets_csv;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    // Two-dimensional tasks (x,y or y1,y2) and a three-dimensional one (y1,y2,y3).
    for m in [2, 3] {
        match targets_csv::parse_targets(text, m) {
            Err(message) => assert!(!message.is_empty()),
            Ok(parsed) => {
                assert_eq!(parsed.names.len(), m);
                for row in parsed.rows {
                    assert_eq!(row.texts.len(), m, "{row:?}");
                    match &row.target {
                        Some(target) => {
                            assert_eq!(target.len(), m);
                            for (v, text) in target.iter().zip(&row.texts) {
                                assert!(v.is_finite(), "{row:?}");
                                assert_eq!(text.parse::<f64>().ok(), Some(*v), "{row:?}");
                            }
                            assert_eq!(&row.values(), target);
                        }
                        None => {
                            assert!(!row.values().iter().all(|v| v.is_finite()), "{row:?}");
                        }
                    }
                }
            }
        }
    }
});
