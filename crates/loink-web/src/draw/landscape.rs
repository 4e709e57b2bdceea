//! `canvas#landscape`: the cost landscape for the current target.
//!
//! Top: the true cost along LOInK's learned solution set, z ↦ J(G⁻¹([y; z])), next to the
//! surrogate zᵀM(y)z + b(y), with the latent origin z = 0 marked. Bottom: the true cost along
//! the real self-motion set over φ (the last link's angle), feasible pieces solid and the arcs
//! cut away by joint limits grey, the global optimum, the local minima, the current solution
//! and the number of connected pieces.

use loink::solvers::analytic::Branch;
use loink::solvers::reference::planar::SelfMotion;
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::palette::{self, INK, LIMITS, MUTED, OPTIMUM, SAMPLE, SOLUTION, SURROGATE};
use super::{
    caption, text_err, Area, Corner, DrawResult, Legend, Mark, Surface, CAPTION_BAND,
    SUBCAPTION_BAND,
};
use crate::learned::LatentCurve;

/// What the landscape panel shows.
pub struct LandscapeScene<'a> {
    /// The sampled self-motion set (None while pending).
    pub motion: Option<&'a SelfMotion>,
    /// Number of joints.
    pub dof: usize,
    /// The current solution's configuration (empty when invalid) and cost.
    pub solution: (&'a [f64], f64),
    /// True and surrogate cost along the learned set (None without a learned model).
    pub curve: Option<&'a LatentCurve>,
    /// Why there is no curve, when there is none.
    pub no_curve: &'a str,
    /// The cost plotted, as a formula (`J = …`).
    pub cost_formula: &'a str,
    /// A multi-chart model's regions: the feasible pieces are then coloured by the chart whose
    /// region holds them (empty for a one-chart model: coloured by elbow branch).
    pub chart_regions: &'a [loink::problem::JointLimits],
    /// Another answer to mark beside the solution (a lesson's single-chart answer).
    pub compare: Option<(&'a [f64], f64)>,
    /// A problem without a swept self-motion set: the curves along the second latent axis
    /// and the third, each in a row below the first (None while pending), instead of the
    /// self-motion set (None for a swept problem; the full bundle only).
    #[cfg(feature = "unswept")]
    pub others: Option<Vec<Option<&'a LatentCurve>>>,
}

/// A run of consecutive self-motion samples drawn as one line: feasible, the chart covering
/// it (a multi-chart model), its (φ, J) points.
type Run = (bool, Option<usize>, Vec<(f64, f64)>);

/// Padded range of the finite values, None when there are none.
fn range_of(values: impl Iterator<Item = f64>) -> Option<(f64, f64)> {
    let (lo, hi) = values
        .filter(|v| v.is_finite())
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| {
            (a.min(v), b.max(v))
        });
    if lo.is_finite() && hi.is_finite() {
        let pad = ((hi - lo) * 0.08).max(1e-3);
        Some((lo - pad, hi + pad))
    } else {
        None
    }
}

/// A centred grey note in place of a chart.
pub fn message(area: &Area, surface: &Surface, text: &str) -> DrawResult {
    let (w, h) = area.dim_in_pixel();
    let style = surface
        .font(palette::LABEL_PX + 1.0, MUTED)
        .pos(Pos::new(HPos::Center, VPos::Center));
    area.draw_text(text, &style, (w as i32 / 2, h as i32 / 2))
        .map_err(text_err)
}

/// One curve's chart; `legend`: whether it carries the legend (the rows below the first of
/// three share the first row's).
fn draw_curve(
    area: &Area,
    surface: &Surface,
    scene: &LandscapeScene,
    curve: Option<&LatentCurve>,
    legend_shown: bool,
) -> DrawResult {
    let Some(curve) = curve else {
        return message(area, surface, scene.no_curve);
    };
    let failed = || message(area, surface, "the learned set could not be evaluated here");
    let Some((z0, z1)) = range_of(curve.z.iter().copied()) else {
        return failed();
    };
    let Some((c0, c1)) = range_of(curve.true_cost.iter().chain(&curve.surrogate).copied()) else {
        return failed();
    };
    let mut chart = cost_chart(area, surface, z0..z1, c0..c1)?;
    cost_axes(&mut chart, surface, curve.axis.as_str())?;
    let zs = || curve.z.iter().copied();
    let mut legend = Legend::default();
    let s2 = surface.stroke(2.0);
    for (values, colour, words) in [
        (&curve.true_cost, SOLUTION, "true cost J(G⁻¹([y; z]))"),
        (&curve.surrogate, SURROGATE, "surrogate zᵀM(y)z + b(y)"),
    ] {
        chart
            .draw_series(LineSeries::new(
                zs().zip(values.iter().copied()).filter(|p| p.1.is_finite()),
                colour.stroke_width(s2),
            ))
            .map_err(text_err)?;
        legend.add(Mark::Line(colour.to_rgba(), 2.0), words);
    }
    chart
        .draw_series(std::iter::once(PathElement::new(
            vec![(0.0, c0), (0.0, c1)],
            INK.stroke_width(surface.stroke(1.0)),
        )))
        .map_err(text_err)?;
    legend.add(
        Mark::Line(INK.to_rgba(), 1.0),
        "latent origin z = 0 (LOInK's answer)",
    );
    if !legend_shown {
        return Ok(());
    }
    legend.draw(
        area,
        surface,
        chart.plotting_area().get_pixel_range(),
        Corner::UpperRight,
    )
}

/// The cost along the self-motion set: layout (the cost range shown), the axes, the branches'
/// runs, the minima and answers, then the legend.
fn draw_motion(area: &Area, surface: &Surface, scene: &LandscapeScene) -> DrawResult {
    let Some(motion) = scene.motion else {
        return message(area, surface, "computing the self-motion set…");
    };
    if motion.branches.is_empty() {
        return message(area, surface, "no self-motion set: the target is not valid");
    }
    let Some((c0, c1)) = cost_range(motion) else {
        return message(area, surface, "no configuration reaches this target");
    };
    let (p0, p1) = motion.phi_range;
    let (p0, p1) = if p1 > p0 {
        (p0, p1)
    } else {
        (p0 - 1.0, p0 + 1.0)
    };
    let mut chart = cost_chart(area, surface, p0..p1, c0..c1)?;
    let axis = if scene.dof > 3 {
        "φ, last link angle (rad) — slice through q*"
    } else {
        "φ = q₁ + q₂ + q₃, last link angle (rad)"
    };
    cost_axes(&mut chart, surface, axis)?;
    let mut legend = Legend::default();
    let mut pen = MotionPen {
        chart: &mut chart,
        surface,
        legend: &mut legend,
        top: c1,
    };
    draw_branches(&mut pen, scene, motion)?;
    draw_minima_and_answers(&mut pen, scene, motion)?;
    legend.draw(
        area,
        surface,
        chart.plotting_area().get_pixel_range(),
        Corner::UpperRight,
    )
}

/// A chart of cost against one coordinate (the self-motion panel's, the latent curves', the
/// pieces').
pub type MotionChart<'a> =
    ChartContext<'a, super::Canvas2d, Cartesian2d<RangedCoordf64, RangedCoordf64>>;

/// What the self-motion panel's steps draw with: the chart, the surface's sizes, the legend
/// they add their lines to and the top of the cost range shown.
struct MotionPen<'p, 'c> {
    chart: &'p mut MotionChart<'c>,
    surface: &'p Surface,
    legend: &'p mut Legend,
    top: f64,
}

/// The axes of a [`cost_chart`]: cost J up, `x_desc` along, a light grid.
fn cost_axes(chart: &mut MotionChart, surface: &Surface, x_desc: &str) -> DrawResult {
    chart
        .configure_mesh()
        .light_line_style(TRANSPARENT)
        .bold_line_style(palette::GRID)
        .x_desc(x_desc)
        .y_desc("cost J")
        .x_labels(6)
        .y_labels(5)
        .label_style(surface.font(palette::LABEL_PX, INK))
        .axis_desc_style(surface.font(palette::LABEL_PX, INK))
        .draw()
        .map_err(text_err)
}

/// A chart of cost over `y` against a coordinate over `x`, with room for both axes' labels.
pub fn cost_chart<'a>(
    area: &'a Area,
    surface: &Surface,
    x: std::ops::Range<f64>,
    y: std::ops::Range<f64>,
) -> DrawResult<MotionChart<'a>> {
    ChartBuilder::on(area)
        .margin(surface.px(6.0))
        .margin_right(surface.px(12.0))
        .x_label_area_size(surface.px(30.0))
        .y_label_area_size(surface.px(46.0))
        .build_cartesian_2d(x, y)
        .map_err(text_err)
}

/// The cost range shown: the feasible samples' (or, without any, the reachable ones'), with
/// some of the infeasible arcs above it but not all the way up. None: nothing reaches.
fn cost_range(motion: &SelfMotion) -> Option<(f64, f64)> {
    let all = || motion.branches.iter().flat_map(|b| b.samples.iter());
    let feasible_cost = range_of(all().filter(|s| s.feasible).map(|s| s.cost));
    let reachable_cost = range_of(all().filter(|s| s.reachable).map(|s| s.cost));
    let (c0, mut c1) = feasible_cost.or(reachable_cost)?;
    if let Some((_, r1)) = reachable_cost {
        c1 = c1.max((c0 + 2.0 * (c1 - c0)).min(r1));
    }
    Some((c0, c1))
}

/// Each branch's samples as runs of one feasibility (and, with charts, one chart's region),
/// coloured by branch or chart; cut-away arcs faint.
fn draw_branches(pen: &mut MotionPen, scene: &LandscapeScene, motion: &SelfMotion) -> DrawResult {
    let mut branch_used = [false; 2];
    let mut charts_used = [false; loink::artifact::MAX_CHARTS];
    for branch in &motion.branches {
        let (colour, slot) = match branch.branch {
            Branch::ElbowDown => (LIMITS, 0),
            Branch::ElbowUp => (SAMPLE, 1),
        };
        for (feasible, owner, pts) in branch_runs(scene, &branch.samples, pen.top) {
            let style = if let (true, Some(k)) = (feasible, owner) {
                charts_used[k.min(charts_used.len() - 1)] = true;
                palette::chart(k).stroke_width(pen.surface.stroke(2.0))
            } else if feasible {
                branch_used[slot] = true;
                colour.stroke_width(pen.surface.stroke(2.0))
            } else {
                MUTED.mix(0.8).stroke_width(pen.surface.stroke(1.0))
            };
            pen.chart
                .draw_series(std::iter::once(PathElement::new(pts, style)))
                .map_err(text_err)?;
        }
    }
    if branch_used[0] {
        pen.legend.add(
            Mark::Line(LIMITS.to_rgba(), 2.0),
            "feasible, elbow-down branch",
        );
    }
    if branch_used[1] {
        pen.legend.add(
            Mark::Line(SAMPLE.to_rgba(), 2.0),
            "feasible, elbow-up branch",
        );
    }
    let used: Vec<String> = (0..charts_used.len())
        .filter(|&k| charts_used[k])
        .map(|k| k.to_string())
        .collect();
    if !used.is_empty() {
        pen.legend.add(
            Mark::Line(palette::chart(0).to_rgba(), 2.0),
            format!(
                "feasible, coloured by the pen.chart covering it ({})",
                used.join(", ")
            ),
        );
    }
    pen.legend
        .add(Mark::Line(MUTED.to_rgba(), 1.0), "cut away by joint limits");
    Ok(())
}

/// Runs of consecutive samples with the same feasibility, each drawn as its own line. Points
/// above the chart (cost above `c1`) end a run instead of being flattened onto its top edge.
/// With charts, a run also ends where the pose crosses into another chart's region.
fn branch_runs(
    scene: &LandscapeScene,
    samples: &[loink::solvers::reference::planar::SelfMotionSample],
    c1: f64,
) -> Vec<Run> {
    // The chart whose region holds a pose (a one-chart model has no regions).
    let chart_of = |q: &[f64]| scene.chart_regions.iter().position(|r| r.margin(q) >= 0.0);
    let mut runs: Vec<Run> = Vec::new();
    let mut broken = true;
    for s in samples {
        if !s.reachable || s.cost > c1 {
            broken = true;
            continue;
        }
        let point = (s.phi, s.cost);
        let owner = if s.feasible { chart_of(&s.q) } else { None };
        match runs.last_mut() {
            Some((f, o, pts)) if *f == s.feasible && *o == owner && !broken => pts.push(point),
            _ => runs.push((s.feasible, owner, vec![point])),
        }
        broken = false;
    }
    runs
}

/// The local minima (rings), the global optimum (a dot), the current answer (a cross) and a
/// compared answer (a plus), each clipped to the chart's top `c1`.
fn draw_minima_and_answers(
    pen: &mut MotionPen,
    scene: &LandscapeScene,
    motion: &SelfMotion,
) -> DrawResult {
    let clip = |c: f64| c.min(pen.top);
    let r = pen.surface.px(4.0);
    if motion.minima.len() > 1 {
        let ring = OPTIMUM.stroke_width(pen.surface.stroke(2.0));
        pen.chart
            .draw_series(
                motion
                    .minima
                    .iter()
                    .skip(1)
                    .map(|m| Circle::new((m.phi, clip(m.cost)), r, ring)),
            )
            .map_err(text_err)?;
        pen.legend
            .add(Mark::Ring(OPTIMUM.to_rgba()), "other local minima");
    }
    if let Some(best) = motion.minima.first() {
        pen.chart
            .draw_series(std::iter::once(Circle::new(
                (best.phi, best.cost),
                pen.surface.px(6.0),
                OPTIMUM.filled(),
            )))
            .map_err(text_err)?;
        pen.legend
            .add(Mark::Dot(OPTIMUM.to_rgba()), "global optimum J*");
    }
    let (q, cost) = scene.solution;
    if !q.is_empty() && cost.is_finite() {
        // φ is the last link's absolute angle: the sum of all joint angles.
        let phi: f64 = q.iter().sum();
        pen.chart
            .draw_series(std::iter::once(Cross::new(
                (phi, clip(cost)),
                r,
                SOLUTION.stroke_width(pen.surface.stroke(2.5)),
            )))
            .map_err(text_err)?;
        pen.legend
            .add(Mark::Cross(SOLUTION.to_rgba()), "current solution");
    }
    if let Some((q, cost)) = scene
        .compare
        .filter(|(q, c)| !q.is_empty() && c.is_finite())
    {
        let phi: f64 = q.iter().sum();
        let colour = palette::TARGET.stroke_width(pen.surface.stroke(2.5));
        let d = r + pen.surface.px(1.0);
        pen.chart
            .draw_series(std::iter::once(
                EmptyElement::at((phi, clip(cost)))
                    + PathElement::new(vec![(-d, 0), (d, 0)], colour)
                    + PathElement::new(vec![(0, -d), (0, d)], colour),
            ))
            .map_err(text_err)?;
        pen.legend.add(
            Mark::Line(palette::TARGET.to_rgba(), 2.5),
            "one pen.chart's answer (+)",
        );
    }
    Ok(())
}

/// A panel of the self-motion part alone, under `caption` (the charts lesson).
#[cfg(feature = "lessons")]
pub fn draw_pieces(surface: &Surface, scene: &LandscapeScene, text: &str) -> DrawResult {
    let area = surface.area()?;
    caption(&area, surface, text)?;
    let body = area.margin(surface.px(CAPTION_BAND), 0, 0, 0);
    draw_motion(&body, surface, scene)?;
    area.present().map_err(text_err)
}

/// Draws the panel.
pub fn draw(surface: &Surface, scene: &LandscapeScene) -> DrawResult {
    let area = surface.area()?;
    #[cfg(feature = "unswept")]
    let others = scene.others.as_deref();
    #[cfg(not(feature = "unswept"))]
    let others: Option<&[Option<&LatentCurve>]> = None;
    caption(
        &area,
        surface,
        match others.map(<[_]>::len) {
            None => "Cost J along the learned set (top) and the self-motion set (bottom)",
            Some(1) => "Cost J along the learned set: through z = 0 along z₁ (top) and z₂ (bottom)",
            Some(_) => {
                "Cost J along the learned set: through z = 0 along z₁, z₂ and z₃ (top to bottom)"
            }
        },
    )?;
    let pieces = match scene.motion.map(|m| m.pieces) {
        Some(1) => " · the self-motion set is 1 piece".to_string(),
        Some(0) => " · no feasible piece".to_string(),
        Some(n) if !scene.chart_regions.is_empty() => {
            format!(" · {n} pieces, each coloured by the chart covering it")
        }
        Some(n) => format!(" · {n} pieces: one chart cannot cover them"),
        None => String::new(),
    };
    super::subcaption(&area, surface, &format!("{}{pieces}", scene.cost_formula))?;
    let body = area.margin(surface.px(CAPTION_BAND + SUBCAPTION_BAND), 0, 0, 0);
    match others {
        Some(others) => {
            let rows = body.split_evenly((others.len() + 1, 1));
            draw_curve(&rows[0], surface, scene, scene.curve, true)?;
            for (row, curve) in rows[1..].iter().zip(others) {
                draw_curve(row, surface, scene, *curve, others.len() < 2)?;
            }
        }
        None => {
            let (top, bottom) = body.split_vertically(body.dim_in_pixel().1 as i32 / 2);
            draw_curve(&top, surface, scene, scene.curve, true)?;
            draw_motion(&bottom, surface, scene)?;
        }
    }
    area.present().map_err(text_err)
}
