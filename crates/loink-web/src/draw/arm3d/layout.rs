//! Where each part of the 3-D arm panel is — the orbiting main view and the two insets — and
//! where a pointer on each part puts the target.

use loink::problem::Problem;

use crate::draw::arm_layout::{LegendSpot, COLUMN, LINE_BAND};
use crate::draw::{Surface, CAPTION_BAND, SUBCAPTION_BAND};
use crate::orbit::Projection;
use crate::view::Viewport;

/// Where each part of the panel is: the main view and the two insets.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Layout {
    /// The orbiting main view.
    pub main: Projection,
    /// The main view's plot rectangle (device pixels: left, top, right, bottom).
    pub plot: [f64; 4],
    /// The top inset: x right, y up.
    pub top: Viewport,
    /// The side inset: x right, z up.
    pub side: Viewport,
    /// The reach ball: centre and radius (m). The insets frame it whole.
    pub ball: ([f64; 3], f64),
    /// The ball the main view frames: the robot at mid-range, its base, its default target
    /// and the scene's boxes (centre and radius, m); the reach ball may leave the view.
    pub frame: ([f64; 3], f64),
    /// The legend's place: in the insets' column under them (a wide panel), or one line under
    /// the captions (a narrow one).
    pub legend: LegendSpot,
}

/// Which part of the panel a pointer is on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Part {
    /// The top inset (sets x and y).
    Top,
    /// The side inset (sets x and z).
    Side,
    /// The main view.
    Main,
}

impl Layout {
    /// The part under device pixel (px, py).
    pub fn part_at(&self, px: f64, py: f64) -> Part {
        let inside = |v: &Viewport| {
            let [l, t, r, b] = v.pixels;
            (l..=r).contains(&px) && (t..=b).contains(&py)
        };
        if inside(&self.top) {
            Part::Top
        } else if inside(&self.side) {
            Part::Side
        } else {
            Part::Main
        }
    }
}

/// Side of an inset as a share of the panel's smaller dimension (a narrow panel's; a wide one's
/// insets leave the legend room under them in their column).
const INSET_SHARE: f64 = 0.3;
/// The same on a wide panel.
const INSET_SHARE_WIDE: f64 = 0.26;
/// Panels narrower than this (CSS px) show the legend as one line under the captions.
pub const NARROW: f64 = 420.0;
/// Room kept at the foot of the column for the page's buttons (reset, spheres), and under the
/// main view's readout (CSS px).
pub(super) const BUTTON_ROOM: f64 = 36.0;
/// The panel's layout at its current size for `problem` (None: the kind is not drawn in 3-D)
/// seen from `view` = [yaw, pitch] (degrees).
pub fn layout(surface: &Surface, problem: &Problem, view: [f64; 2]) -> Option<Layout> {
    let space = problem.capabilities().space()?;
    let ball = space.reach_ball();
    let frame = robot_frame(problem, space, ball);
    let (w, h) = surface.size();
    let d = surface.dpr();
    let narrow = f64::from(w) / d < NARROW;
    let captions = ((CAPTION_BAND + SUBCAPTION_BAND) * d).round();
    let line = if narrow { (LINE_BAND * d).round() } else { 0.0 };
    let top_band = captions + line + (4.0 * d).round();
    let plot = [
        (6.0 * d).round(),
        top_band,
        f64::from(w) - (6.0 * d).round(),
        f64::from(h) - (6.0 * d).round(),
    ];
    let (pw, ph) = ((plot[2] - plot[0]).max(1.0), (plot[3] - plot[1]).max(1.0));
    let share = if narrow {
        INSET_SHARE
    } else {
        INSET_SHARE_WIDE
    };
    let side = (share * pw.min(ph)).round();
    let gap = (6.0 * d).round();
    let column = if narrow {
        side
    } else {
        side.max((COLUMN * d).round()).min(0.45 * pw)
    };
    // The main view fills the plot left of the insets' column, so no inset (and no legend)
    // ever hides the target or the arm.
    let main_w = (pw - column - gap).max(1.0);
    // A ball's outline is a circle of its radius from every side: the view frames the robot's
    // ball whole, so turning the view never changes the scale.
    let scale = main_w.min(ph) / (2.0 * FRAME_MARGIN * frame.1);
    let main = Projection {
        yaw: view[0],
        pitch: view[1],
        centre: frame.0,
        scale,
        origin: [plot[0] + 0.5 * main_w, plot[1] + 0.5 * ph],
    };
    let inset = |top: f64, world: [f64; 4]| Viewport {
        pixels: [plot[2] - side, top, plot[2], top + side],
        world,
    };
    let (centre, half) = ball;
    let top = inset(
        plot[1],
        [
            centre[0] - half,
            centre[0] + half,
            centre[1] - half,
            centre[1] + half,
        ],
    );
    let side_view = inset(
        plot[1] + side + gap,
        [
            centre[0] - half,
            centre[0] + half,
            centre[2] - half,
            centre[2] + half,
        ],
    );
    let legend = if narrow {
        LegendSpot::Line(
            [
                plot[0],
                captions - (2.0 * d).round(),
                plot[2],
                captions + line - (2.0 * d).round(),
            ]
            .map(|v| v as i32),
        )
    } else {
        LegendSpot::Column(
            [
                plot[2] - column,
                side_view.pixels[3] + gap,
                plot[2],
                plot[3] - (BUTTON_ROOM * d).round(),
            ]
            .map(|v| v as i32),
        )
    };
    Some(Layout {
        main,
        plot,
        top,
        side: side_view,
        ball,
        frame,
        legend,
    })
}

/// Room around the framed ball, as a share of its radius.
const FRAME_MARGIN: f64 = 1.04;
/// The framed ball's radius is at least this share of the reach ball's (a target at the edge
/// of the reach stays near the view).
const FRAME_LEAST: f64 = 0.35;

/// The ball the main view frames: the smallest around the bounding box of the robot's joints
/// at the box's centre, its base, its default target and the scene's boxes, no larger than
/// the reach ball. It depends on the problem alone, so a link opens at the scale its author
/// saw.
fn robot_frame(
    problem: &Problem,
    space: &dyn loink::problem::capability::SpaceView,
    (reach_centre, reach): ([f64; 3], f64),
) -> ([f64; 3], f64) {
    let target = problem.default_target();
    let mut points = space.skeleton(&problem.limits().centres());
    points.push([0.0; 3]);
    if target.len() >= 3 {
        points.push([target[0], target[1], target[2]]);
    }
    // The scene's boxes whole: where the arm ducks is the view's point.
    for b in space.obstacles() {
        points.extend(super::collision::corners(&b));
    }
    let finite = points.iter().all(|p| p.iter().all(|v| v.is_finite()));
    if !finite {
        return (reach_centre, reach);
    }
    let mut low = [f64::INFINITY; 3];
    let mut high = [f64::NEG_INFINITY; 3];
    for p in &points {
        for i in 0..3 {
            low[i] = low[i].min(p[i]);
            high[i] = high[i].max(p[i]);
        }
    }
    let centre: [f64; 3] = std::array::from_fn(|i| 0.5 * (low[i] + high[i]));
    let radius = points
        .iter()
        .map(|p| {
            (0..3)
                .map(|i| (p[i] - centre[i]).powi(2))
                .sum::<f64>()
                .sqrt()
        })
        .fold(0.0, f64::max);
    if radius >= reach {
        return (reach_centre, reach);
    }
    (centre, radius.max(FRAME_LEAST * reach))
}

/// Where a pointer at device pixel (px, py) on `part` puts `target`: an inset sets its two
/// coordinates exactly (the third kept), the main view moves it in the plane through it that
/// faces the viewer.
pub fn target_at(layout: &Layout, part: Part, px: f64, py: f64, target: [f64; 3]) -> [f64; 3] {
    match part {
        Part::Top => {
            let [x, y] = layout.top.to_world(px, py);
            [x, y, target[2]]
        }
        Part::Side => {
            let [x, z] = layout.side.to_world(px, py);
            [x, target[1], z]
        }
        Part::Main => layout.main.to_world_on_plane(px, py, target),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn layout() -> Layout {
        let square = |top: f64, world: [f64; 4]| Viewport {
            pixels: [400.0, top, 520.0, top + 120.0],
            world,
        };
        Layout {
            main: Projection {
                yaw: -50.0,
                pitch: 22.0,
                centre: [0.0, 0.0, 0.17],
                scale: 200.0,
                origin: [200.0, 220.0],
            },
            plot: [6.0, 44.0, 520.0, 400.0],
            top: square(44.0, [-1.0, 1.0, -1.0, 1.0]),
            side: square(170.0, [-1.0, 1.0, -0.67, 1.33]),
            ball: ([0.0, 0.0, 0.333], 1.2),
            frame: ([0.2, 0.0, 0.4], 0.6),
            legend: LegendSpot::Column([400, 300, 520, 380]),
        }
    }

    #[test]
    fn the_main_view_frames_the_robot_not_its_reach() {
        for name in ["panda", "panda-pose", "panda-axis", "tiago-pose"] {
            let problem = Problem::preset(name).expect("a preset");
            let space = problem.capabilities().space().expect("drawn in space");
            let reach = space.reach_ball();
            let (centre, radius) = robot_frame(&problem, space, reach);
            let target = problem.default_target();
            let mut held = space.skeleton(&problem.limits().centres());
            held.extend([[0.0; 3], [target[0], target[1], target[2]]]);
            for p in held {
                let d = (0..3)
                    .map(|i| (p[i] - centre[i]).powi(2))
                    .sum::<f64>()
                    .sqrt();
                assert!(d <= radius + 1e-12, "{name}: {p:?} outside the frame");
            }
            // The robot fills its view: the frame is well inside the reach ball.
            assert!(
                radius < 0.7 * reach.1,
                "{name}: frame {radius} of reach {}",
                reach.1
            );
        }
    }

    #[test]
    fn a_pointer_finds_the_part_it_is_on() {
        let l = layout();
        assert_eq!(l.part_at(450.0, 100.0), Part::Top);
        assert_eq!(l.part_at(450.0, 200.0), Part::Side);
        assert_eq!(l.part_at(100.0, 100.0), Part::Main);
        assert_eq!(l.part_at(450.0, 350.0), Part::Main);
    }

    #[test]
    fn an_inset_sets_two_coordinates_exactly_and_keeps_the_third() {
        let l = layout();
        let t = [0.45, -0.2, 0.35];
        let [px, py] = l.top.to_pixel(0.3, 0.1);
        let moved = target_at(&l, Part::Top, px, py, t);
        assert!((moved[0] - 0.3).abs() < 1e-12 && (moved[1] - 0.1).abs() < 1e-12);
        assert_eq!(moved[2], t[2]);
        let [px, py] = l.side.to_pixel(-0.2, 0.6);
        let moved = target_at(&l, Part::Side, px, py, t);
        assert!((moved[0] + 0.2).abs() < 1e-12 && (moved[2] - 0.6).abs() < 1e-12);
        assert_eq!(moved[1], t[1]);
    }

    #[test]
    fn the_main_view_moves_the_target_under_the_pointer_at_its_depth() {
        let l = layout();
        let t = [0.45, -0.2, 0.35];
        let [px, py] = l.main.to_pixel(t);
        let moved = target_at(&l, Part::Main, px + 30.0, py - 10.0, t);
        let [qx, qy] = l.main.to_pixel(moved);
        assert!((qx - px - 30.0).abs() < 1e-9 && (qy - py + 10.0).abs() < 1e-9);
        assert!((l.main.depth(moved) - l.main.depth(t)).abs() < 1e-12);
    }
}
