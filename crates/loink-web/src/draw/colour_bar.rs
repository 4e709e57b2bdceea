//! The viridis colour bar beside a heat map (the latent panel's cost, the gap map's gap): a
//! strip of 64 steps, labelled on the right.

use plotters::prelude::*;

use super::palette::{self, INK};
use super::{grid_to_rgba, text_err, DrawResult, Surface};

/// Draws the bar for values `lo`..`hi` under `title`, its labels `label_width` CSS px wide and
/// written by `format` when given. A range that is empty, inverted or not finite (no cell
/// computed, or every pose outside the limits) draws a unit bar: plotters' tick search never
/// ends on an infinite range.
pub fn draw(
    area: &DrawingArea<super::Canvas2d, plotters::coord::Shift>,
    surface: &Surface,
    (lo, hi): (f64, f64),
    title: &str,
    label_width: f64,
    format: Option<&dyn Fn(&f64) -> String>,
) -> DrawResult {
    let (lo, hi) = match (lo.is_finite(), hi.is_finite()) {
        (true, true) if hi > lo => (lo, hi),
        (true, _) => (lo, lo + 1.0),
        _ => (0.0, 1.0),
    };
    let mut chart = ChartBuilder::on(area)
        .margin(surface.px(6.0))
        .margin_bottom(surface.px(36.0))
        .right_y_label_area_size(surface.px(label_width))
        .build_cartesian_2d(0.0..1.0, lo..hi)
        .map_err(text_err)?;
    let (xr, yr) = chart.plotting_area().get_pixel_range();
    let (w, h) = (
        (xr.end - xr.start).clamp(1, surface.px(12.0)) as u32,
        (yr.end - yr.start).max(1) as u32,
    );
    let cells: Vec<Option<[u8; 3]>> = (0..64)
        .rev()
        .map(|k| Some(palette::viridis(k as f64 / 63.0)))
        .collect();
    let rgba = grid_to_rgba(&cells, 1, 64, w, h);
    surface.put_rgba(&rgba, w, h, xr.start as f64, yr.start as f64)?;
    let mut mesh = chart.configure_mesh();
    mesh.disable_mesh()
        .disable_x_axis()
        .y_labels(5)
        .y_desc(title)
        .label_style(surface.font(palette::LABEL_PX, INK))
        .axis_desc_style(surface.font(palette::LABEL_PX, INK));
    if let Some(format) = format {
        mesh.y_label_formatter(format);
    }
    mesh.draw().map_err(text_err)
}
