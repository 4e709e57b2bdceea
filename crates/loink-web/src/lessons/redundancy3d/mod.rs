//! The elbow knob (`#lesson=redundancy-3d`): the Franka Panda reaching one point, its elbow
//! swung through LOInK's latent space with the hand fixed — the cost along each latent axis, the
//! lowest at z = 0 — and the comparison the 7-joint literature makes: a network regressing the
//! joints directly against LOInK on the same held-out targets, by how far each misses and what
//! each costs.

use loink::problem::Problem;
use loink::report::{Solution, Status};
use loink::solvers::reference;
use loink::solvers::registry::{SolverKind, SolverSettings};
use loink::surrogate::ChartSet;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::Serialize;

mod charts;

use charts::miss_text;

use super::layout::Panel;
use super::lesson::Lesson;
use super::models::{self, Loaded, ModelFile};
use crate::draw::{DrawResult, Surface};
use crate::settings::Settings;
use crate::view::Viewport;

/// The latent sweep: z along one axis from −`SWING` to `SWING` (normalised units).
const SWING: f64 = 1.2;
/// Points along each axis of the sweep.
const SWING_POINTS: usize = 31;
/// Poses drawn as ghosts along the first axis.
const GHOSTS: usize = 7;
/// Held-out targets of the comparison (uniform joint configurations of the box, seeded).
const TARGETS: usize = 120;
/// Their seed (not a training seed: the models never saw these targets).
const SEED: u64 = 2_026;

/// LOInK + refine 3 and the direct regression (when given) on the held-out targets, each
/// judged against the reference optimum: (targets, LOInK's answers, the regression's).
fn compare(
    problem: &Problem,
    model: &loink::surrogate::Loink,
    regression: Option<&loink::regressor::Regressor>,
) -> (usize, Option<Answers>, Option<Answers>) {
    // The held-out targets: images of uniform configurations of the box.
    let mut rng = ChaCha8Rng::seed_from_u64(SEED);
    let targets: Vec<Vec<f64>> = problem
        .random_configurations(TARGETS, &mut rng)
        .iter()
        .filter_map(|q| problem.forward(q).ok())
        .collect();
    let optima: Vec<f64> = targets
        .iter()
        .map(|y| {
            let best = reference::solve(problem, y);
            if best.status() == Status::Converged {
                best.cost()
            } else {
                f64::NAN
            }
        })
        .collect();
    let settings = SolverSettings {
        refine: 3,
        ..SolverSettings::new(SolverKind::LoinkRefine)
    };
    let learned = ChartSet::from(model.clone())
        .solver(&settings)
        .ok()
        .map(|mut solver| {
            let answers: Vec<Solution> = targets.iter().map(|y| solver.solve(y)).collect();
            summarise(&answers, &optima)
        });
    let regressed = regression.map(|mse| {
        let answers: Vec<Solution> = targets.iter().map(|y| mse.solve(y)).collect();
        summarise(&answers, &optima)
    });
    (targets.len(), learned, regressed)
}

/// The cost and the hand's miss along one latent axis.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Swing {
    /// The axis, from 1.
    pub axis: usize,
    /// The latent coordinate along it.
    pub z: Vec<f64>,
    /// J of the pose G⁻¹([y; z]) (NaN where the inverse failed).
    pub cost: Vec<f64>,
    /// How far its hand is from the target (m).
    pub miss: Vec<f64>,
    /// How far the elbow (the fourth joint) is from where z = 0 puts it (m).
    pub elbow: Vec<f64>,
    /// The interval of z about 0 along which the hand stays within [`HELD`] of the target:
    /// the reach of the knob on this axis (the learned inverse leaves the target beyond it).
    pub held: [f64; 2],
}

/// How close the hand must stay for a pose of the swing to count as reaching the target (m).
pub const HELD: f64 = 1e-3;

impl Swing {
    /// The points inside [`Swing::held`].
    fn held_points(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.z.len()).filter(|&k| (self.held[0]..=self.held[1]).contains(&self.z[k]))
    }
}

/// The contiguous run of `miss` within [`HELD`] about the middle index, as z bounds.
fn held_interval(z: &[f64], miss: &[f64]) -> [f64; 2] {
    let middle = z.len() / 2;
    if !miss.get(middle).is_some_and(|m| *m <= HELD) {
        return [0.0, 0.0];
    }
    let mut lo = middle;
    while lo > 0 && miss[lo - 1] <= HELD {
        lo -= 1;
    }
    let mut hi = middle;
    while hi + 1 < z.len() && miss[hi + 1] <= HELD {
        hi += 1;
    }
    [z[lo], z[hi]]
}

/// One solver's answers to the held-out targets, summarised.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Answers {
    /// Misses (m), sorted.
    pub miss: Vec<f64>,
    /// Median miss (m).
    pub median_miss: f64,
    /// 95th-percentile miss (m).
    pub p95_miss: f64,
    /// Median cost J of its answers.
    pub median_cost: f64,
    /// Median gap to J* (%) over the targets whose answer reaches them within 1 mm (NaN
    /// when none does).
    pub median_gap: f64,
    /// Answers within 1 mm of their target.
    pub within_mm: usize,
}

/// `getState().lesson` for this lesson.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ElbowState {
    /// Lesson name.
    pub lesson: &'static str,
    /// The target swung about (m).
    pub target: Vec<f64>,
    /// J* at the target (the reference optimum's cost).
    pub optimum: f64,
    /// The sweep along each latent axis.
    pub swings: Vec<Swing>,
    /// Held-out targets compared.
    pub targets: usize,
    /// LOInK + 3 refinement steps on them.
    pub loink: Option<Answers>,
    /// The direct regression on them.
    pub regression: Option<Answers>,
}

/// The computed lesson.
pub struct ElbowLesson {
    problem: Option<Problem>,
    state: ElbowState,
    /// The answer at z = 0, the ghosts along z₁ and the optimum, for the 3-D panel.
    answer: Option<Solution>,
    ghosts: Vec<Vec<f64>>,
    optimum_q: Option<Vec<f64>>,
    missing: Vec<String>,
}

fn median(sorted: &[f64]) -> f64 {
    sorted.get(sorted.len() / 2).copied().unwrap_or(f64::NAN)
}

fn summarise(answers: &[Solution], optima: &[f64]) -> Answers {
    let mut miss: Vec<f64> = answers.iter().map(Solution::residual).collect();
    loink::stats::sort_values(&mut miss);
    let mut costs: Vec<f64> = answers.iter().map(Solution::cost).collect();
    loink::stats::sort_values(&mut costs);
    let mut gaps: Vec<f64> = (answers.iter().zip(optima))
        .filter(|(a, j)| a.residual() <= 1e-3 && j.is_finite())
        .map(|(a, j)| crate::engine::gap_percent(a.cost(), *j))
        .collect();
    loink::stats::sort_values(&mut gaps);
    Answers {
        median_miss: median(&miss),
        p95_miss: miss
            .get((miss.len() * 95) / 100)
            .copied()
            .unwrap_or(f64::NAN),
        median_cost: median(&costs),
        median_gap: median(&gaps),
        within_mm: answers.iter().filter(|a| a.residual() <= 1e-3).count(),
        miss,
    }
}

impl ElbowLesson {
    /// The sweep at `target` and the comparison on the held-out targets.
    pub fn new(models: &Loaded, target: &[f64]) -> Self {
        let model = models.loink.get("loink");
        let problem = model.map(|m| m.problem().clone());
        let mut missing: Vec<String> = models
            .missing
            .iter()
            .map(|(role, why)| format!("{role}: {why}"))
            .collect();
        let mut state = ElbowState {
            lesson: "redundancy-3d",
            target: target.to_vec(),
            optimum: f64::NAN,
            swings: Vec::new(),
            targets: 0,
            loink: None,
            regression: None,
        };
        let (Some(model), Some(problem)) = (model, problem.as_ref()) else {
            missing.push("the Panda's LOInK model is not loaded".into());
            return ElbowLesson {
                problem,
                state,
                answer: None,
                ghosts: Vec::new(),
                optimum_q: None,
                missing,
            };
        };
        // The page's most task-feedback rounds: off the origin the inverse alone lands
        // millimetres to centimetres from the target (the swing's miss says how far).
        let rounds = crate::settings::FEEDBACK_MAX as usize;
        let pose = |z: &[f64]| model.solve_latent_rounds(&mut model.new_state(), target, z, rounds);
        let answer = pose(&vec![0.0; model.latent_dim()]);
        let elbow_of = |q: &[f64]| {
            (!q.is_empty())
                .then(|| problem.capabilities().space().map(|v| v.skeleton(q)))
                .flatten()
                .and_then(|p| p.get(4).copied())
        };
        let elbow0 = elbow_of(answer.q());
        let mut ghosts = Vec::new();
        for axis in 0..model.latent_dim() {
            let mut swing = Swing {
                axis: axis + 1,
                z: Vec::new(),
                cost: Vec::new(),
                miss: Vec::new(),
                elbow: Vec::new(),
                held: [0.0, 0.0],
            };
            for k in 0..SWING_POINTS {
                let t = -SWING + 2.0 * SWING * k as f64 / (SWING_POINTS - 1) as f64;
                let mut z = vec![0.0; model.latent_dim()];
                z[axis] = t;
                let s = pose(&z);
                let elbow = match (elbow_of(s.q()), elbow0) {
                    (Some(a), Some(b)) => (0..3).map(|i| (a[i] - b[i]).powi(2)).sum::<f64>().sqrt(),
                    _ => f64::NAN,
                };
                swing.z.push(t);
                swing
                    .cost
                    .push(if s.q().is_empty() { f64::NAN } else { s.cost() });
                swing.miss.push(s.residual());
                swing.elbow.push(elbow);
                if axis == 0 && k % ((SWING_POINTS - 1) / (GHOSTS - 1)) == 0 && !s.q().is_empty() {
                    ghosts.push(s.q().to_vec());
                }
            }
            swing.held = held_interval(&swing.z, &swing.miss);
            state.swings.push(swing);
        }
        let optimum = reference::solve(problem, target);
        let optimum_q = (optimum.status() == Status::Converged).then(|| optimum.q().to_vec());
        state.optimum = if optimum_q.is_some() {
            optimum.cost()
        } else {
            f64::NAN
        };
        // The held-out comparison does not depend on the target: it waits until the regression
        // model has loaded (or failed to), so opening the lesson runs it once, not once per file.
        let regression_settled =
            models.regressors.contains_key("mse") || models.missing.contains_key("mse");
        if regression_settled {
            (state.targets, state.loink, state.regression) =
                compare(problem, model, models.regressors.get("mse"));
        }
        ElbowLesson {
            problem: Some(problem.clone()),
            state,
            answer: Some(answer),
            ghosts,
            optimum_q,
            missing,
        }
    }
}

impl Lesson for ElbowLesson {
    const WORD: &'static str = "redundancy-3d";
    const TEXT: &'static str = "The Panda reaches a point with six joints: three more than the \
point needs, so its elbow can swing while the hand stays put. LOInK gives that freedom a \
coordinate: its latent z. For a fixed target every z is another posture reaching it, and the one \
at z = 0 is the cheapest (here: the joints nearest the middle of their ranges). A network that \
regresses the joints from the target directly has no such coordinate: where two postures reach \
the same point it learns their average, which reaches neither.";
    const TRY: &'static str = "Follow a curve of the middle panel to z = 0: the cost is lowest \
there, and each curve is drawn only where the hand stays within 1 mm of the target (along z₃ \
that is a short way: the network holds the hand there less far). Then read the right panel: the \
regression misses by about half a metre where LOInK's line lies on zero. Open the playground and \
drag the latent probe to swing the elbow yourself.";
    const PROBLEM: &'static str = "panda";
    const SOLVER: SolverKind = SolverKind::LoinkRefine;
    /// In front of the robot, to its right, at table height.
    const TARGET: &'static [f64] = &[0.45, -0.2, 0.35];
    const MODELS: &'static [ModelFile] = &[models::PANDA, models::PANDA_MSE];
    type State = ElbowState;

    const PANELS: &'static [Panel] = &[
        Panel::new(
            "arm",
            "The Panda at LOInK's answer (z = 0), the postures along the first latent axis as ghosts, the optimum",
            false,
        ),
        Panel::new(
            "swing",
            "The cost along each latent axis through z = 0, the hand held on the target, against the optimum",
            false,
        ),
        Panel::new(
            "misses",
            "How far direct regression and LOInK miss the same held-out targets, sorted",
            false,
        ),
    ];

    /// The sweep at the page target (the lesson's own where it has none of three coordinates).
    fn compute(models: &Loaded, settings: &Settings) -> Self {
        let t = &settings.target;
        let target = if t.len() == 3 && t.iter().all(|v| v.is_finite()) {
            t.clone()
        } else {
            Self::TARGET.to_vec()
        };
        ElbowLesson::new(models, &target)
    }

    fn state(&self) -> Self::State {
        self.state.clone()
    }

    fn readouts(&self) -> Vec<[String; 2]> {
        let s = &self.state;
        let mut rows = vec![[
            "target".to_string(),
            format!(
                "({:.2}, {:.2}, {:.2}) m",
                s.target[0], s.target[1], s.target[2]
            ),
        ]];
        if let Some(swing) = s.swings.first() {
            let at_zero = swing.cost[SWING_POINTS / 2];
            rows.push([
                "J at z = 0".to_string(),
                format!("{at_zero:.4} (J* = {:.4})", s.optimum),
            ]);
        }
        for (name, answers) in [
            ("LOInK + refine 3", &s.loink),
            ("direct regression", &s.regression),
        ] {
            if let Some(a) = answers {
                rows.push([
                    format!("{name}: miss"),
                    format!(
                        "median {}, 95 % within {}; {} of {} within 1 mm",
                        miss_text(a.median_miss),
                        miss_text(a.p95_miss),
                        a.within_mm,
                        s.targets
                    ),
                ]);
                // A cost means something only for an answer that reaches its target.
                let gap = if a.median_gap.is_finite() {
                    format!(
                        "; median gap to J* {} % where it reaches",
                        crate::state::gap_text(a.median_gap)
                    )
                } else {
                    "; no answer reaches its target, so no cost compares with J*".to_string()
                };
                rows.push([
                    format!("{name}: cost"),
                    format!("median J {:.3}{gap}", a.median_cost),
                ]);
            }
        }
        rows
    }

    fn draw(&self, name: &str, surface: &Surface) -> DrawResult<Option<Viewport>> {
        match name {
            "arm" => self.draw_arm(surface).map(|_| None),
            "swing" => self.draw_swing(surface).map(|_| None),
            "misses" => self.draw_misses(surface).map(|_| None),
            _ => Ok(None),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// On the shipped models: z = 0 is the cheapest point of every swing and the hand stays on
    /// the target along it; the regression misses by decimetres where LOInK reaches.
    #[test]
    fn the_elbow_swings_about_the_cheapest_posture_and_regression_misses() {
        let models = models::shipped::<ElbowLesson>();
        let lesson = ElbowLesson::new(&models, ElbowLesson::TARGET);
        let s = lesson.state();
        assert_eq!(s.swings.len(), 3);
        for swing in &s.swings {
            let held: Vec<usize> = swing.held_points().collect();
            assert!(held.contains(&(SWING_POINTS / 2)), "axis {}", swing.axis);
            let middle = swing.cost[SWING_POINTS / 2];
            let lowest = held
                .iter()
                .map(|&i| swing.cost[i])
                .fold(f64::INFINITY, f64::min);
            assert!(
                middle <= lowest + 1e-3,
                "axis {}: J(0) {middle} vs {lowest}",
                swing.axis
            );
            assert!(held.iter().all(|&i| swing.miss[i] <= HELD));
        }
        // The first two axes hold the hand over most of the swing, and the elbow moves.
        for swing in &s.swings[..2] {
            assert!(
                swing.held[0] <= -1.0 && swing.held[1] >= 1.0,
                "axis {}: {:?}",
                swing.axis,
                swing.held
            );
            let reach = swing
                .held_points()
                .map(|i| swing.elbow[i])
                .fold(0.0f64, f64::max);
            assert!(
                reach > 0.02,
                "axis {}: the elbow moves {reach} m",
                swing.axis
            );
        }
        assert!((s.swings[0].cost[SWING_POINTS / 2] - s.optimum).abs() / s.optimum < 0.05);
        let (learned, regression) = (s.loink.unwrap(), s.regression.unwrap());
        assert!(learned.median_miss < 1e-4, "LOInK {}", learned.median_miss);
        assert!(
            regression.median_miss > 0.1,
            "regression {}",
            regression.median_miss
        );
        assert!(learned.within_mm > regression.within_mm);
    }
}
