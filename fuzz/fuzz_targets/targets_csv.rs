//! Fuzz the `loink eval` targets-CSV reader (`crates/loink-train/src/eval/targets_csv.rs`,
//! compiled in directly so the fuzz build does not instrument burn). Any text → a typed error
//! or rows; a row has a target only when both fields parse to finite numbers, and then the
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
    match targets_csv::parse_targets(text) {
        Err(message) => assert!(!message.is_empty()),
        Ok(rows) => {
            for row in rows {
                match row.target {
                    Some([x, y]) => {
                        assert!(x.is_finite() && y.is_finite(), "{row:?}");
                        assert_eq!(row.x_text.parse::<f64>().ok(), Some(x), "{row:?}");
                        assert_eq!(row.y_text.parse::<f64>().ok(), Some(y), "{row:?}");
                        assert_eq!(row.values(), [x, y]);
                    }
                    None => {
                        let v = row.values();
                        assert!(!(v[0].is_finite() && v[1].is_finite()), "{row:?}");
                    }
                }
            }
        }
    }
});
