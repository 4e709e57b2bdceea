//! `canvas#landscape` for a pose target (docs/pose.md, "the set of answers"): the hand held at
//! the target, the arm keeps one degree of freedom — swept here along q7 — and its answers
//! form curves in several pieces (shoulder, elbow and wrist branches, cut by the joint limits).
//! The panel draws J of every piece against q7, J\* as a line, the answer and the optimum as
//! marks: a local solver slides to the bottom of the piece it starts on; the cheapest answer
//! is the lowest point of them all.

use loink::problem::AnswerSweep;
use plotters::prelude::*;

use super::landscape::message;
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

/// Draws the panel.
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
    let top = pieces
        .iter()
        .flat_map(|(_, r)| r.iter().flatten().map(|p| p.1))
        .fold(0.0, f64::max)
        .max(
            scene
                .marks
                .iter()
                .map(|m| m.cost.min(1e3))
                .fold(0.0, f64::max),
        )
        .max(1e-3)
        * 1.08;
    let mut chart = ChartBuilder::on(&body)
        .margin(surface.px(6.0))
        .margin_right(surface.px(12.0))
        .x_label_area_size(surface.px(30.0))
        .y_label_area_size(surface.px(46.0))
        .build_cartesian_2d(lo..hi, 0.0..top)
        .map_err(text_err)?;
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
    let mut legend = Legend::default();
    let line = surface.stroke(2.0);
    let cut = surface.px(3.0);
    for (k, (branch, runs)) in pieces.iter().enumerate() {
        let colour = palette::CHARTS[*branch % palette::CHARTS.len()];
        for run in runs {
            chart
                .draw_series(LineSeries::new(
                    run.iter().copied(),
                    colour.stroke_width(line),
                ))
                .map_err(text_err)?;
            // A piece that ends inside the sweep ends at a joint limit: a short bar marks it.
            for &(v, c) in [run[0], run[run.len() - 1]].iter() {
                if v > lo && v < hi {
                    let mark = EmptyElement::at((v, c))
                        + Cross::new((0, 0), cut, INK.mix(0.7).stroke_width(surface.stroke(1.2)));
                    chart.draw_series(std::iter::once(mark)).map_err(text_err)?;
                }
            }
        }
        if k < 4 {
            legend.add(
                Mark::Line(colour.to_rgba(), 2.0),
                format!("piece {}", k + 1),
            );
        }
    }
    legend.add(Mark::Cross(INK.mix(0.7)), "a joint limit ends a piece");
    let q_at = |q: &[f64]| q.get(sweep.joint).copied();
    if let Some((best, best_cost)) = scene.optimum {
        chart
            .draw_series(LineSeries::new(
                [(lo, best_cost), (hi, best_cost)],
                OPTIMUM.mix(0.8).stroke_width(surface.stroke(1.0)),
            ))
            .map_err(text_err)?;
        if let Some(v) = q_at(best) {
            chart
                .draw_series(std::iter::once(Circle::new(
                    (v, best_cost),
                    surface.px(7.0),
                    OPTIMUM.stroke_width(surface.stroke(2.5)),
                )))
                .map_err(text_err)?;
        }
        legend.add(
            Mark::Ring(OPTIMUM.to_rgba()),
            format!("optimum (reference), J* = {best_cost:.4}"),
        );
    }
    for mark in scene.marks {
        let Some(v) = q_at(mark.q).filter(|_| mark.cost.is_finite()) else {
            continue;
        };
        let colour = if mark.reached {
            mark.colour
        } else {
            palette::TARGET
        };
        chart
            .draw_series(std::iter::once(Circle::new(
                (v, mark.cost.min(top)),
                surface.px(4.5),
                colour.filled(),
            )))
            .map_err(text_err)?;
        let what = if mark.reached {
            ""
        } else {
            " (not on the target)"
        };
        legend.add(
            Mark::Dot(colour.to_rgba()),
            format!("{}, J = {:.4}{what}", mark.label, mark.cost),
        );
    }
    legend.draw(
        &body,
        surface,
        chart.plotting_area().get_pixel_range(),
        Corner::UpperRight,
    )?;
    area.present().map_err(text_err)
}

#[cfg(test)]
mod tests {
    use super::runs;

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
