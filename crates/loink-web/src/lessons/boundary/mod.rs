//! The edge of reach, as practitioners are taught to check it: the target walks along a
//! straight line from well inside planar3's workspace to 5 cm past its edge in 1 mm steps, and
//! each method's residual, iterations and status are logged against the signed distance d to
//! the edge (negative inside), which comes from the reference's own reachability
//! ([`sweep::edge`]). Then a contact pushes the arm by 0.5–2 mm, and DLS returns from the stale
//! seed and from the measured joints ([`sweep::reseed`]); LOInK's cold answer needs no seed.

mod draw;
pub mod sweep;

use std::cell::RefCell;
use std::rc::Rc;

use loink::problem::planar::PlanarArm;
use loink::problem::Problem;
use serde::Serialize;

use super::layout::{Control, Panel};
use super::lesson::{target_xy, Lesson};
use super::models::{self, Loaded, ModelFile};
use super::EdgeKind;
use crate::draw::{DrawResult, Surface};
use crate::settings::{Settings, SolverKind};
use crate::view::Viewport;
use sweep::{Line, Method, Reseed, Row, Sweep, Switch, STEP_M};

/// `getState().lesson`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BoundaryState {
    /// Lesson name.
    pub lesson: &'static str,
    /// The edge the line crosses (`reach` or `limit`).
    pub edge: EdgeKind,
    /// The line's first point and unit direction (m).
    pub line: Line,
    /// The line's step (m).
    pub step_m: f64,
    /// The edge's distance from the line's first point (m), by the reference's verdict.
    pub edge_m: f64,
    /// The chosen point's signed distance to the edge (m).
    pub d_m: f64,
    /// The chosen point (the page's target, put on the line).
    pub target: [f64; 2],
    /// Every method at every point: `{d_m, method, target, q, residual_m, status, iterations}`.
    pub sweep: Vec<Row>,
    /// Where each method stops being `converged`, and what it says past the edge.
    pub switches: Vec<Switch>,
    /// The re-seeding counts per contact deflection.
    pub reseed: Vec<Reseed>,
    /// Models the lesson could not load.
    pub missing_models: Vec<String>,
}

/// The computed lesson.
pub struct BoundaryLesson {
    arm: PlanarArm,
    edge: EdgeKind,
    line: Line,
    sweep: Option<Rc<Sweep>>,
    reseed: Rc<Vec<Reseed>>,
    d_m: f64,
    target: [f64; 2],
    missing: Vec<String>,
    learned: bool,
}

thread_local! {
    /// The sweep and the re-seeding counts, computed once per page (with or without the model):
    /// they do not depend on where the target is on the line.
    static MEASURED: RefCell<Vec<Measured>> = const { RefCell::new(Vec::new()) };
}

/// One edge's measurements, with or without the learned methods.
struct Measured {
    edge: EdgeKind,
    learned: bool,
    sweep: Option<Rc<Sweep>>,
    reseed: Rc<Vec<Reseed>>,
}

/// The sweep and re-seeding counts across `edge`, with LOInK when `loink` is given (computed
/// once per edge).
fn measured(
    problem: &Problem,
    loink: Option<&loink::surrogate::Loink>,
    edge: EdgeKind,
) -> (Option<Rc<Sweep>>, Rc<Vec<Reseed>>) {
    MEASURED.with(|cell| {
        let mut cache = cell.borrow_mut();
        let learned = loink.is_some();
        if let Some(m) = cache
            .iter()
            .find(|m| m.edge == edge && m.learned == learned)
        {
            return (m.sweep.clone(), m.reseed.clone());
        }
        let sweep = Sweep::run(problem, loink, Line::across(edge)).map(Rc::new);
        let reseed = Rc::new(
            sweep
                .as_ref()
                .map(|s| sweep::reseed(problem, s, loink))
                .unwrap_or_default(),
        );
        cache.push(Measured {
            edge,
            learned,
            sweep: sweep.clone(),
            reseed: reseed.clone(),
        });
        (sweep, reseed)
    })
}

impl BoundaryLesson {
    /// Measures the line across `edge` (once) and puts `target` on it.
    pub fn new(models: &Loaded, edge: EdgeKind, target: [f64; 2]) -> Self {
        let problem = Problem::preset("planar3").expect("planar3 is a preset");
        let loink = models.loink.get("loink");
        let (sweep, reseed) = measured(&problem, loink, edge);
        let line = Line::across(edge);
        let edge_m = sweep.as_ref().map_or(0.0, |s| s.edge_m);
        // The target's projection on the line, on its 1 mm grid, within the sweep.
        let along = line.along(target);
        let last = ((edge_m + sweep::PAST_EDGE_M) / STEP_M).floor();
        let t = if along.is_finite() {
            (along / STEP_M).round().clamp(0.0, last) * STEP_M
        } else {
            0.0
        };
        BoundaryLesson {
            arm: problem.planar().cloned().expect("planar3 is a planar arm"),
            edge,
            line,
            sweep,
            reseed,
            d_m: t - edge_m,
            target: line.point(t),
            missing: models.missing.values().cloned().collect(),
            learned: loink.is_some(),
        }
    }

    /// The methods shown (the learned ones only with the model).
    fn methods(&self) -> impl Iterator<Item = Method> + '_ {
        Method::ALL
            .into_iter()
            .filter(|m| self.learned || !matches!(m, Method::LoinkOneShot | Method::LoinkRefine))
    }

    fn switch(&self, method: Method) -> Option<&Switch> {
        self.sweep
            .as_ref()?
            .switches
            .iter()
            .find(|s| s.method == method.key())
    }
}

/// A distance in mm with its sign (0 at the edge, never −0).
fn mm(d: f64) -> String {
    let v = (d * 1e3 * 10.0).round() / 10.0;
    if v == 0.0 {
        "0.0 mm".into()
    } else {
        format!("{v:+.1} mm")
    }
}

impl Lesson for BoundaryLesson {
    const WORD: &'static str = "boundary";
    const TEXT: &'static str = "Before a trajectory is trusted near the edge of the workspace, \
practitioners sweep the target along a line towards the edge and log the residual against the distance d \
to it: a residual that grows over the last centimetres warns that the solver is about to fail. Here the \
target walks in 1 mm steps from 25 cm inside planar3's workspace to 5 cm past its edge, the edge being \
where the reference stops reaching it. Across the reach circle (the arm stretched straight) DLS on a \
trajectory's budget of 10 iterations a step shows the warning: its residual is 3e-11 m at −5 cm, 7e-9 m at \
−1 cm and 2e-5 m at −2 mm, and it stops being converged 5 mm before the edge; with its own 500 iterations \
it converges to 1 mm from it. Across the edge the shoulder's limit draws there is no warning at all: the \
residual stays near 1e-10 m up to the edge, then jumps. Past the edge every method says unreachable, \
because the problem proves it (the reach by one comparison, the limit by its sweep). The one wrong word \
comes within the last millimetres: 1.4 mm inside the shoulder's edge DLS from mid-range stalls 28 cm away \
(capped), and 0.4 mm inside it the problem's sweep calls that answer unreachable where the reference \
still reaches the target. LOInK's one-shot is never converged (its residual is the network's fit: \
millimetres at the reach circle, centimetres and a broken limit, status limits, at the shoulder's edge); \
three polish steps make it exact up to the edge. The last panel is the second rule: a contact pushes the \
hand by 0.5–2 mm and DLS solves the next target from the joints it had commanded (a stale seed) and from \
the measured ones. Here the two seeds differ by less than one and a half iterations on average, not the \
5–10 often quoted: this DLS spends most of its iterations descending the cost, from either seed. LOInK's cold answer needs no \
seed at all.";
    const TRY: &'static str =
        "Drag the target along the line towards the edge and watch DLS's residual \
leave the floor; then switch to the shoulder's edge: what warns you there?";
    const PROBLEM: &'static str = "planar3";
    const SOLVER: SolverKind = SolverKind::Dls;
    /// 2 cm inside the reach circle on the first line (1.18 m out, 20° up).
    const TARGET: &'static [f64] = &[1.1088, 0.4036];
    const MODELS: &'static [ModelFile] = &[models::PLANAR3];
    type State = BoundaryState;

    const PANELS: &'static [Panel] = &[
        Panel::new(
            "arm",
            "planar3 with the line the target walks, the edge, and the answers at the chosen point",
            true,
        ),
        Panel::new(
            "sweep",
            "Each method's residual against the signed distance to the edge",
            false,
        ),
        Panel::new(
            "iterations",
            "Each method's iterations against the signed distance to the edge",
            false,
        ),
        Panel::new(
            "reseed",
            "DLS's iterations after a contact, from the stale seed and from the measured joints",
            false,
        ),
    ];

    fn controls(settings: &Settings) -> Vec<Control> {
        vec![Control::select(
            "edge",
            "The edge the line crosses",
            EdgeKind::ALL.map(EdgeKind::as_str).to_vec(),
            settings.lesson.edge.as_str(),
        )]
    }

    fn compute(models: &Loaded, settings: &Settings) -> Self {
        BoundaryLesson::new(models, settings.lesson.edge, target_xy(settings))
    }

    fn state(&self) -> Self::State {
        BoundaryState {
            lesson: Self::WORD,
            edge: self.edge,
            line: self.line,
            step_m: STEP_M,
            edge_m: self.sweep.as_ref().map_or(f64::NAN, |s| s.edge_m),
            d_m: self.d_m,
            target: self.target,
            sweep: self
                .sweep
                .as_ref()
                .map(|s| s.rows.clone())
                .unwrap_or_default(),
            switches: self
                .sweep
                .as_ref()
                .map(|s| s.switches.clone())
                .unwrap_or_default(),
            reseed: self.reseed.as_ref().clone(),
            missing_models: self.missing.clone(),
        }
    }

    fn readouts(&self) -> Vec<[String; 2]> {
        let mut rows = vec![["point".to_string(), format!("d = {}", mm(self.d_m))]];
        for method in self.methods() {
            let Some(s) = self.switch(method) else {
                continue;
            };
            let until = s
                .converged_until_m
                .map_or("never converged".to_string(), |d| {
                    format!("converged up to d = {}", mm(d))
                });
            let past = if s.past_edge_not_unreachable == 0 {
                "unreachable all the way past the edge".to_string()
            } else {
                format!("past the edge: {}", s.statuses_past_edge.join(", "))
            };
            rows.push([
                method.name().to_string(),
                format!(
                    "{until}; residual {:.1e} m at −5 cm, {:.1e} m at −1 cm; {past}",
                    s.residual_5cm_in_m, s.residual_1cm_in_m
                ),
            ]);
        }
        for r in self.reseed.iter() {
            let loink = r
                .loink_iterations
                .map_or(String::new(), |v| format!("; LOInK cold {v:.1}"));
            rows.push([
                format!("contact {:.1} mm", r.contact_m * 1e3),
                format!(
                    "DLS iterations: stale seed {:.1}, measured joints {:.1} (stale slower on {} of {}){loink}",
                    r.stale_iterations, r.measured_iterations, r.stale_slower, r.points
                ),
            ]);
        }
        rows
    }

    fn draw(&self, name: &str, surface: &Surface) -> DrawResult<Option<Viewport>> {
        match name {
            "arm" => self.draw_arm(surface).map(Some),
            "sweep" => self.draw_sweep(surface).map(|_| None),
            "iterations" => self.draw_iterations(surface).map(|_| None),
            "reseed" => self.draw_reseed(surface).map(|_| None),
            _ => Ok(None),
        }
    }
}

#[cfg(test)]
mod tests;
