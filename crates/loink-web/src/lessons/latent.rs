//! Lesson 5, redundancy and the latent origin (planar4): for a fixed target the learned
//! solution set is the image of the latent plane, x(z) = G⁻¹([y; z]). The plane is shown as a
//! heat map of the true cost J(x(z)); dragging the point moves the arm along its self-motion
//! set with the end effector held on the target, and the origin z = 0 is the cheapest pose.

use loink::nn::PathPredictor;
use loink::problem::Problem;
use loink::report::{Solution, Status};
use loink::surrogate::Loink;
use plotters::prelude::*;
use serde::Serialize;

use super::draw as ld;
use super::models::Loaded;
use super::LATENT_MAX;
use crate::draw::palette::{self, viridis, INK, OPTIMUM, SOLUTION, TARGET};
use crate::draw::{text_err, Corner, DrawResult, Legend, Mark, Surface, CAPTION_BAND};
use crate::view::Viewport;

/// Title.
pub const TITLE: &str = "Redundancy and the latent origin";
/// Text.
pub const TEXT: &str = "A four-link arm can reach a point in a whole two-dimensional family of poses. \
LOInK straightens that family into the latent plane on the left: every point z gives a pose that still \
reaches the target, and the colour is that pose's true cost. Training puts the cheapest pose at the \
origin, so solving is just reading off z = 0.";
/// Try this.
pub const TRY: &str =
    "Drag the white point around the plane: the end effector stays on the target while \
the elbows swing; then drag it back towards the cross at the origin and watch the cost fall.";

/// Default target (m).
pub const DEFAULT_TARGET: [f64; 2] = [0.7, 0.35];
/// Heat-map cells per axis.
const CELLS: usize = 40;
/// Half-width of the plane shown (normalised latent units).
const HALF: f64 = LATENT_MAX;

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
}

/// The computed lesson.
pub struct LatentLesson {
    problem: Problem,
    target: [f64; 2],
    z: [f64; 2],
    at_z: Option<Solution>,
    origin: Option<Solution>,
    grid: Vec<f64>,
}

fn finite(v: f64) -> Option<f64> {
    v.is_finite().then_some(v)
}

fn cost_grid(model: &Loink, target: &[f64; 2]) -> Vec<f64> {
    let mut state = model.new_state();
    let mut path = PathPredictor::new();
    let mut grid = vec![f64::NAN; CELLS * CELLS];
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
                    grid[row * CELLS + c] = model.problem().cost().value(&q);
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
    pub fn compute(models: &Loaded, target: [f64; 2], z: [f64; 2]) -> Self {
        let model = models.loink.get("loink").filter(|m| m.latent_dim() == 2);
        let problem = model
            .map(|m| m.problem().clone())
            .unwrap_or_else(|| Problem::preset("planar4").expect("planar4 is a preset"));
        LatentLesson {
            target,
            z,
            at_z: model.map(|m| m.solve_latent(&mut m.new_state(), &target, &z)),
            origin: model.map(|m| m.solve_cold(&target)),
            grid: model.map(|m| cost_grid(m, &target)).unwrap_or_default(),
            problem,
        }
    }

    fn cheapest(&self) -> Option<([f64; 2], f64)> {
        self.grid
            .iter()
            .enumerate()
            .filter(|(_, c)| c.is_finite())
            .min_by(|a, b| a.1.total_cmp(b.1))
            .map(|(i, &c)| (cell_centre(i / CELLS, i % CELLS), c))
    }

    /// `getState().lesson`.
    pub fn state(&self) -> LatentState {
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
        }
    }

    /// Readout rows.
    pub fn readouts(&self) -> Vec<[String; 2]> {
        let s = self.state();
        let f = |v: Option<f64>| v.map_or("—".to_string(), |v| format!("{v:.4}"));
        vec![
            [
                "latent point z".into(),
                format!("({:.2}, {:.2})", self.z[0], self.z[1]),
            ],
            [
                "end effector at z".into(),
                match (s.residual_m, s.status) {
                    (Some(r), Some(st)) => format!("{r:.2e} m from the target — {st}"),
                    _ => "planar4 model not loaded".into(),
                },
            ],
            ["cost J at z".into(), f(s.cost)],
            ["cost J at the origin".into(), f(s.origin_cost)],
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
    pub fn draw(&self, name: &str, surface: &Surface) -> DrawResult<Option<Viewport>> {
        match name {
            "plane" => self.draw_plane(surface).map(Some),
            "arm" => self.draw_arm(surface).map(|_| None),
            _ => Ok(None),
        }
    }

    fn draw_plane(&self, surface: &Surface) -> DrawResult<Viewport> {
        let area = surface.captioned("Latent plane: true cost J(G⁻¹([y; z])); × = origin z = 0")?;
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
            .grid
            .iter()
            .copied()
            .filter(|c| c.is_finite())
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), c| {
                (a.min(c), b.max(c))
            });
        if !self.grid.is_empty() {
            let colours: Vec<Option<[u8; 3]>> = self
                .grid
                .iter()
                .map(|&c| {
                    c.is_finite()
                        .then(|| viridis((c - lo) / (hi - lo).max(1e-12)))
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
                OPTIMUM.stroke_width(surface.stroke(1.5)),
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
        legend.add(Mark::Cross(OPTIMUM.to_rgba()), "origin z = 0");
        legend.add(Mark::Ring(INK.to_rgba()), "your z (drag)");
        legend.add(
            Mark::Swatch(RGBAColor(68, 1, 84, 1.0)),
            format!("J = {lo:.3} (cheap)"),
        );
        legend.add(
            Mark::Swatch(RGBAColor(253, 231, 37, 1.0)),
            format!("J = {hi:.3}"),
        );
        legend.finish(
            &area,
            surface,
            chart.plotting_area().get_pixel_range(),
            Corner::UpperRight,
        )?;
        Ok(view)
    }

    fn draw_arm(&self, surface: &Surface) -> DrawResult {
        let area = surface
            .captioned("The pose at your z (blue) and at the origin (ghost): same target")?;
        let Some(arm) = self.problem.planar() else {
            return Err("the latent lesson draws a planar arm".into());
        };
        let (mut chart, _) = ld::workspace(&area, surface, arm)?;
        let mut legend = Legend::default();
        if let Some(o) = &self.origin {
            ld::arm(
                &mut chart,
                surface,
                arm,
                o.q(),
                OPTIMUM.mix(0.55),
                6.0,
                false,
            )?;
            legend.add(
                Mark::Line(OPTIMUM.mix(0.6), 5.0),
                format!("z = 0, J = {:.4}", o.cost()),
            );
        }
        if let Some(s) = &self.at_z {
            let colour = if s.status() == Status::Converged {
                SOLUTION
            } else {
                TARGET
            };
            ld::arm(&mut chart, surface, arm, s.q(), colour.to_rgba(), 4.0, true)?;
            legend.add(
                Mark::Line(colour.to_rgba(), 4.0),
                format!("your z, J = {:.4} ({})", s.cost(), s.status()),
            );
        }
        ld::base_and_target(&area, &chart, surface, self.target)?;
        legend.finish(
            &area,
            surface,
            chart.plotting_area().get_pixel_range(),
            Corner::LowerLeft,
        )
    }
}
