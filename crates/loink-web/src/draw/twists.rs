//! `canvas#landscape` for a problem whose self-motion set is 2-D (the soft arm): no one curve
//! can show a surface's cost, and the latent panel already maps the effort over the learned
//! set, so this panel shows what the effort is made of — each rod's twist φ_j of the answer
//! against the optimum's (the optimum spreads twist as a ramp across the rods), with the
//! sampled family's twists faint behind them.

use plotters::prelude::*;

use super::landscape::message;
use super::palette::{self, INK, OPTIMUM, SAMPLE, SOLUTION};
use super::{
    caption, text_err, Corner, DrawResult, Legend, Mark, Surface, CAPTION_BAND, SUBCAPTION_BAND,
};

/// What the panel shows.
pub struct TwistScene<'a> {
    /// The answer's joints (empty when invalid) and its effort J.
    pub solution: (&'a [f64], f64),
    /// The optimum's joints and J* (None while pending or when none is feasible).
    pub optimum: Option<(&'a [f64], f64)>,
    /// The sampled family (faint).
    pub samples: &'a [Vec<f64>],
    /// The joint box (the y axis spans it).
    pub upper: f64,
    /// The cost, as a formula.
    pub cost_formula: &'a str,
}

fn degrees(q: &[f64]) -> Vec<(f64, f64)> {
    q.iter()
        .enumerate()
        .map(|(j, v)| ((j + 1) as f64, v.to_degrees()))
        .collect()
}

/// Draws the panel.
pub fn draw(surface: &Surface, scene: &TwistScene) -> DrawResult {
    let area = surface.area()?;
    caption(
        &area,
        surface,
        "Each rod's twist: the answer against the optimum",
    )?;
    super::subcaption(
        &area,
        surface,
        &format!(
            "{} · a 2-D self-motion set has no one curve: the latent panel maps its effort",
            scene.cost_formula
        ),
    )?;
    let body = area.margin(surface.px(CAPTION_BAND + SUBCAPTION_BAND), 0, 0, 0);
    let (q, cost) = scene.solution;
    if q.is_empty() {
        return message(&body, surface, "no answer to show");
    }
    let top = scene.upper.to_degrees() * 1.05;
    let mut chart = ChartBuilder::on(&body)
        .margin(surface.px(6.0))
        .margin_right(surface.px(12.0))
        .x_label_area_size(surface.px(30.0))
        .y_label_area_size(surface.px(50.0))
        .build_cartesian_2d(0.6..q.len() as f64 + 0.4, 0.0..top)
        .map_err(text_err)?;
    chart
        .configure_mesh()
        .light_line_style(TRANSPARENT)
        .bold_line_style(palette::GRID)
        .x_desc("rod j")
        .y_desc("twist φ (°)")
        .x_labels(q.len())
        .x_label_formatter(&|x| format!("{x:.0}"))
        .y_labels(5)
        .y_label_formatter(&|v| format!("{v:.0}"))
        .label_style(surface.font(palette::LABEL_PX, INK))
        .axis_desc_style(surface.font(palette::LABEL_PX, INK))
        .draw()
        .map_err(text_err)?;
    let mut legend = Legend::default();
    let thin = surface.stroke(1.0);
    for sample in scene.samples {
        chart
            .draw_series(LineSeries::new(
                degrees(sample),
                SAMPLE.mix(0.5).stroke_width(thin),
            ))
            .map_err(text_err)?;
    }
    if !scene.samples.is_empty() {
        legend.add(
            Mark::Line(SAMPLE.to_rgba(), 1.0),
            format!("{} sampled answers", scene.samples.len()),
        );
    }
    let wide = surface.stroke(2.0);
    let radius = surface.px(3.5);
    if let Some((best, best_cost)) = scene.optimum {
        chart
            .draw_series(LineSeries::new(degrees(best), OPTIMUM.stroke_width(wide)))
            .map_err(text_err)?;
        chart
            .draw_series(
                degrees(best)
                    .into_iter()
                    .map(|p| Circle::new(p, radius, OPTIMUM.filled())),
            )
            .map_err(text_err)?;
        legend.add(
            Mark::Line(OPTIMUM.to_rgba(), 2.0),
            format!("optimum, J* = {best_cost:.4}"),
        );
    }
    chart
        .draw_series(LineSeries::new(degrees(q), SOLUTION.stroke_width(wide)))
        .map_err(text_err)?;
    chart
        .draw_series(
            degrees(q)
                .into_iter()
                .map(|p| Circle::new(p, radius, SOLUTION.filled())),
        )
        .map_err(text_err)?;
    legend.add(
        Mark::Line(SOLUTION.to_rgba(), 2.0),
        format!("answer, J = {cost:.4}"),
    );
    legend.draw(
        &body,
        surface,
        chart.plotting_area().get_pixel_range(),
        Corner::UpperLeft,
    )?;
    area.present().map_err(text_err)
}
