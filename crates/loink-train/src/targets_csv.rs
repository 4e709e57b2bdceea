//! Reading a targets file: a CSV whose header names the task's columns ([`TaskSpace::columns`]:
//! `x,y`, `x,y,z`, the climber's `y1,y2,y3`, a pose's `x,y,z,qw,qx,qy,qz`, an axis's
//! `x,y,z,ax,ay,az`); a Euclidean task of m coordinates also takes `y1,…,ym`. Other columns are
//! ignored, except one that says the file holds targets of another task (`z` or `y{m+1}`, `qw`
//! or `ax` where the task has none), refused.
//!
//! Tolerated: a UTF-8 byte-order mark, CRLF line ends, blank lines, spaces around fields,
//! header names in any case. A row whose fields are missing, non-numeric, NaN or infinite, or
//! whose quaternion or direction is zero or off unit length by more than 10 %, is kept as an
//! invalid row with its reason (its text is preserved for the results file), not an error; a
//! quaternion or direction within 10 % is normalised. A missing or unreadable file, non-UTF-8
//! text, or a header without the task's columns is a [`CliError::Input`] naming the expected
//! header.

use std::path::Path;

use loink::problem::{Measure, TaskSpace};

use crate::cli::CliError;

/// One data row of a targets file.
#[derive(Debug, Clone, PartialEq)]
pub struct TargetRow {
    /// The target fields as written (trimmed; empty when missing), in column order.
    pub texts: Vec<String>,
    /// The target in the task's coordinates when the row is one.
    pub target: Option<Vec<f64>>,
    /// Why the row is no target (a field that is no finite number, a quaternion or direction
    /// that cannot be normalised), when it is not.
    pub reason: Option<String>,
    /// What solvers get for an invalid row: whatever of a Euclidean row parses (NaN otherwise)
    /// so the solver reports it `invalid` itself, NaN for a row of another task.
    fallback: Vec<f64>,
}

impl TargetRow {
    /// The target for solvers: the parsed target, or for an invalid row values the solvers
    /// report `invalid` themselves.
    pub fn values(&self) -> Vec<f64> {
        self.target.clone().unwrap_or_else(|| self.fallback.clone())
    }
}

/// A parsed targets file: the target columns' names (as the results file repeats them) and
/// the rows.
#[derive(Debug, Clone, PartialEq)]
pub struct Targets {
    /// The columns read: the task's own (`x,y`, `x,y,z`, `y1…ym`, `x,y,z,qw,qx,qy,qz`, …).
    pub names: Vec<String>,
    /// The rows, in file order.
    pub rows: Vec<TargetRow>,
    /// Whether the task turns the hand (its results carry an `angle` column).
    pub angle: bool,
}

impl Targets {
    /// Says on stderr why rows are invalid: the first [`QUOTED_INVALID`] by row number, then a
    /// count of the rest.
    pub fn report_invalid(&self, path: &Path) {
        let invalid: Vec<(usize, &str)> = (self.rows.iter().enumerate())
            .filter_map(|(i, r)| r.reason.as_deref().map(|why| (i + 1, why)))
            .collect();
        for (row, why) in invalid.iter().take(QUOTED_INVALID) {
            eprintln!("{}: row {row} is invalid: {why}", path.display());
        }
        if invalid.len() > QUOTED_INVALID {
            eprintln!(
                "{}: {} more invalid rows",
                path.display(),
                invalid.len() - QUOTED_INVALID
            );
        }
    }
}

/// Invalid rows quoted by number before the rest are only counted.
pub const QUOTED_INVALID: usize = 10;

/// The column names of an m-dimensional Euclidean task: `x,y` for m = 2, `x,y,z` for m = 3,
/// `y1,…,ym` otherwise (what `loink targets` writes).
pub fn task_columns(m: usize) -> Vec<String> {
    spatial_columns(m).unwrap_or_else(|| general_columns(m))
}

/// The task columns `problem`'s files are written with: its task space's
/// ([`TaskSpace::columns`]: the climber's `y1,y2,y3`, a pose's `x,y,z,qw,qx,qy,qz`).
pub fn columns_of(problem: &loink::problem::Problem) -> Vec<String> {
    problem.task().columns()
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

/// Reads and parses a targets file of the task `task`.
pub fn read_targets(path: &Path, task: &TaskSpace) -> Result<Targets, CliError> {
    let bytes = std::fs::read(path).map_err(|e| {
        CliError::Input(format!("cannot read targets file {}: {e}", path.display()))
    })?;
    let text = String::from_utf8(bytes).map_err(|_| {
        CliError::Input(format!("targets file {} is not UTF-8 text", path.display()))
    })?;
    parse_targets(&text, task).map_err(|msg| CliError::Input(format!("{}: {msg}", path.display())))
}

/// The headers a task's targets may come under, in the order they are tried: its own columns,
/// and for a Euclidean task also `y1…ym` and (m = 2, 3) `x,y[,z]`.
fn accepted(task: &TaskSpace) -> Vec<Vec<String>> {
    let own = task.columns();
    let m = task.dim();
    let mut headers = vec![own.clone()];
    if task.measure() == Measure::Distance {
        for other in [Some(general_columns(m)), spatial_columns(m)]
            .into_iter()
            .flatten()
        {
            if !headers.contains(&other) {
                headers.push(other);
            }
        }
    }
    headers
}

/// A column that says a file holds targets of another task: the next dimension's (`y{m+1}`,
/// `z` for a planar task) or an orientation's (`qw`, `ax`) in a task without it.
fn foreign_columns(task: &TaskSpace) -> Vec<String> {
    let m = task.dim();
    match task.measure() {
        Measure::Distance => {
            let mut names = vec![format!("y{}", m + 1), "qw".into(), "ax".into()];
            if m == 2 {
                names.push("z".into());
            }
            names
        }
        Measure::Pose { .. } => vec!["ax".into()],
        Measure::Axis => vec!["qw".into()],
    }
}

/// Parses the text of a targets file (see the module docs).
pub fn parse_targets(text: &str, task: &TaskSpace) -> Result<Targets, String> {
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
    let headers = accepted(task);
    let expected = headers
        .iter()
        .map(|h| h.join(","))
        .collect::<Vec<_>>()
        .join(" or ");
    let header = match records.next() {
        Some(Ok(h)) => h,
        Some(Err(e)) => return Err(format!("unreadable header: {e}")),
        None => {
            return Err(format!(
                "empty file (expected a header with columns {expected})"
            ))
        }
    };
    let written = header.iter().collect::<Vec<_>>().join(",");
    let position = |name: &str| header.iter().position(|h| h.eq_ignore_ascii_case(name));
    let find =
        |names: &[String]| -> Option<Vec<usize>> { names.iter().map(|n| position(n)).collect() };
    if let Some(name) = foreign_columns(task)
        .into_iter()
        .find(|name| position(name).is_some())
    {
        let what = if ["qw", "ax"].contains(&name.as_str()) {
            "these are targets of another task (an orientation or a tool axis)".to_string()
        } else {
            format!(
                "these targets have more than the task's {} dimensions",
                task.dim()
            )
        };
        return Err(format!(
            "the header '{written}' has a column '{name}': {what} (expected columns {expected})"
        ));
    }
    let Some((names, columns)) = headers
        .iter()
        .find_map(|names| Some((names.clone(), find(names)?)))
    else {
        let wanted = &headers[0];
        let missing = wanted
            .iter()
            .find(|n| position(n).is_none())
            .cloned()
            .unwrap_or_default();
        return Err(format!(
            "no column '{missing}' in the header '{written}' (expected columns {expected})"
        ));
    };
    let mut rows = Vec::new();
    for (line, record) in records.enumerate() {
        let record = record.map_err(|e| format!("row {}: {e}", line + 1))?;
        let texts: Vec<String> = columns
            .iter()
            .map(|&i| record.get(i).unwrap_or("").to_string())
            .collect();
        rows.push(row(task, texts));
    }
    Ok(Targets {
        names,
        rows,
        angle: task.has_angle(),
    })
}

/// One row: its numbers, then the task's reading of them.
fn row(task: &TaskSpace, texts: Vec<String>) -> TargetRow {
    let parsed: Vec<f64> = texts
        .iter()
        .map(|t| t.parse::<f64>().unwrap_or(f64::NAN))
        .collect();
    let fallback = if task.measure() == Measure::Distance {
        parsed.clone()
    } else {
        vec![f64::NAN; task.dim()]
    };
    let bad = |reason: String| TargetRow {
        texts: texts.clone(),
        target: None,
        reason: Some(reason),
        fallback: fallback.clone(),
    };
    if let Some(k) = parsed.iter().position(|v| !v.is_finite()) {
        let field = if texts[k].is_empty() {
            "missing"
        } else {
            texts[k].as_str()
        };
        return bad(format!("field {} is not a finite number ({field})", k + 1));
    }
    match task.from_columns(&parsed) {
        Ok(target) => TargetRow {
            texts,
            target: Some(target),
            reason: None,
            fallback,
        },
        Err(e) => bad(e.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use loink::problem::Problem;

    #[test]
    fn pose_targets_are_normalised_or_refused_with_the_reason() {
        let problem = Problem::preset("panda-pose").unwrap();
        let t = parse_targets(
            "x,y,z,qw,qx,qy,qz\n0.3,0,0.5,0,2,0,0\n0.3,0,0.5,0,1.05,0,0\n0.3,0,0.5,0,0,0,0\n0.3,0,0.5,nan,1,0,0\n",
            problem.task(),
        )
        .unwrap();
        assert_eq!(t.names, ["x", "y", "z", "qw", "qx", "qy", "qz"]);
        assert!(t.rows[0].reason.as_deref().unwrap().contains("length is 2"));
        let normalised = t.rows[1].target.as_ref().unwrap();
        assert_eq!(normalised.len(), 6);
        assert!(t.rows[2].reason.as_deref().unwrap().contains("length 0"));
        assert!(t.rows[3].reason.as_deref().unwrap().contains("field 4"));
        assert!(t.rows[3].values().iter().all(|v| v.is_nan()));
        let position = parse_targets("x,y,z\n1,2,3\n", problem.task()).unwrap_err();
        assert!(position.contains("x,y,z,qw,qx,qy,qz"), "{position}");
        let panda = Problem::preset("panda").unwrap();
        let pose = parse_targets("x,y,z,qw,qx,qy,qz\n1,2,3,1,0,0,0\n", panda.task()).unwrap_err();
        assert!(pose.contains("'qw'"), "{pose}");
    }

    #[test]
    fn tolerates_bom_crlf_blank_lines_and_extra_columns() {
        let t = parse_targets(
            "\u{feff}id, X ,y\r\n1,0.5,0.25\r\n\r\n2, 1e-3 ,-0.0\r\n",
            &TaskSpace::points(2),
        )
        .unwrap();
        assert_eq!(t.names, ["x", "y"]);
        assert_eq!(t.rows.len(), 2);
        assert_eq!(t.rows[0].target, Some(vec![0.5, 0.25]));
        assert_eq!(t.rows[1].target, Some(vec![1e-3, -0.0]));
    }

    #[test]
    fn bad_rows_are_kept_as_invalid() {
        let t = parse_targets(
            "x,y\nabc,1\nNaN,0\ninf,0\n1\n0.1,0.2\n",
            &TaskSpace::points(2),
        )
        .unwrap();
        let rows = t.rows;
        assert_eq!(rows.len(), 5);
        assert!(rows[..4].iter().all(|r| r.target.is_none()));
        assert_eq!(rows[0].texts[0], "abc");
        assert_eq!(rows[3].texts[1], "");
        assert_eq!(rows[4].target, Some(vec![0.1, 0.2]));
    }

    #[test]
    fn the_general_header_names_any_task_dimension() {
        let t = parse_targets("y2,y1,y3\n2,1,3\n", &TaskSpace::points(3)).unwrap();
        assert_eq!(t.names, ["y1", "y2", "y3"]);
        assert_eq!(t.rows[0].target, Some(vec![1.0, 2.0, 3.0]));
        let two = parse_targets("y1,y2\n0.5,0.25\n", &TaskSpace::points(2)).unwrap();
        assert_eq!(two.names, ["y1", "y2"]);
        // x,y,z names a three-dimensional task; x,y alone lacks z there.
        let xyz = parse_targets("id,z,x,y\n7,3,1,2\n", &TaskSpace::points(3)).unwrap();
        assert_eq!(xyz.names, ["x", "y", "z"]);
        assert_eq!(xyz.rows[0].target, Some(vec![1.0, 2.0, 3.0]));
        assert!(parse_targets("x,y\n1,2\n", &TaskSpace::points(3))
            .unwrap_err()
            .contains("'z'"));
    }

    #[test]
    fn targets_of_another_dimension_are_refused() {
        let three = parse_targets("x,y,z\n1,2,3\n", &TaskSpace::points(2)).unwrap_err();
        assert!(
            three.contains("'z'") && three.contains("2 dimensions"),
            "{three}"
        );
        assert!(parse_targets("y1,y2,y3\n1,2,3\n", &TaskSpace::points(2)).is_err());
        assert!(parse_targets("y1,y2,y3,y4\n1,2,3,4\n", &TaskSpace::points(3)).is_err());
    }

    #[test]
    fn missing_columns_or_header_are_errors() {
        assert!(parse_targets("a,b\n1,2\n", &TaskSpace::points(2))
            .unwrap_err()
            .contains("'x'"));
        assert!(parse_targets("x\n1\n", &TaskSpace::points(2))
            .unwrap_err()
            .contains("'y'"));
        assert!(parse_targets("y1,y2\n1,2\n", &TaskSpace::points(3))
            .unwrap_err()
            .contains("y1,y2,y3"));
        assert!(parse_targets("", &TaskSpace::points(2)).is_err());
        assert!(parse_targets("\n\n", &TaskSpace::points(2)).is_err());
    }
}
