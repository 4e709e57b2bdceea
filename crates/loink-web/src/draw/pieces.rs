//! `canvas#landscape` for a pose target (docs/pose.md, "the set of answers"): the hand held at
//! the target, the arm keeps one degree of freedom — swept here along q7 — and its answers
//! form curves in several pieces (shoulder, elbow and wrist branches, cut by the joint limits).
//! The panel draws J of every piece against q7, J\* as a line, the answer and the optimum as
//! marks: a local solver slides to the bottom of the piece it starts on; the cheapest answer
//! is the lowest point of them all.

use loink::problem::AnswerSweep;
use plotters::prelude::*;

use super::landscape::{message, MotionChart as PiecesChart};
use super::palette::{self, INK, OPTIMUM};
use super::{
    caption, subcaption, text_err, Corner, DrawResult, Legend, Mark, Surface, CAPTION_BAND,
    SUBCAPTION_BAND,
};

/// One answer marked on the pieces.
pub struct PieceMark<'a> {
    /// Who gave it (the legend's words).
    pub label: &'a str,
    /// Its joints (empty when invalid).
    pub q: &'a [f64],
    /// Its cost J.
    pub cost: f64,
    /// Whether it reached the target (converged).
    pub reached: bool,
    /// Its colour.
    pub colour: RGBColor,
}

/// What the panel shows.
pub struct PiecesScene<'a> {
    /// The sweep of the answers along the swept joint.
    pub sweep: &'a AnswerSweep,
    /// The answers marked on it (the page: the solver's; a lesson: several solvers').
    pub marks: &'a [PieceMark<'a>],
    /// The optimum's joints and J* (None while pending).
    pub optimum: Option<(&'a [f64], f64)>,
    /// The cost, as a formula.
    pub cost_formula: &'a str,
}

/// A polyline of (value, cost) points.
type Run = Vec<(f64, f64)>;

/// The runs of finite points of one piece: (value, cost) polylines, split where it has none.
fn runs(values: &[f64], costs: &[f64]) -> Vec<Run> {
    let mut out: Vec<Run> = Vec::new();
    let mut open = false;
    for (&v, &c) in values.iter().zip(costs) {
        if c.is_finite() {
            if !open {
                out.push(Vec::new());
                open = true;
            }
            if let Some(run) = out.last_mut() {
                run.push((v, c));
            }
        } else {
            open = false;
        }
    }
    out
}

/// Where the legend goes: the corner of the plot whose box (`legend`, pixels, on a plot of
/// `plot` pixels) covers the fewest of `points` with the cost axis up to `highest`; when every
/// corner covers some, the axis is raised so that the legend sits above them all, top right.
fn place_legend(
    points: &[(f64, f64)],
    (lo, hi): (f64, f64),
    highest: f64,
    legend: (i32, i32),
    plot: (f64, f64),
) -> (Corner, f64) {
    let inset = 8.0;
    let w = ((f64::from(legend.0) + inset) / plot.0.max(1.0)).min(1.0) * (hi - lo);
    let h_share = ((f64::from(legend.1) + inset) / plot.1.max(1.0)).min(0.9);
    let covered = |corner: Corner, top: f64| {
        let h = h_share * top;
        let (x0, x1) = match corner {
            Corner::UpperLeft | Corner::LowerLeft => (lo, lo + w),
            _ => (hi - w, hi),
        };
        let (y0, y1) = match corner {
            Corner::UpperLeft | Corner::UpperRight => (top - h, top),
            _ => (0.0, h),
        };
        points
            .iter()
            .filter(|(v, c)| (x0..=x1).contains(v) && (y0..=y1).contains(c))
            .count()
    };
    let corners = [
        Corner::UpperRight,
        Corner::UpperLeft,
        Corner::LowerRight,
        Corner::LowerLeft,
    ];
    let (best, count) = corners
        .iter()
        .map(|&c| (c, covered(c, highest)))
        .min_by_key(|&(_, n)| n)
        .unwrap_or((Corner::UpperRight, 0));
    if count == 0 {
        (best, highest)
    } else {
        (Corner::UpperRight, highest / (1.0 - h_share))
    }
}

/// A mark drawn on the pieces: (value of the swept joint, cost, colour, legend words).
type PieceDot = (f64, f64, RGBColor, String);

/// The scene's marks that have a value of the swept joint and a finite cost (a mark off the
/// target in the target's colour).
fn marks(scene: &PiecesScene) -> Vec<PieceDot> {
    let joint = scene.sweep.joint;
    scene
        .marks
        .iter()
        .filter_map(|mark| {
            let v = mark
                .q
                .get(joint)
                .copied()
                .filter(|_| mark.cost.is_finite())?;
            let (colour, what) = if mark.reached {
                (mark.colour, "")
            } else {
                (palette::TARGET, " (not on the target)")
            };
            let words = format!("{}, J = {:.4}{what}", mark.label, mark.cost);
            Some((v, mark.cost.min(1e3), colour, words))
        })
        .collect()
}

/// The legend: the first four branches, the joint-limit cut, the optimum and every mark.
fn legend(scene: &PiecesScene, pieces: &[(usize, Vec<Run>)], marks: &[PieceDot]) -> Legend {
    let mut legend = Legend::default();
    for (k, (branch, _)) in pieces.iter().enumerate().take(4) {
        let colour = palette::CHARTS[*branch % palette::CHARTS.len()];
        legend.add(
            Mark::Line(colour.to_rgba(), 2.0),
            format!("branch {} of the answers", k + 1),
        );
    }
    legend.add(Mark::Cross(INK.mix(0.7)), "a joint limit ends a piece");
    if let Some((_, best_cost)) = scene.optimum {
        legend.add(
            Mark::Ring(OPTIMUM.to_rgba()),
            format!("optimum (reference), J* = {best_cost:.4}"),
        );
    }
    for (_, _, colour, words) in marks {
        legend.add(Mark::Dot(colour.to_rgba()), words.clone());
    }
    legend
}

/// Each branch's pieces as lines in the branch's colour, a short cross where a joint limit
/// ends one inside the sweep `(lo, hi)`.
fn draw_pieces(
    chart: &mut PiecesChart,
    surface: &Surface,
    pieces: &[(usize, Vec<Run>)],
    (lo, hi): (f64, f64),
) -> DrawResult {
    let line = surface.stroke(2.0);
    let cut = surface.px(3.0);
    for (branch, runs) in pieces {
        let colour = palette::CHARTS[*branch % palette::CHARTS.len()];
        for run in runs {
            chart
                .draw_series(LineSeries::new(
                    run.iter().copied(),
                    colour.stroke_width(line),
                ))
                .map_err(text_err)?;
            for &(v, c) in [run[0], run[run.len() - 1]].iter() {
                if v > lo && v < hi {
                    let mark = EmptyElement::at((v, c))
                        + Cross::new((0, 0), cut, INK.mix(0.7).stroke_width(surface.stroke(1.2)));
                    chart.draw_series(std::iter::once(mark)).map_err(text_err)?;
                }
            }
        }
    }
    Ok(())
}

/// The optimum's level and ring, and the marks' dots (clipped to the chart's `top`).
fn draw_marks(
    chart: &mut PiecesChart,
    surface: &Surface,
    scene: &PiecesScene,
    marks: &[PieceDot],
    (lo, hi): (f64, f64),
    top: f64,
) -> DrawResult {
    if let Some((best, best_cost)) = scene.optimum {
        chart
            .draw_series(LineSeries::new(
                [(lo, best_cost), (hi, best_cost)],
                OPTIMUM.mix(0.8).stroke_width(surface.stroke(1.0)),
            ))
            .map_err(text_err)?;
        if let Some(v) = best.get(scene.sweep.joint).copied() {
            chart
                .draw_series(std::iter::once(Circle::new(
                    (v, best_cost),
                    surface.px(7.0),
                    OPTIMUM.stroke_width(surface.stroke(2.5)),
                )))
                .map_err(text_err)?;
        }
    }
    for (v, cost, colour, _) in marks {
        chart
            .draw_series(std::iter::once(Circle::new(
                (*v, cost.min(top)),
                surface.px(4.5),
                colour.filled(),
            )))
            .map_err(text_err)?;
    }
    Ok(())
}

/// Draws the panel: layout (captions, the legend's corner and the cost range), the axes, the
/// pieces and marks, then the legend.
pub fn draw(surface: &Surface, scene: &PiecesScene) -> DrawResult {
    let area = surface.area()?;
    let joint = scene.sweep.joint + 1;
    caption(
        &area,
        surface,
        &format!("The answers for this hand pose, swept along q{joint}: one curve a piece"),
    )?;
    subcaption(
        &area,
        surface,
        &format!(
            "{} · a local solver slides to the bottom of its piece; J* is the lowest point",
            scene.cost_formula
        ),
    )?;
    let body = area.margin(surface.px(CAPTION_BAND + SUBCAPTION_BAND), 0, 0, 0);
    let sweep = scene.sweep;
    let pieces: Vec<(usize, Vec<Run>)> = sweep
        .costs
        .iter()
        .enumerate()
        .map(|(b, costs)| (b, runs(&sweep.values, costs)))
        .filter(|(_, r)| !r.is_empty())
        .collect();
    if pieces.is_empty() {
        return message(
            &body,
            surface,
            "no answer within the limits for this hand pose",
        );
    }
    let (lo, hi) = (sweep.values[0], sweep.values[sweep.values.len() - 1]);
    let marks = marks(scene);
    let legend = legend(scene, &pieces, &marks);
    let points: Vec<(f64, f64)> = pieces
        .iter()
        .flat_map(|(_, r)| r.iter().flatten().copied())
        .chain(marks.iter().map(|m| (m.0, m.1)))
        .chain(scene.optimum.map(|(_, c)| (lo, c)))
        .collect();
    let highest = points.iter().map(|p| p.1).fold(0.0, f64::max).max(1e-3) * 1.08;
    let (body_w, body_h) = body.dim_in_pixel();
    let plot = (
        f64::from(body_w) - f64::from(surface.px(64.0)),
        f64::from(body_h) - f64::from(surface.px(42.0)),
    );
    let (corner, top) = place_legend(
        &points,
        (lo, hi),
        highest,
        legend.size(&body, surface)?,
        plot,
    );
    let mut chart = super::landscape::cost_chart(&body, surface, lo..hi, 0.0..top)?;
    chart
        .configure_mesh()
        .light_line_style(TRANSPARENT)
        .bold_line_style(palette::GRID)
        .x_desc(format!("q{joint} (rad)"))
        .y_desc("cost J")
        .x_labels(7)
        .y_labels(5)
        .x_label_formatter(&|x| format!("{x:.1}"))
        .y_label_formatter(&|v| format!("{v:.1}"))
        .label_style(surface.font(palette::LABEL_PX, INK))
        .axis_desc_style(surface.font(palette::LABEL_PX, INK))
        .draw()
        .map_err(text_err)?;
    draw_pieces(&mut chart, surface, &pieces, (lo, hi))?;
    draw_marks(&mut chart, surface, scene, &marks, (lo, hi), top)?;
    legend.draw(
        &body,
        surface,
        chart.plotting_area().get_pixel_range(),
        corner,
    )?;
    area.present().map_err(text_err)
}

#[cfg(test)]
mod tests {
    use super::{place_legend, runs, Corner};

    #[test]
    fn the_legend_goes_where_no_curve_is_or_above_them_all() {
        // A quarter of the plot for the legend; curves high on the right, low on the left.
        let (legend, plot) = ((100, 50), (400.0, 200.0));
        let right_high: Vec<(f64, f64)> = (0..50).map(|k| (1.0 + k as f64 * 0.04, 3.0)).collect();
        let (corner, top) = place_legend(&right_high, (-3.0, 3.0), 3.2, legend, plot);
        assert_eq!((corner, top), (Corner::UpperLeft, 3.2));
        // Points in every corner: the axis is raised over the legend's share of the height.
        let everywhere = [(-2.9, 0.1), (-2.9, 3.0), (2.9, 0.1), (2.9, 3.0)];
        let (corner, top) = place_legend(&everywhere, (-3.0, 3.0), 3.2, legend, plot);
        assert_eq!(corner, Corner::UpperRight);
        let share = (50.0 + 8.0) / 200.0;
        assert!((top - 3.2 / (1.0 - share)).abs() < 1e-12, "{top}");
        assert!(
            3.0 < top * (1.0 - share),
            "the highest point stays under the legend"
        );
    }

    #[test]
    fn a_piece_splits_where_it_has_no_answer() {
        let values = [0.0, 1.0, 2.0, 3.0, 4.0];
        let costs = [1.0, f64::NAN, 2.0, 3.0, f64::NAN];
        assert_eq!(
            runs(&values, &costs),
            vec![vec![(0.0, 1.0)], vec![(2.0, 2.0), (3.0, 3.0)]]
        );
        assert!(runs(&values, &[f64::NAN; 5]).is_empty());
    }
}
