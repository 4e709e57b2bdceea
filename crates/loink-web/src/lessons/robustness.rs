//! Lesson 4, noise and backlash (the robustness exercise), on planar2. A simulated arm reaches a
//! seeded sequence of targets; every commanded joint move smaller than the dead band is lost
//! (backlash) and every executed joint angle carries Gaussian noise. Three controllers: the
//! analytic solver (open loop), DLS closed on the measured joints (a few correction rounds; a
//! correction smaller than the dead band is made by backing off past the band and returning),
//! and LOInK (open loop). For each we measure the true end-effector error and what the
//! controller reports, judged by the task's 5 mm tolerance: on its own command (what a bare
//! solver sees) and by replaying the measured joints through forward kinematics (what an honest
//! one must do — with exact joint sensing, the truth).

use loink::problem::Problem;
use loink::report::{Solution, Status, Termination};
use loink::solvers::analytic::{self, Branch};
use loink::solvers::dls;
use loink::surrogate::Loink;
use plotters::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::Serialize;

use super::layout::{Control, Panel};
use super::lesson::Lesson;
use super::models::{self, Loaded, ModelFile};
use crate::draw::palette::{INK, LIMITS, SOLUTION, TARGET};
use crate::draw::plots as ld;
use crate::draw::{text_err, Corner, DrawResult, Legend, Mark, Surface};
use crate::settings::{Settings, SolverKind};
use crate::view::Viewport;

/// Trials per noise level.
pub const TRIALS: usize = 40;
/// Noise levels of the chart (rad).
const NOISE_GRID: [f64; 11] = [
    0.0, 0.01, 0.02, 0.03, 0.04, 0.05, 0.06, 0.07, 0.08, 0.09, 0.1,
];
/// Task tolerance a reach is judged by (m).
pub const TOLERANCE_M: f64 = 5e-3;
/// Correction rounds of the closed-loop DLS.
const ROUNDS: usize = 4;

/// The controllers compared.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Method {
    Analytic,
    DlsFeedback,
    Loink,
}

impl Method {
    fn name(self) -> &'static str {
        match self {
            Method::Analytic => "analytic (open loop)",
            Method::DlsFeedback => "DLS on measured joints",
            Method::Loink => "LOInK (open loop)",
        }
    }
    fn key(self) -> &'static str {
        match self {
            Method::Analytic => "analytic",
            Method::DlsFeedback => "dls",
            Method::Loink => "loink",
        }
    }
    fn colour(self) -> RGBAColor {
        match self {
            Method::Analytic => LIMITS.to_rgba(),
            Method::DlsFeedback => TARGET.to_rgba(),
            Method::Loink => SOLUTION.to_rgba(),
        }
    }
}

/// What one controller did at one noise level.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Outcome {
    /// Controller key (`analytic`, `dls`, `loink`).
    pub method: &'static str,
    /// Joint noise σ (rad).
    pub noise: f64,
    /// Median true end-effector error (m).
    pub median_error_m: f64,
    /// Share of trials whose true error exceeds 5 mm.
    pub true_fail: f64,
    /// Share reported as failed when the controller judges its own command (its residual
    /// above 5 mm, a limit broken, or the solver's own failure).
    pub reported_fail_command: f64,
    /// Share reported as failed after FK replay of the measured joints (the same test).
    pub reported_fail_replay: f64,
}

/// `getState().lesson`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RobustnessState {
    /// Lesson name.
    pub lesson: &'static str,
    /// Current noise σ (rad).
    pub noise: f64,
    /// Current dead band (rad).
    pub deadband: f64,
    /// Outcomes at the current noise, per controller.
    pub current: Vec<Outcome>,
    /// Outcomes over the noise grid.
    pub curve: Vec<Outcome>,
}

/// The computed lesson.
pub struct Robustness {
    noise: f64,
    deadband: f64,
    current: Vec<Outcome>,
    curve: Vec<Outcome>,
}

fn targets(problem: &Problem) -> Vec<[f64; 2]> {
    let mut rng = ChaCha8Rng::seed_from_u64(4);
    (0..TRIALS)
        .map(|_| {
            let q = [rng.random_range(-1.3..1.3), rng.random_range(0.4..2.7)];
            let p = problem.position(&q);
            [p[0], p[1]]
        })
        .collect()
}

fn median(v: Vec<f64>) -> f64 {
    loink::stats::median(&v)
}

/// Executes a command: joints whose commanded change is below the dead band stay; the others
/// land at the command plus noise.
fn actuate(
    previous: &[f64],
    command: &[f64],
    deadband: f64,
    noise: &mut dyn FnMut() -> f64,
) -> Vec<f64> {
    previous
        .iter()
        .zip(command)
        .map(|(&p, &c)| {
            if (c - p).abs() < deadband {
                p
            } else {
                c + noise()
            }
        })
        .collect()
}

/// Whether a replayed pose fails the task: it misses by more than [`TOLERANCE_M`] or breaks a
/// limit.
fn misses(s: &Solution) -> bool {
    !(s.residual() <= TOLERANCE_M && s.margin() >= -1e-6)
}

/// Whether a solver's command fails by its own report: it [`misses`], or the solver admits
/// failure (`capped`, `unreachable`, `invalid`).
fn admits_failure(s: &Solution) -> bool {
    misses(s)
        || matches!(
            s.status(),
            Status::Capped | Status::Unreachable | Status::Invalid
        )
}

/// A correction from the measured joints `q` to `command` that the dead band would swallow
/// (some joint moves by less than the band) is made in two moves: first past the band away
/// from the goal, then to the goal — the classic way to take up backlash.
fn corrected(
    q: Vec<f64>,
    command: &[f64],
    deadband: f64,
    noise: &mut dyn FnMut() -> f64,
) -> Vec<f64> {
    let swallowed = q
        .iter()
        .zip(command)
        .any(|(a, c)| (c - a).abs() < deadband && (c - a).abs() > 0.0);
    if !swallowed {
        return actuate(&q, command, deadband, noise);
    }
    let back_off: Vec<f64> = q
        .iter()
        .zip(command)
        .map(|(&a, &c)| {
            let d = c - a;
            if d.abs() < deadband && d != 0.0 {
                a - d.signum() * 1.5 * deadband
            } else {
                a
            }
        })
        .collect();
    let away = actuate(&q, &back_off, deadband, noise);
    actuate(&away, command, deadband, noise)
}

fn simulate(
    method: Method,
    problem: &Problem,
    loink: Option<&Loink>,
    goals: &[[f64; 2]],
    noise: f64,
    deadband: f64,
) -> Option<Outcome> {
    let mut rng = ChaCha8Rng::seed_from_u64(40 + (noise * 1e4).round() as u64);
    // Box–Muller: one N(0, σ²) draw per executed joint.
    let mut draw = move || {
        let (u, v): (f64, f64) = (rng.random_range(f64::EPSILON..1.0), rng.random());
        noise * (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
    };
    let mut actual = vec![0.0, 1.5];
    let (mut errors, mut fail, mut said_cmd, mut said_replay) = (Vec::new(), 0, 0, 0);
    let options = dls::DlsOptions::default();
    for goal in goals {
        let command: Solution = match method {
            Method::Analytic => analytic::solve(problem, goal, Branch::ElbowDown).ok()?,
            Method::Loink => loink?.solve_cold(goal),
            Method::DlsFeedback => dls::solve_warm(problem, goal, &actual, &options),
        };
        if command.q().is_empty() {
            return None;
        }
        let mut q = actuate(&actual, command.q(), deadband, &mut draw);
        if method == Method::DlsFeedback {
            for _ in 0..ROUNDS {
                if loink::report::distance(&problem.position(&q), goal) <= TOLERANCE_M {
                    break;
                }
                let again = dls::solve_warm(problem, goal, &q, &options);
                if again.q().is_empty() {
                    break;
                }
                q = corrected(q, again.q(), deadband, &mut draw);
            }
        }
        let replay = Solution::assess(
            problem,
            method.key(),
            goal,
            None,
            q.clone(),
            1,
            0.0,
            Termination::Converged,
        );
        let error = replay.residual();
        errors.push(error);
        // NaN (no pose) counts as a failure.
        fail += usize::from(error.is_nan() || error > TOLERANCE_M);
        said_cmd += usize::from(admits_failure(&command));
        said_replay += usize::from(misses(&replay));
        actual = q;
    }
    let n = goals.len().max(1) as f64;
    Some(Outcome {
        method: method.key(),
        noise,
        median_error_m: median(errors),
        true_fail: fail as f64 / n,
        reported_fail_command: said_cmd as f64 / n,
        reported_fail_replay: said_replay as f64 / n,
    })
}

impl Robustness {
    /// Runs every controller over the noise grid and at the current noise.
    pub fn new(models: &Loaded, noise: f64, deadband: f64) -> Self {
        let loink = models.loink.get("loink");
        let problem = Problem::preset("planar2").expect("planar2 is a preset");
        let goals = targets(&problem);
        let methods = [Method::Analytic, Method::DlsFeedback, Method::Loink];
        let run = |m: Method, s: f64| simulate(m, &problem, loink, &goals, s, deadband);
        Robustness {
            noise,
            deadband,
            current: methods.iter().filter_map(|&m| run(m, noise)).collect(),
            curve: methods
                .iter()
                .flat_map(|&m| NOISE_GRID.iter().filter_map(move |&s| run(m, s)))
                .collect(),
        }
    }

    fn draw_errors(&self, surface: &Surface) -> DrawResult {
        let area = surface.captioned(&format!(
            "Median end-effector error vs joint noise (dead band {} rad)",
            self.deadband
        ))?;
        let mut chart = ld::framed(&area, surface, 32.0, 56.0)
            .build_cartesian_2d(0.0..0.1, (1e-7..1.0).log_scale())
            .map_err(text_err)?;
        ld::styled_mesh(
            &mut chart,
            surface,
            "joint noise σ (rad)",
            "median error (m)",
        )
        .y_label_formatter(&|v| format!("{v:.0e}"))
        .draw()
        .map_err(text_err)?;
        let mut legend = Legend::default();
        for m in [Method::Analytic, Method::DlsFeedback, Method::Loink] {
            let pts: Vec<(f64, f64)> = self
                .curve
                .iter()
                .filter(|o| o.method == m.key())
                .map(|o| (o.noise, o.median_error_m.max(1.1e-7)))
                .collect();
            if pts.is_empty() {
                continue;
            }
            chart
                .draw_series(LineSeries::new(
                    pts.clone(),
                    m.colour().stroke_width(surface.stroke(2.5)),
                ))
                .map_err(text_err)?;
            chart
                .draw_series(
                    pts.iter()
                        .map(|&p| Circle::new(p, surface.px(3.0), m.colour().filled())),
                )
                .map_err(text_err)?;
            legend.add(Mark::Line(m.colour(), 2.5), m.name());
        }
        chart
            .draw_series(DashedLineSeries::new(
                vec![(0.0, TOLERANCE_M), (0.1, TOLERANCE_M)],
                surface.px(6.0) as u32,
                surface.px(4.0) as u32,
                INK.mix(0.7).stroke_width(surface.stroke(1.0)),
            ))
            .map_err(text_err)?;
        legend.add(Mark::Line(INK.mix(0.7), 1.0), "5 mm tolerance");
        chart
            .draw_series(std::iter::once(PathElement::new(
                vec![(self.noise, 1e-7), (self.noise, 1.0)],
                INK.mix(0.4).stroke_width(surface.stroke(1.0)),
            )))
            .map_err(text_err)?;
        legend.finish_on(&area, surface, &chart, Corner::LowerRight)
    }

    fn draw_status(&self, surface: &Surface) -> DrawResult {
        let area = surface.captioned(&format!(
            "At σ = {} rad: share of failed reaches, true vs reported",
            self.noise
        ))?;
        let n = self.current.len().max(1) as f64;
        let names: Vec<&str> = self.current.iter().map(|o| o.method).collect();
        let mut chart = ld::framed(&area, surface, 28.0, 52.0)
            .build_cartesian_2d(0.0..n, 0.0..1.7)
            .map_err(text_err)?;
        ld::styled_mesh(&mut chart, surface, "", "share of 40 trials")
            .disable_x_mesh()
            .x_labels(names.len() * 2 + 1)
            .x_label_formatter(&|x| {
                let i = (x - 0.5).round();
                if (x - 0.5 - i).abs() < 1e-6 && i >= 0.0 {
                    names
                        .get(i as usize)
                        .map(|k| name_of(k).to_string())
                        .unwrap_or_default()
                } else {
                    String::new()
                }
            })
            .y_labels(9)
            .y_label_formatter(&|v| {
                if *v <= 1.0 + 1e-9 {
                    format!("{:.0} %", v * 100.0)
                } else {
                    String::new()
                }
            })
            .draw()
            .map_err(text_err)?;
        // Colour says which controller, the bar's style which count (solid: the truth; hollow:
        // the controller's word on its own command; light with an outline: after FK replay).
        for (i, o) in self.current.iter().enumerate() {
            let colour = [Method::Analytic, Method::DlsFeedback, Method::Loink]
                .into_iter()
                .find(|m| m.key() == o.method)
                .map_or(INK.to_rgba(), Method::colour);
            for (k, v) in [o.true_fail, o.reported_fail_command, o.reported_fail_replay]
                .into_iter()
                .enumerate()
            {
                let x0 = i as f64 + 0.12 + k as f64 * 0.26;
                let corners = [(x0, 0.0), (x0 + 0.22, v.max(0.004))];
                let outline = colour.stroke_width(surface.stroke(1.5));
                let styles = match k {
                    0 => vec![colour.filled()],
                    1 => vec![outline],
                    _ => vec![colour.mix(0.35).filled(), outline],
                };
                for style in styles {
                    chart
                        .draw_series(std::iter::once(Rectangle::new(corners, style)))
                        .map_err(text_err)?;
                }
            }
        }
        let mut legend = Legend::default();
        legend.add(Mark::Swatch(INK.to_rgba()), "truly failed (error > 5 mm)");
        legend.add(Mark::Outline(INK.to_rgba(), 0.0), "reported: own command");
        legend.add(Mark::Outline(INK.to_rgba(), 0.35), "reported: FK replay");
        for m in [Method::Analytic, Method::DlsFeedback, Method::Loink] {
            legend.add(Mark::Swatch(m.colour()), m.name());
        }
        legend.finish_on(&area, surface, &chart, Corner::UpperRight)
    }
}

fn name_of(key: &str) -> &'static str {
    [Method::Analytic, Method::DlsFeedback, Method::Loink]
        .into_iter()
        .find(|m| m.key() == key)
        .map_or("?", Method::name)
}

impl Lesson for Robustness {
    const WORD: &'static str = "robustness";
    const TEXT: &'static str = "A solver's answer is only a command: the real arm adds joint noise and loses \
small moves in its backlash (a joint told to move less than the dead band stays put). Here a simulated \
two-link arm reaches 40 seeded targets; the chart shows the true end-effector error as the noise grows, for \
the analytic solver and LOInK (open loop: one command per target) and for DLS closed on the measured joints \
(up to four corrections, each backing off past the dead band when it is smaller than the band). Without noise \
and backlash all three reach every target within 5 mm. Every command is judged good by the solver that made \
it; replaying the measured joints through forward kinematics is what lets a controller — classical or \
learned — say when it failed. Closing the loop takes up the dead band; against noise it helps only while \
the noise is small next to the error it corrects, for every correction is a noisy move too.";
    const TRY: &'static str =
    "Raise the dead band to 0.05 rad with no noise: which controller still reaches \
the targets, and which report notices the misses? Then add noise 0.05 rad: why does closing the loop stop \
helping?";
    const PROBLEM: &'static str = "planar2";
    const SOLVER: SolverKind = SolverKind::Analytic;
    const TARGET: &'static [f64] = <super::averaging::Averaging as Lesson>::TARGET;
    const MODELS: &'static [ModelFile] = &[models::PLANAR2];
    type State = RobustnessState;

    const PANELS: &'static [Panel] = &[
        Panel::new(
            "errors",
            "End-effector error against joint noise per solver",
            false,
        ),
        Panel::new(
            "status",
            "Share of trials each solver reports as failed against the true share",
            false,
        ),
    ];

    fn controls(settings: &Settings) -> Vec<Control> {
        vec![
            Control::range(
                "noise",
                "Joint noise σ (rad)",
                [0.0, 0.1, 0.0025],
                settings.lesson.noise,
            ),
            Control::range(
                "deadband",
                "Dead band (rad)",
                [0.0, 0.1, 0.0025],
                settings.lesson.deadband,
            ),
        ]
    }
    fn compute(models: &Loaded, settings: &Settings) -> Self {
        Robustness::new(models, settings.lesson.noise, settings.lesson.deadband)
    }

    /// `getState().lesson`.
    fn state(&self) -> Self::State {
        RobustnessState {
            lesson: "robustness",
            noise: self.noise,
            deadband: self.deadband,
            current: self.current.clone(),
            curve: self.curve.clone(),
        }
    }

    /// Readout rows.
    fn readouts(&self) -> Vec<[String; 2]> {
        let pct = |v: f64| format!("{:.0} %", v * 100.0);
        self.current
            .iter()
            .map(|o| {
                [
                    name_of(o.method).to_string(),
                    format!(
                        "median error {:.2e} m; truly failed {}; reported failed: {} on its command, {} after FK replay",
                        o.median_error_m,
                        pct(o.true_fail),
                        pct(o.reported_fail_command),
                        pct(o.reported_fail_replay)
                    ),
                ]
            })
            .collect()
    }

    /// Draws `errors` or `status`.
    fn draw(&self, name: &str, surface: &Surface) -> DrawResult<Option<Viewport>> {
        match name {
            "errors" => self.draw_errors(surface),
            "status" => self.draw_status(surface),
            _ => Ok(()),
        }
        .map(|_| None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn by_method(r: &Robustness) -> std::collections::BTreeMap<&'static str, Outcome> {
        r.current.iter().map(|o| (o.method, o.clone())).collect()
    }

    #[test]
    fn without_noise_or_backlash_every_controller_reaches_every_target_and_says_so() {
        let r = Robustness::new(&models::shipped::<Robustness>(), 0.0, 0.0);
        let by = by_method(&r);
        assert_eq!(by.len(), 3);
        for o in by.values() {
            assert_eq!(o.true_fail, 0.0, "{o:?}");
            assert_eq!(o.reported_fail_command, 0.0, "{o:?}");
            assert_eq!(o.reported_fail_replay, 0.0, "{o:?}");
        }
    }

    #[test]
    fn the_closed_loop_takes_up_the_backlash_the_open_loops_cannot() {
        let r = Robustness::new(&models::shipped::<Robustness>(), 0.0, 0.05);
        let by = by_method(&r);
        assert!(by["analytic"].true_fail > 0.0, "{by:?}");
        assert!(by["loink"].true_fail > 0.0, "{by:?}");
        assert_eq!(by["dls"].true_fail, 0.0, "{by:?}");
        for o in by.values() {
            assert_eq!(o.reported_fail_command, 0.0, "{o:?}");
            assert_eq!(o.reported_fail_replay, o.true_fail, "{o:?}");
        }
    }

    #[test]
    fn classical_controllers_are_exact_without_noise_and_backlash() {
        let r = Robustness::new(&Loaded::default(), 0.0, 0.0);
        let analytic = r.current.iter().find(|o| o.method == "analytic").unwrap();
        assert!(analytic.median_error_m < 1e-9, "{analytic:?}");
        assert_eq!(analytic.true_fail, 0.0);
        let noisy = Robustness::new(&Loaded::default(), 0.05, 0.0);
        let a = noisy
            .current
            .iter()
            .find(|o| o.method == "analytic")
            .unwrap();
        assert!(a.median_error_m > 1e-2, "{a:?}");
        // The command looks fine; only the replay of the measured joints sees the misses.
        assert_eq!(a.reported_fail_command, 0.0);
        assert_eq!(a.reported_fail_replay, a.true_fail);
    }
}
