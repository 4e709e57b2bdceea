//! Writing a results file: one row per target, header
//! `x,y,q1,…,qn,residual,cost,margin,status,iterations,micros` (the target columns named as the
//! targets file names them: `x,y`, `y1,…,ym`, `x,y,z,qw,qx,qy,qz`, …; a task that turns the hand
//! has `angle`, its orientation or axis error in radians, after `residual`), then any extra
//! columns. Numbers use Rust's
//! shortest round-trip form; a missing value (an invalid row's q, residual, cost, margin) is
//! written `NaN`; the target fields are written as given in the targets file.

use std::fs::File;
use std::path::Path;

use loink::report::{Solution, Status};

use super::summary::ExtraColumn;
use super::targets_csv::{TargetRow, Targets};
use crate::cli::CliError;

/// A CSV file open for writing. Refusing to open it is the user's input (exit 2); a write that
/// fails once it is open (disk full, …) is not (exit 1).
pub struct CsvOut {
    writer: csv::Writer<File>,
    /// How messages name the file ("results file R.csv", or the path alone).
    label: String,
}

impl CsvOut {
    /// Creates the file at `path`; `kind` names it in messages (e.g. "results file ").
    pub fn create(path: &Path, kind: &str) -> Result<Self, CliError> {
        let label = format!("{kind}{}", path.display());
        let writer = csv::Writer::from_path(path)
            .map_err(|e| CliError::Input(format!("cannot write {label}: {e}")))?;
        Ok(CsvOut { writer, label })
    }

    /// Writes one record.
    pub fn row<I, S>(&mut self, record: I) -> Result<(), CliError>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<[u8]>,
    {
        self.writer
            .write_record(record)
            .map_err(|e| CliError::Internal(format!("writing {}: {e}", self.label)))
    }

    /// Flushes the file.
    pub fn finish(mut self) -> Result<(), CliError> {
        self.writer
            .flush()
            .map_err(|e| CliError::Internal(format!("writing {}: {e}", self.label)))
    }
}

/// The header: the target columns, q1…q`dof`, the report columns (`angle` when the task turns
/// the hand) and the extra columns.
pub fn header(names: &[String], dof: usize, angle: bool, extra: &[ExtraColumn]) -> Vec<String> {
    let mut h = names.to_vec();
    h.extend((1..=dof).map(|i| format!("q{i}")));
    h.push("residual".into());
    if angle {
        h.push("angle".into());
    }
    for name in ["cost", "margin", "status", "iterations", "micros"] {
        h.push(name.into());
    }
    h.extend(extra.iter().map(|c| c.name.clone()));
    h
}

/// Writes the results file (`rows` and solutions in the same order; the columns are
/// `targets`').
pub fn write_results(
    path: &Path,
    targets: &Targets,
    dof: usize,
    rows: &[TargetRow],
    solutions: &[Solution],
    extra: &[ExtraColumn],
) -> Result<(), CliError> {
    let mut out = CsvOut::create(path, "results file ")?;
    out.row(header(&targets.names, dof, targets.angle, extra))?;
    for (i, (row, s)) in rows.iter().zip(solutions).enumerate() {
        let mut record: Vec<String> = row.texts.clone();
        for j in 0..dof {
            record.push(s.q().get(j).map_or("NaN".into(), |&v| number(v)));
        }
        record.push(number(s.residual()));
        if targets.angle {
            record.push(number(s.angle().unwrap_or(f64::NAN)));
        }
        record.push(number(s.cost()));
        record.push(number(s.margin()));
        record.push(s.status().as_str().into());
        record.push(
            if s.status() == Status::Invalid {
                0
            } else {
                s.iterations()
            }
            .to_string(),
        );
        record.push(format!("{:.3}", s.micros()));
        for column in extra {
            record.push(number(column.values.get(i).copied().unwrap_or(f64::NAN)));
        }
        out.row(&record)?;
    }
    out.finish()
}

/// Shortest round-trip text of `v`: plain for 1e-4 ≤ |v| < 1e15 (and 0), scientific otherwise.
pub fn number(v: f64) -> String {
    if v == 0.0 || !v.is_finite() || (1e-4..1e15).contains(&v.abs()) {
        v.to_string()
    } else {
        format!("{v:e}")
    }
}

#[cfg(test)]
mod tests {
    use super::number;

    #[test]
    fn numbers_round_trip() {
        for v in [0.0, -0.0, 1.5e-17, 0.1, 1e300, -2.5e-5, 123.456, f64::NAN] {
            let back: f64 = number(v).parse().unwrap();
            assert!(
                back == v || (v.is_nan() && back.is_nan()),
                "{v} -> {}",
                number(v)
            );
        }
        assert_eq!(number(1.5e-17), "1.5e-17");
        assert_eq!(number(f64::NAN), "NaN");
    }
}
