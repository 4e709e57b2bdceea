//! Why a local solver misses the cheapest posture (`#lesson=pieces`): the Panda's hand held at
//! one pose keeps one degree of freedom, and its answers fall into pieces (docs/pose.md). On
//! one tabletop target the lesson sweeps them along q7 and marks where each solver lands:
//! damped least squares and a local constrained optimiser started from mid-range (the polish
//! LOInK refines with, run to convergence: IPOPT's way, one local solve) slide to the bottom
//! of the piece they start on; LOInK's charts propose on every piece they cover and the
//! cheapest wins. Then the same three solvers on 100 held-out tabletop targets, each judged
//! against the reference optimum: how often within 1 % of J\*, and the median time.

use loink::problem::{AnswerSweep, Problem};
use loink::report::{Solution, Status, Termination};
use loink::solvers::registry::{self, SolverKind as Kind, SolverSettings};
use loink::solvers::{polish, reference};
use loink::surrogate::ChartSet;
use plotters::prelude::*;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::Serialize;

use super::layout::Panel;
use super::lesson::Lesson;
use super::models::{self, Loaded, ModelFile};
use crate::clock::now_micros;
use crate::draw::palette::{self, INK, LIMITS, SOLUTION};
use crate::draw::pieces::{self, PieceMark, PiecesScene};
use crate::draw::{text_err, DrawResult, Surface, CAPTION_BAND};
use crate::settings::{Settings, SolverKind};
use crate::view::Viewport;

/// Polish steps LOInK's answer gets (the page's default refinement).
pub const REFINE: usize = 3;
/// Steps the local optimiser from mid-range may take (it stops once converged).
const LOCAL_STEPS: usize = 200;
/// q7 values of the sweep.
const SWEEP_STEPS: usize = 800;
/// Held-out tabletop targets of the comparison, and their seed (no model trained on them).
const HELD_OUT: usize = 100;
const SEED: u64 = 2_026;

/// The three solvers the lesson compares, in its order: (word, label, colour).
const SOLVERS: [(&str, &str, RGBColor); 3] = [
    ("loink", "LOInK + refine 3", SOLUTION),
    ("dls", "DLS from mid-range (restarts when stuck)", LIMITS),
    (
        "local",
        "local optimiser from mid-range",
        palette::SURROGATE,
    ),
];

/// One solver's answer to the lesson's target.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Landing {
    /// The solver's word.
    pub solver: &'static str,
    /// Its joints.
    pub q: Vec<f64>,
    /// J.
    pub cost: f64,
    /// Its status.
    pub status: &'static str,
    /// (J − J*)/J* in % (null unless it converged and J* is known).
    pub gap_pct: Option<f64>,
}

/// One solver on the held-out targets.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Tally {
    /// The solver's word.
    pub solver: &'static str,
    /// Targets it converged on, within 1 % of J*.
    pub within_1pct: usize,
    /// Targets it converged on.
    pub converged: usize,
    /// Its median time per target (µs, measured here).
    pub median_micros: f64,
}

/// `getState().lesson`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PiecesState {
    /// Lesson name.
    pub lesson: &'static str,
    /// The target (x, y, z, qw, qx, qy, qz).
    pub target: Vec<f64>,
    /// J* (null when the reference found no answer).
    pub optimum: Option<f64>,
    /// Pieces of the answers along q7 (runs of one branch between the limits' cuts).
    pub pieces: usize,
    /// Where each solver lands.
    pub landings: Vec<Landing>,
    /// The held-out targets compared on (with a reference optimum).
    pub held_out: usize,
    /// Each solver on them.
    pub tallies: Vec<Tally>,
}

/// The computed lesson.
pub struct PiecesLesson {
    state: PiecesState,
    sweep: Option<AnswerSweep>,
    optimum_q: Vec<f64>,
}

/// One solver, answering one target at a time from a cold start.
type Runner = Box<dyn FnMut(&[f64]) -> Solution>;

/// The three solvers for `problem` (LOInK needs its model): each answers one target.
fn solvers(problem: &Problem, set: Option<&ChartSet>) -> Vec<Runner> {
    let refine = SolverSettings {
        refine: REFINE,
        ..SolverSettings::new(Kind::LoinkRefine)
    };
    let mut out: Vec<Runner> = Vec::new();
    match set.and_then(|s| s.solver(&refine).ok()) {
        Some(mut learned) => out.push(Box::new(move |y| {
            learned.reset();
            learned.solve(y)
        })),
        None => out.push(Box::new(|y| Solution::invalid("loink", y, 0.0))),
    }
    match registry::build(problem, &SolverSettings::new(Kind::Dls)) {
        Ok(mut dls) => out.push(Box::new(move |y| {
            dls.reset();
            dls.solve(y)
        })),
        Err(_) => out.push(Box::new(|y| Solution::invalid("dls", y, 0.0))),
    }
    let local = problem.clone();
    out.push(Box::new(move |y| local_from_mid(&local, y)));
    out
}

/// The polish from mid-range, run until it converges: one local constrained solve.
fn local_from_mid(problem: &Problem, y: &[f64]) -> Solution {
    let start = now_micros();
    let centre = problem.limits().centres();
    let done = polish::polish(problem, y, &centre, LOCAL_STEPS);
    let termination = if done.termination == Termination::Converged {
        Termination::Converged
    } else {
        Termination::IterationCap
    };
    Solution::assess(
        problem,
        "local",
        y,
        Some(&centre),
        done.q,
        done.steps,
        now_micros() - start,
        termination,
    )
}

fn gap(cost: f64, optimum: Option<f64>, s: &Solution) -> Option<f64> {
    let j = optimum?;
    (s.status() == Status::Converged).then(|| crate::engine::gap_percent(cost, j))
}

impl PiecesLesson {
    /// The sweep and the three landings at `columns`, and the held-out comparison.
    pub fn new(models: &Loaded, columns: &[f64]) -> Self {
        let set = models.charts.get("loink");
        // The model file brings the problem (the page's bundle reads no URDF of its own).
        let Some(problem) = set.map(|s| s.problem().clone()) else {
            return PiecesLesson {
                state: PiecesState {
                    lesson: "pieces",
                    target: columns.to_vec(),
                    optimum: None,
                    pieces: 0,
                    landings: Vec::new(),
                    held_out: 0,
                    tallies: Vec::new(),
                },
                sweep: None,
                optimum_q: Vec::new(),
            };
        };
        let target = problem.task().from_columns(columns).ok();
        let mut runners = solvers(&problem, set);
        let (mut landings, mut sweep, mut optimum, mut optimum_q) =
            (Vec::new(), None, None, vec![]);
        if let Some(y) = &target {
            let best = reference::solve(&problem, y);
            if best.status() == Status::Converged {
                optimum = Some(best.cost());
                optimum_q = best.q().to_vec();
            }
            sweep = problem.answer_sweep(y, SWEEP_STEPS);
            for ((word, _, _), run) in SOLVERS.iter().zip(&mut runners) {
                let s = run(y);
                landings.push(Landing {
                    solver: word,
                    q: s.q().to_vec(),
                    cost: s.cost(),
                    status: s.status().as_str(),
                    gap_pct: gap(s.cost(), optimum, &s),
                });
            }
        }
        let (held_out, tallies) = Self::held_out(&problem, &mut runners);
        let pieces = sweep.as_ref().map_or(0, count_pieces);
        PiecesLesson {
            state: PiecesState {
                lesson: "pieces",
                target: columns.to_vec(),
                optimum,
                pieces,
                landings,
                held_out,
                tallies,
            },
            sweep,
            optimum_q,
        }
    }

    /// The solvers on [`HELD_OUT`] tabletop targets (seed [`SEED`]), against the reference.
    fn held_out(problem: &Problem, runners: &mut [Runner]) -> (usize, Vec<Tally>) {
        let mut rng = ChaCha8Rng::seed_from_u64(SEED);
        let targets = problem.random_targets(HELD_OUT, &mut rng);
        let mut within = [0usize; 3];
        let mut converged = [0usize; 3];
        let mut micros: [Vec<f64>; 3] = Default::default();
        let mut compared = 0;
        for y in &targets {
            let best = reference::solve(problem, y);
            if best.status() != Status::Converged {
                continue;
            }
            compared += 1;
            for (k, run) in runners.iter_mut().enumerate() {
                let start = now_micros();
                let s = run(y);
                micros[k].push(now_micros() - start);
                if s.status() == Status::Converged {
                    converged[k] += 1;
                    if s.cost() <= best.cost() * 1.01 + 1e-9 {
                        within[k] += 1;
                    }
                }
            }
        }
        let tallies = (0..3)
            .map(|k| Tally {
                solver: SOLVERS[k].0,
                within_1pct: within[k],
                converged: converged[k],
                median_micros: loink::stats::median(&micros[k]),
            })
            .collect();
        (compared, tallies)
    }

    fn draw_pieces(&self, surface: &Surface) -> DrawResult {
        let Some(sweep) = &self.sweep else {
            let area = surface.captioned("The answers along q7")?;
            return crate::draw::landscape::message(&area, surface, "no pose target");
        };
        let marks: Vec<PieceMark> = self
            .state
            .landings
            .iter()
            .zip(SOLVERS)
            .map(|(l, (_, label, colour))| PieceMark {
                label,
                q: &l.q,
                cost: l.cost,
                reached: l.status == "converged",
                colour,
            })
            .collect();
        let scene = PiecesScene {
            sweep,
            marks: &marks,
            optimum: self.state.optimum.map(|j| (self.optimum_q.as_slice(), j)),
            cost_formula: "J = Σ((qᵢ − cᵢ)/hᵢ)²",
        };
        pieces::draw(surface, &scene)
    }

    fn draw_table(&self, surface: &Surface) -> DrawResult {
        let area = surface.captioned(&format!(
            "{} held-out tabletop targets: within 1 % of J* (bars) and the median time",
            self.state.held_out
        ))?;
        let n = self.state.held_out.max(1) as f64;
        let mut chart = ChartBuilder::on(&area)
            .margin(surface.px(10.0))
            .margin_top(surface.px(CAPTION_BAND + 6.0))
            .margin_right(surface.px(22.0))
            .x_label_area_size(surface.px(40.0))
            .y_label_area_size(surface.px(12.0))
            .build_cartesian_2d(0.0..100.0, (0..3usize).into_segmented())
            .map_err(text_err)?;
        chart
            .configure_mesh()
            .disable_y_mesh()
            .bold_line_style(palette::GRID)
            .light_line_style(TRANSPARENT)
            .x_desc("share within 1 % of J* (%)")
            .x_label_formatter(&|x| format!("{x:.0}"))
            .y_labels(3)
            .y_label_formatter(&|_| String::new())
            .label_style(surface.font(palette::LABEL_PX, INK))
            .axis_desc_style(surface.font(palette::LABEL_PX, INK))
            .draw()
            .map_err(text_err)?;
        let font = surface.font(palette::LABEL_PX, INK);
        for (k, tally) in self.state.tallies.iter().enumerate() {
            let share = 100.0 * tally.within_1pct as f64 / n;
            let colour = SOLVERS[k].2;
            chart
                .draw_series(std::iter::once(Rectangle::new(
                    [
                        (0.0, SegmentValue::Exact(k)),
                        (share, SegmentValue::Exact(k + 1)),
                    ],
                    colour.mix(0.75).filled(),
                )))
                .map_err(text_err)?;
            let words = format!(
                "{}: {share:.0} % within 1 %, {:.0} µs median",
                SOLVERS[k].1, tally.median_micros
            );
            chart
                .draw_series(std::iter::once(Text::new(
                    words,
                    (2.0, SegmentValue::CenterOf(k)),
                    font.clone(),
                )))
                .map_err(text_err)?;
        }
        area.present().map_err(text_err)
    }
}

/// Runs of finite costs in the sweep: the pieces of the answers.
fn count_pieces(sweep: &AnswerSweep) -> usize {
    sweep
        .costs
        .iter()
        .map(|c| {
            c.windows(2)
                .filter(|w| !w[0].is_finite() && w[1].is_finite())
                .count()
                + usize::from(c.first().is_some_and(|v| v.is_finite()))
        })
        .sum()
}

impl Lesson for PiecesLesson {
    const WORD: &'static str = "pieces";
    const TEXT: &'static str =
        "Hold the Panda's hand at one pose — a position and an orientation — \
and the arm keeps one degree of freedom: its elbow can still swing. Sweep the last joint q7 and \
solve the other six for the hand at each value: the answers form curves, one for each way the \
shoulder, elbow and wrist can sit, cut where a joint reaches its limit (upper panel). The \
cheapest posture is the lowest point of all of them. A local solver — damped least squares, or \
a constrained optimiser like IPOPT started from mid-range — slides to the bottom of the piece it \
starts on. LOInK's charts each cover one piece and propose their lowest point at z = 0; the \
cheapest feasible proposal wins, then three polish steps.";
    const TRY: &'static str = "Turn or move the target in the playground (the ring, q/e): the \
pieces change shape, and the solvers' marks show who found the lowest point. The lower panel \
counts, on 100 held-out tabletop targets, how often each solver ends within 1 % of the optimum.";
    const PROBLEM: &'static str = "panda-pose";
    const SOLVER: SolverKind = SolverKind::LoinkRefine;
    /// A tabletop target (the hand low in front, turned well away from straight down) whose
    /// optimum (J* = 1.7743) lies on a piece that neither DLS nor the local optimiser from
    /// mid-range reaches.
    const TARGET: &'static [f64] = &[0.3854, -0.0190, 0.1905, 0.2918, -0.1697, 0.9282, 0.1567];
    const MODELS: &'static [ModelFile] = &[models::PANDA_POSE];
    const PANELS: &'static [Panel] = &[
        Panel::new(
            "pieces",
            "The answers for the target's hand pose along q7, and where each solver lands",
            false,
        ),
        Panel::new(
            "tally",
            "Each solver on 100 held-out tabletop targets: within 1 % of J*, and its time",
            false,
        ),
    ];
    type State = PiecesState;

    fn compute(models: &Loaded, settings: &Settings) -> Self {
        PiecesLesson::new(models, &settings.target)
    }

    fn state(&self) -> PiecesState {
        self.state.clone()
    }

    fn readouts(&self) -> Vec<[String; 2]> {
        let mut rows = vec![
            [
                "reference optimum J*".into(),
                self.state
                    .optimum
                    .map_or("none found".into(), |j| format!("{j:.4}")),
            ],
            ["pieces along q7".into(), self.state.pieces.to_string()],
        ];
        for (landing, (_, label, _)) in self.state.landings.iter().zip(SOLVERS) {
            rows.push([
                label.into(),
                match landing.gap_pct {
                    Some(g) => format!("J = {:.4}, {g:.2} % above J*", landing.cost),
                    None => format!("J = {:.4} ({})", landing.cost, landing.status),
                },
            ]);
        }
        rows
    }

    fn draw(&self, name: &str, surface: &Surface) -> DrawResult<Option<Viewport>> {
        match name {
            "pieces" => self.draw_pieces(surface).map(|_| None),
            "tally" => self.draw_table(surface).map(|_| None),
            _ => Ok(None),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn on_the_default_target_the_local_solvers_stop_on_other_pieces() {
        let lesson = PiecesLesson::new(&models::shipped::<PiecesLesson>(), PiecesLesson::TARGET);
        let s = lesson.state();
        let optimum = s.optimum.expect("a reference optimum");
        assert!((optimum - 1.7743).abs() < 2e-3, "J* {optimum}");
        assert!(s.pieces >= 2, "{} pieces", s.pieces);
        let gap = |name: &str| {
            s.landings
                .iter()
                .find(|l| l.solver == name)
                .and_then(|l| l.gap_pct)
        };
        assert!(gap("loink").is_some_and(|g| g <= 1.0), "{:?}", s.landings);
        for local in ["dls", "local"] {
            assert!(gap(local).is_none_or(|g| g > 1.0), "{:?}", s.landings);
        }
        let [loink, dls, local] = &s.tallies[..] else {
            panic!("three tallies: {:?}", s.tallies);
        };
        assert!(loink.within_1pct > dls.within_1pct.max(local.within_1pct));
    }
}
