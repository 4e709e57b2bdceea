//! The climbing lesson ("distribute the load"): the climber's footholds swung from a 60° slope
//! to the ceiling at the page's span and clearance. At each wall angle γ: the magnet pull each
//! foot needs in LOInK's posture and in the neutral stance, and the range of the larger pull
//! over every posture the robot can take there. A switch between the two rules that share the
//! load — equal joint stiffness (the problem's) and minimum-norm forces (Magneto's controller) —
//! shows that posture only matters under the first.

use loink::problem::climber::sketch::loads_by;
use loink::problem::climber::statics::Rule;
use loink::problem::climber::Climber;
use loink::problem::Problem;
use loink::solvers::registry::{SolverKind, SolverSettings};
use loink::surrogate::ChartSet;
use plotters::prelude::*;
use serde::Serialize;

use super::layout::{Control, Panel};
use super::lesson::Lesson;
use super::models::{self, Loaded, ModelFile};
use super::RuleKind;
use crate::draw::palette::{FORCE, MUTED, SOLUTION};
use crate::draw::{plots, text_err, Corner, DrawResult, Legend, Mark, Surface};
use crate::settings::Settings;
use crate::view::Viewport;

/// Wall angles swept (degrees): 60° to 180° in 5° steps.
const GAMMAS: (f64, f64, usize) = (60.0, 180.0, 25);

/// The two feet's pulls (N per real foot): upper (front), lower (rear).
type Pair = [f64; 2];

/// One wall angle of the sweep.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Row {
    /// γ (degrees).
    pub gamma: f64,
    /// LOInK's posture (refined): the pull per upper and lower foot (N; NaN without an answer).
    pub loink: Pair,
    /// The neutral stance's (N; NaN where it leaves the box).
    pub neutral: Pair,
    /// The smallest and largest larger-of-the-two pull over every posture the robot can take on
    /// these footholds (N; NaN when none).
    pub spread: [f64; 2],
}

/// `getState().lesson` for this lesson.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ClimbingState {
    /// Lesson name.
    pub lesson: &'static str,
    /// The rule sharing the load (`stiffness` or `min-norm`).
    pub rule: &'static str,
    /// The span d and clearance h the sweep keeps (m).
    pub span: f64,
    /// See `span`.
    pub clearance: f64,
    /// The sweep, 60° to 180°.
    pub rows: Vec<Row>,
}

/// The computed lesson.
pub struct ClimbingLesson {
    rule: RuleKind,
    span: f64,
    clearance: f64,
    rows: Vec<Row>,
    /// Why there is no LOInK curve (its model did not load), if so.
    missing: Option<String>,
}

fn rule_of(kind: RuleKind) -> Rule {
    match kind {
        RuleKind::Stiffness => Rule::EqualStiffness,
        RuleKind::MinNorm => Rule::MinimumNorm,
    }
}

fn pulls(x: &[f64], rule: Rule) -> Pair {
    let loads = loads_by(x, rule);
    [loads[0].needed, loads[1].needed]
}

impl ClimbingLesson {
    /// The sweep at span `span` and clearance `clearance` under `rule`.
    pub fn new(models: &Loaded, span: f64, clearance: f64, kind: RuleKind) -> Self {
        let rule = rule_of(kind);
        let climber = Climber::preset();
        let model = models.loink.get("loink");
        let solver = model.and_then(|m| {
            let settings = SolverSettings {
                refine: 3,
                ..SolverSettings::new(SolverKind::LoinkRefine)
            };
            ChartSet::from(m.clone()).solver(&settings).ok()
        });
        let problem: Option<&Problem> = model.map(|m| m.problem());
        let mut solver = solver;
        let (g0, g1, count) = GAMMAS;
        let rows = (0..count)
            .map(|i| {
                let gamma = g0 + (g1 - g0) * i as f64 / (count - 1) as f64;
                let g = gamma.to_radians();
                let y = [span * g.cos(), span * g.sin(), clearance];
                let nan = [f64::NAN; 2];
                let loink = solver
                    .as_mut()
                    .map(|s| s.solve(&y))
                    .filter(|s| s.status() == loink::report::Status::Converged)
                    .map_or(nan, |s| pulls(s.q(), rule));
                let neutral = loink::problem::capability::Statics::neutral_pose(&climber, &y)
                    .filter(|x| problem.is_none_or(|p| p.limits().margin(x) >= 0.0))
                    .map_or(nan, |x| pulls(&x, rule));
                let peaks = climber.postures(&y).map(|x| {
                    let p = pulls(&x, rule);
                    p[0].max(p[1])
                });
                let spread = peaks.fold([f64::INFINITY, f64::NEG_INFINITY], |[lo, hi], v| {
                    [lo.min(v), hi.max(v)]
                });
                let spread = if spread[0].is_finite() { spread } else { nan };
                Row {
                    gamma,
                    loink,
                    neutral,
                    spread,
                }
            })
            .collect();
        ClimbingLesson {
            rule: kind,
            span,
            clearance,
            rows,
            missing: models.missing.get("loink").cloned(),
        }
    }

    fn rule_words(&self) -> &'static str {
        match self.rule {
            RuleKind::Stiffness => "equal joint stiffness",
            RuleKind::MinNorm => "minimum-norm forces (Magneto's controller)",
        }
    }

    /// The pull per foot along the sweep: LOInK's posture bold, the neutral stance thin and faint.
    fn draw_sweep(&self, surface: &Surface) -> DrawResult {
        let area = surface.captioned(&format!(
            "Magnet pull per foot, wall 60° → ceiling ({})",
            self.rule_words()
        ))?;
        let top = self
            .rows
            .iter()
            .flat_map(|r| r.loink.iter().chain(&r.neutral).copied())
            .filter(|v| v.is_finite())
            .fold(10.0f64, f64::max);
        let mut chart = plots::line_chart(
            &area,
            surface,
            GAMMAS.0..GAMMAS.1,
            0.0..top * 1.15,
            "wall angle γ (°): 90 vertical, 180 ceiling",
            "pull needed per foot (N)",
        )?;
        let mut legend = Legend::default();
        let series = |pick: fn(&Row) -> Pair, k: usize| -> Vec<(f64, f64)> {
            self.rows.iter().map(|r| (r.gamma, pick(r)[k])).collect()
        };
        for (k, colour, foot) in [(0, FORCE, "upper feet"), (1, SOLUTION, "lower feet")] {
            let points = series(|r| r.neutral, k);
            plots::polyline(&mut chart, surface, &points, colour.mix(0.5), 1.5)?;
            legend.add(
                Mark::Line(colour.mix(0.5), 1.5),
                format!("{foot}, neutral stance"),
            );
            let points = series(|r| r.loink, k);
            plots::polyline(&mut chart, surface, &points, colour.to_rgba(), 3.0)?;
            legend.add(
                Mark::Line(colour.to_rgba(), 3.0),
                format!("{foot}, LOInK's posture"),
            );
        }
        if let Some(why) = &self.missing {
            legend.add(
                Mark::Line(MUTED.to_rgba(), 1.0),
                format!("no LOInK curve: {why}"),
            );
        }
        legend.finish_on(&area, surface, &chart, Corner::LowerLeft)
    }

    /// The range of the larger pull over every posture, against LOInK's.
    fn draw_spread(&self, surface: &Surface) -> DrawResult {
        let area = surface.captioned(&format!(
            "Does posture matter? The larger pull over every posture ({})",
            self.rule_words()
        ))?;
        let top = self
            .rows
            .iter()
            .map(|r| r.spread[1])
            .filter(|v| v.is_finite())
            .fold(10.0f64, f64::max);
        let mut chart = plots::line_chart(
            &area,
            surface,
            GAMMAS.0..GAMMAS.1,
            0.0..top * 1.1,
            "wall angle γ (°)",
            "larger pull per foot (N)",
        )?;
        let band: Vec<&Row> = self
            .rows
            .iter()
            .filter(|r| r.spread[0].is_finite())
            .collect();
        let outline: Vec<(f64, f64)> = (band.iter().map(|r| (r.gamma, r.spread[1])))
            .chain(band.iter().rev().map(|r| (r.gamma, r.spread[0])))
            .collect();
        chart
            .draw_series(std::iter::once(Polygon::new(
                outline,
                MUTED.mix(0.3).filled(),
            )))
            .map_err(text_err)?;
        let mut legend = Legend::default();
        legend.add(
            Mark::Swatch(MUTED.mix(0.3)),
            "every posture on these footholds (ankles in range, body off the wall)",
        );
        let peak = |p: Pair| p[0].max(p[1]);
        let peaks: Vec<(f64, f64)> = (self.rows.iter())
            .map(|r| (r.gamma, peak(r.loink)))
            .collect();
        plots::polyline(&mut chart, surface, &peaks, SOLUTION.to_rgba(), 3.0)?;
        legend.add(
            Mark::Line(SOLUTION.to_rgba(), 3.0),
            "LOInK's posture (ankle range and body clearance are soft in its J)",
        );
        legend.finish_on(&area, surface, &chart, Corner::UpperLeft)
    }

    /// The row nearest `gamma` degrees.
    fn at(&self, gamma: f64) -> Option<&Row> {
        self.rows
            .iter()
            .min_by(|a, b| (a.gamma - gamma).abs().total_cmp(&(b.gamma - gamma).abs()))
    }
}

impl Lesson for ClimbingLesson {
    const WORD: &'static str = "climbing";
    const TEXT: &'static str = "A climbing robot hangs from magnets in its feet. On a wall its \
weight pulls the top of the body away from the wall, so the upper feet need the stronger pull; \
on the ceiling both pairs hang alike. Which posture spares the upper magnets depends on how the \
controller shares the load: with equally stiff joints the shear goes where the legs are stiffer, \
so leaning and sliding the body moves load to the lower feet, and LOInK finds that posture in one \
inverse. With minimum-norm forces (Magneto's own controller) the shear splits equally whatever \
the legs do and only the centre of mass moves the loads: on a wall every posture needs about the \
same pull. This side-view model and its cost are ours (docs/climber.md), not the paper's.";
    const TRY: &'static str = "Read where the upper and lower curves meet (the ceiling), then \
switch the rule to minimum norm: on the vertical wall the grey band of every posture shrinks to a \
line, and posture no longer matters there. Open the playground to drag the front foot yourself.";
    const PROBLEM: &'static str = "climber";
    const SOLVER: SolverKind = SolverKind::LoinkRefine;
    /// A vertical wall, span 0.5 m, clearance 8 cm (the climber's default view).
    const TARGET: &'static [f64] = &[0.0, 0.5, 0.08];
    const MODELS: &'static [ModelFile] = &[models::CLIMBER];
    type State = ClimbingState;

    const PANELS: &'static [Panel] = &[
        Panel::new(
            "sweep",
            "Magnet pull per foot from a 60° slope to the ceiling: LOInK's posture against the neutral stance",
            false,
        ),
        Panel::new(
            "spread",
            "The larger pull per foot over every posture the robot can take, against LOInK's",
            false,
        ),
    ];

    fn controls(settings: &Settings) -> Vec<Control> {
        vec![Control::select(
            "rule",
            "How the controller shares the load",
            RuleKind::ALL.map(RuleKind::as_str).to_vec(),
            settings.lesson.rule.as_str(),
        )]
    }

    /// Sweeps at the page target's span and clearance (the defaults where it has none).
    fn compute(models: &Loaded, settings: &Settings) -> Self {
        let t = &settings.target;
        let (span, clearance) = match t[..] {
            [y1, y2, h] if y1.is_finite() && y2.is_finite() && h.is_finite() => {
                (y1.hypot(y2).clamp(0.30, 0.70), h.clamp(0.04, 0.16))
            }
            _ => (0.5, 0.08),
        };
        ClimbingLesson::new(models, span, clearance, settings.lesson.rule)
    }

    fn state(&self) -> Self::State {
        ClimbingState {
            lesson: "climbing",
            rule: self.rule.as_str(),
            span: self.span,
            clearance: self.clearance,
            rows: self.rows.clone(),
        }
    }

    /// Readouts at the vertical wall and the ceiling, and the band's width on the wall.
    fn readouts(&self) -> Vec<[String; 2]> {
        let pair = |p: Pair| format!("{:.1} N upper, {:.1} N lower", p[0], p[1]);
        let mut rows = vec![
            ["rule".to_string(), self.rule_words().to_string()],
            [
                "footholds".to_string(),
                format!(
                    "span {:.2} m, body {:.1} cm off the wall",
                    self.span,
                    self.clearance * 100.0
                ),
            ],
        ];
        for (gamma, name) in [(90.0, "vertical wall"), (180.0, "ceiling")] {
            if let Some(r) = self.at(gamma) {
                rows.push([format!("{name}: LOInK's posture"), pair(r.loink)]);
                rows.push([format!("{name}: neutral stance"), pair(r.neutral)]);
                rows.push([
                    format!("{name}: every posture"),
                    format!(
                        "larger pull {:.1}–{:.1} N (a spread of {:.1} N)",
                        r.spread[0],
                        r.spread[1],
                        r.spread[1] - r.spread[0]
                    ),
                ]);
            }
        }
        rows
    }

    fn draw(&self, name: &str, surface: &Surface) -> DrawResult<Option<Viewport>> {
        match name {
            "sweep" => self.draw_sweep(surface).map(|_| None),
            "spread" => self.draw_spread(surface).map(|_| None),
            _ => Ok(None),
        }
    }
}
