//! Reading a targets file: a CSV whose header names the task's m columns `y1,…,ym`, or — for a
//! two- or three-dimensional task — `x,y` or `x,y,z` (other columns are ignored, except one
//! that says the file holds targets of another dimension: `z` or `y{m+1}`, refused).
//!
//! Tolerated: a UTF-8 byte-order mark, CRLF line ends, blank lines, spaces around fields,
//! header names in any case. A row whose target fields are missing, non-numeric, NaN or infinite
//! is kept as an invalid row (its text is preserved for the results file), not an error. A
//! missing or unreadable file, non-UTF-8 text, or a header without the task's columns is a
//! [`CliError::Input`].

use std::path::Path;

use crate::cli::CliError;

/// One data row of a targets file.
#[derive(Debug, Clone, PartialEq)]
pub struct TargetRow {
    /// The target fields as written (trimmed; empty when missing), in task order.
    pub texts: Vec<String>,
    /// The parsed target when every field is a finite number.
    pub target: Option<Vec<f64>>,
}

impl TargetRow {
    /// The target for solvers: the parsed values, or whatever parses (NaN otherwise) for an
    /// invalid row, so the solver reports it `invalid` itself.
    pub fn values(&self) -> Vec<f64> {
        self.target.clone().unwrap_or_else(|| {
            self.texts
                .iter()
                .map(|t| t.parse::<f64>().unwrap_or(f64::NAN))
                .collect()
        })
    }
}

/// A parsed targets file: the target columns' names (as the results file repeats them) and
/// the rows.
#[derive(Debug, Clone, PartialEq)]
pub struct Targets {
    /// `["x", "y"]`, `["x", "y", "z"]` or `["y1", …, "ym"]`.
    pub names: Vec<String>,
    /// The rows, in file order.
    pub rows: Vec<TargetRow>,
}

/// The column names of an m-dimensional task: `x,y` for m = 2, `x,y,z` for m = 3, `y1,…,ym`
/// otherwise (what `loink targets` writes).
pub fn task_columns(m: usize) -> Vec<String> {
    spatial_columns(m).unwrap_or_else(|| general_columns(m))
}

/// The task columns `problem`'s files are written with: its kind's own names (the climber's
/// `y1,y2,y3`), else [`task_columns`] of its dimension.
pub fn columns_of(problem: &loink::problem::Problem) -> Vec<String> {
    problem
        .kinematics()
        .task_columns()
        .unwrap_or_else(|| task_columns(problem.task_dim()))
}

/// `x,y` or `x,y,z` for a task of dimension 2 or 3.
fn spatial_columns(m: usize) -> Option<Vec<String>> {
    (2..=3)
        .contains(&m)
        .then(|| ["x", "y", "z"][..m].iter().map(|s| s.to_string()).collect())
}

/// `y1,…,ym`.
fn general_columns(m: usize) -> Vec<String> {
    (1..=m).map(|i| format!("y{i}")).collect()
}

/// Reads and parses a targets file for a task of dimension `m`.
pub fn read_targets(path: &Path, m: usize) -> Result<Targets, CliError> {
    let bytes = std::fs::read(path).map_err(|e| {
        CliError::Input(format!("cannot read targets file {}: {e}", path.display()))
    })?;
    let text = String::from_utf8(bytes).map_err(|_| {
        CliError::Input(format!("targets file {} is not UTF-8 text", path.display()))
    })?;
    parse_targets(&text, m).map_err(|msg| CliError::Input(format!("{}: {msg}", path.display())))
}

/// Parses the text of a targets file (see the module docs).
pub fn parse_targets(text: &str, m: usize) -> Result<Targets, String> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .trim(csv::Trim::All)
        .from_reader(text.as_bytes());
    let mut records = reader.records().filter(|r| match r {
        Ok(rec) => rec.iter().any(|f| !f.is_empty()),
        Err(_) => true,
    });
    let general = general_columns(m);
    let spatial = spatial_columns(m);
    let expected = match &spatial {
        Some(names) => format!("{} or {}", names.join(","), general.join(",")),
        None => general.join(","),
    };
    let header = match records.next() {
        Some(Ok(h)) => h,
        Some(Err(e)) => return Err(format!("unreadable header: {e}")),
        None => {
            return Err(format!(
                "empty file (expected a header with columns {expected})"
            ))
        }
    };
    let position = |name: &str| header.iter().position(|h| h.eq_ignore_ascii_case(name));
    let find =
        |names: &[String]| -> Option<Vec<usize>> { names.iter().map(|n| position(n)).collect() };
    // A column of the next dimension: the file holds targets of another problem.
    let foreign = [format!("y{}", m + 1)]
        .into_iter()
        .chain((m == 2).then(|| "z".to_string()))
        .find(|name| position(name).is_some());
    if let Some(name) = foreign {
        return Err(format!(
            "the header '{}' has a column '{name}': these targets have more than the task's {m} dimensions",
            header.iter().collect::<Vec<_>>().join(",")
        ));
    }
    let (names, columns) = match find(&general) {
        Some(columns) => (general.clone(), columns),
        None => match spatial
            .as_ref()
            .and_then(|names| Some((names.clone(), find(names)?)))
        {
            Some(found) => found,
            None => {
                let wanted = spatial.as_ref().unwrap_or(&general);
                let missing = wanted
                    .iter()
                    .find(|n| position(n).is_none())
                    .cloned()
                    .unwrap_or_default();
                return Err(format!(
                    "no column '{missing}' in the header '{}' (expected columns {expected})",
                    header.iter().collect::<Vec<_>>().join(",")
                ));
            }
        },
    };
    let mut rows = Vec::new();
    for (line, record) in records.enumerate() {
        let record = record.map_err(|e| format!("row {}: {e}", line + 1))?;
        let texts: Vec<String> = columns
            .iter()
            .map(|&i| record.get(i).unwrap_or("").to_string())
            .collect();
        let target: Option<Vec<f64>> = texts
            .iter()
            .map(|t| t.parse::<f64>().ok().filter(|v| v.is_finite()))
            .collect();
        rows.push(TargetRow { texts, target });
    }
    Ok(Targets { names, rows })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tolerates_bom_crlf_blank_lines_and_extra_columns() {
        let t =
            parse_targets("\u{feff}id, X ,y\r\n1,0.5,0.25\r\n\r\n2, 1e-3 ,-0.0\r\n", 2).unwrap();
        assert_eq!(t.names, ["x", "y"]);
        assert_eq!(t.rows.len(), 2);
        assert_eq!(t.rows[0].target, Some(vec![0.5, 0.25]));
        assert_eq!(t.rows[1].target, Some(vec![1e-3, -0.0]));
    }

    #[test]
    fn bad_rows_are_kept_as_invalid() {
        let t = parse_targets("x,y\nabc,1\nNaN,0\ninf,0\n1\n0.1,0.2\n", 2).unwrap();
        let rows = t.rows;
        assert_eq!(rows.len(), 5);
        assert!(rows[..4].iter().all(|r| r.target.is_none()));
        assert_eq!(rows[0].texts[0], "abc");
        assert_eq!(rows[3].texts[1], "");
        assert_eq!(rows[4].target, Some(vec![0.1, 0.2]));
    }

    #[test]
    fn the_general_header_names_any_task_dimension() {
        let t = parse_targets("y2,y1,y3\n2,1,3\n", 3).unwrap();
        assert_eq!(t.names, ["y1", "y2", "y3"]);
        assert_eq!(t.rows[0].target, Some(vec![1.0, 2.0, 3.0]));
        let two = parse_targets("y1,y2\n0.5,0.25\n", 2).unwrap();
        assert_eq!(two.names, ["y1", "y2"]);
        // x,y,z names a three-dimensional task; x,y alone lacks z there.
        let xyz = parse_targets("id,z,x,y\n7,3,1,2\n", 3).unwrap();
        assert_eq!(xyz.names, ["x", "y", "z"]);
        assert_eq!(xyz.rows[0].target, Some(vec![1.0, 2.0, 3.0]));
        assert!(parse_targets("x,y\n1,2\n", 3).unwrap_err().contains("'z'"));
    }

    #[test]
    fn targets_of_another_dimension_are_refused() {
        let three = parse_targets("x,y,z\n1,2,3\n", 2).unwrap_err();
        assert!(
            three.contains("'z'") && three.contains("2 dimensions"),
            "{three}"
        );
        assert!(parse_targets("y1,y2,y3\n1,2,3\n", 2).is_err());
        assert!(parse_targets("y1,y2,y3,y4\n1,2,3,4\n", 3).is_err());
    }

    #[test]
    fn missing_columns_or_header_are_errors() {
        assert!(parse_targets("a,b\n1,2\n", 2).unwrap_err().contains("'x'"));
        assert!(parse_targets("x\n1\n", 2).unwrap_err().contains("'y'"));
        assert!(parse_targets("y1,y2\n1,2\n", 3)
            .unwrap_err()
            .contains("y1,y2,y3"));
        assert!(parse_targets("", 2).is_err());
        assert!(parse_targets("\n\n", 2).is_err());
    }
}
