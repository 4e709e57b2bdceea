//! `canvas#arm` for a robot drawn in 3-D (a serial arm): an orthographic view that orbits, with
//! what makes depth readable without perspective — a floor grid, the arm's shadow on the floor,
//! a drop line from the target, the reach ball's outline — and two small orthographic insets
//! (top: x–y, side: x–z) in which a plain drag sets two of the target's coordinates exactly.

use plotters::prelude::*;

use super::overlay::{ArmDrawn, Overlay, OverlayKind};
use super::palette::{self, INK, MUTED, OPTIMUM, SAMPLE, SOLUTION, TARGET};
use super::{caption, subcaption, text_err, Answer, Area, DrawResult, Legend, Mark, Surface};
use crate::view::Viewport;
use loink::problem::collision_picture::Obstacle;

mod collision;
mod frames;
mod layout;
pub use frames::{Axes, Shown, RING_RADIUS};
pub use layout::{layout, target_at, Layout, Part};

/// What the 3-D arm panel shows: the answer (its problem's skeleton draws the robot) and how
/// the panel is dressed.
pub struct Arm3dScene<'a> {
    /// The answer and what surrounds it in every arm panel.
    pub answer: Answer<'a>,
    /// The line under the caption: how to move the target in the page; None on a panel that
    /// takes no pointer (a lesson's).
    pub hint: Option<&'a str>,
    /// What the faint ghosts are, when not the σ samples.
    pub samples_label: Option<&'a str>,
    /// Whether to draw the legend (a lesson's panel names its curves in its own words).
    pub legend: bool,
    /// Whether to draw every collision sphere of a robot that has them (else only those of
    /// links that overlap something).
    pub spheres: bool,
    /// The scene's boxes as the answer's model learned them, when the page has moved the
    /// problem's since (drawn dashed beside the boxes now).
    pub learned_scene: Option<&'a [Obstacle]>,
}

impl<'a> std::ops::Deref for Arm3dScene<'a> {
    type Target = Answer<'a>;
    fn deref(&self) -> &Answer<'a> {
        &self.answer
    }
}

/// The page's line under the 3-D arm panel's caption.
pub const HINT: &str = "drag the target ⊕ (wheel or shift-drag: depth) · drag empty space to turn the view · insets: drag to set two coordinates";

/// The line for a target that turns (a pose, a tool axis).
pub const HINT_TURNING: &str = "drag ⊕ to move the target, its ring to turn it (q/e, shift+arrows) · empty space: turn the view";

/// Spacing of the floor grid (m).
const GRID_STEP: f64 = 0.2;

fn pixel(p: [f64; 2]) -> (i32, i32) {
    (p[0].round() as i32, p[1].round() as i32)
}

/// A polyline through world points in the main view.
fn projected(layout: &Layout, points: &[[f64; 3]]) -> Vec<(i32, i32)> {
    points
        .iter()
        .map(|&p| pixel(layout.main.to_pixel(p)))
        .collect()
}

fn line(area: &Area, points: Vec<(i32, i32)>, style: ShapeStyle) -> DrawResult {
    area.draw(&PathElement::new(points, style))
        .map_err(text_err)
}

/// A dashed segment between two device points.
fn dashed(
    area: &Area,
    surface: &Surface,
    a: [f64; 2],
    b: [f64; 2],
    style: ShapeStyle,
) -> DrawResult {
    let length = ((b[0] - a[0]).powi(2) + (b[1] - a[1]).powi(2)).sqrt();
    let dash = f64::from(surface.px(5.0)).max(1.0);
    let n = (length / dash).floor() as usize;
    for k in (0..n).step_by(2) {
        let (s, e) = (k as f64 / n as f64, ((k + 1) as f64 / n as f64).min(1.0));
        let at = |t: f64| pixel([a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1])]);
        line(area, vec![at(s), at(e)], style)?;
    }
    Ok(())
}

/// The floor grid (z = 0) under the reach ball, and the base's axes.
fn floor(area: &Area, surface: &Surface, layout: &Layout) -> DrawResult {
    let (centre, radius) = layout.ball;
    let reach = (0.8 * radius / GRID_STEP).ceil() as i32;
    let style = palette::GRID.stroke_width(surface.stroke(1.0));
    let at = |i: i32| i as f64 * GRID_STEP;
    for i in -reach..=reach {
        let (x0, x1) = (centre[0] + at(-reach), centre[0] + at(reach));
        let (y0, y1) = (centre[1] + at(-reach), centre[1] + at(reach));
        let (x, y) = (centre[0] + at(i), centre[1] + at(i));
        line(
            area,
            projected(layout, &[[x, y0, 0.0], [x, y1, 0.0]]),
            style,
        )?;
        line(
            area,
            projected(layout, &[[x0, y, 0.0], [x1, y, 0.0]]),
            style,
        )?;
    }
    // The base frame's axes, 0.15 m long, labelled.
    let font = surface.font(palette::LABEL_PX, palette::MUTED_INK);
    for (axis, name) in [
        ([0.15, 0.0, 0.0], "x"),
        ([0.0, 0.15, 0.0], "y"),
        ([0.0, 0.0, 0.15], "z"),
    ] {
        line(
            area,
            projected(layout, &[[0.0; 3], axis]),
            palette::MUTED_INK.stroke_width(surface.stroke(1.5)),
        )?;
        let tip = layout.main.to_pixel(axis.map(|v| v * 1.25));
        area.draw_text(name, &font, pixel([tip[0] - 3.0, tip[1] - 6.0]))
            .map_err(text_err)?;
    }
    Ok(())
}

/// The reach ball's outline (a circle in any orthographic view) and its floor circle.
fn reach_outline(area: &Area, surface: &Surface, layout: &Layout) -> DrawResult {
    let (centre, radius) = layout.ball;
    let c = layout.main.to_pixel(centre);
    area.draw(&Circle::new(
        pixel(c),
        (radius * layout.main.scale).round() as i32,
        MUTED.mix(0.5).stroke_width(surface.stroke(1.0)),
    ))
    .map_err(text_err)
}

/// The robot's links at q as thick segments, back to front, with its joints as dots.
fn robot(
    area: &Area,
    surface: &Surface,
    layout: &Layout,
    points: &[[f64; 3]],
    colour: RGBAColor,
    width: f64,
    joints: bool,
) -> DrawResult {
    let mut segments: Vec<(f64, usize)> = (1..points.len())
        .map(|i| {
            let mid = std::array::from_fn(|k| 0.5 * (points[i - 1][k] + points[i][k]));
            (layout.main.depth(mid), i)
        })
        .collect();
    segments.sort_by(|a, b| a.0.total_cmp(&b.0));
    let r = surface.px(width * 0.55).max(2);
    for (_, i) in segments {
        let ends = projected(layout, &points[i - 1..=i]);
        line(
            area,
            ends.clone(),
            colour.stroke_width(surface.stroke(width)),
        )?;
        if joints {
            area.draw(&Circle::new(ends[0], r, WHITE.filled()))
                .map_err(text_err)?;
            area.draw(&Circle::new(
                ends[0],
                r,
                INK.stroke_width(surface.stroke(1.5)),
            ))
            .map_err(text_err)?;
        }
    }
    Ok(())
}

/// The robot's shadow on the floor (its points dropped to z = 0).
fn shadow(area: &Area, surface: &Surface, layout: &Layout, points: &[[f64; 3]]) -> DrawResult {
    let flat: Vec<[f64; 3]> = points.iter().map(|p| [p[0], p[1], 0.0]).collect();
    line(
        area,
        projected(layout, &flat),
        MUTED.mix(0.35).stroke_width(surface.stroke(5.0)),
    )
}

/// The target: a ring with a cross, its drop line to the floor and the spot under it.
fn target(area: &Area, surface: &Surface, layout: &Layout, t: [f64; 3]) -> DrawResult {
    let style = TARGET.stroke_width(surface.stroke(2.0));
    let at = layout.main.to_pixel(t);
    let foot = layout.main.to_pixel([t[0], t[1], 0.0]);
    dashed(
        area,
        surface,
        at,
        foot,
        TARGET.mix(0.7).stroke_width(surface.stroke(1.0)),
    )?;
    area.draw(&Circle::new(
        pixel(foot),
        surface.px(3.0),
        TARGET.mix(0.6).filled(),
    ))
    .map_err(text_err)?;
    let p = pixel(at);
    let (r, arm) = (surface.px(7.0), surface.px(3.0));
    area.draw(&Circle::new(p, r, style)).map_err(text_err)?;
    line(
        area,
        vec![(p.0 - r - arm, p.1), (p.0 + r + arm, p.1)],
        style,
    )?;
    line(
        area,
        vec![(p.0, p.1 - r - arm), (p.0, p.1 + r + arm)],
        style,
    )
}

/// One inset: where it is, its title and the two world axes it shows (right, up).
struct Inset<'a> {
    view: &'a Viewport,
    title: &'a str,
    axes: [usize; 2],
    /// The scene's boxes, drawn under the arm.
    boxes: &'a [Obstacle],
}

/// The turning hand's frames, when the task turns it: the target's and the hand's.
struct Turning {
    shown: Shown,
    target: Axes,
    hand: Option<Axes>,
}

/// Length of an axis in an inset (m): the insets are small.
const INSET_AXIS: f64 = 0.25;

/// One inset: its frame and title, the reach circle, the arm, the target with a crosshair and,
/// for a turning hand, both frames.
fn inset(
    area: &Area,
    surface: &Surface,
    inset: Inset,
    layout: &Layout,
    arm: Option<(&[[f64; 3]], RGBColor)>,
    t: [f64; 3],
    turning: Option<&Turning>,
) -> DrawResult {
    let Inset {
        view,
        title,
        axes,
        boxes,
    } = inset;
    let [l, top, r, b] = view.pixels;
    let corners = [pixel([l, top]), pixel([r, b])];
    area.draw(&Rectangle::new(corners, WHITE.mix(0.92).filled()))
        .map_err(text_err)?;
    area.draw(&Rectangle::new(
        corners,
        MUTED.stroke_width(surface.stroke(1.0)),
    ))
    .map_err(text_err)?;
    let flat = |p: [f64; 3]| pixel(view.to_pixel(p[axes[0]], p[axes[1]]));
    let (centre, radius) = layout.ball;
    // The ball's section fills the inset: its outline is the inset's inscribed circle.
    let ring: Vec<(i32, i32)> = (0..=48)
        .map(|k| {
            let a = std::f64::consts::TAU * k as f64 / 48.0;
            let mut p = centre;
            p[axes[0]] += radius * a.cos();
            p[axes[1]] += radius * a.sin();
            flat(p)
        })
        .collect();
    line(area, ring, MUTED.mix(0.5).stroke_width(surface.stroke(1.0)))?;
    if axes[1] == 2 {
        line(
            area,
            vec![
                flat([view.world[0], 0.0, 0.0]),
                flat([view.world[1], 0.0, 0.0]),
            ],
            palette::MUTED_INK.stroke_width(surface.stroke(1.0)),
        )?;
    }
    collision::inset_boxes(area, surface, boxes, axes, &flat)?;
    if let Some((points, colour)) = arm {
        let path: Vec<(i32, i32)> = points.iter().map(|&p| flat(p)).collect();
        line(area, path, colour.stroke_width(surface.stroke(2.0)))?;
    }
    if let Some(turning) = turning {
        let style = (INSET_AXIS, 2.0, 1.0);
        frames::draw_axes(area, surface, &turning.target, turning.shown, style, &flat)?;
        if let Some(hand) = &turning.hand {
            let style = (0.8 * INSET_AXIS, 1.0, 0.8);
            frames::draw_axes(area, surface, hand, turning.shown, style, &flat)?;
        }
    }
    let p = flat(t);
    let cross = TARGET.mix(0.45).stroke_width(surface.stroke(1.0));
    line(
        area,
        vec![(pixel([l, 0.0]).0, p.1), (pixel([r, 0.0]).0, p.1)],
        cross,
    )?;
    line(
        area,
        vec![(p.0, pixel([0.0, top]).1), (p.0, pixel([0.0, b]).1)],
        cross,
    )?;
    area.draw(&Circle::new(
        p,
        surface.px(4.0),
        TARGET.stroke_width(surface.stroke(2.0)),
    ))
    .map_err(text_err)?;
    let font = surface.font(palette::LABEL_PX, palette::MUTED_INK);
    area.draw_text(
        title,
        &font,
        (
            pixel([l, 0.0]).0 + surface.px(4.0),
            pixel([0.0, top]).1 + surface.px(3.0),
        ),
    )
    .map_err(text_err)
}

/// Draws the panel; says what it drew over the panel and where the robot's joints are.
pub fn draw(surface: &Surface, scene: &Arm3dScene, layout: &Layout) -> DrawResult<ArmDrawn> {
    let area = surface.area()?;
    let mut drawn = ArmDrawn::default();
    caption(
        &area,
        surface,
        &format!(
            "Configuration in 3-D: the {} answer; ghost = global optimum (reference)",
            scene.solver
        ),
    )?;
    if let Some(hint) = scene.hint {
        subcaption(&area, surface, hint)?;
    }
    let problem = scene.problem;
    let skeleton = |q: &[f64]| skeleton(problem, q);
    let t = [scene.target[0], scene.target[1], scene.target[2]];
    let answer = skeleton(scene.solution.q());
    let turning = turning(scene, t);
    let colour = if crate::engine::comparable(scene.solution) {
        SOLUTION
    } else {
        TARGET
    };
    let mut legend = Legend::default();

    floor(&area, surface, layout)?;
    reach_outline(&area, surface, layout)?;
    legend.add_short(
        Mark::Ring(MUTED.mix(0.6)),
        "reach ball (links added up)",
        "reach",
    );
    let space = problem.capabilities().space();
    let boxes = space.map_or_else(Vec::new, |s| s.obstacles());
    collision::boxes(&area, surface, layout, &boxes)?;
    let learned = scene.learned_scene.filter(|l| *l != boxes.as_slice());
    if let Some(learned) = learned {
        collision::learned_boxes(&area, surface, layout, learned)?;
        legend.add_short(
            Mark::Line(MUTED.mix(0.5), 6.0),
            "the scene now (moved since training)",
            "scene",
        );
        legend.add_short(
            Mark::Line(INK.mix(0.8), 1.5),
            "dashed: the scene the model learned",
            "learned",
        );
    } else if !boxes.is_empty() {
        legend.add_short(
            Mark::Line(MUTED.mix(0.5), 6.0),
            "the scene's boxes (in the cost at training)",
            "scene",
        );
    }
    if let Some(points) = &answer {
        shadow(&area, surface, layout, points)?;
    }
    draw_ghosts(&area, surface, scene, layout, &mut legend)?;
    if let Some(points) = &answer {
        robot(&area, surface, layout, points, colour.to_rgba(), 5.0, true)?;
        drawn.robot = points.iter().map(|&p| layout.main.to_pixel(p)).collect();
        legend.add_short(
            Mark::Line(colour.to_rgba(), 4.0),
            format!("robot ({})", scene.solver),
            "robot",
        );
    }
    if let Some(picture) = space.and_then(|s| s.collision(scene.solution.q())) {
        collision::spheres(&area, surface, layout, &picture, scene.spheres)?;
        collision::readout(&area, surface, layout, &picture)?;
        legend.add_short(
            Mark::Ring(palette::CONTACT.to_rgba()),
            "collision spheres; red: a link that overlaps",
            "spheres",
        );
    }
    target(&area, surface, layout, t)?;
    legend.add_short(
        Mark::Ring(TARGET.to_rgba()),
        "target; dashed: its drop to the floor",
        "target",
    );
    if let Some(turning) = &turning {
        draw_frames(
            &area,
            surface,
            layout,
            t,
            turning,
            scene.hint.is_some(),
            &mut legend,
        )?;
    }
    let arm = answer.as_deref().map(|p| (p, colour));
    let top_view = Inset {
        view: &layout.top,
        title: "top: x–y",
        axes: [0, 1],
        boxes: &boxes,
    };
    inset(&area, surface, top_view, layout, arm, t, turning.as_ref())?;
    let side_view = Inset {
        view: &layout.side,
        title: "side: x–z",
        axes: [0, 2],
        boxes: &boxes,
    };
    inset(&area, surface, side_view, layout, arm, t, turning.as_ref())?;
    for view in [&layout.top, &layout.side] {
        let rect = view.pixels.map(|v| v.round() as i32);
        drawn.overlays.push(Overlay::new(OverlayKind::Inset, rect));
    }
    if scene.legend {
        if let Some(rect) = legend.draw_at(&area, surface, layout.legend)? {
            drawn.overlays.push(Overlay::new(OverlayKind::Legend, rect));
        }
    }
    area.present().map_err(text_err)?;
    Ok(drawn)
}

/// The joints' positions in posture `q` (None without a posture or a 3-D view).
fn skeleton(problem: &loink::problem::Problem, q: &[f64]) -> Option<Vec<[f64; 3]>> {
    (!q.is_empty())
        .then(|| problem.capabilities().space().map(|v| v.skeleton(q)))
        .flatten()
}

/// The faint robots: the sampled solutions, the reference optimum's ghost and the pose at the
/// reader's latent z.
fn draw_ghosts(
    area: &Area,
    surface: &Surface,
    scene: &Arm3dScene,
    layout: &Layout,
    legend: &mut Legend,
) -> DrawResult {
    let skeleton = |q: &[f64]| skeleton(scene.problem, q);
    for q in scene.samples {
        if let Some(points) = skeleton(q) {
            robot(area, surface, layout, &points, SAMPLE.mix(0.45), 1.5, false)?;
        }
    }
    if !scene.samples.is_empty() {
        let label = match scene.samples_label {
            Some(label) => label.to_string(),
            None => format!("{} sampled solutions (σ > 0)", scene.samples.len()),
        };
        legend.add(Mark::Line(SAMPLE.to_rgba(), 1.5), label);
    }
    if let Some(points) = scene.optimum.and_then(skeleton) {
        robot(area, surface, layout, &points, OPTIMUM.mix(0.5), 7.0, false)?;
        legend.add_short(
            Mark::Line(OPTIMUM.mix(0.6), 5.0),
            "global optimum (reference)",
            "optimum",
        );
    }
    let Some(probe) = scene.probe else {
        return Ok(());
    };
    let Some(points) = skeleton(probe.q()) else {
        return Ok(());
    };
    robot(area, surface, layout, &points, SAMPLE.to_rgba(), 3.0, false)?;
    legend.add(
        Mark::Line(SAMPLE.to_rgba(), 3.0),
        match probe.angle() {
            Some(angle) => format!(
                "pose at your latent z: J = {:.4}, the hand {:.1} mm and {:.2}° off",
                probe.cost(),
                probe.residual() * 1e3,
                angle.to_degrees()
            ),
            None => format!(
                "pose at your latent z: J = {:.4}, {:.1e} m off",
                probe.cost(),
                probe.residual()
            ),
        },
    );
    Ok(())
}

/// The target's frame (and the hand's, thinner) for a task that turns the hand, with the ring
/// that turns it while the view shows its hint.
fn draw_frames(
    area: &Area,
    surface: &Surface,
    layout: &Layout,
    t: [f64; 3],
    turning: &Turning,
    ring: bool,
    legend: &mut Legend,
) -> DrawResult {
    if ring {
        frames::ring(area, surface, layout, t, RING_RADIUS)?;
    }
    let flat = frames::main_view(layout);
    let style = (frames::AXIS_LENGTH, 3.0, 1.0);
    frames::draw_axes(area, surface, &turning.target, turning.shown, style, &flat)?;
    if let Some(hand) = &turning.hand {
        let style = (0.8 * frames::AXIS_LENGTH, 1.5, 0.9);
        frames::draw_axes(area, surface, hand, turning.shown, style, &flat)?;
    }
    legend.add(
        Mark::Line(frames::AXIS_COLOURS[2].to_rgba(), 3.0),
        match turning.shown {
            Shown::All => "target frame: x red, y green, z blue; thin: the hand's",
            Shown::ToolAxis => "target tool axis; thin: the hand's",
        },
    );
    Ok(())
}

/// The target's and the hand's frames for a task that turns the hand (None otherwise).
fn turning(scene: &Arm3dScene, t: [f64; 3]) -> Option<Turning> {
    let task = scene.problem.task();
    let shown = match task.measure() {
        loink::problem::Measure::Pose { .. } => Shown::All,
        loink::problem::Measure::Axis => Shown::ToolAxis,
        loink::problem::Measure::Distance => return None,
    };
    let target = Axes::of(t, task.frame(scene.target)?);
    let q = scene.solution.q();
    let hand = (!q.is_empty())
        .then(|| scene.problem.capabilities().space()?.hand_frame(q))
        .flatten()
        .map(|(origin, rotation)| Axes::of(origin, rotation));
    Some(Turning {
        shown,
        target,
        hand,
    })
}
