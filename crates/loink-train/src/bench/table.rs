//! The one results table, as aligned text (terminal) and Markdown (BENCHMARKS.md).

use super::stats::Summary;

const HEADER: [&str; 11] = [
    "set",
    "method",
    "µs median",
    "µs p95",
    "× IPOPT(mid)",
    "× spread p5–p95",
    "feasible",
    "within 1% of J*",
    "gap median",
    "gap p95",
    "ee error median / p95",
];

fn cells(s: &Summary) -> [String; 11] {
    [
        s.set.as_str().to_string(),
        s.method.clone(),
        format!("{:.1}", s.micros.0),
        format!("{:.1}", s.micros.1),
        ratio(s.speedup),
        format!(
            "{}–{}",
            ratio(s.speedup_spread.0),
            ratio(s.speedup_spread.1)
        ),
        percent(s.feasible),
        percent(s.within),
        gap(s.gap.0),
        gap(s.gap.1),
        format!("{} / {}", length(s.ee_error.0), length(s.ee_error.1)),
    ]
}

/// `12.3×` with a precision that suits the magnitude.
pub fn ratio(r: f64) -> String {
    if !r.is_finite() {
        "–".into()
    } else if r >= 100.0 {
        format!("{r:.0}×")
    } else if r >= 10.0 {
        format!("{r:.1}×")
    } else {
        format!("{r:.2}×")
    }
}

fn percent(share: f64) -> String {
    format!("{:.1}%", 100.0 * share)
}

fn gap(g: f64) -> String {
    if g.is_finite() {
        // Gaps of ±1e-8 are solver tolerance, not a sign worth printing.
        let g = if g.abs() < 5e-6 { 0.0 } else { g };
        loink::gap::percent(g).replace(" %", "%")
    } else {
        "–".into()
    }
}

/// A length in metres shown in the unit that keeps it readable.
fn length(m: f64) -> String {
    if !m.is_finite() {
        "–".into()
    } else if m >= 1e-3 {
        format!("{:.2} mm", m * 1e3)
    } else if m >= 1e-6 {
        format!("{:.2} µm", m * 1e6)
    } else {
        format!("{m:.0e} m")
    }
}

/// Aligned plain-text table.
pub fn text(rows: &[Summary]) -> String {
    let body: Vec<[String; 11]> = rows.iter().map(cells).collect();
    let width: Vec<usize> = (0..HEADER.len())
        .map(|c| {
            body.iter()
                .map(|r| r[c].chars().count())
                .chain([HEADER[c].chars().count()])
                .max()
                .unwrap_or(0)
        })
        .collect();
    let line = |cells: Vec<&str>| -> String {
        cells
            .iter()
            .enumerate()
            .map(|(c, s)| {
                let pad = width[c] - s.chars().count();
                if c < 2 {
                    format!("{s}{}", " ".repeat(pad))
                } else {
                    format!("{}{s}", " ".repeat(pad))
                }
            })
            .collect::<Vec<_>>()
            .join("  ")
    };
    let mut out = line(HEADER.to_vec());
    out.push('\n');
    out.push_str(&"-".repeat(width.iter().sum::<usize>() + 2 * (width.len() - 1)));
    for r in &body {
        out.push('\n');
        out.push_str(&line(r.iter().map(String::as_str).collect()));
    }
    out.push('\n');
    out
}

/// GitHub-flavoured Markdown table.
pub fn markdown(rows: &[Summary]) -> String {
    let mut out = format!(
        "| {} |\n|{}\n",
        HEADER.join(" | "),
        "---|".repeat(HEADER.len())
    );
    for r in rows {
        out.push_str(&format!("| {} |\n", cells(r).join(" | ")));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn units_and_ratios_read_well() {
        assert_eq!(ratio(123.4), "123×");
        assert_eq!(ratio(12.34), "12.3×");
        assert_eq!(ratio(0.5), "0.50×");
        assert_eq!(length(2.7e-3), "2.70 mm");
        assert_eq!(length(3e-9), "3e-9 m");
        assert_eq!(gap(0.0001), "0.010%");
    }
}
