//! `loink train --data D.csv`: the training rows from a data file, the learner's only input
//! (`loink data` writes one; any simulator or a real robot can). The header names the columns
//! `x1,…,xn,y1,…,ym,J` (n joints, m task coordinates, the cost); every row must hold n + m + 1
//! finite numbers. A row that does not (text, NaN, ±inf, a wrong column count) is reported with
//! its line number and left out; a file without one usable row is refused.

use std::path::Path;
use std::sync::Arc;

use loink::cost::{CostSpec, Term, TermSpec};
use loink::problem::data::DataProblem;
use loink::problem::{JointLimits, Problem};

use super::data::Samples;
use super::{TrainArgs, TrainError};

/// Bad rows quoted by line number before the rest are only counted.
pub const QUOTED_BAD_ROWS: usize = 10;
/// Largest data file read (bytes).
pub const MAX_DATA_BYTES: u64 = 2 * 1024 * 1024 * 1024;

/// What a data file held.
#[derive(Debug, Clone, PartialEq)]
pub struct DataFile {
    /// The usable rows.
    pub samples: Samples,
    /// Line numbers (1-based, the header is line 1) and reasons of the rows left out.
    pub bad_rows: Vec<(usize, String)>,
}

fn refuse(path: &Path, why: impl std::fmt::Display) -> TrainError {
    TrainError::Argument(format!("data file {}: {why}", path.display()))
}

/// The task coordinates' names a data file of a task that turns the hand uses (what `loink
/// data` writes for a pose and an axis) in place of `y1…ym`.
const CHART_NAMES: [&[&str]; 2] = [
    &["x", "y", "z", "rx", "ry", "rz"],
    &["x", "y", "z", "sx", "sy"],
];

/// n and m from a header `x1,…,xn,y1,…,ym,J` (or with a pose's or an axis's chart names in
/// place of `y1…ym`).
pub fn dimensions(header: &[&str]) -> Result<(usize, usize), String> {
    let n = header
        .iter()
        .enumerate()
        .take_while(|(i, h)| **h == format!("x{}", i + 1))
        .count();
    let task = header.get(n..header.len().saturating_sub(1)).unwrap_or(&[]);
    let m = task.len();
    let numbered = task
        .iter()
        .enumerate()
        .all(|(i, h)| *h == format!("y{}", i + 1));
    let named = CHART_NAMES.contains(&task);
    if n == 0 || m == 0 || m > n || header.last() != Some(&"J") || !(numbered || named) {
        return Err(format!(
            "the header must be x1,…,xn,y1,…,ym,J with 1 ≤ m ≤ n (or a pose's x,y,z,rx,ry,rz or an axis's x,y,z,sx,sy in place of y1,…,ym; found '{}')",
            header.join(",")
        ));
    }
    Ok((n, m))
}

/// Reads `path`: the usable rows and the bad ones (see the module docs).
pub fn read(path: &Path) -> Result<DataFile, TrainError> {
    let size = std::fs::metadata(path).map_err(|e| refuse(path, e))?.len();
    if size > MAX_DATA_BYTES {
        return Err(refuse(path, format!("{size} bytes, over {MAX_DATA_BYTES}")));
    }
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(true)
        .flexible(true)
        .from_path(path)
        .map_err(|e| refuse(path, e))?;
    let header: Vec<String> = reader
        .headers()
        .map_err(|e| refuse(path, e))?
        .iter()
        .map(|h| h.trim().to_string())
        .collect();
    let names: Vec<&str> = header.iter().map(String::as_str).collect();
    let (n, m) = dimensions(&names).map_err(|e| refuse(path, e))?;
    let mut samples = Samples {
        dof: n,
        task_dim: m,
        x: Vec::new(),
        y: Vec::new(),
        cost: Vec::new(),
    };
    let mut bad_rows = Vec::new();
    for (index, record) in reader.records().enumerate() {
        let line = index + 2;
        let record = match record {
            Ok(r) => r,
            Err(e) => {
                bad_rows.push((line, e.to_string()));
                continue;
            }
        };
        if record.len() != n + m + 1 {
            bad_rows.push((
                line,
                format!("{} columns, expected {}", record.len(), n + m + 1),
            ));
            continue;
        }
        let values: Result<Vec<f64>, String> = record
            .iter()
            .map(|v| match v.trim().parse::<f64>() {
                Ok(x) if x.is_finite() => Ok(x),
                Ok(x) => Err(format!("{x} is not finite")),
                Err(_) => Err(format!("'{v}' is not a number")),
            })
            .collect();
        match values {
            Ok(v) => {
                samples.x.extend_from_slice(&v[..n]);
                samples.y.extend_from_slice(&v[n..n + m]);
                samples.cost.push(v[n + m]);
            }
            Err(why) => bad_rows.push((line, why)),
        }
    }
    if samples.cost.is_empty() {
        return Err(refuse(
            path,
            format!("no usable row ({} rows left out)", bad_rows.len()),
        ));
    }
    Ok(DataFile { samples, bad_rows })
}

/// The problem and the rows of `loink train --data PATH`: the named problem when `--problem` is
/// given (its joint and task dimensions must be the file's), else a data-only problem whose box is
/// the data's and whose cost is the file's own (no forward map: answers are `unverified`).
pub fn source(args: &TrainArgs, path: &Path) -> Result<(Problem, Samples), TrainError> {
    let file = read(path)?;
    for line in report(&file) {
        eprintln!("data file {}: {line}", path.display());
    }
    let rows = file.samples;
    let (n, m) = (rows.dof, rows.task_dim);
    if rows.len() < 10 {
        return Err(refuse(
            path,
            format!("{} usable rows (need at least 10)", rows.len()),
        ));
    }
    if !args.names_a_problem() {
        if args.surface > 0 {
            return Err(TrainError::Argument(
                "--surface replays the network's preimages: it needs the simulator (--problem)"
                    .into(),
            ));
        }
        let (mut lower, mut upper) = (vec![f64::INFINITY; n], vec![f64::NEG_INFINITY; n]);
        for x in rows.x.chunks(n) {
            for i in 0..n {
                lower[i] = lower[i].min(x[i]);
                upper[i] = upper[i].max(x[i]);
            }
        }
        for i in 0..n {
            if upper[i] <= lower[i] {
                // A joint the data never moves: a sliver of a box around it.
                let pad = 1e-9 * lower[i].abs().max(1.0);
                (lower[i], upper[i]) = (lower[i] - pad, upper[i] + pad);
            }
        }
        let limits = JointLimits::new(lower, upper)?;
        let kinematics = Arc::new(DataProblem::new("data", limits, m)?);
        let cost = CostSpec {
            terms: vec![TermSpec::new(Term::Data, 1.0)],
        };
        return Ok((Problem::new(kinematics, cost)?, rows));
    }
    let problem = args.problem()?;
    if problem.dof() != n || problem.task_dim() != m {
        return Err(refuse(
            path,
            format!(
                "{n} joints and a {m}-D task, but {} has {} joints and a {}-D task",
                problem.name(),
                problem.dof(),
                problem.task_dim()
            ),
        ));
    }
    Ok((problem, rows))
}

/// The bad rows as lines for the log: the first [`QUOTED_BAD_ROWS`], then a count.
pub fn report(file: &DataFile) -> Vec<String> {
    let mut lines: Vec<String> = file
        .bad_rows
        .iter()
        .take(QUOTED_BAD_ROWS)
        .map(|(line, why)| format!("line {line}: {why}; row left out"))
        .collect();
    if file.bad_rows.len() > QUOTED_BAD_ROWS {
        lines.push(format!(
            "… and {} more rows left out",
            file.bad_rows.len() - QUOTED_BAD_ROWS
        ));
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers_give_the_dimensions() {
        assert_eq!(dimensions(&["x1", "x2", "x3", "y1", "y2", "J"]), Ok((3, 2)));
        for bad in [
            vec!["x1", "y1"],
            vec!["x1", "x2", "J"],
            vec!["x2", "x1", "y1", "J"],
            vec!["x1", "y1", "y2", "J"],
            vec!["x1", "y1", "J", "extra"],
            vec!["a", "b", "c"],
        ] {
            assert!(dimensions(&bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn bad_rows_are_left_out_with_their_line_numbers() {
        let path = std::env::temp_dir().join(format!("loink-data-{}.csv", std::process::id()));
        std::fs::write(
            &path,
            "x1,x2,y1,J\n0.1,0.2,0.3,1\nnope,0,0,0\n0.1,NaN,0,0\n0.1,0.2,inf,1\n1,2,3\n0.5,0.6,0.7,2\n",
        )
        .unwrap();
        let file = read(&path).unwrap();
        assert_eq!(file.samples.cost, vec![1.0, 2.0]);
        assert_eq!(file.samples.x, vec![0.1, 0.2, 0.5, 0.6]);
        let lines: Vec<usize> = file.bad_rows.iter().map(|(l, _)| *l).collect();
        assert_eq!(lines, vec![3, 4, 5, 6]);
        assert!(report(&file)[0].starts_with("line 3: 'nope' is not a number"));
        std::fs::write(&path, "x1,x2,y1,J\nnope,0,0,0\n").unwrap();
        assert!(read(&path).is_err());
        std::fs::write(&path, "a,b\n1,2\n").unwrap();
        assert!(read(&path).is_err());
        let _ = std::fs::remove_file(path);
    }
}
