//! Lesson 6, beyond one chart (planar3-wide): on a target whose solution set the joint limits
//! cut into pieces, one LOInK chart (a bijection: one connected learned set) lands on the wrong
//! piece or between pieces, while the eight charts of the multi-chart model each propose an
//! answer and the cheapest feasible one is the optimum. Both get the same refinement.

use loink::problem::Problem;
use loink::report::{Solution, Status};
use loink::solvers::reference;
use loink::solvers::reference::planar::{self_motion, SelfMotion};
use loink::surrogate::charts::pick;
use plotters::prelude::*;
use serde::Serialize;

use super::layout::Panel;
use super::lesson::{target_xy, Lesson};
use super::models::{self, Loaded, ModelFile};
use crate::draw::landscape::{self, LandscapeScene};
use crate::draw::palette::{self, OPTIMUM, TARGET};
use crate::draw::plots as ld;
use crate::draw::{Corner, DrawResult, Legend, Mark, Surface};
use crate::engine::gap_percent;
use crate::settings::{Settings, SolverKind};
use crate::view::Viewport;

/// Refinement steps both models get.
pub const REFINE: usize = 3;
/// Self-motion samples of the pieces panel.
const MOTION_SAMPLES: usize = 480;

/// One answer as `getState().lesson` reports it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Answer {
    /// The chart that proposed it (None for the single chart).
    pub chart: Option<usize>,
    /// Joint angles (rad).
    pub q: Vec<f64>,
    /// True cost J.
    pub cost: f64,
    /// Status (one meaning for every solver).
    pub status: &'static str,
    /// Distance from the target (m).
    pub residual: f64,
    /// (J − J*)/J* in % when feasible and J* exists.
    pub gap_pct: Option<f64>,
}

/// `getState().lesson` for this lesson.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ChartsState {
    /// Lesson name.
    pub lesson: &'static str,
    /// Target (m).
    pub target: [f64; 2],
    /// Connected pieces of the solution set inside the limits.
    pub pieces: usize,
    /// J* (null when no feasible answer exists).
    pub optimum_cost: Option<f64>,
    /// The single chart's answer (null while its model is missing).
    pub one: Option<Answer>,
    /// The multi-chart model's winner (null while its model is missing).
    pub winner: Option<Answer>,
    /// Every chart's proposal.
    pub proposals: Vec<Answer>,
}

/// The computed lesson.
pub struct ChartsLesson {
    problem: Problem,
    target: [f64; 2],
    motion: SelfMotion,
    optimum: Option<Solution>,
    one: Option<Solution>,
    proposals: Vec<Solution>,
    winner: Option<usize>,
    regions: Vec<loink::problem::JointLimits>,
}

fn feasible(s: &Solution) -> bool {
    s.status() == Status::Converged
}

impl ChartsLesson {
    /// Both models' answers, the reference and the self-motion set for `target`.
    pub fn new(models: &Loaded, target: [f64; 2]) -> Self {
        let one = models.loink.get("one");
        let set = models.charts.get("charts");
        let problem = set
            .map(|s| s.problem().clone())
            .or_else(|| one.map(|m| m.problem().clone()))
            .unwrap_or_else(|| Problem::preset("planar3-wide").expect("a preset"));
        let optimum = Some(reference::solve(&problem, &target)).filter(feasible);
        let proposals = set
            .map(|s| {
                let refined = s.clone().with_refinement(REFINE);
                refined.propose(&mut refined.new_states(), &target)
            })
            .unwrap_or_default();
        let winner = (!proposals.is_empty()).then(|| pick(&problem, &proposals));
        ChartsLesson {
            motion: self_motion(&problem, &target, MOTION_SAMPLES),
            one: one.map(|m| m.clone().with_refinement(REFINE).solve_cold(&target)),
            regions: set.map(|s| s.regions().to_vec()).unwrap_or_default(),
            problem,
            target,
            optimum,
            proposals,
            winner,
        }
    }

    fn answer(&self, s: &Solution) -> Answer {
        let gap = match (&self.optimum, feasible(s)) {
            (Some(o), true) => Some(gap_percent(s.cost(), o.cost())),
            _ => None,
        };
        Answer {
            chart: s.chart(),
            q: s.q().to_vec(),
            cost: s.cost(),
            status: s.status().as_str(),
            residual: s.residual(),
            gap_pct: gap.filter(|g| g.is_finite()),
        }
    }

    fn winner(&self) -> Option<&Solution> {
        self.winner.and_then(|k| self.proposals.get(k))
    }

    fn draw_arm(&self, surface: &Surface) -> DrawResult<Viewport> {
        let area = surface.captioned(
            "One chart's answer (vermilion) against every chart's proposal (its chart's colour)",
        )?;
        let Some(arm) = self.problem.planar() else {
            return Err("the charts lesson draws a planar arm".into());
        };
        let (mut chart, view) = ld::workspace(&area, surface, arm)?;
        let mut legend = Legend::default();
        if let Some(o) = &self.optimum {
            ld::optimum(&mut chart, surface, arm, o.q())?;
            legend.add(Mark::Line(OPTIMUM.mix(0.6), 5.0), "reference optimum");
        }
        for p in &self.proposals {
            let k = p.chart().unwrap_or(0);
            let wins = self.winner == Some(k);
            let (alpha, width) = match (wins, feasible(p)) {
                (true, _) => (1.0, 3.0),
                (false, true) => (0.5, 2.0),
                (false, false) => (0.25, 1.0),
            };
            ld::arm(
                &mut chart,
                surface,
                arm,
                p.q(),
                palette::chart(k).mix(alpha),
                width,
                wins,
            )?;
            if wins || feasible(p) {
                legend.add(
                    Mark::Line(palette::chart(k).mix(alpha.max(0.6)), width),
                    format!(
                        "chart {k}{}: J = {:.3}",
                        if wins { " (wins)" } else { "" },
                        p.cost()
                    ),
                );
            }
        }
        if self.proposals.iter().any(|p| !feasible(p)) {
            legend.add(
                Mark::Line(palette::MUTED.mix(0.5), 1.0),
                "faint: proposals that miss or break a limit",
            );
        }
        if let Some(one) = &self.one {
            let colour = TARGET.mix(0.9);
            ld::arm(&mut chart, surface, arm, one.q(), colour, 2.0, true)?;
            legend.add(
                Mark::Line(colour, 2.0),
                format!("one chart: J = {:.3} ({})", one.cost(), one.status()),
            );
        }
        ld::base_and_target(&area, &chart, surface, self.target)?;
        legend.finish_on(&area, surface, &chart, Corner::away_from(self.target))?;
        Ok(view)
    }

    fn draw_pieces(&self, surface: &Surface) -> DrawResult {
        let winner = self.winner();
        let scene = LandscapeScene {
            motion: Some(&self.motion),
            dof: 3,
            solution: winner.map_or((&[][..], f64::NAN), |w| (w.q(), w.cost())),
            curve: None,
            no_curve: "",
            cost_formula: "",
            chart_regions: &self.regions,
            compare: self.one.as_ref().map(|s| (s.q(), s.cost())),
            others: None,
        };
        landscape::draw_pieces(
            surface,
            &scene,
            "J along the self-motion set: pieces coloured by the chart covering them; × = the charts' answer, + = one chart's",
        )
    }
}

impl Lesson for ChartsLesson {
    const WORD: &'static str = "charts";
    const TEXT: &'static str = "With every joint free to turn ±2.6 rad, the limits cut this target's \
solution set into pieces (lower panel: the true cost J along the self-motion set, grey where a limit \
cuts it). One LOInK chart is a bijection, so its learned solution set is one connected line: it can \
follow one piece at most, and here it settles on the wrong one. The multi-chart model holds eight \
charts, each trained on one sign pattern of the joints, where the pieces stay whole; every chart \
proposes an answer, each is replayed through the forward kinematics and the limits, and the cheapest \
feasible one wins. Both models get the same three refinement steps.";
    const TRY: &'static str =
        "Drag the target around the base and behind it: where the set is one \
piece the two agree, where it falls apart the single chart's gap to J* jumps while the charts' \
winner stays on the optimum. Each ghost is one chart's proposal, in its chart's colour.";
    // The lesson's own panels hold both models; the page's settings keep the one-chart
    // model, which the playground's slim bundle runs.
    const PROBLEM: &'static str = "planar3-wide";
    const SOLVER: SolverKind = SolverKind::LoinkRefine;
    /// A target whose solution set is in pieces and where the single chart misses the optimum.
    const TARGET: &'static [f64] = &[0.0, -0.55];
    const MODELS: &'static [ModelFile] = &[models::PLANAR3_WIDE, models::PLANAR3_WIDE_CHARTS];
    type State = ChartsState;

    const PANELS: &'static [Panel] = &[
        Panel::new(
            "arm",
            "Arm: one chart's answer against every chart's proposal; drag to move the target",
            true,
        ),
        Panel::new(
            "pieces",
            "Cost along the self-motion set, its pieces coloured by the chart covering them",
            false,
        ),
    ];

    fn compute(models: &Loaded, settings: &Settings) -> Self {
        ChartsLesson::new(models, target_xy(settings))
    }

    /// `getState().lesson`.
    fn state(&self) -> Self::State {
        ChartsState {
            lesson: "charts",
            target: self.target,
            pieces: self.motion.pieces,
            optimum_cost: self.optimum.as_ref().map(Solution::cost),
            one: self.one.as_ref().map(|s| self.answer(s)),
            winner: self.winner().map(|s| self.answer(s)),
            proposals: self.proposals.iter().map(|s| self.answer(s)).collect(),
        }
    }

    /// Readout rows.
    fn readouts(&self) -> Vec<[String; 2]> {
        let describe = |s: Option<&Solution>, missing: &str| match s {
            None => missing.to_string(),
            Some(s) => {
                let a = self.answer(s);
                match a.gap_pct {
                    Some(g) => format!("J = {:.4}, {g:.2} % above J* ({})", a.cost, a.status),
                    None => format!(
                        "J = {:.4}, {} — {:.1e} m from the target",
                        a.cost, a.status, a.residual
                    ),
                }
            }
        };
        let feasible_count = self.proposals.iter().filter(|s| feasible(s)).count();
        vec![
            [
                "solution set inside the limits".into(),
                match self.motion.pieces {
                    1 => "1 piece".to_string(),
                    n => format!("{n} pieces"),
                },
            ],
            [
                "reference optimum J*".into(),
                self.optimum
                    .as_ref()
                    .map_or("none feasible".into(), |o| format!("{:.4}", o.cost())),
            ],
            [
                format!("one chart + refine {REFINE}"),
                describe(self.one.as_ref(), "planar3-wide model not loaded"),
            ],
            [
                format!("eight charts + refine {REFINE}"),
                match self.winner() {
                    Some(w) => format!(
                        "chart {} wins: {} ({feasible_count} of {} proposals feasible)",
                        w.chart().unwrap_or(0),
                        describe(Some(w), ""),
                        self.proposals.len()
                    ),
                    None => "planar3-wide-charts model not loaded".into(),
                },
            ],
        ]
    }

    /// Draws panel `name` (`arm`, `pieces`).
    fn draw(&self, name: &str, surface: &Surface) -> DrawResult<Option<Viewport>> {
        match name {
            "arm" => self.draw_arm(surface).map(Some),
            "pieces" => self.draw_pieces(surface).map(|_| None),
            _ => Ok(None),
        }
    }
}
