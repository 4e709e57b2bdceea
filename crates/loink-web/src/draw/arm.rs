//! `canvas#arm`: the configuration panel — reachable region, the robot as its problem sketches
//! it (links and joints with their limit arcs, rods and plates), the target, the reference
//! optimum as a ghost and sampled solutions as faint ghosts.

use loink::problem::region::Region;
use loink::problem::{Problem, Shape, Stroke};
use loink::report::Solution;
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;

use super::arm_layout::ArmLayout;
use super::overlay::{ArmDrawn, Overlay, OverlayKind};
use super::palette::{INK, LIMITS, MUTED, OPTIMUM, REGION, SAMPLE, SOLUTION, TARGET};
use super::units;
use super::{caption, text_err, Answer, DrawResult, Legend, Mark, Surface, CAPTION_BAND};
use crate::view::Viewport;

/// What the arm panel shows: the answer (its problem's sketch draws the robot) and beside it
/// the proposals and the region.
pub struct ArmScene<'a> {
    /// The answer and what surrounds it in every arm panel.
    pub answer: Answer<'a>,
    /// A multi-chart model's proposals, one per chart (empty otherwise): ghosts in the
    /// chart's colour, the winner's drawn as the answer.
    pub proposals: &'a [Solution],
    /// Reachable region raster and its cached [`region_image`]; None while it is not sampled
    /// yet (the page's first, arm-only frame: the region follows with the next one).
    pub region: Option<(&'a Region, &'a web_sys::HtmlCanvasElement)>,
}

impl<'a> std::ops::Deref for ArmScene<'a> {
    type Target = Answer<'a>;
    fn deref(&self) -> &Answer<'a> {
        &self.answer
    }
}

/// Margins (CSS px): left (y labels), right, top (below the caption), bottom (x labels).
const LEFT: f64 = 40.0;
const RIGHT: f64 = 10.0;
const TOP: f64 = 4.0;
const BOTTOM: f64 = 30.0;

/// The world rectangle the panel shows for `problem`: the frame its kind draws its sketch in
/// (the climber), else its reach disc (a planar arm) with an 8 % margin; any other problem's reachable region (its bounds are kept by the page's cache)
/// together with its sketch (`with_sketch`).
pub fn world_bounds(problem: &Problem, region: Option<&Region>) -> [f64; 4] {
    if let Some(bounds) = problem.capabilities().plane().and_then(|v| v.bounds()) {
        return bounds;
    }
    match (
        problem.capabilities().plane().and_then(|v| v.reach_disc()),
        region,
    ) {
        (Some(reach), _) => {
            let half = reach * 1.08;
            [-half, half, -half, half]
        }
        (None, Some(region)) => with_sketch(problem, region.bounds()),
        // Every kind without a reach disc is the full bundle's.
        #[cfg(feature = "unswept")]
        (None, None) => match problem.task_bounds(4_096) {
            Some(bounds) => with_sketch(problem, bounds),
            None => {
                let r = problem.workspace_radius();
                [-r, r, -r, r]
            }
        },
        #[cfg(not(feature = "unswept"))]
        (None, None) => {
            let r = problem.workspace_radius();
            [-r, r, -r, r]
        }
    }
}

/// `bounds` grown to hold the problem's sketch at the box's centre and corners, with a 6 %
/// margin (the soft arm's base sits well below its workspace).
#[cfg(feature = "unswept")]
fn with_sketch(problem: &Problem, mut bounds: [f64; 4]) -> [f64; 4] {
    let limits = problem.limits();
    let poses = [
        limits.centres(),
        limits.lower().to_vec(),
        limits.upper().to_vec(),
    ];
    for q in &poses {
        let Some(sketch) = crate::kinds::sketch(problem, q) else {
            continue;
        };
        for [x, y] in sketch.points() {
            bounds = [
                bounds[0].min(x),
                bounds[1].max(x),
                bounds[2].min(y),
                bounds[3].max(y),
            ];
        }
    }
    let pad = 0.06 * (bounds[1] - bounds[0]).max(bounds[3] - bounds[2]);
    [
        bounds[0] - pad,
        bounds[1] + pad,
        bounds[2] - pad,
        bounds[3] + pad,
    ]
}

/// Without the model-free problems every problem is a planar arm: the bounds as they are.
#[cfg(not(feature = "unswept"))]
fn with_sketch(_problem: &Problem, bounds: [f64; 4]) -> [f64; 4] {
    bounds
}

/// The viewport the panel will use at the current canvas size (for pointer mapping before
/// the first draw, and for the region image) around world rectangle `bounds`.
pub fn viewport(surface: &Surface, bounds: [f64; 4]) -> Viewport {
    let (w, h) = surface.size();
    let d = surface.dpr();
    let l = ((LEFT + 8.0) * d).round();
    let t = ((CAPTION_BAND + TOP) * d).round();
    let r = w as f64 - (RIGHT * d).round();
    let b = h as f64 - ((BOTTOM + 8.0) * d).round();
    let (x, y) = Viewport::fit_world(bounds, r - l, b - t);
    Viewport {
        pixels: [l, t, r, b],
        world: [x[0], x[1], y[0], y[1]],
    }
}

/// The reachable-region shading as an RGBA image of the region's cells (cache it: it only
/// changes with the problem); [`draw`] scales it onto the plot.
pub fn region_image(region: &Region) -> (Vec<u8>, u32, u32) {
    let cells = loink::problem::region::CELLS as u32;
    (
        region.rgba([REGION.0, REGION.1, REGION.2, 255]),
        cells,
        cells,
    )
}

fn arc(centre: [f64; 2], radius: f64, from: f64, to: f64) -> Vec<(f64, f64)> {
    let steps = ((to - from).abs() * 16.0).ceil().max(8.0) as usize;
    (0..=steps)
        .map(|k| {
            let a = from + (to - from) * k as f64 / steps as f64;
            (centre[0] + radius * a.cos(), centre[1] + radius * a.sin())
        })
        .collect()
}

#[cfg(feature = "multi-chart")]
/// A multi-chart model's proposals as ghosts coloured by chart (faint and thin when a proposal
/// misses the target by more than a millimetre or breaks a limit), with a legend line for the
/// winner and each other proposal that reaches the target, and one for the rest.
fn draw_proposals(pen: &mut Pen, scene: &ArmScene) -> DrawResult {
    let winner = scene.solution.chart();
    let mut missed = 0;
    for proposal in scene.proposals.iter().filter(|p| !p.q().is_empty()) {
        let k = proposal.chart().unwrap_or(0);
        let colour = super::palette::chart(k);
        let good = proposal.residual() <= 1e-3 && proposal.margin() >= -1e-6;
        let (alpha, width) = if good { (0.55, 2.5) } else { (0.3, 1.0) };
        let style = colour.mix(alpha).stroke_width(pen.surface.stroke(width));
        draw_body(pen.chart, scene.problem, proposal.q(), style)?;
        if winner == Some(k) || good {
            let verdict = if winner == Some(k) {
                "wins".to_string()
            } else {
                format!("J = {:.3}", proposal.cost())
            };
            pen.legend.add(
                Mark::Line(colour.mix(0.8), width),
                format!("pen.chart {k}: {verdict}"),
            );
        } else {
            missed += 1;
        }
    }
    if missed > 0 {
        pen.legend.add(
            Mark::Line(MUTED.mix(0.6), 1.0),
            format!("{missed} other charts: miss the target or break a limit (faint)"),
        );
    }
    Ok(())
}

/// The robot's body (links, rods, plates) as polylines, for ghosts.
fn body(problem: &Problem, q: &[f64]) -> Vec<Vec<(f64, f64)>> {
    let Some(sketch) = crate::kinds::sketch(problem, q) else {
        return Vec::new();
    };
    sketch
        .shapes
        .into_iter()
        .filter_map(|s| match s {
            Shape::Polyline { stroke, points } if stroke.is_robot() => {
                Some(points.into_iter().map(|[x, y]| (x, y)).collect())
            }
            _ => None,
        })
        .collect()
}

/// The workspace axes (x, y in metres; labelled in millimetres on a view of centimetres) laid out on `view`'s pixel rectangle, shared by the arm
/// panel and the lessons' arm views so both map pixels to the world the same way.
pub fn workspace_chart<'a>(
    area: &'a super::Area,
    surface: &Surface,
    view: &Viewport,
) -> DrawResult<ChartContext<'a, super::Canvas2d, Cartesian2d<RangedCoordf64, RangedCoordf64>>> {
    let [x0, x1, y0, y1] = view.world;
    let millimetres = units::in_millimetres((x1 - x0).max(y1 - y0));
    let (w, h) = surface.size();
    // The x labels take at most their own band under the plot; whatever lies below it (the
    // loads bars) is margin.
    let below = (h as f64 - view.pixels[3]) as i32;
    let labels = (below - surface.px(8.0)).min(surface.px(30.0));
    let mut chart = ChartBuilder::on(area)
        .margin_top(view.pixels[1] as i32)
        .margin_left(surface.px(8.0))
        .margin_right((w as f64 - view.pixels[2]) as i32)
        .margin_bottom(below - labels)
        .x_label_area_size(labels)
        .y_label_area_size(view.pixels[0] as i32 - surface.px(8.0))
        .build_cartesian_2d(x0..x1, y0..y1)
        .map_err(text_err)?;
    units::workspace_mesh(&mut chart, surface, millimetres)
        .axis_style(INK.mix(0.6))
        .draw()
        .map_err(text_err)?;
    Ok(chart)
}

/// The workspace chart of the arm panel.
type Chart<'a> = ChartContext<'a, super::Canvas2d, Cartesian2d<RangedCoordf64, RangedCoordf64>>;

/// What the panel's steps draw with: the workspace chart, the surface's sizes and the legend
/// they add their lines to.
struct Pen<'p, 'c> {
    chart: &'p mut Chart<'c>,
    surface: &'p Surface,
    legend: &'p mut Legend,
}

/// Draws the panel in `layout`; says what it drew over the panel and where the robot is. The
/// region image is the cached [`region_image`] of the region on an off-screen canvas. Layout
/// (the region and the caption), then the axes, then the series from the faintest up (reach,
/// samples, proposals, the optimum, the probe's pose, the robot, the target), then the legend.
pub fn draw(surface: &Surface, scene: &ArmScene, layout: &ArmLayout) -> DrawResult<ArmDrawn> {
    let view = &layout.view;
    let area = surface.area()?;
    let mut drawn = ArmDrawn::default();
    draw_region(surface, scene, view)?;
    caption(
        &area,
        surface,
        &format!(
            "Configuration: the {} answer; ghost = global optimum (reference)",
            scene.solver
        ),
    )?;
    let mut chart = workspace_chart(&area, surface, view)?;
    let mut legend = Legend::default();
    let mut pen = Pen {
        chart: &mut chart,
        surface,
        legend: &mut legend,
    };
    draw_reach(&mut pen, scene)?;
    draw_samples(&mut pen, scene)?;
    #[cfg(feature = "multi-chart")]
    draw_proposals(&mut pen, scene)?;
    draw_optimum(&mut pen, scene)?;
    draw_probe(&mut pen, scene)?;
    draw_robot(
        &mut chart,
        &area,
        surface,
        scene,
        view,
        &mut legend,
        &mut drawn,
    )?;
    draw_target(&chart, &area, surface, scene, &mut legend)?;
    // Only the climber stands on contacts; its kind is in the full bundle only.
    #[cfg(feature = "statics")]
    if let (Some(loads), Some(band)) = (
        super::loads::LoadScene::of(scene.problem, scene.solution, scene.target),
        layout.bars,
    ) {
        loads.draw(&area, surface, band)?;
        drawn.overlays.push(Overlay::new(OverlayKind::Bars, band));
    }
    if let Some(rect) = legend.draw_at(&area, surface, layout.legend)? {
        drawn.overlays.push(Overlay::new(OverlayKind::Legend, rect));
    }
    area.present().map_err(text_err)?;
    Ok(drawn)
}

/// The reachable region's cached image, scaled into the view.
fn draw_region(surface: &Surface, scene: &ArmScene, view: &Viewport) -> DrawResult {
    if let Some((region, image)) = scene.region {
        let [x0, x1, y0, y1] = region.bounds();
        let [l, t] = view.to_pixel(x0, y1);
        let [r, b] = view.to_pixel(x1, y0);
        surface.blit_scaled(image, [l, t, r, b], view.pixels)?;
    }
    Ok(())
}

/// The region's legend line and the full reach's circle (limits ignored), where the kind has
/// one.
fn draw_reach(pen: &mut Pen, scene: &ArmScene) -> DrawResult {
    let problem = scene.problem;
    pen.legend.add_short(
        Mark::Swatch(REGION.to_rgba()),
        if scene.region.is_some() {
            crate::kinds::of(problem).region_words.to_string()
        } else {
            format!("{} (next frame)", crate::kinds::of(problem).region_words)
        },
        "reach",
    );
    if let Some(reach) = problem.capabilities().plane().and_then(|v| v.reach_disc()) {
        let outer = arc([0.0, 0.0], reach, 0.0, std::f64::consts::TAU);
        pen.chart
            .draw_series(std::iter::once(PathElement::new(
                outer,
                MUTED.mix(0.7).stroke_width(pen.surface.stroke(1.0)),
            )))
            .map_err(text_err)?;
        pen.legend.add(
            Mark::Line(MUTED.to_rgba(), 1.0),
            "full reach, limits ignored",
        );
    }
    Ok(())
}

/// The sampled solutions as faint ghosts.
fn draw_samples(pen: &mut Pen, scene: &ArmScene) -> DrawResult {
    let problem = scene.problem;
    let faint = SAMPLE.mix(0.45).stroke_width(pen.surface.stroke(1.5));
    for q in scene.samples {
        draw_body(pen.chart, problem, q, faint)?;
    }
    if !scene.samples.is_empty() {
        #[cfg(not(feature = "unswept"))]
        let text = "sampled solutions (σ > 0)".to_string();
        // The family's efforts, so the reader sees what each shape costs.
        #[cfg(feature = "unswept")]
        let text = {
            let (lo, hi) = scene
                .samples
                .iter()
                .map(|q| problem.cost().value(q))
                .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), c| {
                    (a.min(c), b.max(c))
                });
            format!(
                "{} sampled solutions, J {lo:.3}–{hi:.3}",
                scene.samples.len()
            )
        };
        pen.legend.add(Mark::Line(SAMPLE.to_rgba(), 1.5), text);
    }
    Ok(())
}

/// The robot's body in posture `q` as lines in `style` (a ghost: no joints or limits).
fn draw_body(chart: &mut Chart, problem: &Problem, q: &[f64], style: ShapeStyle) -> DrawResult {
    for line in body(problem, q) {
        chart
            .draw_series(std::iter::once(PathElement::new(line, style)))
            .map_err(text_err)?;
    }
    Ok(())
}

/// The reference optimum as a wide ghost.
fn draw_optimum(pen: &mut Pen, scene: &ArmScene) -> DrawResult {
    let Some(opt) = scene.optimum else {
        return Ok(());
    };
    let ghost = OPTIMUM.mix(0.5).stroke_width(pen.surface.stroke(7.0));
    draw_body(pen.chart, scene.problem, opt, ghost)?;
    pen.legend.add_short(
        Mark::Line(OPTIMUM.mix(0.6), 5.0),
        "global optimum (reference)",
        "optimum",
    );
    Ok(())
}

/// The pose at the reader's latent probe.
fn draw_probe(pen: &mut Pen, scene: &ArmScene) -> DrawResult {
    let Some(probe) = scene.probe.filter(|p| !p.q().is_empty()) else {
        return Ok(());
    };
    let colour = SAMPLE.to_rgba();
    draw_body(
        pen.chart,
        scene.problem,
        probe.q(),
        colour.stroke_width(pen.surface.stroke(3.0)),
    )?;
    pen.legend.add(
        Mark::Line(colour, 3.0),
        format!(
            "pose at your latent z: J = {:.4}, {:.1e} m off",
            probe.cost(),
            probe.residual()
        ),
    );
    Ok(())
}

/// The robot in the answer's posture as its kind sketches it (links, joints and their limit
/// arcs, rods, plates, a climber's wall and forces), recording where it is in `drawn`.
fn draw_robot(
    chart: &mut Chart,
    area: &super::Area,
    surface: &Surface,
    scene: &ArmScene,
    view: &Viewport,
    legend: &mut Legend,
    drawn: &mut ArmDrawn,
) -> DrawResult {
    let q = scene.solution.q();
    let sketch = if q.is_empty() {
        None
    } else {
        crate::kinds::sketch(scene.problem, q)
    };
    let Some(sketch) = sketch else {
        return Ok(());
    };
    // Blue for an answer that reaches the target (a learned estimate within the gap's
    // tolerance included), vermilion for one that does not.
    let colour = if crate::engine::comparable(scene.solution) {
        SOLUTION
    } else {
        TARGET
    };
    let mut limits_drawn = false;
    #[cfg(feature = "statics")]
    let mut forces_drawn = false;
    for shape in &sketch.shapes {
        match shape {
            Shape::Arc {
                centre,
                radius,
                from,
                to,
                ..
            } => {
                chart
                    .draw_series(std::iter::once(PathElement::new(
                        arc(*centre, *radius, *from, *to),
                        LIMITS.mix(0.9).stroke_width(surface.stroke(2.0)),
                    )))
                    .map_err(text_err)?;
                limits_drawn = true;
            }
            Shape::Polyline { stroke, points } => {
                #[cfg(feature = "statics")]
                {
                    forces_drawn |= *stroke == Stroke::Force;
                }
                if stroke.is_robot() {
                    drawn
                        .robot
                        .extend(points.iter().map(|p| view.to_pixel(p[0], p[1])));
                }
                chart
                    .draw_series(std::iter::once(PathElement::new(
                        points.iter().map(|p| (p[0], p[1])).collect::<Vec<_>>(),
                        stroke_style(*stroke, colour, surface),
                    )))
                    .map_err(text_err)?;
            }
            Shape::Dot { stroke, at } => {
                drawn.robot.push(view.to_pixel(at[0], at[1]));
                draw_dot(
                    area,
                    surface,
                    chart.backend_coord(&(at[0], at[1])),
                    *stroke,
                    colour,
                )?;
            }
        }
    }
    if limits_drawn {
        legend.add(Mark::Line(LIMITS.to_rgba(), 2.0), "joint-limit range");
    }
    #[cfg(feature = "statics")]
    if forces_drawn {
        legend.add(
            Mark::Line(super::palette::FORCE.to_rgba(), 2.0),
            "forces: the weight; the wall on each pad",
        );
    }
    legend.add_short(
        Mark::Line(colour.to_rgba(), 4.0),
        format!("robot ({})", scene.solver),
        "robot",
    );
    Ok(())
}

/// How a sketch's polyline of `stroke` is drawn, the robot's own in `colour`.
fn stroke_style(stroke: Stroke, colour: RGBColor, surface: &Surface) -> ShapeStyle {
    let width = match stroke {
        Stroke::Rod => 2.5,
        Stroke::Plate => 6.0,
        #[cfg(feature = "statics")]
        Stroke::Wall => 1.5,
        #[cfg(feature = "statics")]
        Stroke::Force => 2.0,
        _ => 4.0,
    };
    match stroke {
        Stroke::Plate | Stroke::Base => INK.stroke_width(surface.stroke(width)),
        #[cfg(feature = "statics")]
        Stroke::Wall => MUTED.stroke_width(surface.stroke(width)),
        #[cfg(feature = "statics")]
        Stroke::Force => super::palette::FORCE.stroke_width(surface.stroke(width)),
        _ => colour.stroke_width(surface.stroke(width)),
    }
}

/// A sketch's dot of `stroke` at pixel `p`: a joint, the base's square, a climber's mass.
fn draw_dot(
    area: &super::Area,
    surface: &Surface,
    p: (i32, i32),
    stroke: Stroke,
    colour: RGBColor,
) -> DrawResult {
    let r = surface.px(4.0);
    let b = surface.px(6.0);
    match stroke {
        #[cfg(feature = "statics")]
        Stroke::Mass => {
            area.draw(&Circle::new(p, r + surface.px(1.0), INK.filled()))
                .map_err(text_err)?;
            area.draw(&Circle::new(p, r / 2, WHITE.filled()))
                .map_err(text_err)?;
        }
        Stroke::Base => area
            .draw(&Rectangle::new(
                [(p.0 - b, p.1 - b), (p.0 + b, p.1 + b)],
                INK.filled(),
            ))
            .map_err(text_err)?,
        _ => {
            area.draw(&Circle::new(p, r, WHITE.filled()))
                .map_err(text_err)?;
            area.draw(&Circle::new(p, r, colour.stroke_width(surface.stroke(2.0))))
                .map_err(text_err)?;
        }
    }
    Ok(())
}

/// The target's crosshair ring.
fn draw_target(
    chart: &Chart,
    area: &super::Area,
    surface: &Surface,
    scene: &ArmScene,
    legend: &mut Legend,
) -> DrawResult {
    let tp = chart.backend_coord(&(scene.target[0], scene.target[1]));
    let r = surface.px(7.0);
    let arm_len = surface.px(3.0);
    let ts = TARGET.stroke_width(surface.stroke(2.0));
    area.draw(&Circle::new(tp, r, ts)).map_err(text_err)?;
    area.draw(&PathElement::new(
        vec![(tp.0 - r - arm_len, tp.1), (tp.0 + r + arm_len, tp.1)],
        ts,
    ))
    .map_err(text_err)?;
    area.draw(&PathElement::new(
        vec![(tp.0, tp.1 - r - arm_len), (tp.0, tp.1 + r + arm_len)],
        ts,
    ))
    .map_err(text_err)?;
    legend.add_short(Mark::Ring(TARGET.to_rgba()), "target", "target");
    Ok(())
}
