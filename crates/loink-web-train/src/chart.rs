//! The trainer's live chart, as SVG text: the loss terms against the step (top) and, on the
//! held-out targets, the one-shot inverse's end-effector error and the gap of LOInK + polish
//! against training time (bottom). The page shows the text as it is.

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use crate::svg_text::MeasuredSvg;

/// One slice's mean loss terms.
#[derive(Debug, Clone, Copy)]
pub struct LossPoint {
    /// Steps taken at the slice's end.
    pub step: usize,
    /// Task term (normalised).
    pub task: f64,
    /// Cost term (normalised).
    pub cost: f64,
}

/// One measurement on the held-out targets.
#[derive(Debug, Clone, Copy)]
pub struct CheckPoint {
    /// Training time (s).
    pub seconds: f64,
    /// One-shot end-effector error, median (m).
    pub ee_median_m: f64,
    /// Distance of the latent origin's posture from q\*, median (rad).
    pub optimum_distance_rad: f64,
    /// Gap of LOInK + polish, median ((J − J\*)/J\*, +∞ when infeasible).
    pub gap_median: f64,
}

/// The gap (%) drawn at the floor of the log axis: a gap of 0 (the optimum itself) sits here.
const GAP_FLOOR_PCT: f64 = 1e-4;

const TASK: RGBColor = RGBColor(0, 114, 178);
const COST: RGBColor = RGBColor(213, 94, 0);
const ERROR: RGBColor = RGBColor(0, 158, 115);
const GAP: RGBColor = RGBColor(204, 121, 167);
const DISTANCE: RGBColor = RGBColor(86, 180, 233);

fn log_range(values: impl Iterator<Item = f64>, floor: f64) -> std::ops::Range<f64> {
    let (lo, hi) = values
        .filter(|v| v.is_finite() && *v > 0.0)
        .fold((f64::INFINITY, 0.0f64), |(lo, hi), v| {
            (lo.min(v), hi.max(v))
        });
    if hi <= 0.0 {
        return floor..floor * 100.0;
    }
    let lo = lo.max(floor);
    lo / 2.0..(hi * 2.0).max(lo * 10.0)
}

/// The chart at `width × height` px.
pub fn svg(losses: &[LossPoint], checks: &[CheckPoint], width: u32, height: u32) -> String {
    let mut text = String::new();
    let drawn = draw(
        &mut text,
        losses,
        checks,
        width.clamp(200, 2000),
        height.clamp(200, 2000),
    );
    if let Err(e) = drawn {
        return format!("<svg xmlns=\"http://www.w3.org/2000/svg\"><text x=\"4\" y=\"16\">chart: {}</text></svg>", e.to_string().replace('<', "&lt;"));
    }
    text
}

type DrawResult = Result<(), Box<dyn std::error::Error>>;

/// The series' names, one line each at the area's upper right. Drawn here because plotters'
/// own legend measures its text through the page's document (none in a worker).
fn legend<DB: DrawingBackend>(
    area: &DrawingArea<DB, plotters::coord::Shift>,
    labels: &[(RGBColor, &str)],
    font: &FontDesc,
) -> DrawResult
where
    DB::ErrorType: 'static,
{
    let (width, _) = area.dim_in_pixel();
    let right = width as i32 - 70;
    for (k, (colour, label)) in labels.iter().enumerate() {
        let y = 34 + 16 * k as i32;
        area.draw(&PathElement::new(
            [(right - 24, y), (right - 8, y)],
            colour.stroke_width(2),
        ))?;
        let style = font.color(&BLACK).pos(Pos::new(HPos::Right, VPos::Center));
        area.draw_text(label, &style, (right - 30, y))?;
    }
    Ok(())
}

/// One named line: its colour, its legend text and its points.
type Series = (RGBColor, &'static str, Vec<(f64, f64)>);

/// One half of the chart: `series` over x ∈ [0, x_max] on a log y axis (non-positive and
/// non-finite values left out), its caption and its x axis's name.
fn panel<DB: DrawingBackend>(
    area: &DrawingArea<DB, plotters::coord::Shift>,
    caption: &str,
    x_desc: &str,
    x_max: f64,
    floor: f64,
    series: &[Series],
) -> DrawResult
where
    DB::ErrorType: 'static,
{
    let font = ("sans-serif", 12).into_font();
    let range = log_range(series.iter().flat_map(|s| s.2.iter().map(|p| p.1)), floor);
    let mut chart = ChartBuilder::on(area)
        .caption(caption, font.clone())
        .margin(8)
        .x_label_area_size(28)
        .y_label_area_size(48)
        .build_cartesian_2d(0.0..x_max, range.log_scale())?;
    chart
        .configure_mesh()
        .x_desc(x_desc)
        .x_labels(5)
        .x_label_formatter(&|v| format!("{v:.0}"))
        .y_labels(4)
        .y_label_formatter(&|v| format!("{v:.0e}"))
        .label_style(font.clone())
        .draw()?;
    for (colour, _, points) in series {
        let shown = points
            .iter()
            .copied()
            .filter(|p| p.1.is_finite() && p.1 > 0.0);
        chart.draw_series(LineSeries::new(shown, colour.stroke_width(2)))?;
    }
    let labels: Vec<(RGBColor, &str)> = series.iter().map(|s| (s.0, s.1)).collect();
    legend(area, &labels, &font)
}

fn draw(
    out: &mut String,
    losses: &[LossPoint],
    checks: &[CheckPoint],
    w: u32,
    h: u32,
) -> DrawResult {
    let root = MeasuredSvg(SVGBackend::with_string(out, (w, h))).into_drawing_area();
    root.fill(&WHITE)?;
    let (top, bottom) = root.split_vertically(h / 2);
    let by_step = |pick: fn(&LossPoint) -> f64| -> Vec<(f64, f64)> {
        losses.iter().map(|p| (p.step as f64, pick(p))).collect()
    };
    panel(
        &top,
        "Loss on the training batches",
        "step",
        losses.last().map_or(1, |p| p.step.max(1)) as f64,
        1e-6,
        &[
            (TASK, "task term ‖G₁(x̃) − ỹ‖²", by_step(|p| p.task)),
            (COST, "cost term (ĉ − J̃)²", by_step(|p| p.cost)),
        ],
    )?;
    let by_time = |pick: fn(&CheckPoint) -> f64| -> Vec<(f64, f64)> {
        checks.iter().map(|c| (c.seconds, pick(c))).collect()
    };
    panel(
        &bottom,
        "Held-out targets",
        "training time (s)",
        checks.last().map_or(1.0, |c| c.seconds.max(1.0)),
        GAP_FLOOR_PCT,
        &[
            (
                ERROR,
                "one-shot error, median (mm)",
                by_time(|c| c.ee_median_m * 1e3),
            ),
            (
                DISTANCE,
                "z = 0's posture from q*, median (mrad)",
                by_time(|c| c.optimum_distance_rad * 1e3),
            ),
            (
                GAP,
                "gap to J* after polish, median (%; 0 at the floor)",
                by_time(|c| (c.gap_median * 100.0).max(GAP_FLOOR_PCT)),
            ),
        ],
    )?;
    root.present()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_both_charts_with_their_series() {
        let losses: Vec<LossPoint> = (1..50)
            .map(|k| LossPoint {
                step: 10 * k,
                task: 1.0 / k as f64,
                cost: 0.1 / k as f64,
            })
            .collect();
        let checks: Vec<CheckPoint> = (0..10)
            .map(|k| CheckPoint {
                seconds: k as f64,
                ee_median_m: 0.1 / (k + 1) as f64,
                optimum_distance_rad: 0.2 / (k + 1) as f64,
                gap_median: if k > 5 { 0.0 } else { f64::INFINITY },
            })
            .collect();
        let text = svg(&losses, &checks, 480, 400);
        assert!(
            text.starts_with("<svg") && text.contains("Held-out targets"),
            "{}",
            &text[..200.min(text.len())]
        );
        assert!(text.matches("<polyline").count() >= 5, "five series");
        let empty = svg(&[], &[], 480, 400);
        assert!(empty.starts_with("<svg"));
    }
}
