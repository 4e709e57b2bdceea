//! The end-of-training summary table (task RMSE in metres, cost RMSE, losses, optimality check).

use std::collections::BTreeMap;

/// One row of the summary: a name, a value, and its unit or note.
pub struct Row {
    /// Metric name (also its key in the artifact's metrics map).
    pub name: &'static str,
    /// Value.
    pub value: f64,
    /// Unit or short explanation.
    pub note: &'static str,
}

impl Row {
    /// A row.
    pub fn new(name: &'static str, value: f64, note: &'static str) -> Self {
        Self { name, value, note }
    }
}

/// Prints `rows` as an aligned table to stdout.
pub fn print_table(title: &str, rows: &[Row]) {
    let width = rows.iter().map(|r| r.name.len()).max().unwrap_or(0);
    println!("{title}");
    println!("{:-<1$}", "", width + 32);
    for r in rows {
        let value = if r.value.fract() == 0.0 && r.value.abs() < 1e9 {
            format!("{:.0}", r.value)
        } else {
            format!("{:.6}", r.value)
        };
        println!("{:<width$}  {value:>14}  {}", r.name, r.note);
    }
    println!("{:-<1$}", "", width + 32);
}

/// The rows as a metrics map.
pub fn metrics(rows: &[Row]) -> BTreeMap<String, f64> {
    rows.iter()
        .filter(|r| r.value.is_finite())
        .map(|r| (r.name.to_string(), r.value))
        .collect()
}

/// Prints a run's closing table and its wall time (which the file never holds, so that the
/// same command gives the same bytes).
pub fn print_closing(title: &str, rows: &[Row], seconds: f64) {
    print_table(title, rows);
    println!(
        "train_seconds {seconds:.1} (wall time; not stored in the file, so it stays reproducible)"
    );
}

/// Writes a model file's text to `path` and says so.
pub fn write_file(path: &std::path::Path, json: &str) -> Result<(), super::TrainError> {
    std::fs::write(path, json).map_err(|source| super::TrainError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    println!("wrote {} ({} bytes)", path.display(), json.len());
    Ok(())
}
