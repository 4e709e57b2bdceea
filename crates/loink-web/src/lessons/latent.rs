//! Lesson 5, redundancy and the latent origin (planar4): for a fixed target the learned
//! solution set is the image of the latent plane, x(z) = G⁻¹([y; z]). The plane is shown as a
//! heat map of the true cost J(x(z)) (grey where the pose breaks a joint limit); dragging the
//! point (or the arrow keys) moves the arm along its self-motion set with the end effector held
//! on the target, and the origin z = 0 is the learned cheapest pose, shown against the
//! reference optimum J\*.

use loink::nn::PathPredictor;
use loink::problem::Problem;
use loink::report::{Solution, Status};
use loink::surrogate::Loink;
use plotters::prelude::*;
use serde::Serialize;

use super::layout::Panel;
use super::lesson::{target_xy, Lesson};
use super::models::{self, Loaded, ModelFile};
use super::LessonSettings;
use super::LATENT_MAX;
use crate::draw::palette::{self, viridis, INK, MUTED, OPTIMUM, SAMPLE, SOLUTION, TARGET};
use crate::draw::plots as ld;
use crate::draw::{text_err, Corner, DrawResult, Legend, Mark, Surface, CAPTION_BAND};
use crate::settings::{Settings, SolverKind};
use crate::view::Viewport;

/// Heat-map cells per axis.
const CELLS: usize = 40;
/// Half-width of the plane shown (normalised latent units).
const HALF: f64 = LATENT_MAX;
/// One arrow-key step of z (normalised latent units; Shift: ten).
pub const KEY_STEP: f64 = 0.05;
/// A pose at z "reaches" the target when it is this close (m) and inside the limits.
pub const REACH_M: f64 = 1e-3;

/// One cell of the map: the true cost of its pose, or why it has none.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Cell {
    /// The pose is inside the limits: its true cost.
    Cost(f64),
    /// The pose breaks a joint limit.
    OutsideLimits,
    /// The network's inverse did not converge.
    NoPose,
}

/// `getState().lesson`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LatentState {
    /// Lesson name.
    pub lesson: &'static str,
    /// Target (m).
    pub target: [f64; 2],
    /// The dragged latent point.
    pub z: [f64; 2],
    /// The pose at z and its report.
    pub q: Vec<f64>,
    /// ‖p(q) − y‖ at z (m).
    pub residual_m: Option<f64>,
    /// Status at z.
    pub status: Option<&'static str>,
    /// J at z.
    pub cost: Option<f64>,
    /// J at the origin.
    pub origin_cost: Option<f64>,
    /// Pose at the origin.
    pub origin_q: Vec<f64>,
    /// The cheapest cell of the heat map, and its cost.
    pub cheapest_cell_z: Option<[f64; 2]>,
    /// Its cost.
    pub cheapest_cell_cost: Option<f64>,
    /// Whether the pose at z reaches the target (within [`REACH_M`]) inside the limits.
    pub reaches: Option<bool>,
    /// The pose's joint-limit margin at z (rad; negative: a limit broken).
    pub margin_rad: Option<f64>,
    /// J\* of the reference optimum (null when it found no feasible pose).
    pub optimum_cost: Option<f64>,
    /// Share of the map's cells whose pose breaks a limit.
    pub outside_limits_share: f64,
}

/// The computed lesson.
pub struct LatentLesson {
    problem: Problem,
    target: [f64; 2],
    z: [f64; 2],
    at_z: Option<Solution>,
    origin: Option<Solution>,
    optimum: Option<Solution>,
    grid: Vec<Cell>,
}

fn finite(v: f64) -> Option<f64> {
    v.is_finite().then_some(v)
}

fn cost_grid(model: &Loink, target: &[f64; 2]) -> Vec<Cell> {
    let mut state = model.new_state();
    let mut path = PathPredictor::new();
    let mut grid = vec![Cell::NoPose; CELLS * CELLS];
    let problem = model.problem();
    for row in 0..CELLS {
        // Serpentine order so each inverse warm-starts from its neighbour; along a row the
        // cells are equally spaced, so the warm start is extrapolated (a row's first two cells
        // start plainly).
        path.restart();
        for col in 0..CELLS {
            let c = if row % 2 == 0 { col } else { CELLS - 1 - col };
            let z = cell_centre(row, c);
            state.predict(&mut path);
            if let Ok((q, report)) = model.preimage(&mut state, target, &z) {
                if report.converged() {
                    grid[row * CELLS + c] = if problem.limits().margin(&q) < -1e-6 {
                        Cell::OutsideLimits
                    } else {
                        Cell::Cost(problem.cost().value(&q))
                    };
                }
            }
        }
    }
    grid
}

/// Centre of cell (row, col); row 0 at the top (z₂ = +HALF).
fn cell_centre(row: usize, col: usize) -> [f64; 2] {
    let step = 2.0 * HALF / CELLS as f64;
    [
        -HALF + (col as f64 + 0.5) * step,
        HALF - (row as f64 + 0.5) * step,
    ]
}

impl LatentLesson {
    /// The pose at z, the origin and the cost map for `target`.
    pub fn new(models: &Loaded, target: [f64; 2], z: [f64; 2]) -> Self {
        let model = models.loink.get("loink").filter(|m| m.latent_dim() == 2);
        let problem = model
            .map(|m| m.problem().clone())
            .unwrap_or_else(|| Problem::preset("planar4").expect("planar4 is a preset"));
        LatentLesson {
            target,
            z,
            at_z: model.map(|m| m.solve_latent(&mut m.new_state(), &target, &z)),
            origin: model.map(|m| m.solve_cold(&target)),
            optimum: Some(loink::solvers::reference::solve(&problem, &target))
                .filter(|s| s.status() == Status::Converged),
            grid: model.map(|m| cost_grid(m, &target)).unwrap_or_default(),
            problem,
        }
    }

    fn costs(&self) -> impl Iterator<Item = (usize, f64)> + '_ {
        self.grid.iter().enumerate().filter_map(|(i, c)| match c {
            Cell::Cost(j) if j.is_finite() => Some((i, *j)),
            _ => None,
        })
    }

    fn cheapest(&self) -> Option<([f64; 2], f64)> {
        self.costs()
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .map(|(i, c)| (cell_centre(i / CELLS, i % CELLS), c))
    }

    fn reaches(s: &Solution) -> bool {
        s.residual() <= REACH_M && s.margin() >= -1e-6
    }

    /// Moves z by (dx, dy) arrow-key steps of [`KEY_STEP`], kept on the plane.
    pub fn nudged(z: [f64; 2], dx: f64, dy: f64) -> [f64; 2] {
        [
            (z[0] + KEY_STEP * dx).clamp(-HALF, HALF),
            (z[1] + KEY_STEP * dy).clamp(-HALF, HALF),
        ]
    }

    fn draw_plane(&self, surface: &Surface) -> DrawResult<Viewport> {
        let area = surface.captioned(
            "Latent plane: true cost J(G⁻¹([y; z])); grey: a limit broken; × = origin z = 0",
        )?;
        let (w, h) = surface.size();
        let (l, t) = (
            surface.px(56.0) as f64,
            surface.px(CAPTION_BAND + 6.0) as f64,
        );
        let side = (w as f64 - l - surface.px(14.0) as f64)
            .min(h as f64 - t - surface.px(40.0) as f64)
            .max(16.0);
        let view = Viewport {
            pixels: [l, t, l + side, t + side],
            world: [-HALF, HALF, -HALF, HALF],
        };
        let (lo, hi) = self
            .costs()
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), (_, c)| {
                (a.min(c), b.max(c))
            });
        if !self.grid.is_empty() {
            let grey = [MUTED.0, MUTED.1, MUTED.2];
            let colours: Vec<Option<[u8; 3]>> = self
                .grid
                .iter()
                .map(|&c| match c {
                    Cell::Cost(c) => Some(viridis((c - lo) / (hi - lo).max(1e-12))),
                    Cell::OutsideLimits => Some(grey),
                    Cell::NoPose => None,
                })
                .collect();
            let rgba = crate::draw::grid_to_rgba(&colours, CELLS, CELLS, side as u32, side as u32);
            surface.put_rgba(&rgba, side as u32, side as u32, l, t)?;
        }
        let mut chart = ChartBuilder::on(&area)
            .margin_top(t as i32)
            .margin_left(surface.px(4.0))
            .margin_right((w as f64 - l - side) as i32)
            .margin_bottom((h as f64 - t - side) as i32 - surface.px(36.0))
            .x_label_area_size(surface.px(36.0))
            .y_label_area_size(l as i32 - surface.px(4.0))
            .build_cartesian_2d(-HALF..HALF, -HALF..HALF)
            .map_err(text_err)?;
        chart
            .configure_mesh()
            .disable_mesh()
            .x_desc("z₁")
            .y_desc("z₂")
            .label_style(surface.font(palette::LABEL_PX, INK))
            .axis_desc_style(surface.font(palette::LABEL_PX, INK))
            .axis_style(INK.mix(0.6))
            .draw()
            .map_err(text_err)?;
        chart
            .draw_series(std::iter::once(Cross::new(
                (0.0, 0.0),
                surface.px(7.0),
                WHITE.stroke_width(surface.stroke(3.0)),
            )))
            .map_err(text_err)?;
        chart
            .draw_series(std::iter::once(Cross::new(
                (0.0, 0.0),
                surface.px(7.0),
                SOLUTION.stroke_width(surface.stroke(2.0)),
            )))
            .map_err(text_err)?;
        let p = (self.z[0], self.z[1]);
        chart
            .draw_series([
                Circle::new(p, surface.px(7.0), WHITE.filled()),
                Circle::new(p, surface.px(7.0), INK.stroke_width(surface.stroke(2.0))),
            ])
            .map_err(text_err)?;
        let mut legend = Legend::default();
        legend.add(Mark::Cross(SOLUTION.to_rgba()), "origin z = 0 (LOInK)");
        legend.add(Mark::Ring(INK.to_rgba()), "your z (drag)");
        if lo.is_finite() && hi.is_finite() {
            legend.add(
                Mark::Swatch(RGBAColor(68, 1, 84, 1.0)),
                format!("J = {lo:.3} (cheap)"),
            );
            legend.add(
                Mark::Swatch(RGBAColor(253, 231, 37, 1.0)),
                format!("J = {hi:.3}"),
            );
        }
        legend.add(Mark::Swatch(MUTED.to_rgba()), "a joint limit broken");
        if let Some(j) = self.optimum.as_ref().map(Solution::cost) {
            legend.add(
                Mark::Line(OPTIMUM.to_rgba(), 3.0),
                format!("J* = {j:.3} (reference)"),
            );
        }
        // Beside the plane when the panel is wider than tall (nothing of the plane hidden),
        // over its upper right otherwise.
        let (xr, yr) = chart.plotting_area().get_pixel_range();
        let beside = (xr.end + surface.px(8.0))..(w as i32);
        if beside.end - beside.start >= surface.px(150.0) {
            legend.draw(&area, surface, (beside, yr), Corner::UpperLeft)?;
        } else {
            legend.draw(&area, surface, (xr, yr), Corner::UpperRight)?;
        }
        area.present().map_err(text_err)?;
        Ok(view)
    }

    fn draw_arm(&self, surface: &Surface) -> DrawResult {
        let area = surface.captioned(
            "The pose at your z and at z = 0, over the cheapest pose J* (reference): one target",
        )?;
        let Some(arm) = self.problem.planar() else {
            return Err("the latent lesson draws a planar arm".into());
        };
        let (mut chart, _) = ld::workspace(&area, surface, arm)?;
        let mut legend = Legend::default();
        if let Some(o) = &self.optimum {
            ld::optimum(&mut chart, surface, arm, o.q())?;
            legend.add(
                Mark::Line(OPTIMUM.mix(0.6), 6.0),
                format!("cheapest pose, J* = {:.4}", o.cost()),
            );
        }
        if let Some(o) = &self.origin {
            ld::arm(
                &mut chart,
                surface,
                arm,
                o.q(),
                SOLUTION.to_rgba(),
                2.5,
                false,
            )?;
            legend.add(
                Mark::Line(SOLUTION.to_rgba(), 2.5),
                format!("LOInK at z = 0, J = {:.4}", o.cost()),
            );
        }
        if let Some(s) = &self.at_z {
            let (colour, words) = if Self::reaches(s) {
                (SAMPLE, "reaches the target")
            } else if s.margin() < -1e-6 {
                (TARGET, "breaks a joint limit")
            } else {
                (TARGET, "misses the target")
            };
            ld::arm(&mut chart, surface, arm, s.q(), colour.to_rgba(), 4.0, true)?;
            legend.add(
                Mark::Line(colour.to_rgba(), 4.0),
                format!("your z, J = {:.4}: {words}", s.cost()),
            );
        }
        ld::base_and_target(&area, &chart, surface, self.target)?;
        legend.finish_on(&area, surface, &chart, Corner::away_from(self.target))
    }
}

impl Lesson for LatentLesson {
    const WORD: &'static str = "latent";
    const TEXT: &'static str = "A four-link arm can reach a point in a whole two-dimensional family of poses. \
LOInK straightens that family into the latent plane on the left: each point z gives a pose G⁻¹([y; z]) \
that reaches the target (to the model's accuracy, shown in the table), and the colour is that pose's true \
cost J — joint centring plus 4·com_x², the cost the playground's landscape plots. Grey cells give poses \
that break a joint limit: the joint box maps to a bounded patch of the plane, not all of it. Training \
puts the cheapest pose at the origin, so solving is just reading off z = 0; the orange ghost is the \
true cheapest pose J*, found by the reference solver, to compare.";
    const TRY: &'static str =
    "Drag the white point (or focus the plane and use the arrow keys): the end effector \
stays on the target while the elbows swing; drag it into the grey and watch a joint leave its limits; then \
bring it back to the cross at the origin and compare its cost with J*.";
    const PROBLEM: &'static str = "planar4";
    const SOLVER: SolverKind = SolverKind::Loink;
    /// Default target (m).
    const TARGET: &'static [f64] = &[0.7, 0.35];
    const MODELS: &'static [ModelFile] = &[models::PLANAR4];
    type State = LatentState;

    const PANELS: &'static [Panel] = &[
        Panel::new(
            "plane",
            "Latent plane: true cost over z; drag the point to move along the self-motion set",
            true,
        ),
        Panel::new(
            "arm",
            "The arm at the dragged latent point and at the origin",
            false,
        ),
    ];

    /// A pointer on the latent plane moves z there.
    fn pointer(name: &str, world: [f64; 2], lesson: &mut LessonSettings) -> bool {
        if name != "plane" {
            return false;
        }
        lesson.z = world;
        true
    }

    /// Arrow keys on the latent plane move z by [`KEY_STEP`] a step.
    fn nudge(name: &str, dx: f64, dy: f64, lesson: &mut LessonSettings) -> bool {
        if name != "plane" {
            return false;
        }
        lesson.z = LatentLesson::nudged(lesson.z, dx, dy);
        true
    }
    fn compute(models: &Loaded, settings: &Settings) -> Self {
        LatentLesson::new(models, target_xy(settings), settings.lesson.z)
    }

    /// `getState().lesson`.
    fn state(&self) -> Self::State {
        let cheapest = self.cheapest();
        LatentState {
            lesson: "latent",
            target: self.target,
            z: self.z,
            q: self
                .at_z
                .as_ref()
                .map(|s| s.q().to_vec())
                .unwrap_or_default(),
            residual_m: self.at_z.as_ref().map(Solution::residual).and_then(finite),
            status: self.at_z.as_ref().map(|s| s.status().as_str()),
            cost: self.at_z.as_ref().map(Solution::cost).and_then(finite),
            origin_cost: self.origin.as_ref().map(Solution::cost).and_then(finite),
            origin_q: self
                .origin
                .as_ref()
                .map(|s| s.q().to_vec())
                .unwrap_or_default(),
            cheapest_cell_z: cheapest.map(|c| c.0),
            cheapest_cell_cost: cheapest.map(|c| c.1),
            reaches: self.at_z.as_ref().map(Self::reaches),
            margin_rad: self.at_z.as_ref().map(Solution::margin).and_then(finite),
            optimum_cost: self.optimum.as_ref().map(Solution::cost),
            outside_limits_share: if self.grid.is_empty() {
                0.0
            } else {
                self.grid
                    .iter()
                    .filter(|c| **c == Cell::OutsideLimits)
                    .count() as f64
                    / self.grid.len() as f64
            },
        }
    }

    /// Readout rows.
    fn readouts(&self) -> Vec<[String; 2]> {
        let s = self.state();
        let f = |v: Option<f64>| v.map_or("—".to_string(), |v| format!("{v:.4}"));
        vec![
            [
                "latent point z".into(),
                format!("({:.2}, {:.2})", self.z[0], self.z[1]),
            ],
            [
                "end effector at z".into(),
                match (&self.at_z, s.residual_m, s.status) {
                    (Some(at), Some(r), Some(st)) if at.margin() < -1e-6 => format!(
                        "{r:.2e} m from the target — {st}: a joint is {:.3} rad past its limit",
                        -at.margin()
                    ),
                    (_, Some(r), Some(st)) => format!("{r:.2e} m from the target — {st}"),
                    _ => "planar4 model not loaded".into(),
                },
            ],
            ["cost J at z".into(), f(s.cost)],
            ["cost J at the origin z = 0".into(), f(s.origin_cost)],
            [
                "J* (reference optimum)".into(),
                match (s.optimum_cost, s.origin_cost) {
                    (Some(j), Some(o)) => format!("{j:.4} (z = 0 is {:+.4} above it)", o - j),
                    (Some(j), None) => format!("{j:.4}"),
                    _ => "no feasible pose found".into(),
                },
            ],
            [
                "cheapest cell of the map".into(),
                match (s.cheapest_cell_z, s.cheapest_cell_cost) {
                    (Some(z), Some(c)) => format!("z = ({:.2}, {:.2}), J = {c:.4}", z[0], z[1]),
                    _ => "—".into(),
                },
            ],
        ]
    }

    /// Draws `plane` (returns its z map) or `arm`.
    fn draw(&self, name: &str, surface: &Surface) -> DrawResult<Option<Viewport>> {
        match name {
            "plane" => self.draw_plane(surface).map(Some),
            "arm" => self.draw_arm(surface).map(|_| None),
            _ => Ok(None),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_z_reaches_the_target_and_the_origin_is_near_the_optimum() {
        let l = LatentLesson::new(
            &models::shipped::<LatentLesson>(),
            crate::lessons::lesson::xy(LatentLesson::TARGET),
            crate::lessons::DEFAULT_Z,
        );
        let s = l.state();
        assert_eq!(s.reaches, Some(true), "{s:?}");
        let (origin, best) = (s.origin_cost.unwrap(), s.optimum_cost.unwrap());
        assert!(origin >= best - 1e-6 && origin <= best * 1.05, "{s:?}");
        assert!(s.cost.unwrap() > origin, "{s:?}");
    }

    #[test]
    fn a_z_whose_pose_breaks_a_limit_is_shown_and_said_so() {
        let l = LatentLesson::new(
            &models::shipped::<LatentLesson>(),
            crate::lessons::lesson::xy(LatentLesson::TARGET),
            [-1.8, -1.8],
        );
        let s = l.state();
        assert_eq!(s.reaches, Some(false), "{s:?}");
        assert!(s.margin_rad.unwrap() < 0.0, "{s:?}");
        assert!(l
            .readouts()
            .iter()
            .any(|[_, text]| text.contains("past its limit")));
        assert!(s.outside_limits_share > 0.0 && s.outside_limits_share < 1.0);
        let step = 2.0 * HALF / CELLS as f64;
        let (col, row) = (
            ((-1.8 + HALF) / step) as usize,
            ((HALF + 1.8) / step) as usize,
        );
        assert_eq!(l.grid[row * CELLS + col], Cell::OutsideLimits);
    }

    #[test]
    fn arrow_keys_move_z_in_steps_and_stay_on_the_plane() {
        assert_eq!(LatentLesson::nudged([0.0, 0.0], 1.0, -2.0), [0.05, -0.1]);
        assert_eq!(LatentLesson::nudged([1.9, 0.0], 10.0, 0.0), [HALF, 0.0]);
    }
}
