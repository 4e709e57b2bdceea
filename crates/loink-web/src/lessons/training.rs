//! Lesson "training" (watch G learn): planar3's LOInK trained from scratch in the page (the
//! trainer's panel, web/train.js), the playground's panels following its weights. The lesson's
//! own figures are the yardstick beside it: `loink train`'s benchmark network (planar3.json, 40
//! epochs) at the current target — its one-shot error and how far its z = 0 posture lies from the
//! cheapest posture q\*, the same two measures the trainer's chart plots.

use serde::Serialize;

use super::layout::Panel;
use super::lesson::{target_xy, Lesson};
use super::models::{self, Loaded, ModelFile};
use crate::draw::{DrawResult, Surface};
use crate::settings::{Settings, SolverKind};
use crate::view::Viewport;

/// The lesson's view: the shipped network's figures at the target.
pub struct TrainingLesson {
    target: [f64; 2],
    /// ‖p(x₀) − y‖ of the shipped network's one-shot inverse (m).
    shipped_error_m: Option<f64>,
    /// ‖x₀ − q\*‖ (rad) of that answer from the reference optimum.
    shipped_distance_rad: Option<f64>,
    /// J\* at the target.
    optimum_cost: Option<f64>,
}

/// `getState().lesson` of the training lesson.
#[derive(Debug, Clone, Serialize)]
pub struct TrainingState {
    /// Always "training".
    pub lesson: &'static str,
    /// The target (m).
    pub target: [f64; 2],
    /// The shipped network's one-shot error at the target (m).
    pub shipped_error_m: Option<f64>,
    /// Its z = 0 posture's distance from q\* (rad).
    pub shipped_distance_rad: Option<f64>,
    /// J\* at the target.
    pub optimum_cost: Option<f64>,
}

impl Lesson for TrainingLesson {
    const WORD: &'static str = "training";
    const TEXT: &'static str = "Press Start: a planar3 network with random weights trains in this \
page, in a worker, with the loss, optimiser and data of `loink train`. Every two seconds the panels \
below switch to its weights as they stand. In the latent panel the cross is the network's answer, \
the posture at latent z = 0, and the ring the latent point of the cheapest posture q*; the arm \
panel draws that answer over q* (its legend names both). The chart's lower half gives medians over 64 held-out targets: in \
blue how far, in joint angles, the posture at z = 0 lies from q*, in green how far the hand lands \
from the target, in pink the gap to J* once LOInK's answer is polished by three steps. The table \
gives the first two figures at the current target for the network `loink train` ships (40 epochs).";
    const TRY: &'static str = "Train for 60 s with μ = 0.05, then Reset, set μ to 0.2 and train \
again with the same seed and budget: compare the two charts, and drag the target to compare the \
arm's answers.";
    const PROBLEM: &'static str = "planar3";
    const SOLVER: SolverKind = SolverKind::Loink;
    const TARGET: &'static [f64] = &[0.6, 0.3];
    const MODELS: &'static [ModelFile] = &[models::PLANAR3];
    const PANELS: &'static [Panel] = &[];
    type State = TrainingState;

    fn more_defaults(settings: &mut Settings, unset: super::lesson::Unset) {
        if unset("train") {
            settings.train = true;
        }
    }

    fn compute(models: &Loaded, settings: &Settings) -> Self {
        let target = target_xy(settings);
        let (model, _, optimum) = models.loink_with_optimum("loink", "planar3", &target);
        let answer = model.map(|m| m.solve_cold_one_shot(&target));
        let shipped_distance_rad = match (&answer, &optimum) {
            (Some(a), Some(o)) => Some(
                a.q()
                    .iter()
                    .zip(o.q())
                    .map(|(x, y)| (x - y) * (x - y))
                    .sum::<f64>()
                    .sqrt(),
            ),
            _ => None,
        };
        TrainingLesson {
            target,
            shipped_error_m: answer
                .as_ref()
                .map(|a| a.residual())
                .filter(|r| r.is_finite()),
            shipped_distance_rad,
            optimum_cost: optimum.as_ref().map(|o| o.cost()),
        }
    }

    fn state(&self) -> TrainingState {
        TrainingState {
            lesson: "training",
            target: self.target,
            shipped_error_m: self.shipped_error_m,
            shipped_distance_rad: self.shipped_distance_rad,
            optimum_cost: self.optimum_cost,
        }
    }

    fn readouts(&self) -> Vec<[String; 2]> {
        let or_dash = |v: Option<f64>, scale: f64, unit: &str| {
            v.map_or("—".to_string(), |v| format!("{:.1} {unit}", v * scale))
        };
        vec![
            [
                "target".into(),
                format!("({:.3}, {:.3}) m", self.target[0], self.target[1]),
            ],
            [
                "shipped network (`loink train`, 40 epochs): hand from the target, one-shot".into(),
                or_dash(self.shipped_error_m, 1e3, "mm"),
            ],
            [
                "shipped network: its z = 0 posture from q*".into(),
                or_dash(self.shipped_distance_rad, 1e3, "mrad"),
            ],
        ]
    }

    fn draw(&self, _name: &str, _surface: &Surface) -> DrawResult<Option<Viewport>> {
        Ok(None)
    }
}
