//! The paper reader's picture: time per solve against optimality, every method, as SVG
//! (plotters' SVG backend writes text as `<text>`, so no font files are needed).

use std::path::Path;

use plotters::prelude::*;

use super::record::TargetSet;
use super::stats::Summary;

/// Smallest plotted miss share (a method that never misses sits on this floor).
const MISS_FLOOR: f64 = 0.05;
/// Smallest plotted end-effector error (m); exact solvers sit near 1e-16.
const ERROR_FLOOR: f64 = 1e-17;

fn colour(index: usize) -> RGBColor {
    // Tableau-like colours, distinct enough for ~16 methods (cycled beyond).
    const C: [(u8, u8, u8); 10] = [
        (214, 39, 40),
        (31, 119, 180),
        (44, 160, 44),
        (255, 127, 14),
        (148, 103, 189),
        (140, 86, 75),
        (227, 119, 194),
        (127, 127, 127),
        (188, 189, 34),
        (23, 190, 207),
    ];
    let (r, g, b) = C[index % C.len()];
    RGBColor(r, g, b)
}

/// The random-target methods no other random-target method beats on both median time and miss
/// share, as (median µs, plotted miss %) sorted by time.
fn pareto_front(rows: &[Summary]) -> Vec<(f64, f64)> {
    let mut points: Vec<(f64, f64)> = rows
        .iter()
        .filter(|s| s.set == TargetSet::Random && s.micros.0 > 0.0)
        .map(|s| (s.micros.0, (100.0 * (1.0 - s.within)).max(MISS_FLOOR)))
        .collect();
    points.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.total_cmp(&b.1)));
    let mut front: Vec<(f64, f64)> = Vec::new();
    for p in points {
        if front.last().is_none_or(|last| p.1 < last.1) {
            front.push(p);
        }
    }
    front
}

/// Two panels, x = µs per solve (log; dot at the median, whisker to p95): left y = share of
/// targets NOT within 1% of J* (log, floor 0.05%), right y = median end-effector error (log).
/// Filled dots: random targets; hollow: the path. The left panel draws the random targets'
/// Pareto front as a step line. A numbered legend below the panels.
pub fn time_vs_optimality(
    path: &Path,
    rows: &[Summary],
    robot: &str,
    model: Option<&str>,
) -> Result<(), String> {
    draw(path, rows, robot, model).map_err(|e| format!("{}: {e}", path.display()))
}

fn draw(
    path: &Path,
    rows: &[Summary],
    robot: &str,
    model: Option<&str>,
) -> Result<(), Box<dyn std::error::Error>> {
    let legend_rows = rows.len().div_ceil(2);
    let height = 560 + 24 * legend_rows as u32 + 20;
    let root = SVGBackend::new(path, (1200, height)).into_drawing_area();
    root.fill(&WHITE)?;
    let title = format!(
        "{robot}: time per solve vs optimality — model: {}",
        model.unwrap_or("none")
    );
    let root = root.titled(&title, ("sans-serif", 18))?;
    let (charts, legend) = root.split_vertically(540);
    let (left, right) = charts.split_horizontally(600);
    let times: Vec<f64> = rows
        .iter()
        .flat_map(|s| [s.micros.0, s.micros.1])
        .filter(|t| *t > 0.0)
        .collect();
    let t_lo = times.iter().cloned().fold(f64::INFINITY, f64::min).max(0.1) / 2.0;
    let t_hi = times.iter().cloned().fold(0.0, f64::max).max(1.0) * 2.0;

    let mut miss = ChartBuilder::on(&left)
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(55)
        .build_cartesian_2d(
            (t_lo..t_hi).log_scale(),
            (MISS_FLOOR / 2.0..100.0).log_scale(),
        )?;
    miss.configure_mesh()
        .x_desc("µs per solve (dot: median, whisker: to p95)")
        .y_desc("targets NOT within 1% of J* (%)")
        .x_label_formatter(&|v| format!("{v:.0}"))
        .y_label_formatter(&|v| format!("{v}"))
        .draw()?;
    let e_hi = rows
        .iter()
        .map(|s| s.ee_error.0)
        .filter(|e| e.is_finite())
        .fold(1e-6, f64::max)
        * 10.0;
    let mut error = ChartBuilder::on(&right)
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(60)
        .build_cartesian_2d(
            (t_lo..t_hi).log_scale(),
            (ERROR_FLOOR / 2.0..e_hi).log_scale(),
        )?;
    error
        .configure_mesh()
        .x_desc("µs per solve (dot: median, whisker: to p95)")
        .y_desc("end-effector error, median (m)")
        .x_label_formatter(&|v| format!("{v:.0}"))
        .y_label_formatter(&|v| format!("{v:.0e}"))
        .draw()?;

    let front = pareto_front(rows);
    if front.len() > 1 {
        let mut steps = Vec::with_capacity(2 * front.len());
        for pair in front.windows(2) {
            steps.push(pair[0]);
            steps.push((pair[1].0, pair[0].1));
        }
        steps.extend(front.last().copied());
        let grey = RGBColor(90, 90, 90);
        miss.draw_series(LineSeries::new(steps, grey.stroke_width(2)))?
            .label("Pareto front, random targets: nothing both faster and more often optimal")
            .legend(move |(x, y)| PathElement::new([(x, y), (x + 16, y)], grey.stroke_width(2)));
        miss.configure_series_labels()
            .position(SeriesLabelPosition::MiddleLeft)
            .border_style(BLACK)
            .background_style(WHITE)
            .label_font(("sans-serif", 12))
            .draw()?;
    }

    for (i, s) in rows.iter().enumerate() {
        let c = colour(i);
        let style = if s.set == TargetSet::Random {
            c.filled()
        } else {
            c.stroke_width(2)
        };
        let m = (100.0 * (1.0 - s.within)).max(MISS_FLOOR);
        let e = if s.ee_error.0.is_finite() {
            s.ee_error.0.max(ERROR_FLOOR)
        } else {
            ERROR_FLOOR
        };
        for (chart_y, chart) in [(m, &mut miss), (e, &mut error)] {
            chart.draw_series(LineSeries::new(
                [(s.micros.0, chart_y), (s.micros.1, chart_y)],
                c.stroke_width(1),
            ))?;
            let dot = EmptyElement::at((s.micros.0, chart_y))
                + Circle::new((0, 0), 5, style)
                + Text::new(
                    format!("{}", i + 1),
                    (4, -16),
                    ("sans-serif", 12).into_font().color(&c),
                );
            chart.draw_series([dot])?;
        }
        let (col, row) = ((i % 2) as i32, (i / 2) as i32);
        let (x, y) = (70 + 560 * col, 8 + 24 * row);
        legend.draw(&Circle::new((x, y + 6), 5, style))?;
        legend.draw(&Text::new(
            format!("{}  {} — {} targets", i + 1, s.method, s.set.as_str()),
            (x + 12, y),
            ("sans-serif", 14).into_font().color(&c),
        ))?;
    }
    root.present()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn summary(set: TargetSet, micros: f64, within: f64) -> Summary {
        Summary {
            set,
            method: String::new(),
            count: 1,
            micros: (micros, micros),
            speedup: 1.0,
            speedup_spread: (1.0, 1.0),
            feasible: within,
            within,
            gap: (0.0, 0.0),
            ee_error: (0.0, 0.0),
        }
    }

    #[test]
    fn the_front_keeps_only_methods_nothing_beats_on_both_counts() {
        let rows = [
            summary(TargetSet::Random, 10.0, 0.0),
            summary(TargetSet::Random, 20.0, 0.999),
            summary(TargetSet::Random, 30.0, 0.99),
            summary(TargetSet::Random, 1000.0, 1.0),
            summary(TargetSet::Path, 1.0, 1.0),
        ];
        let front = pareto_front(&rows);
        let times: Vec<f64> = front.iter().map(|p| p.0).collect();
        assert_eq!(times, [10.0, 20.0, 1000.0]);
        assert_eq!(front[2].1, MISS_FLOOR);
    }
}
