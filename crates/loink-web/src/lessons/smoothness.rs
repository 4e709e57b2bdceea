//! Lesson 2, smoothness and μ (planar3): the target moves along a path; we plot the joint
//! angles and the largest joint speed over time for the cheapest pose itself (the reference
//! optimum), LOInK at two lower Lipschitz bounds μ (warm-started from the previous frame), DLS
//! warm-started from the previous frame, and the MDN's most likely component, and count the
//! jumps — frames where some joint moves more than [`JUMP_RAD`] while the target moves a few
//! millimetres. G's inverse is 1/μ-Lipschitz, so μ caps how fast LOInK's joints can move for
//! a given target motion; the cap only shows where the optimum moves faster than it.

use loink::problem::planar::PlanarArm;
use loink::problem::Problem;
use loink::report::{Solution, Status};
use loink::solvers::dls;
use plotters::prelude::*;
use serde::Serialize;

use super::layout::{Control, Panel};
use super::lesson::Lesson;
use super::models::{self, Loaded, ModelFile};
use super::PathKind;
use crate::draw::palette::{INK, LIMITS, MUTED, SAMPLE, SOLUTION, TARGET};
use crate::draw::plots as ld;
use crate::draw::{text_err, Corner, DrawResult, Legend, Mark, Surface};
use crate::settings::{Settings, SolverKind};
use crate::view::Viewport;

/// Frames along the path.
pub const FRAMES: usize = 240;
/// Seconds for one lap.
pub const PERIOD_S: f64 = 8.0;
/// A frame-to-frame change of any joint above this (rad) counts as a jump.
pub const JUMP_RAD: f64 = 0.3;
/// A frame whose answer misses the target by more than this (m), breaks a limit or is invalid
/// counts as missed.
pub const MISS_M: f64 = 1e-3;

/// Target on `path` at phase t ∈ [0, 1).
pub fn path_point(path: PathKind, t: f64) -> [f64; 2] {
    let a = std::f64::consts::TAU * t;
    match path {
        PathKind::NearBase => [0.3 + 0.3 * a.cos(), 0.1 + 0.3 * a.sin()],
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
    /// Frames whose answer misses by more than [`MISS_M`], breaks a limit or is invalid.
    pub missed_frames: usize,
    /// Mean of J(q) − J(q\*) over the frames where both reach the target (null for the
    /// optimum itself and when no frame does).
    pub mean_cost_gap: Option<f64>,
    /// How many frames that mean is over.
    pub compared_frames: usize,
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
    /// The cheapest pose along the path (first in `methods` too).
    pub optimum_max_speed_rad_s: f64,
}

/// The computed lesson.
pub struct Smoothness {
    arm: PlanarArm,
    path: PathKind,
    targets: Vec<[f64; 2]>,
    tracks: Vec<Track>,
}

fn missed(s: &Solution) -> bool {
    !(s.residual() <= MISS_M && s.margin() >= -1e-6)
}

fn track(
    name: String,
    mu: Option<f64>,
    solutions: Vec<Solution>,
    optimum: Option<&[Solution]>,
) -> Track {
    let dt = PERIOD_S / FRAMES as f64;
    let q: Vec<Vec<f64>> = solutions.iter().map(|s| s.q().to_vec()).collect();
    let gaps: Vec<f64> = optimum.map_or_else(Vec::new, |best| {
        solutions
            .iter()
            .zip(best)
            .filter(|(s, b)| !missed(s) && b.status() == Status::Converged)
            .map(|(s, b)| s.cost() - b.cost())
            .collect()
    });
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
        missed_frames: solutions.iter().filter(|s| missed(s)).count(),
        mean_cost_gap: (!gaps.is_empty()).then(|| gaps.iter().sum::<f64>() / gaps.len() as f64),
        compared_frames: gaps.len(),
        q,
        speed,
    }
}

impl Smoothness {
    /// Runs every available method along `path`.
    pub fn new(models: &Loaded, path: PathKind) -> Self {
        let problem = Problem::preset("planar3").expect("planar3 is a preset");
        let targets: Vec<[f64; 2]> = (0..FRAMES)
            .map(|k| path_point(path, k as f64 / FRAMES as f64))
            .collect();
        let optimum: Vec<Solution> = targets
            .iter()
            .map(|t| loink::solvers::reference::solve(&problem, t))
            .collect();
        let mut tracks = vec![track(
            "cheapest pose (reference)".into(),
            None,
            optimum.clone(),
            None,
        )];
        let best = Some(optimum.as_slice());
        for role in ["loink-low-mu", "loink-high-mu"] {
            if let Some(m) = models.loink.get(role) {
                let mut state = m.new_state();
                let run = targets.iter().map(|t| m.solve(&mut state, t)).collect();
                let mu = m.model().file().hyper.mu;
                tracks.push(track(format!("LOInK μ = {mu}"), Some(mu), run, best));
            }
        }
        let mut warm = optimum[0].q().to_vec();
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
        tracks.push(track("DLS, warm start".into(), None, run, best));
        if let Some(m) = models.regressors.get("mdn") {
            let run = targets.iter().map(|t| m.solve(t)).collect();
            tracks.push(track("MDN, likeliest component".into(), None, run, best));
        }
        Smoothness {
            arm: problem.planar().cloned().expect("planar3 is a planar arm"),
            path,
            targets,
            tracks,
        }
    }

    fn colour(i: usize) -> RGBAColor {
        [
            MUTED.to_rgba(),
            SOLUTION.to_rgba(),
            SAMPLE.to_rgba(),
            LIMITS.to_rgba(),
            TARGET.to_rgba(),
        ][i % 5]
    }

    fn draw_path(&self, surface: &Surface) -> DrawResult<Viewport> {
        let area = surface.captioned(&format!(
            "The target's path ({}) and every 20th cheapest pose",
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
                    Self::colour(0).mix(0.5),
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
            legend.add(Mark::Line(Self::colour(0).mix(0.5), 2.0), t.name.clone());
        }
        legend.finish_on(&area, surface, &chart, Corner::UpperLeft)?;
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
                format!(
                    "{} — {} jump{}",
                    t.name,
                    t.jumps,
                    if t.jumps == 1 { "" } else { "s" }
                ),
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
        let mut chart = ld::framed(&area, surface, 32.0, 56.0)
            .build_cartesian_2d(0.0..PERIOD_S, (1e-3..top).log_scale())
            .map_err(text_err)?;
        ld::styled_mesh(&mut chart, surface, "time (s)", "max |q̇ᵢ| (rad/s)")
            .y_label_formatter(&|v| format!("{v:.0e}"))
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
        legend.finish_on(&area, surface, &chart, Corner::UpperLeft)
    }
}

impl Lesson for Smoothness {
    const WORD: &'static str = "smoothness";
    const TEXT: &'static str = "LOInK's map G is bi-Lipschitz: ‖G(x) − G(x′)‖ ≥ μ‖x − x′‖, so its inverse moves \
the joints at most 1/μ times as far as the (normalised) target moves, and a target that moves smoothly gives \
joints that move smoothly. The target runs once around a path in 8 s; the charts show each method's joint \
angles and largest joint speed, with the cheapest pose itself (the reference optimum) on top. On the loop near \
the base the cheapest pose turns the arm over in a few frames: no continuous map can follow that, both LOInK \
models bridge it smoothly, and the larger μ = 0.2 moves the joints more gently — paid for with a cost a little \
further above the optimum. Where the optimum moves slowly (the circle in open space) both models follow it and \
μ makes no visible difference. DLS follows from the previous frame and can stall at a joint limit; the mixture \
density network jumps whenever its most likely component switches.";
    const TRY: &'static str =
        "Compare the largest joint speeds of the two LOInK models on the loop near the base, \
then switch the path to the circle: why does μ stop mattering there?";
    const PROBLEM: &'static str = "planar3";
    const SOLVER: SolverKind = SolverKind::Dls;
    const TARGET: &'static [f64] = &[0.6, 0.3];
    const MODELS: &'static [ModelFile] = &[
        models::PLANAR3_LOW_MU,
        models::PLANAR3_HIGH_MU,
        models::PLANAR3_MDN,
    ];
    type State = SmoothnessState;

    const PANELS: &'static [Panel] = &[
        Panel::new("path", "The target's path and the arm along it", false),
        Panel::new("angles", "Joint angles over time per method", false),
        Panel::new(
            "velocity",
            "Largest joint speed over time per method",
            false,
        ),
    ];

    fn controls(settings: &Settings) -> Vec<Control> {
        vec![Control::select(
            "path",
            "Path",
            PathKind::ALL.map(PathKind::as_str).to_vec(),
            settings.lesson.path.as_str(),
        )]
    }
    fn compute(models: &Loaded, settings: &Settings) -> Self {
        Smoothness::new(models, settings.lesson.path)
    }

    /// `getState().lesson`.
    fn state(&self) -> Self::State {
        let loink: Vec<&Track> = self.tracks.iter().filter(|t| t.mu.is_some()).collect();
        SmoothnessState {
            lesson: "smoothness",
            path: self.path.as_str(),
            frames: FRAMES,
            dt_s: PERIOD_S / FRAMES as f64,
            jump_rad: JUMP_RAD,
            methods: self.tracks.clone(),
            loink_jumps: (!loink.is_empty()).then(|| loink.iter().map(|t| t.jumps).sum()),
            optimum_max_speed_rad_s: self.tracks[0].max_speed_rad_s,
        }
    }

    /// Readout rows.
    fn readouts(&self) -> Vec<[String; 2]> {
        self.tracks
            .iter()
            .map(|t| {
                let plural = |n: usize| if n == 1 { "" } else { "s" };
                let gap = match t.mean_cost_gap {
                    Some(g) => format!(
                        "; mean J − J* {g:+.4} over the {} frame{} on target",
                        t.compared_frames,
                        plural(t.compared_frames)
                    ),
                    None => String::new(),
                };
                [
                    t.name.clone(),
                    format!(
                        "largest joint speed {:.2} rad/s; {} jump{}; {} of {FRAMES} frames off \
                         the target by > 1 mm or outside the limits{gap}",
                        t.max_speed_rad_s,
                        t.jumps,
                        plural(t.jumps),
                        t.missed_frames,
                    ),
                ]
            })
            .collect()
    }

    /// Draws `path`, `angles` or `velocity`.
    fn draw(&self, name: &str, surface: &Surface) -> DrawResult<Option<Viewport>> {
        match name {
            "path" => self.draw_path(surface).map(Some),
            "angles" => self.draw_angles(surface).map(|_| None),
            "velocity" => self.draw_velocity(surface).map(|_| None),
            _ => Ok(None),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use loink::solvers::reference;

    fn speeds(path: PathKind) -> (SmoothnessState, f64, f64) {
        let s = Smoothness::new(&models::shipped::<Smoothness>(), path).state();
        let speed = |mu: f64| {
            s.methods
                .iter()
                .find(|t| t.mu == Some(mu))
                .map(|t| t.max_speed_rad_s)
                .unwrap()
        };
        let (low, high) = (speed(0.05), speed(0.2));
        (s, low, high)
    }

    #[test]
    fn where_the_optimum_turns_over_the_larger_mu_moves_the_joints_more_gently() {
        let (s, low, high) = speeds(PathKind::NearBase);
        assert!(s.optimum_max_speed_rad_s > 5.0 * low, "{s:?}");
        assert!(
            high < 0.8 * low,
            "μ = 0.2: {high} rad/s, μ = 0.05: {low} rad/s"
        );
        assert_eq!(s.loink_jumps, Some(0));
        for t in s.methods.iter().filter(|t| t.mu.is_some()) {
            assert_eq!(t.missed_frames, 0, "{t:?}");
        }
    }

    #[test]
    fn where_the_optimum_moves_slowly_mu_makes_no_visible_difference() {
        let (s, low, high) = speeds(PathKind::Circle);
        assert!((high / low - 1.0).abs() < 0.15, "{high} vs {low}");
        assert!(s.optimum_max_speed_rad_s < 1.0, "{s:?}");
    }

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
