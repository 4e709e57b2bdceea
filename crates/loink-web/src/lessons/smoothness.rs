//! Lesson 2, smoothness and μ (planar3): the target moves along a path; we plot the joint
//! angles and the largest joint speed over time for LOInK at two lower Lipschitz bounds μ
//! (warm-started from the previous frame), DLS warm-started from the previous frame, and the
//! MDN's most likely component, and count the jumps — frames where some joint moves more than
//! [`JUMP_RAD`] while the target moves a few millimetres.

use loink::problem::planar::PlanarArm;
use loink::problem::Problem;
use loink::report::{Solution, Status};
use loink::solvers::dls;
use plotters::prelude::*;
use serde::Serialize;

use super::draw as ld;
use super::models::Loaded;
use super::PathKind;
use crate::draw::palette::{INK, LIMITS, SAMPLE, SOLUTION, TARGET};
use crate::draw::{text_err, Corner, DrawResult, Legend, Mark, Surface};
use crate::view::Viewport;

/// Title.
pub const TITLE: &str = "Smoothness and μ";
/// Text.
pub const TEXT: &str = "LOInK's map G is bi-Lipschitz, so a target that moves smoothly gives joints \
that move smoothly: the solution set cannot tear. The target here runs once around a path in 8 s; the charts \
show each method's joint angles and its largest joint speed. A larger lower bound μ keeps the joint \
velocities tamer; DLS follows from the previous frame but can stall at a joint limit, and the mixture \
density network jumps whenever its most likely component switches.";
/// Try this.
pub const TRY: &str =
    "Switch the path to the figure-eight and compare the jump counts and the largest \
joint speeds of the four methods in the table.";

/// Frames along the path.
pub const FRAMES: usize = 240;
/// Seconds for one lap.
pub const PERIOD_S: f64 = 8.0;
/// A frame-to-frame change of any joint above this (rad) counts as a jump.
pub const JUMP_RAD: f64 = 0.3;

/// Target on `path` at phase t ∈ [0, 1).
pub fn path_point(path: PathKind, t: f64) -> [f64; 2] {
    let a = std::f64::consts::TAU * t;
    match path {
        PathKind::Circle => [0.55 + 0.2 * a.cos(), 0.35 + 0.2 * a.sin()],
        PathKind::FigureEight => [0.55 + 0.25 * a.sin(), 0.35 + 0.15 * (2.0 * a).sin()],
        PathKind::Line => {
            let s = 1.0 - (2.0 * t - 1.0).abs();
            [0.3 + 0.6 * s, 0.6 - 0.5 * s]
        }
    }
}

/// One method's run along the path.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Track {
    /// Method name.
    pub name: String,
    /// μ of the model (LOInK only).
    pub mu: Option<f64>,
    /// Joint angles per frame (empty vector where the solve was invalid).
    #[serde(skip)]
    pub q: Vec<Vec<f64>>,
    /// Largest |q̇_i| per frame (rad/s; NaN at frame 0).
    #[serde(skip)]
    pub speed: Vec<f64>,
    /// Largest joint speed over the lap (rad/s).
    pub max_speed_rad_s: f64,
    /// Number of jumps.
    pub jumps: usize,
    /// Frames whose status was not `converged`.
    pub failed_frames: usize,
}

/// `getState().lesson`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SmoothnessState {
    /// Lesson name.
    pub lesson: &'static str,
    /// The path.
    pub path: &'static str,
    /// Frames and time step.
    pub frames: usize,
    /// Time step (s).
    pub dt_s: f64,
    /// Jump threshold (rad per frame).
    pub jump_rad: f64,
    /// Per method.
    pub methods: Vec<Track>,
    /// Jumps of the LOInK models, summed (null when none is loaded).
    pub loink_jumps: Option<usize>,
}

/// The computed lesson.
pub struct Smoothness {
    arm: PlanarArm,
    path: PathKind,
    targets: Vec<[f64; 2]>,
    tracks: Vec<Track>,
}

fn track(name: String, mu: Option<f64>, solutions: Vec<Solution>) -> Track {
    let dt = PERIOD_S / FRAMES as f64;
    let q: Vec<Vec<f64>> = solutions.iter().map(|s| s.q().to_vec()).collect();
    let mut speed = vec![f64::NAN];
    let mut jumps = 0;
    for w in q.windows(2) {
        let step = if w[0].len() == w[1].len() && !w[0].is_empty() {
            w[0].iter()
                .zip(&w[1])
                .map(|(a, b)| (b - a).abs())
                .fold(0.0, f64::max)
        } else {
            f64::NAN
        };
        jumps += usize::from(step > JUMP_RAD);
        speed.push(step / dt);
    }
    Track {
        name,
        mu,
        max_speed_rad_s: speed
            .iter()
            .copied()
            .filter(|v| v.is_finite())
            .fold(0.0, f64::max),
        jumps,
        failed_frames: solutions
            .iter()
            .filter(|s| s.status() != Status::Converged)
            .count(),
        q,
        speed,
    }
}

impl Smoothness {
    /// Runs every available method along `path`.
    pub fn compute(models: &Loaded, path: PathKind) -> Self {
        let problem = Problem::preset("planar3").expect("planar3 is a preset");
        let targets: Vec<[f64; 2]> = (0..FRAMES)
            .map(|k| path_point(path, k as f64 / FRAMES as f64))
            .collect();
        let mut tracks = Vec::new();
        for role in ["loink-low-mu", "loink-high-mu"] {
            if let Some(m) = models.loink.get(role) {
                let mut state = m.new_state();
                let run = targets.iter().map(|t| m.solve(&mut state, t)).collect();
                let mu = m.model().file().hyper.mu;
                tracks.push(track(format!("LOInK μ = {mu}"), Some(mu), run));
            }
        }
        let mut warm = loink::solvers::reference::solve(&problem, &targets[0])
            .q()
            .to_vec();
        if warm.is_empty() {
            warm = problem.limits().centres();
        }
        let options = dls::DlsOptions::default();
        let run: Vec<Solution> = targets
            .iter()
            .map(|t| {
                let s = dls::solve(&problem, t, &warm, &options);
                if !s.q().is_empty() {
                    warm = s.q().to_vec();
                }
                s
            })
            .collect();
        tracks.push(track("DLS, warm start".into(), None, run));
        if let Some(m) = models.regressors.get("mdn") {
            let run = targets.iter().map(|t| m.solve(t)).collect();
            tracks.push(track("MDN, likeliest component".into(), None, run));
        }
        Smoothness {
            arm: problem.planar().cloned().expect("planar3 is a planar arm"),
            path,
            targets,
            tracks,
        }
    }

    /// `getState().lesson`.
    pub fn state(&self) -> SmoothnessState {
        let loink: Vec<&Track> = self.tracks.iter().filter(|t| t.mu.is_some()).collect();
        SmoothnessState {
            lesson: "smoothness",
            path: self.path.as_str(),
            frames: FRAMES,
            dt_s: PERIOD_S / FRAMES as f64,
            jump_rad: JUMP_RAD,
            methods: self.tracks.clone(),
            loink_jumps: (!loink.is_empty()).then(|| loink.iter().map(|t| t.jumps).sum()),
        }
    }

    /// Readout rows.
    pub fn readouts(&self) -> Vec<[String; 2]> {
        self.tracks
            .iter()
            .map(|t| {
                [
                    t.name.clone(),
                    format!(
                        "largest joint speed {:.2} rad/s; {} jump{}; {} frame{} not converged",
                        t.max_speed_rad_s,
                        t.jumps,
                        if t.jumps == 1 { "" } else { "s" },
                        t.failed_frames,
                        if t.failed_frames == 1 { "" } else { "s" }
                    ),
                ]
            })
            .collect()
    }

    fn colour(i: usize) -> RGBAColor {
        [
            SOLUTION.to_rgba(),
            SAMPLE.to_rgba(),
            LIMITS.to_rgba(),
            TARGET.to_rgba(),
        ][i % 4]
    }

    /// Draws `path`, `angles` or `velocity`.
    pub fn draw(&self, name: &str, surface: &Surface) -> DrawResult<Option<Viewport>> {
        match name {
            "path" => self.draw_path(surface).map(Some),
            "angles" => self.draw_angles(surface).map(|_| None),
            "velocity" => self.draw_velocity(surface).map(|_| None),
            _ => Ok(None),
        }
    }

    fn draw_path(&self, surface: &Surface) -> DrawResult<Viewport> {
        let area = surface.captioned(&format!(
            "The target's path ({}) and every 20th pose of the first method",
            self.path.as_str()
        ))?;
        let (mut chart, view) = ld::workspace(&area, surface, &self.arm)?;
        let mut pts: Vec<(f64, f64)> = self.targets.iter().map(|t| (t[0], t[1])).collect();
        pts.push(pts[0]);
        if let Some(t) = self.tracks.first() {
            for q in t.q.iter().step_by(20) {
                ld::arm(
                    &mut chart,
                    surface,
                    &self.arm,
                    q,
                    Self::colour(0).mix(0.35),
                    2.0,
                    false,
                )?;
            }
        }
        ld::polyline(&mut chart, surface, &pts, TARGET.to_rgba(), 2.0)?;
        ld::base_and_target(&area, &chart, surface, self.targets[0])?;
        let mut legend = Legend::default();
        legend.add(
            Mark::Line(TARGET.to_rgba(), 2.0),
            "target path (ring: start)",
        );
        if let Some(t) = self.tracks.first() {
            legend.add(Mark::Line(Self::colour(0).mix(0.35), 2.0), t.name.clone());
        }
        legend.finish(
            &area,
            surface,
            chart.plotting_area().get_pixel_range(),
            Corner::LowerLeft,
        )?;
        Ok(view)
    }

    fn draw_angles(&self, surface: &Surface) -> DrawResult {
        let area = surface.captioned("Joint angles q₁ (solid), q₂, q₃ (fainter) over the lap")?;
        let rows = self.tracks.len().max(1);
        let body = area.margin(surface.px(24.0), 0, 0, 0);
        let parts = body.split_evenly((rows, 1));
        for (i, (t, part)) in self.tracks.iter().zip(parts.iter()).enumerate() {
            let (lo, hi) = ld::padded_range(t.q.iter().flatten().copied());
            let mut chart = ChartBuilder::on(part)
                .margin(surface.px(4.0))
                .margin_right(surface.px(14.0))
                .x_label_area_size(surface.px(if i + 1 == rows { 20.0 } else { 4.0 }))
                .y_label_area_size(surface.px(52.0))
                .build_cartesian_2d(0.0..PERIOD_S, lo..hi)
                .map_err(text_err)?;
            chart
                .configure_mesh()
                .disable_mesh()
                .x_labels(if i + 1 == rows { 9 } else { 0 })
                .y_labels(3)
                .y_label_formatter(&|v| format!("{v:.1}"))
                .label_style(surface.font(crate::draw::palette::LABEL_PX, INK))
                .axis_style(INK.mix(0.6))
                .draw()
                .map_err(text_err)?;
            let dt = PERIOD_S / FRAMES as f64;
            for j in 0..3 {
                let pts: Vec<(f64, f64)> =
                    t.q.iter()
                        .enumerate()
                        .map(|(k, q)| (k as f64 * dt, q.get(j).copied().unwrap_or(f64::NAN)))
                        .collect();
                let alpha = [1.0, 0.6, 0.35][j];
                ld::polyline(&mut chart, surface, &pts, Self::colour(i).mix(alpha), 1.8)?;
            }
            let mut legend = Legend::default();
            legend.add(
                Mark::Line(Self::colour(i), 2.0),
                format!("{} — {} jumps", t.name, t.jumps),
            );
            legend.draw(
                part,
                surface,
                chart.plotting_area().get_pixel_range(),
                Corner::UpperRight,
            )?;
        }
        area.present().map_err(text_err)
    }

    fn draw_velocity(&self, surface: &Surface) -> DrawResult {
        let area = surface.captioned("Largest joint speed max |q̇ᵢ| over the lap (log scale)")?;
        let top = self
            .tracks
            .iter()
            .map(|t| t.max_speed_rad_s)
            .fold(1.0, f64::max)
            * 2.0;
        let mut chart = ChartBuilder::on(&area)
            .margin_top(surface.px(30.0))
            .margin_left(surface.px(8.0))
            .margin_right(surface.px(14.0))
            .margin_bottom(surface.px(6.0))
            .x_label_area_size(surface.px(32.0))
            .y_label_area_size(surface.px(56.0))
            .build_cartesian_2d(0.0..PERIOD_S, (1e-3..top).log_scale())
            .map_err(text_err)?;
        chart
            .configure_mesh()
            .bold_line_style(crate::draw::palette::GRID)
            .light_line_style(crate::draw::palette::GRID.mix(0.0))
            .x_desc("time (s)")
            .y_desc("max |q̇ᵢ| (rad/s)")
            .y_label_formatter(&|v| format!("{v:.0e}"))
            .label_style(surface.font(crate::draw::palette::LABEL_PX, INK))
            .axis_desc_style(surface.font(crate::draw::palette::LABEL_PX, INK))
            .axis_style(INK.mix(0.6))
            .draw()
            .map_err(text_err)?;
        let dt = PERIOD_S / FRAMES as f64;
        let mut legend = Legend::default();
        for (i, t) in self.tracks.iter().enumerate() {
            let pts: Vec<(f64, f64)> = t
                .speed
                .iter()
                .enumerate()
                .map(|(k, &v)| {
                    (
                        k as f64 * dt,
                        if v.is_finite() {
                            v.max(1.1e-3)
                        } else {
                            f64::NAN
                        },
                    )
                })
                .collect();
            for run in pts.split(|p| !p.1.is_finite()) {
                if run.len() >= 2 {
                    chart
                        .draw_series(LineSeries::new(
                            run.to_vec(),
                            Self::colour(i).stroke_width(surface.stroke(1.8)),
                        ))
                        .map_err(text_err)?;
                }
            }
            legend.add(
                Mark::Line(Self::colour(i), 2.0),
                format!("{} (max {:.2})", t.name, t.max_speed_rad_s),
            );
        }
        legend.finish(
            &area,
            surface,
            chart.plotting_area().get_pixel_range(),
            Corner::UpperLeft,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use loink::solvers::reference;

    #[test]
    fn every_default_path_point_is_reachable_within_planar3_limits() {
        let problem = Problem::preset("planar3").unwrap();
        for path in PathKind::ALL {
            for k in (0..FRAMES).step_by(6) {
                let t = path_point(path, k as f64 / FRAMES as f64);
                let s = reference::solve(&problem, &t);
                assert_eq!(s.status(), Status::Converged, "{path:?} frame {k} {t:?}");
            }
        }
    }
}
