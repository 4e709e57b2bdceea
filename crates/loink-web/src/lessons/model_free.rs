//! Lesson 7, model-free (soft4): one target of the soft arm, three answers side by side —
//! LOInK's inverse (no simulator call to answer, one to check the answer), the flow baseline's
//! cheapest near sample of K (K calls) and black-box damped least squares (its finite
//! differences cost n + 1 calls an iteration) — with their calls, effort and error against the
//! reference optimum.

use loink::flow::FlowSolver;
use loink::problem::{Problem, Stroke};
use loink::report::Solution;
use loink::solvers::reference;
use loink::solvers::registry::{self, SolverKind, SolverSettings};
use plotters::prelude::*;
use serde::Serialize;

use super::layout::Panel;
use super::lesson::{target_xy, Lesson};
use super::models::{self, Loaded, ModelFile};
use crate::draw::palette::{self, INK, OPTIMUM, TARGET};
use crate::draw::{text_err, Area, Corner, DrawResult, Legend, Mark, Surface, CAPTION_BAND};
use crate::settings::Settings;
use crate::view::Viewport;

/// The flow's samples.
pub const FLOW_SAMPLES: usize = 8;
/// The flow's sampling scale (its best on held-out targets, bench/soft4.sh).
pub const FLOW_SIGMA: f64 = 0.1;

/// One answer as `getState().lesson` reports it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Answer {
    /// `loink`, `flow` or `dls`.
    pub solver: &'static str,
    /// The rods' twists (rad).
    pub q: Vec<f64>,
    /// Effort J.
    pub cost: f64,
    /// Distance from the target (m).
    pub residual: f64,
    /// Status (one meaning for every solver).
    pub status: &'static str,
    /// Simulator calls the answer cost (its check included).
    pub calls: u64,
    /// (J − J*)/J* in % (any answer inside the limits; null without J*).
    pub effort_gap_pct: Option<f64>,
}

/// `getState().lesson` for this lesson.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ModelFreeState {
    /// Lesson name.
    pub lesson: &'static str,
    /// Target (m).
    pub target: [f64; 2],
    /// J* (null when the reference found none).
    pub optimum_cost: Option<f64>,
    /// The three answers (those whose model is loaded), LOInK first.
    pub answers: Vec<Answer>,
}

/// The computed lesson.
pub struct ModelFreeLesson {
    problem: Problem,
    target: [f64; 2],
    optimum: Option<Solution>,
    answers: Vec<(&'static str, Solution, u64)>,
}

/// `solve` on `problem`'s simulator, with the calls it spent.
fn counted(problem: &Problem, solve: impl FnOnce() -> Solution) -> (Solution, u64) {
    let before = problem
        .capabilities()
        .simulator
        .map(|s| s.calls())
        .unwrap_or(0);
    let s = solve();
    let after = problem
        .capabilities()
        .simulator
        .map(|s| s.calls())
        .unwrap_or(0);
    (s, after.saturating_sub(before))
}

impl ModelFreeLesson {
    /// The three answers and the reference for `target`.
    pub fn new(models: &Loaded, target: [f64; 2]) -> Self {
        let loink = models.loink.get("loink");
        let problem = loink
            .map(|m| m.problem().clone())
            .unwrap_or_else(|| Problem::preset("soft4").expect("a preset"));
        let y = target.to_vec();
        let mut answers = Vec::new();
        if let Some(m) = loink {
            let one_shot = m.clone().with_feedback(0);
            let (s, calls) = counted(m.problem(), || one_shot.solve_cold(&y));
            answers.push(("loink", s, calls));
        }
        if let Some(flow) = models.flows.get("flow") {
            if let Ok(mut solver) = FlowSolver::new(flow.clone(), FLOW_SAMPLES, FLOW_SIGMA, 1) {
                let (s, calls) = counted(flow.problem(), || solver.solve(&y));
                answers.push(("flow", s, calls));
            }
        }
        if let Ok(mut dls) = registry::build(&problem, &SolverSettings::new(SolverKind::Dls)) {
            let (s, calls) = counted(&problem, || dls.solve(&y));
            answers.push(("dls", s, calls));
        }
        let optimum = Some(reference::solve(&problem, &y))
            .filter(|s| s.status() == loink::report::Status::Converged);
        ModelFreeLesson {
            problem,
            target,
            optimum,
            answers,
        }
    }

    fn gap(&self, s: &Solution) -> Option<f64> {
        let o = self.optimum.as_ref()?;
        (s.margin() >= -1e-6 && s.cost().is_finite())
            .then(|| 100.0 * (s.cost() - o.cost()) / o.cost().abs().max(1e-12))
    }

    fn short(name: &str) -> &'static str {
        match name {
            "loink" => "LOInK",
            "flow" => "flow",
            _ => "DLS",
        }
    }

    fn label(name: &str) -> String {
        match name {
            "loink" => "LOInK (one inverse)".into(),
            "flow" => format!("flow, best of {FLOW_SAMPLES}"),
            _ => "black-box DLS".into(),
        }
    }

    /// Each answer's twist per rod against the optimum's: where the poses, nearly alike on the
    /// arm panel, differ.
    fn draw_twists(&self, surface: &Surface) -> DrawResult {
        let area = surface.captioned("Each rod's twist: the three answers against the optimum")?;
        let top = self
            .problem
            .limits()
            .upper()
            .iter()
            .copied()
            .fold(0.0, f64::max);
        let mut chart = ChartBuilder::on(&area)
            .margin(surface.px(8.0))
            .margin_top(surface.px(14.0))
            .x_label_area_size(surface.px(28.0))
            .y_label_area_size(surface.px(46.0))
            .build_cartesian_2d(0.7..4.3, 0.0..top.to_degrees() * 1.05)
            .map_err(text_err)?;
        chart
            .configure_mesh()
            .light_line_style(TRANSPARENT)
            .bold_line_style(palette::GRID)
            .x_labels(4)
            .x_label_formatter(&|x| format!("rod {x:.0}"))
            .y_desc("twist φ (°)")
            .y_label_formatter(&|v| format!("{v:.0}"))
            .label_style(surface.font(palette::LABEL_PX, INK))
            .axis_desc_style(surface.font(palette::LABEL_PX, INK))
            .draw()
            .map_err(text_err)?;
        let profile = |q: &[f64]| -> Vec<(f64, f64)> {
            q.iter()
                .enumerate()
                .map(|(j, v)| ((j + 1) as f64, v.to_degrees()))
                .collect()
        };
        let mut legend = Legend::default();
        if let Some(o) = &self.optimum {
            chart
                .draw_series(LineSeries::new(
                    profile(o.q()),
                    OPTIMUM.mix(0.6).stroke_width(surface.stroke(6.0)),
                ))
                .map_err(text_err)?;
            legend.add(
                Mark::Line(OPTIMUM.mix(0.6), 5.0),
                format!("optimum, J* = {:.4}", o.cost()),
            );
        }
        for (name, s, _) in &self.answers {
            let colour = Self::colour(name);
            chart
                .draw_series(LineSeries::new(
                    profile(s.q()),
                    colour.stroke_width(surface.stroke(2.0)),
                ))
                .map_err(text_err)?;
            chart
                .draw_series(
                    profile(s.q())
                        .into_iter()
                        .map(|p| Circle::new(p, surface.px(3.0), colour.filled())),
                )
                .map_err(text_err)?;
            legend.add(
                Mark::Line(colour.to_rgba(), 2.0),
                format!("{}: J = {:.4}", Self::label(name), s.cost()),
            );
        }
        legend.finish_on(&area, surface, &chart, Corner::LowerLeft)
    }

    fn colour(name: &str) -> RGBColor {
        match name {
            "loink" => palette::SOLUTION,
            "flow" => palette::chart(1),
            _ => palette::chart(3),
        }
    }

    fn draw_arms(&self, surface: &Surface) -> DrawResult<Viewport> {
        let area = surface.captioned("The three answers on the soft arm; ghost = optimum")?;
        let bounds = crate::draw::arm::world_bounds(&self.problem, None);
        let view = crate::draw::arm::viewport(surface, bounds);
        let mut chart = crate::draw::arm::workspace_chart(&area, surface, &view)?;
        let mut legend = Legend::default();
        let mut pose = |q: &[f64], colour: RGBAColor, width: f64| -> DrawResult {
            let Some(sketch) = crate::kinds::sketch(&self.problem, q) else {
                return Ok(());
            };
            for shape in &sketch.shapes {
                if let loink::problem::Shape::Polyline { stroke, points } = shape {
                    let w = if *stroke == Stroke::Rod {
                        width
                    } else {
                        width * 0.7
                    };
                    chart
                        .draw_series(std::iter::once(PathElement::new(
                            points.iter().map(|p| (p[0], p[1])).collect::<Vec<_>>(),
                            colour.stroke_width(surface.stroke(w)),
                        )))
                        .map_err(text_err)?;
                }
            }
            Ok(())
        };
        if let Some(o) = &self.optimum {
            pose(o.q(), OPTIMUM.mix(0.5), 6.0)?;
            legend.add(Mark::Line(OPTIMUM.mix(0.6), 5.0), "reference optimum");
        }
        for (name, s, calls) in &self.answers {
            let colour = Self::colour(name).to_rgba();
            pose(s.q(), colour, 2.0)?;
            legend.add(
                Mark::Line(colour, 2.0),
                format!(
                    "{}: J = {:.3}, {calls} call{}",
                    Self::label(name),
                    s.cost(),
                    if *calls == 1 { "" } else { "s" }
                ),
            );
        }
        let target = (self.target[0], self.target[1]);
        chart
            .draw_series(std::iter::once(Circle::new(
                target,
                surface.px(6.0),
                TARGET.stroke_width(surface.stroke(2.0)),
            )))
            .map_err(text_err)?;
        legend.finish_on(&area, surface, &chart, Corner::UpperLeft)?;
        Ok(view)
    }

    fn draw_calls(&self, surface: &Surface) -> DrawResult {
        let area = surface.captioned("Simulator calls per answer (log scale)")?;
        let body = below_caption(&area, surface);
        let top = self
            .answers
            .iter()
            .map(|(_, _, c)| *c as f64)
            .fold(10.0, f64::max)
            * 2.0;
        let n = self.answers.len().max(1);
        let mut chart = ChartBuilder::on(&body)
            .margin(surface.px(8.0))
            .x_label_area_size(surface.px(28.0))
            .y_label_area_size(surface.px(46.0))
            .build_cartesian_2d(0.0..n as f64, (0.5..top).log_scale())
            .map_err(text_err)?;
        chart
            .configure_mesh()
            .light_line_style(TRANSPARENT)
            .bold_line_style(palette::GRID)
            .x_labels(0)
            .y_desc("calls")
            .label_style(surface.font(palette::LABEL_PX, INK))
            .axis_desc_style(surface.font(palette::LABEL_PX, INK))
            .draw()
            .map_err(text_err)?;
        for (k, (name, _, calls)) in self.answers.iter().enumerate() {
            let x = k as f64;
            let value = (*calls as f64).max(0.5);
            chart
                .draw_series(std::iter::once(Rectangle::new(
                    [(x + 0.15, 0.5), (x + 0.85, value)],
                    Self::colour(name).filled(),
                )))
                .map_err(text_err)?;
            chart
                .draw_series(std::iter::once(Text::new(
                    format!("{} {calls}", Self::short(name)),
                    (x + 0.15, value * 1.25),
                    surface.font(palette::LABEL_PX, INK),
                )))
                .map_err(text_err)?;
        }
        area.present().map_err(text_err)
    }
}

/// The part of a captioned panel below its caption.
fn below_caption(area: &Area, surface: &Surface) -> Area {
    area.margin(surface.px(CAPTION_BAND), 0, 0, 0)
}

impl Lesson for ModelFreeLesson {
    const WORD: &'static str = "model-free";
    const TEXT: &'static str = "Nobody writes the inverse kinematics of a soft arm down: twisting \
four rods bends, shears and stretches the backbone, and only a simulator (or the robot) tells \
where the end effector goes. Both learned models here were trained on a file of 200,000 \
simulator rows and never saw the simulator. LOInK answers with one inverse of its network and \
spends one simulator call only to check the answer; the flow baseline draws 8 samples and needs \
8 calls to find the cheapest that lands; damped least squares on the black box pays 5 calls per \
iteration for its finite differences. On a real soft robot a call is a Cosserat-rod simulation \
run to steady state, or the robot itself moving: seconds each, so the calls are the bill.";
    const TRY: &'static str =
        "Drag the target across the reachable patch: LOInK's call count stays at \
one while DLS's changes with every target, and compare each answer's effort with J*.";
    const PROBLEM: &'static str = "soft4";
    const SOLVER: SolverKind = SolverKind::Loink;
    /// Where the lesson opens: where the soft arm's view opens.
    const TARGET: &'static [f64] = &loink::problem::soft4::DEFAULT_TARGET;
    const MODELS: &'static [ModelFile] = &[models::SOFT4, models::SOFT4_FLOW];
    type State = ModelFreeState;

    const PANELS: &'static [Panel] = &[
        Panel::new(
            "arms",
            "Soft arm: LOInK's, the flow's and black-box DLS's answers; drag to move the target",
            true,
        ),
        Panel::new(
            "twists",
            "Each rod's twist for the three answers against the optimum",
            false,
        ),
        Panel::new(
            "calls",
            "Bar chart of the simulator calls each answer cost",
            false,
        ),
    ];

    fn compute(models: &Loaded, settings: &Settings) -> Self {
        ModelFreeLesson::new(models, target_xy(settings))
    }

    /// `getState().lesson`.
    fn state(&self) -> Self::State {
        ModelFreeState {
            lesson: "model-free",
            target: self.target,
            optimum_cost: self.optimum.as_ref().map(Solution::cost),
            answers: self
                .answers
                .iter()
                .map(|(name, s, calls)| Answer {
                    solver: name,
                    q: s.q().to_vec(),
                    cost: s.cost(),
                    residual: s.residual(),
                    status: s.status().as_str(),
                    calls: *calls,
                    effort_gap_pct: self.gap(s),
                })
                .collect(),
        }
    }

    /// Readout rows: per answer its calls, effort and error.
    fn readouts(&self) -> Vec<[String; 2]> {
        let mut rows = vec![[
            "reference optimum J*".to_string(),
            self.optimum
                .as_ref()
                .map_or("none found".into(), |o| format!("{:.4}", o.cost())),
        ]];
        for (name, s, calls) in &self.answers {
            let gap = self
                .gap(s)
                .map_or(String::new(), |g| format!(" ({g:+.3} % from J*)"));
            let answering = if *name == "loink" {
                "0 calls to answer + 1 to check".to_string()
            } else {
                format!("{calls} simulator calls")
            };
            let miss = s.residual() * 1e3;
            let miss = if miss >= 1e-3 {
                format!("{miss:.4}")
            } else {
                format!("{miss:.1e}")
            };
            rows.push([
                Self::label(name),
                format!(
                    "{answering}; J = {:.4}{gap}; {miss} mm from the target ({})",
                    s.cost(),
                    s.status().as_str()
                ),
            ]);
        }
        rows
    }

    /// Draws panel `name` (`arms`, `twists`, `calls`).
    fn draw(&self, name: &str, surface: &Surface) -> DrawResult<Option<Viewport>> {
        match name {
            "arms" => self.draw_arms(surface).map(Some),
            "twists" => self.draw_twists(surface).map(|_| None),
            "calls" => self.draw_calls(surface).map(|_| None),
            _ => Ok(None),
        }
    }
}
