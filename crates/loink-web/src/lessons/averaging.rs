//! Lesson 1, the averaging trap (the classic exercise on learned IK), on planar2: a network trained with
//! squared error on both elbow branches answers their average, which misses the target; a
//! mixture density network puts one component on each branch; LOInK, which with no redundancy
//! is a bijection on one chart of the joints (q₁ ∈ [−90°, 90°], q₂ ∈ [0°, 180°]), lands on a
//! valid solution wherever its chart has one — the panel shades where that is, and says so
//! when the target is outside. Every answer is replayed through forward kinematics and its miss
//! ‖p(q) − y‖ reported.

use loink::problem::planar::PlanarArm;
use loink::problem::Reachability;
use loink::regressor::Component;
use loink::report::Solution;
use loink::solvers::analytic::{self, Branch};
use plotters::prelude::*;
use serde::Serialize;

use super::layout::Panel;
use super::lesson::{target_xy, Lesson};
use super::models::{self, Loaded, ModelFile};
use crate::draw::palette::{INK, MUTED, REGION, SAMPLE, SOLUTION, TARGET};
use crate::draw::plots::{self as ld, Chart};
use crate::draw::{text_err, Corner, DrawResult, Legend, Mark, Surface};
use crate::settings::{Settings, SolverKind};
use crate::view::Viewport;

/// The dashed reference line of the miss chart: 5 mm, a miss anyone would see on a real arm.
pub const MISS_M: f64 = 5e-3;

/// Mixture components lighter than this are neither drawn nor charted (their means land
/// anywhere: the network does not use them); the table still lists them, marked.
pub const NEGLIGIBLE_WEIGHT: f64 = 0.02;

/// One MDN component as the page reports it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ComponentState {
    /// Mixing weight π_k.
    pub weight: f64,
    /// ‖p(μ_k) − y‖ (m).
    pub miss_m: f64,
    /// Which elbow branch its mean is on: `q2>=0` or `q2<0`.
    pub branch: &'static str,
    /// Its mean (rad).
    pub q: Vec<f64>,
    /// Its judged status.
    pub status: &'static str,
}

/// `getState().lesson` for this lesson.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AveragingState {
    /// Lesson name.
    pub lesson: &'static str,
    /// Target (m).
    pub target: [f64; 2],
    /// Miss of the MSE network's answer (m); null without the model.
    pub mse_miss_m: Option<f64>,
    /// Miss of the MDN's most likely component (m).
    pub mdn_miss_m: Option<f64>,
    /// Miss of LOInK's answer as the playground gives it by default (one inverse and its task
    /// feedback rounds, no refinement) (m).
    pub loink_miss_m: Option<f64>,
    /// Status words of the three answers.
    pub mse_status: Option<&'static str>,
    /// MDN status.
    pub mdn_status: Option<&'static str>,
    /// LOInK status.
    pub loink_status: Option<&'static str>,
    /// Whether LOInK's chart (its model's joint box) has a pose reaching the target; null
    /// without the model or when its problem cannot decide.
    pub loink_in_chart: Option<bool>,
    /// All MDN components, heaviest first.
    pub mdn_components: Vec<ComponentState>,
    /// Joint angles of the answers.
    pub mse_q: Vec<f64>,
    /// LOInK's joint angles.
    pub loink_q: Vec<f64>,
    /// The two exact solutions (analytic), for comparison.
    pub exact_q: Vec<Vec<f64>>,
}

/// LOInK's chart as the lesson shows it.
struct ChartView {
    /// Whether the target lies in it (None when its problem cannot decide).
    inside: Option<bool>,
    /// Its outline: the image of its joint box's boundary.
    outline: Vec<(f64, f64)>,
}

/// The computed lesson for one target.
pub struct Averaging {
    arm: PlanarArm,
    target: [f64; 2],
    mse: Option<Solution>,
    mdn: Vec<Component>,
    loink: Option<Solution>,
    /// LOInK's chart, when its model is loaded.
    chart: Option<ChartView>,
    exact: Vec<Solution>,
}

fn branch_of(q: &[f64]) -> &'static str {
    if q.get(1).is_some_and(|&q2| q2 >= 0.0) {
        "q2>=0"
    } else {
        "q2<0"
    }
}

impl Averaging {
    /// Solves `target` with every loaded model and the analytic reference.
    pub fn new(models: &Loaded, target: [f64; 2]) -> Averaging {
        let problem = loink::problem::Problem::preset("planar2").expect("planar2 is a preset");
        let exact = Branch::BOTH
            .into_iter()
            .filter_map(|b| analytic::solve(&problem, &target, b).ok())
            .collect();
        Averaging {
            arm: problem.planar().cloned().expect("planar2 is a planar arm"),
            target,
            mse: models.regressors.get("mse").map(|m| m.solve(&target)),
            mdn: models
                .regressors
                .get("mdn")
                .and_then(|m| m.predict(&target).ok())
                .unwrap_or_default(),
            loink: models.loink.get("loink").map(|m| m.solve_cold(&target)),
            chart: models.loink.get("loink").map(|m| {
                let problem = m.problem();
                let inside = match problem.reachability(&target, None) {
                    Reachability::Reachable => Some(true),
                    Reachability::Unreachable => Some(false),
                    Reachability::Unknown => None,
                };
                ChartView {
                    inside,
                    outline: problem.planar().map(outline).unwrap_or_default(),
                }
            }),
            exact,
        }
    }

    fn draw_arm(&self, surface: &Surface) -> DrawResult<Viewport> {
        let area = surface.captioned(
            "Each answer replayed through forward kinematics (× = where it really lands)",
        )?;
        let (mut chart, view) = ld::workspace(&area, surface, &self.arm)?;
        let mut legend = Legend::default();
        if let Some(view) = self.chart.as_ref().filter(|c| !c.outline.is_empty()) {
            chart
                .draw_series(std::iter::once(Polygon::new(
                    view.outline.clone(),
                    REGION.to_rgba().filled(),
                )))
                .map_err(text_err)?;
            legend.add(Mark::Swatch(REGION.to_rgba()), "LOInK's chart reaches here");
        }
        let arm = &self.arm;
        for s in &self.exact {
            ld::arm(&mut chart, surface, arm, s.q(), MUTED.mix(0.45), 6.0, false)?;
        }
        legend.add(Mark::Line(MUTED.mix(0.45), 6.0), "the two exact solutions");
        // Components with almost no weight are listed in the table but not drawn.
        for c in self.mdn.iter().filter(|c| c.weight >= NEGLIGIBLE_WEIGHT) {
            let alpha = 0.25 + 0.6 * c.weight.clamp(0.0, 1.0);
            ld::arm(
                &mut chart,
                surface,
                arm,
                c.solution.q(),
                SAMPLE.mix(alpha),
                3.0,
                true,
            )?;
            mark(&mut chart, surface, c.solution.reached(), SAMPLE.mix(alpha))?;
        }
        if !self.mdn.is_empty() {
            legend.add(
                Mark::Line(SAMPLE.to_rgba(), 3.0),
                "MDN components (darker = likelier)",
            );
        }
        if let Some(s) = &self.loink {
            ld::arm(
                &mut chart,
                surface,
                arm,
                s.q(),
                SOLUTION.to_rgba(),
                4.0,
                true,
            )?;
            legend.add(Mark::Line(SOLUTION.to_rgba(), 4.0), "LOInK");
        }
        if let Some(s) = &self.mse {
            ld::arm(&mut chart, surface, arm, s.q(), TARGET.mix(0.9), 3.0, true)?;
            mark(&mut chart, surface, s.reached(), TARGET.to_rgba())?;
            if let [x, y] = s.reached() {
                chart
                    .draw_series(std::iter::once(PathElement::new(
                        vec![(*x, *y), (self.target[0], self.target[1])],
                        TARGET.mix(0.7).stroke_width(surface.stroke(1.0)),
                    )))
                    .map_err(text_err)?;
            }
            legend.add(
                Mark::Line(TARGET.to_rgba(), 3.0),
                "MSE network: the average",
            );
            legend.add(Mark::Cross(TARGET.to_rgba()), "where the average lands");
        }
        ld::base_and_target(&area, &chart, surface, self.target)?;
        legend.add(Mark::Ring(TARGET.to_rgba()), "target (drag it)");
        legend.finish_on(&area, surface, &chart, Corner::away_from(self.target))?;
        Ok(view)
    }

    fn draw_misses(&self, surface: &Surface) -> DrawResult {
        let area = surface.captioned(
            "End-effector miss ‖p(q) − y‖ per answer (log scale); dashed: 5 mm; MDN components of weight < 0.02 left out",
        )?;
        let mut bars: Vec<(String, f64, RGBAColor)> = Vec::new();
        if let Some(s) = &self.mse {
            bars.push(("MSE".into(), s.residual(), TARGET.to_rgba()));
        }
        for (k, c) in self.mdn.iter().enumerate() {
            if c.weight < NEGLIGIBLE_WEIGHT {
                continue;
            }
            bars.push((
                format!("MDN {}", k + 1),
                c.solution.residual(),
                SAMPLE.to_rgba(),
            ));
        }
        if let Some(s) = &self.loink {
            bars.push(("LOInK".into(), s.residual(), SOLUTION.to_rgba()));
        }
        let floor = 1e-6;
        let n = bars.len().max(1) as f64;
        let mut chart = ld::framed(&area, surface, 28.0, 56.0)
            .build_cartesian_2d(0.0..n, (floor..10.0).log_scale())
            .map_err(text_err)?;
        let labels: Vec<String> = bars.iter().map(|b| b.0.clone()).collect();
        ld::styled_mesh(&mut chart, surface, "", "miss (m)")
            .disable_x_mesh()
            .x_labels(bars.len().max(1) * 2 + 1)
            .x_label_formatter(&|x| {
                let i = (x - 0.5).round();
                if (x - 0.5 - i).abs() < 1e-6 && i >= 0.0 {
                    labels.get(i as usize).cloned().unwrap_or_default()
                } else {
                    String::new()
                }
            })
            .y_label_formatter(&|v| format!("{v:.0e}"))
            .draw()
            .map_err(text_err)?;
        for (i, (_, miss, colour)) in bars.iter().enumerate() {
            let top = miss.max(floor * 1.01);
            chart
                .draw_series(std::iter::once(Rectangle::new(
                    [(i as f64 + 0.2, floor), (i as f64 + 0.8, top)],
                    colour.filled(),
                )))
                .map_err(text_err)?;
        }
        let tol = MISS_M;
        chart
            .draw_series(DashedLineSeries::new(
                vec![(0.0, tol), (n, tol)],
                surface.px(6.0) as u32,
                surface.px(4.0) as u32,
                INK.mix(0.7).stroke_width(surface.stroke(1.0)),
            ))
            .map_err(text_err)?;
        area.present().map_err(text_err)
    }
}

/// The outline of a two-joint arm's chart: the image of its joint box's boundary, traced edge
/// by edge (for planar2's chart a simple closed curve, so it fills as the region it bounds).
fn outline(arm: &PlanarArm) -> Vec<(f64, f64)> {
    let (lo, hi) = (arm.limits().lower(), arm.limits().upper());
    if lo.len() != 2 {
        return Vec::new();
    }
    const STEPS: usize = 90;
    let lerp = |a: f64, b: f64, k: usize| a + (b - a) * k as f64 / STEPS as f64;
    let mut qs = Vec::with_capacity(4 * STEPS);
    qs.extend((0..STEPS).map(|k| [lerp(lo[0], hi[0], k), lo[1]]));
    qs.extend((0..STEPS).map(|k| [hi[0], lerp(lo[1], hi[1], k)]));
    qs.extend((0..STEPS).map(|k| [lerp(hi[0], lo[0], k), hi[1]]));
    qs.extend((0..STEPS).map(|k| [lo[0], lerp(hi[1], lo[1], k)]));
    qs.iter()
        .map(|q| {
            let [x, y] = arm.position(q);
            (x, y)
        })
        .collect()
}

fn mark(chart: &mut Chart, surface: &Surface, reached: &[f64], colour: RGBAColor) -> DrawResult {
    if let [x, y] = reached {
        ld::cross(chart, surface, [*x, *y], colour)?;
    }
    Ok(())
}

impl Lesson for Averaging {
    const WORD: &'static str = "averaging";
    const TEXT: &'static str = "A two-link arm reaches most targets in two ways, elbow one side or the other. \
A network trained with squared error on data holding both learns their average, which is generally no \
solution at all: replayed through forward kinematics it misses the target (the orange ×). A mixture density \
network can say \"one of these two\" (light-blue ghosts, one per branch). LOInK needs no averaging: with two \
links there is no redundancy, and it is a bijection from one chart of the joints (elbow bent one way, \
q₂ ∈ [0°, 180°], shoulder q₁ ∈ [−90°, 90°]) onto the shaded region. Inside that region it lands on the \
target; outside it, no pose of its chart reaches the target, and it says so.";
    const TRY: &'static str =
    "Drag the target towards the base and out to full reach: where does the averaged \
answer miss most, and why does it get better near full reach, where both branches meet? Then drag it \
out of the shaded region, to the lower left: the MDN still answers, LOInK's chart cannot.";
    const PROBLEM: &'static str = "planar2";
    const SOLVER: SolverKind = SolverKind::Analytic;
    /// The default target (the classic exercise's example point).
    const TARGET: &'static [f64] = &[1.0, 0.8];
    const MODELS: &'static [ModelFile] =
        &[models::PLANAR2, models::PLANAR2_MSE, models::PLANAR2_MDN];
    type State = AveragingState;

    const PANELS: &'static [Panel] = &[
        Panel::new(
            "arm",
            "Arm: the MSE, MDN and LOInK answers for the target; drag to move the target",
            true,
        ),
        Panel::new(
            "misses",
            "Bar chart of each answer's end-effector miss",
            false,
        ),
    ];

    fn compute(models: &Loaded, settings: &Settings) -> Self {
        Averaging::new(models, target_xy(settings))
    }

    /// `getState().lesson`.
    fn state(&self) -> Self::State {
        let miss = |s: &Solution| s.residual();
        AveragingState {
            lesson: "averaging",
            target: self.target,
            mse_miss_m: self.mse.as_ref().map(miss),
            mdn_miss_m: self.mdn.first().map(|c| c.solution.residual()),
            loink_miss_m: self.loink.as_ref().map(miss),
            mse_status: self.mse.as_ref().map(|s| s.status().as_str()),
            mdn_status: self.mdn.first().map(|c| c.solution.status().as_str()),
            loink_status: self.loink.as_ref().map(|s| s.status().as_str()),
            loink_in_chart: self.chart.as_ref().and_then(|c| c.inside),
            mdn_components: self
                .mdn
                .iter()
                .map(|c| ComponentState {
                    weight: c.weight,
                    miss_m: c.solution.residual(),
                    branch: branch_of(c.solution.q()),
                    q: c.solution.q().to_vec(),
                    status: c.solution.status().as_str(),
                })
                .collect(),
            mse_q: self
                .mse
                .as_ref()
                .map(|s| s.q().to_vec())
                .unwrap_or_default(),
            loink_q: self
                .loink
                .as_ref()
                .map(|s| s.q().to_vec())
                .unwrap_or_default(),
            exact_q: self.exact.iter().map(|s| s.q().to_vec()).collect(),
        }
    }

    /// Readout rows (label, text).
    fn readouts(&self) -> Vec<[String; 2]> {
        let row = |name: &str, s: Option<&Solution>| {
            [
                name.to_string(),
                match s {
                    Some(s) => format!("misses by {:.2e} m — {}", s.residual(), s.status()),
                    None => "model not loaded".into(),
                },
            ]
        };
        let mut rows = vec![row("MSE network", self.mse.as_ref())];
        if self.mdn.is_empty() {
            rows.push(row("MDN", None));
        }
        for (k, c) in self.mdn.iter().enumerate() {
            let label = format!("MDN component {} (π = {:.2})", k + 1, c.weight);
            if c.weight < NEGLIGIBLE_WEIGHT {
                rows.push([
                    label,
                    "weight ≈ 0: the network does not use it (not drawn)".into(),
                ]);
                continue;
            }
            rows.push([
                label,
                format!(
                    "misses by {:.2e} m — {}, {}",
                    c.solution.residual(),
                    branch_of(c.solution.q())
                        .replace(">=", " ≥ ")
                        .replace('<', " < "),
                    c.solution.status()
                ),
            ]);
        }
        let label = format!(
            "LOInK (chart q₁ ∈ [−90°, 90°], q₂ ≥ 0; {} feedback rounds)",
            crate::settings::DEFAULT_FEEDBACK
        );
        match (&self.loink, self.chart.as_ref().and_then(|c| c.inside)) {
            (Some(s), Some(false)) => rows.push([
                label,
                format!(
                    "target outside its chart (no pose of the chart reaches it): its answer \
                     stops {:.2e} m away — {}",
                    s.residual(),
                    s.status()
                ),
            ]),
            (loink, _) => rows.push(row(&label, loink.as_ref())),
        }
        rows
    }

    /// Draws panel `name` (`arm` or `misses`); returns the arm panel's pixel ↔ world map.
    fn draw(&self, name: &str, surface: &Surface) -> DrawResult<Option<Viewport>> {
        match name {
            "arm" => self.draw_arm(surface).map(Some),
            "misses" => self.draw_misses(surface).map(|_| None),
            _ => Ok(None),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_target_shows_the_trap() {
        let s = Averaging::new(
            &models::shipped::<Averaging>(),
            crate::lessons::lesson::xy(Averaging::TARGET),
        )
        .state();
        assert!(s.mse_miss_m.unwrap() >= 1e-2, "{s:?}");
        assert!(s.mdn_miss_m.unwrap() <= 5e-3, "{s:?}");
        assert!(s.loink_miss_m.unwrap() <= 5e-3, "{s:?}");
        let heavy: Vec<_> = s.mdn_components.iter().filter(|c| c.weight > 0.1).collect();
        assert!(
            heavy.iter().any(|c| c.branch == "q2>=0") && heavy.iter().any(|c| c.branch == "q2<0")
        );
    }

    #[test]
    fn loink_lands_wherever_its_chart_reaches_and_says_so_elsewhere() {
        let models = models::shipped::<Averaging>();
        // The lower-left target is reachable by the arm but outside LOInK's chart.
        let outside = Averaging::new(&models, [-1.0, -1.2]);
        let s = outside.state();
        assert_eq!(s.loink_in_chart, Some(false), "{s:?}");
        assert!(outside
            .readouts()
            .iter()
            .any(|[_, text]| text.contains("outside its chart")));
        // Along r = 1.5 every target in the chart is reached, every other one is outside it.
        let (mut inside, mut worst) = (0, 0.0_f64);
        for k in 0..360 {
            let a = (k as f64).to_radians();
            let y = [1.5 * a.cos(), 1.5 * a.sin()];
            let s = Averaging::new(&models, y).state();
            match s.loink_in_chart {
                Some(true) => {
                    inside += 1;
                    worst = worst.max(s.loink_miss_m.unwrap());
                }
                Some(false) => assert_ne!(s.loink_status, Some("converged"), "{s:?}"),
                None => panic!("undecided at {y:?}"),
            }
        }
        assert!(inside > 150, "{inside} of 360 in the chart");
        assert!(worst <= 1e-3, "worst miss in the chart {worst}");
    }

    #[test]
    fn weightless_components_are_not_charted() {
        let models = models::shipped::<Averaging>();
        for y in [[1.0, 0.8], [-1.0, -1.2], [0.3, 1.6]] {
            let a = Averaging::new(&models, y);
            let heavy = a
                .mdn
                .iter()
                .filter(|c| c.weight >= NEGLIGIBLE_WEIGHT)
                .count();
            let rows = a.readouts();
            let marked = rows
                .iter()
                .filter(|r| r[1].starts_with("weight ≈ 0"))
                .count();
            assert_eq!(heavy + marked, a.mdn.len());
        }
    }

    #[test]
    fn a_model_for_another_arm_or_role_is_refused() {
        let mut m = Loaded::default();
        let json = include_str!("../../../../web/models/planar2.json");
        assert!(m.load(Averaging::MODELS, "loink", json, "planar3").is_err());
        assert!(m
            .load(Averaging::MODELS, "secret", json, "planar2")
            .is_err());
        assert!(m
            .load(Averaging::MODELS, "mse", "{\"format\": 1", "planar2")
            .is_err());
        assert!(m.loink.is_empty() && m.regressors.is_empty());
    }
}
