//! Reading a targets file: a CSV with a header naming columns `x` and `y` (others ignored).
//!
//! Tolerated: a UTF-8 byte-order mark, CRLF line ends, blank lines, spaces around fields,
//! header names in any case. A row whose x or y is missing, non-numeric, NaN or infinite is
//! kept as an invalid row (its text is preserved for the results file), not an error.
//! A missing or unreadable file, non-UTF-8 text, or a header without `x` and `y` is a
//! [`CliError::Input`].

use std::path::Path;

use crate::cli::CliError;

/// One data row of a targets file.
#[derive(Debug, Clone, PartialEq)]
pub struct TargetRow {
    /// The x field as written (trimmed; empty when missing).
    pub x_text: String,
    /// The y field as written.
    pub y_text: String,
    /// The parsed target when both fields are finite numbers.
    pub target: Option<[f64; 2]>,
}

impl TargetRow {
    /// The target as a slice for solvers: the parsed values, or whatever parses (NaN otherwise)
    /// for an invalid row.
    pub fn values(&self) -> [f64; 2] {
        self.target.unwrap_or_else(|| {
            let parse = |t: &str| t.parse::<f64>().unwrap_or(f64::NAN);
            [parse(&self.x_text), parse(&self.y_text)]
        })
    }
}

/// Reads and parses a targets file.
pub fn read_targets(path: &Path) -> Result<Vec<TargetRow>, CliError> {
    let bytes = std::fs::read(path).map_err(|e| {
        CliError::Input(format!("cannot read targets file {}: {e}", path.display()))
    })?;
    let text = String::from_utf8(bytes).map_err(|_| {
        CliError::Input(format!("targets file {} is not UTF-8 text", path.display()))
    })?;
    parse_targets(&text).map_err(|m| CliError::Input(format!("{}: {m}", path.display())))
}

/// Parses the text of a targets file (see the module docs).
pub fn parse_targets(text: &str) -> Result<Vec<TargetRow>, String> {
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
    let header = match records.next() {
        Some(Ok(h)) => h,
        Some(Err(e)) => return Err(format!("unreadable header: {e}")),
        None => return Err("empty file (expected a header with columns x,y)".into()),
    };
    let column = |name: &str| {
        header
            .iter()
            .position(|h| h.eq_ignore_ascii_case(name))
            .ok_or_else(|| {
                format!(
                    "no column '{name}' in the header '{}'",
                    header.iter().collect::<Vec<_>>().join(",")
                )
            })
    };
    let (ix, iy) = (column("x")?, column("y")?);
    let mut rows = Vec::new();
    for (line, record) in records.enumerate() {
        let record = record.map_err(|e| format!("row {}: {e}", line + 1))?;
        let field = |i: usize| record.get(i).unwrap_or("").to_string();
        let (x_text, y_text) = (field(ix), field(iy));
        let number = |t: &str| t.parse::<f64>().ok().filter(|v| v.is_finite());
        let target = match (number(&x_text), number(&y_text)) {
            (Some(x), Some(y)) => Some([x, y]),
            _ => None,
        };
        rows.push(TargetRow {
            x_text,
            y_text,
            target,
        });
    }
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tolerates_bom_crlf_blank_lines_and_extra_columns() {
        let rows =
            parse_targets("\u{feff}id, X ,y\r\n1,0.5,0.25\r\n\r\n2, 1e-3 ,-0.0\r\n").unwrap();
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[0].target, Some([0.5, 0.25]));
        assert_eq!(rows[1].target, Some([1e-3, -0.0]));
    }

    #[test]
    fn bad_rows_are_kept_as_invalid() {
        let rows = parse_targets("x,y\nabc,1\nNaN,0\ninf,0\n1\n0.1,0.2\n").unwrap();
        assert_eq!(rows.len(), 5);
        assert!(rows[..4].iter().all(|r| r.target.is_none()));
        assert_eq!(rows[0].x_text, "abc");
        assert_eq!(rows[3].y_text, "");
        assert_eq!(rows[4].target, Some([0.1, 0.2]));
    }

    #[test]
    fn missing_columns_or_header_are_errors() {
        assert!(parse_targets("a,b\n1,2\n").unwrap_err().contains("'x'"));
        assert!(parse_targets("x\n1\n").unwrap_err().contains("'y'"));
        assert!(parse_targets("").is_err());
        assert!(parse_targets("\n\n").is_err());
    }
}
