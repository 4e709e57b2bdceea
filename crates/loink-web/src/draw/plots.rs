//! Plots shared by the lessons' panels, on top of the playground's [`Surface`], palette and
//! hand-drawn [`Legend`](crate::draw::Legend): a workspace chart (same pixel ↔ world map as
//! `canvas#arm`), arms, the target, one frame and one mesh style for every value chart (line,
//! bar and log charts), and plain line charts.

use loink::problem::planar::PlanarArm;
use plotters::chart::MeshStyle;
use plotters::coord::ranged1d::ValueFormatter;
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;

use crate::draw::palette::{self, INK, MUTED, TARGET};
use crate::draw::{text_err, Area, Canvas2d, DrawResult, Surface, CAPTION_BAND};
use crate::view::Viewport;

/// A chart in f64 × f64 coordinates.
pub type Chart<'a> = ChartContext<'a, Canvas2d, Cartesian2d<RangedCoordf64, RangedCoordf64>>;

/// A workspace chart for `arm` filling the panel; returns it with its pixel ↔ world map.
pub fn workspace<'a>(
    area: &'a Area,
    surface: &Surface,
    arm: &PlanarArm,
) -> DrawResult<(Chart<'a>, Viewport)> {
    let half = arm.reach() * 1.08;
    let view = crate::draw::arm::viewport(surface, [-half, half, -half, half]);
    let mut chart = crate::draw::arm::workspace_chart(area, surface, &view)?;
    let reach = arm.reach();
    let circle: Vec<(f64, f64)> = (0..=96)
        .map(|k| {
            let a = std::f64::consts::TAU * k as f64 / 96.0;
            (reach * a.cos(), reach * a.sin())
        })
        .collect();
    chart
        .draw_series(std::iter::once(PathElement::new(
            circle,
            MUTED.mix(0.5).stroke_width(surface.stroke(1.0)),
        )))
        .map_err(text_err)?;
    Ok((chart, view))
}

/// Joint positions of q as chart points (empty for an invalid q).
pub fn points(arm: &PlanarArm, q: &[f64]) -> Vec<(f64, f64)> {
    if q.len() != arm.dof() || !q.iter().all(|v| v.is_finite()) {
        return Vec::new();
    }
    arm.joint_positions(q)
        .into_iter()
        .map(|[x, y]| (x, y))
        .collect()
}

/// Draws an arm: links of CSS width `width`, joints as rings when `joints`.
pub fn arm(
    chart: &mut Chart,
    surface: &Surface,
    arm: &PlanarArm,
    q: &[f64],
    colour: RGBAColor,
    width: f64,
    joints: bool,
) -> DrawResult {
    let pts = points(arm, q);
    if pts.is_empty() {
        return Ok(());
    }
    chart
        .draw_series(std::iter::once(PathElement::new(
            pts.clone(),
            colour.stroke_width(surface.stroke(width)),
        )))
        .map_err(text_err)?;
    if joints {
        let r = surface.px(3.5);
        chart
            .draw_series(
                pts.iter()
                    .skip(1)
                    .map(|&p| Circle::new(p, r, WHITE.filled())),
            )
            .map_err(text_err)?;
        chart
            .draw_series(
                pts.iter()
                    .skip(1)
                    .map(|&p| Circle::new(p, r, colour.stroke_width(surface.stroke(1.5)))),
            )
            .map_err(text_err)?;
    }
    Ok(())
}

/// The reference optimum: a wide, faint arm drawn under the answers.
pub fn optimum(chart: &mut Chart, surface: &Surface, planar: &PlanarArm, q: &[f64]) -> DrawResult {
    arm(
        chart,
        surface,
        planar,
        q,
        palette::OPTIMUM.mix(0.5),
        7.0,
        false,
    )
}

/// A cross at a world point (where an answer's end effector really is).
pub fn cross(chart: &mut Chart, surface: &Surface, at: [f64; 2], colour: RGBAColor) -> DrawResult {
    chart
        .draw_series(std::iter::once(Cross::new(
            (at[0], at[1]),
            surface.px(6.0),
            colour.stroke_width(surface.stroke(2.5)),
        )))
        .map_err(text_err)?;
    Ok(())
}

/// The base square and the target ring.
pub fn base_and_target(
    area: &Area,
    chart: &Chart,
    surface: &Surface,
    target: [f64; 2],
) -> DrawResult {
    let b = surface.px(5.0);
    let base = chart.backend_coord(&(0.0, 0.0));
    area.draw(&Rectangle::new(
        [(base.0 - b, base.1 - b), (base.0 + b, base.1 + b)],
        INK.filled(),
    ))
    .map_err(text_err)?;
    let tp = chart.backend_coord(&(target[0], target[1]));
    let r = surface.px(7.0);
    let style = TARGET.stroke_width(surface.stroke(2.0));
    area.draw(&Circle::new(tp, r, style)).map_err(text_err)?;
    area.draw(&PathElement::new(
        vec![(tp.0 - r - 3, tp.1), (tp.0 + r + 3, tp.1)],
        style,
    ))
    .map_err(text_err)?;
    area.draw(&PathElement::new(
        vec![(tp.0, tp.1 - r - 3), (tp.0, tp.1 + r + 3)],
        style,
    ))
    .map_err(text_err)?;
    Ok(())
}

/// The frame of a value chart under the caption band: the lessons' margins, `x_label_px` and
/// `y_label_px` CSS px for the axis labels.
pub fn framed<'a, 'b>(
    area: &'a Area,
    surface: &Surface,
    x_label_px: f64,
    y_label_px: f64,
) -> ChartBuilder<'a, 'b, Canvas2d> {
    let mut builder = ChartBuilder::on(area);
    builder
        .margin_top(surface.px(CAPTION_BAND + 6.0))
        .margin_left(surface.px(8.0))
        .margin_right(surface.px(14.0))
        .margin_bottom(surface.px(6.0))
        .x_label_area_size(surface.px(x_label_px))
        .y_label_area_size(surface.px(y_label_px));
    builder
}

/// The lessons' mesh: bold grid lines only, labels and axis descriptions in the page's font,
/// an empty description left out (the caller adds its own labels and formatters, then draws).
pub fn styled_mesh<'a, 'b, X, Y>(
    chart: &'b mut ChartContext<'a, Canvas2d, Cartesian2d<X, Y>>,
    surface: &Surface,
    x_desc: &str,
    y_desc: &str,
) -> MeshStyle<'a, 'b, X, Y, Canvas2d>
where
    X: Ranged + ValueFormatter<X::ValueType>,
    Y: Ranged + ValueFormatter<Y::ValueType>,
{
    let mut mesh = chart.configure_mesh();
    mesh.bold_line_style(palette::GRID)
        .light_line_style(palette::GRID.mix(0.0))
        .label_style(surface.font(palette::LABEL_PX, INK))
        .axis_desc_style(surface.font(palette::LABEL_PX, INK))
        .axis_style(INK.mix(0.6));
    // An empty description draws nothing (a bar chart names its bars in the labels instead).
    if !x_desc.is_empty() {
        mesh.x_desc(x_desc);
    }
    if !y_desc.is_empty() {
        mesh.y_desc(y_desc);
    }
    mesh
}

/// A line chart under the caption band with the given ranges and axis descriptions.
pub fn line_chart<'a>(
    area: &'a Area,
    surface: &Surface,
    x: std::ops::Range<f64>,
    y: std::ops::Range<f64>,
    x_desc: &str,
    y_desc: &str,
) -> DrawResult<Chart<'a>> {
    let mut chart = framed(area, surface, 32.0, 52.0)
        .margin_top(surface.px(CAPTION_BAND + 4.0))
        .build_cartesian_2d(x, y)
        .map_err(text_err)?;
    styled_mesh(&mut chart, surface, x_desc, y_desc)
        .x_labels(6)
        .y_labels(6)
        .draw()
        .map_err(text_err)?;
    Ok(chart)
}

/// A polyline in chart coordinates (non-finite points break the line).
pub fn polyline(
    chart: &mut Chart,
    surface: &Surface,
    points: &[(f64, f64)],
    colour: RGBAColor,
    width: f64,
) -> DrawResult {
    for run in points.split(|p| !(p.0.is_finite() && p.1.is_finite())) {
        if run.len() >= 2 {
            chart
                .draw_series(std::iter::once(PathElement::new(
                    run.to_vec(),
                    colour.stroke_width(surface.stroke(width)),
                )))
                .map_err(text_err)?;
        }
    }
    Ok(())
}

/// (lo, hi) of the finite values, widened by 8 % (and to a unit range when flat or empty).
pub fn padded_range(values: impl IntoIterator<Item = f64>) -> (f64, f64) {
    let (lo, hi) = values
        .into_iter()
        .filter(|v| v.is_finite())
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| {
            (a.min(v), b.max(v))
        });
    if !(lo.is_finite() && hi.is_finite()) {
        return (0.0, 1.0);
    }
    let pad = ((hi - lo) * 0.08).max(1e-9);
    if hi - lo < 1e-12 {
        (lo - 0.5, hi + 0.5)
    } else {
        (lo - pad, hi + pad)
    }
}
