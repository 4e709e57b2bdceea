//! The summary table printed at the end of `loink eval` (reusable by other commands, which
//! can add their own columns, e.g. the gap to the reference optimum).

use loink::report::{Solution, Status};
use loink::stats::quantile;

/// An extra per-row quantity to summarise by median and p95 (NaN entries are skipped).
#[derive(Debug, Clone, PartialEq)]
pub struct ExtraColumn {
    /// Column name (also the results-file header).
    pub name: String,
    /// One value per row, in row order.
    pub values: Vec<f64>,
}

fn fmt(v: f64) -> String {
    if v.is_nan() {
        "-".into()
    } else if v != 0.0 && (v.abs() < 1e-3 || v.abs() >= 1e6) {
        format!("{v:.3e}")
    } else {
        format!("{v:.4}")
    }
}

/// The table: count per status, then median/p95 of residual, cost, µs and every extra column
/// (statistics over the rows that are not `invalid`).
pub fn summary_table(solutions: &[Solution], extra: &[ExtraColumn]) -> String {
    let mut out = String::new();
    out.push_str(&format!("summary over {} targets\n", solutions.len()));
    out.push_str(&format!("{:<12} {:>8}\n", "status", "count"));
    for status in Status::ALL {
        let count = solutions.iter().filter(|s| s.status() == status).count();
        out.push_str(&format!("{:<12} {:>8}\n", status.as_str(), count));
    }
    let solved: Vec<usize> = (0..solutions.len())
        .filter(|&i| solutions[i].status() != Status::Invalid)
        .collect();
    let pick = |f: &dyn Fn(usize) -> f64| solved.iter().map(|&i| f(i)).collect::<Vec<f64>>();
    let mut rows: Vec<(String, Vec<f64>)> =
        vec![("residual (m)".into(), pick(&|i| solutions[i].residual()))];
    if solutions.iter().any(|s| s.angle().is_some()) {
        rows.push((
            "angle (°)".into(),
            pick(&|i| solutions[i].angle().unwrap_or(f64::NAN).to_degrees()),
        ));
    }
    rows.push(("cost".into(), pick(&|i| solutions[i].cost())));
    rows.push(("µs".into(), pick(&|i| solutions[i].micros())));
    for column in extra {
        rows.push((
            column.name.clone(),
            pick(&|i| column.values.get(i).copied().unwrap_or(f64::NAN)),
        ));
    }
    out.push_str(&format!(
        "{:<14} {:>12} {:>12}\n",
        "metric", "median", "p95"
    ));
    for (name, values) in rows {
        out.push_str(&format!(
            "{:<14} {:>12} {:>12}\n",
            name,
            fmt(quantile(&values, 0.5)),
            fmt(quantile(&values, 0.95))
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_counts_every_status_and_summarises_the_solved_rows() {
        let problem = loink::problem::Problem::preset("planar3").unwrap();
        let solved = loink::solvers::reference::solve(&problem, &[0.6, 0.3]);
        let invalid = Solution::invalid("reference", &[f64::NAN, 0.0], 0.0);
        let table = summary_table(&[solved.clone(), invalid], &[]);
        assert!(table.contains("summary over 2 targets"));
        assert!(table
            .lines()
            .any(|l| l.starts_with("converged") && l.ends_with(" 1")));
        assert!(table
            .lines()
            .any(|l| l.starts_with("invalid") && l.ends_with(" 1")));
        assert!(table.contains(&fmt(solved.cost())), "{table}");
    }
}
