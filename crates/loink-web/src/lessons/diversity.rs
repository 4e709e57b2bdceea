//! Lesson 3, diversity and σ (planar3): solutions at z ~ N(0, σ²I) drawn as ghost arms, a
//! histogram of their true costs J against the reference optimum J*, and the trade of
//! optimality for variety as σ grows. Seeded (ChaCha8 via `Loink::sample`): the same link
//! draws the same samples.

use loink::problem::Problem;
use loink::report::Solution;
use plotters::prelude::*;
use serde::Serialize;

use super::layout::{Control, Panel};
use super::lesson::{target_xy, Lesson};
use super::models::{self, Loaded, ModelFile};
use crate::draw::palette::{INK, OPTIMUM, SAMPLE, SOLUTION, SURROGATE};
use crate::draw::plots as ld;
use crate::draw::{text_err, Corner, DrawResult, Legend, Mark, Surface};
use crate::engine::gap_percent;
use crate::settings::{Settings, SolverKind};
use crate::view::Viewport;

/// Default σ.
pub const DEFAULT_SIGMA: f64 = 0.5;
/// Default number of samples.
pub const DEFAULT_SAMPLES: u32 = 32;
/// Only answers within this distance of the target (m), inside the limits, have their costs
/// compared with J\* (a miss can undercut the optimum).
pub const REACH_M: f64 = 1e-4;
/// The histogram spans at least this share of J\* (so differences far below what the chart
/// can mean are not magnified into bars apart).
const HISTOGRAM_MIN_SPAN: f64 = 0.02;
/// σ values of the trade chart.
const SWEEP: [f64; 8] = [0.0, 0.1, 0.25, 0.5, 0.75, 1.0, 1.5, 2.0];

/// `getState().lesson` for this lesson.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DiversityState {
    /// Lesson name.
    pub lesson: &'static str,
    /// Target (m).
    pub target: [f64; 2],
    /// σ, sample count and seed used.
    pub sigma: f64,
    /// Samples drawn.
    pub count: usize,
    /// Seed.
    pub seed: u64,
    /// The samples' joint vectors.
    pub samples: Vec<Vec<f64>>,
    /// Their true costs J.
    pub costs: Vec<f64>,
    /// Their statuses.
    pub statuses: Vec<&'static str>,
    /// Whether each sample reaches the target (within [`REACH_M`], inside the limits): only
    /// these are compared with J\*.
    pub reaches: Vec<bool>,
    /// [`REACH_M`].
    pub reach_m: f64,
    /// J* of the reference optimum (null when none is feasible).
    pub optimum_cost: Option<f64>,
    /// J at z = 0.
    pub origin_cost: Option<f64>,
    /// Mean gap (J − J*)/J* of the samples that reach the target (%).
    pub mean_gap_pct: Option<f64>,
    /// Variety: mean per-joint standard deviation of the samples (rad).
    pub spread_rad: Option<f64>,
}

/// One σ of the trade chart.
#[derive(Debug, Clone, Copy, PartialEq)]
struct TradePoint {
    sigma: f64,
    gap: f64,
    spread: f64,
}

/// The computed lesson.
pub struct Diversity {
    problem: Problem,
    target: [f64; 2],
    sigma: f64,
    count: usize,
    seed: u64,
    samples: Vec<Solution>,
    origin: Option<Solution>,
    optimum: Option<Solution>,
    trade: Vec<TradePoint>,
}

fn spread(samples: &[Solution]) -> f64 {
    let qs: Vec<&[f64]> = samples
        .iter()
        .map(Solution::q)
        .filter(|q| !q.is_empty())
        .collect();
    let Some(n) = qs.first().map(|q| q.len()) else {
        return f64::NAN;
    };
    let len = qs.len() as f64;
    (0..n)
        .map(|i| {
            let mean = qs.iter().map(|q| q[i]).sum::<f64>() / len;
            (qs.iter().map(|q| (q[i] - mean).powi(2)).sum::<f64>() / len).sqrt()
        })
        .sum::<f64>()
        / n as f64
}

/// Whether a sample reaches the target closely enough for its cost to be compared with J\*.
fn reaches(s: &Solution) -> bool {
    s.residual() <= REACH_M && s.margin() >= -1e-6
}

fn mean_gap(samples: &[Solution], optimum: Option<f64>) -> f64 {
    let Some(j) = optimum else {
        return f64::NAN;
    };
    let gaps: Vec<f64> = samples
        .iter()
        .filter(|s| reaches(s))
        .map(|s| gap_percent(s.cost(), j))
        .collect();
    if gaps.is_empty() {
        f64::NAN
    } else {
        gaps.iter().sum::<f64>() / gaps.len() as f64
    }
}

fn finite(v: f64) -> Option<f64> {
    v.is_finite().then_some(v)
}

impl Diversity {
    /// Samples, optimum and the σ sweep for `target`.
    pub fn new(models: &Loaded, target: [f64; 2], sigma: f64, count: usize, seed: u64) -> Self {
        let (model, problem, optimum) = models.loink_with_optimum("loink", "planar3", &target);
        let j_star = optimum.as_ref().map(Solution::cost);
        let draw = |s: f64| {
            model
                .and_then(|m| m.sample(&target, s, count, seed).ok())
                .unwrap_or_default()
        };
        let trade = if model.is_some() && count > 1 {
            SWEEP
                .iter()
                .map(|&s| {
                    let drawn = draw(s);
                    TradePoint {
                        sigma: s,
                        gap: mean_gap(&drawn, j_star),
                        spread: spread(&drawn),
                    }
                })
                .collect()
        } else {
            Vec::new()
        };
        Diversity {
            target,
            sigma,
            count,
            seed,
            samples: draw(sigma),
            origin: model.map(|m| m.solve_cold(&target)),
            optimum,
            trade,
            problem,
        }
    }

    fn draw_arm(&self, surface: &Surface) -> DrawResult<Viewport> {
        let area = surface.captioned(&format!(
            "{} solutions at z ~ N(0, σ²I), σ = {}",
            self.samples.len(),
            self.sigma
        ))?;
        let Some(arm) = self.problem.planar() else {
            return Err("the diversity lesson draws a planar arm".into());
        };
        let (mut chart, view) = ld::workspace(&area, surface, arm)?;
        let mut legend = Legend::default();
        for s in &self.samples {
            ld::arm(&mut chart, surface, arm, s.q(), SAMPLE.mix(0.4), 1.5, false)?;
        }
        legend.add(Mark::Line(SAMPLE.to_rgba(), 1.5), "samples (ghosts)");
        if let Some(o) = &self.optimum {
            ld::arm(
                &mut chart,
                surface,
                arm,
                o.q(),
                OPTIMUM.mix(0.55),
                6.0,
                false,
            )?;
            legend.add(Mark::Line(OPTIMUM.mix(0.6), 5.0), "reference optimum");
        }
        if let Some(o) = &self.origin {
            ld::arm(
                &mut chart,
                surface,
                arm,
                o.q(),
                SOLUTION.to_rgba(),
                3.0,
                true,
            )?;
            legend.add(Mark::Line(SOLUTION.to_rgba(), 3.0), "LOInK at z = 0");
        }
        ld::base_and_target(&area, &chart, surface, self.target)?;
        legend.finish_on(&area, surface, &chart, Corner::away_from(self.target))?;
        Ok(view)
    }

    fn draw_histogram(&self, surface: &Surface) -> DrawResult {
        let costs: Vec<f64> = self
            .samples
            .iter()
            .filter(|s| reaches(s))
            .map(Solution::cost)
            .collect();
        let area = surface.captioned(&format!(
            "True cost J of the {} of {} samples within 0.1 mm of the target, against the optimum J*",
            costs.len(),
            self.samples.len()
        ))?;
        let j_star = self.optimum.as_ref().map(Solution::cost);
        let (mut lo, mut hi) = ld::padded_range(costs.iter().copied().chain(j_star));
        if let Some(j) = j_star {
            let span = HISTOGRAM_MIN_SPAN * j.abs().max(1e-3);
            if hi - lo < span {
                let mid = 0.5 * (lo + hi);
                (lo, hi) = (mid - 0.5 * span, mid + 0.5 * span);
            }
        }
        let bins = 16usize;
        let width = (hi - lo) / bins as f64;
        let mut counts = vec![0usize; bins];
        for c in &costs {
            counts[(((c - lo) / width) as usize).min(bins - 1)] += 1;
        }
        let top = counts.iter().copied().max().unwrap_or(1).max(1) as f64 * 1.15;
        let mut chart = ld::line_chart(&area, surface, lo..hi, 0.0..top, "true cost J", "samples")?;
        chart
            .draw_series(counts.iter().enumerate().map(|(i, &c)| {
                let x0 = lo + i as f64 * width;
                Rectangle::new(
                    [(x0, 0.0), (x0 + width * 0.92, c as f64)],
                    SAMPLE.mix(0.8).filled(),
                )
            }))
            .map_err(text_err)?;
        let mut legend = Legend::default();
        legend.add(Mark::Swatch(SAMPLE.mix(0.8)), "samples");
        if let Some(j) = j_star {
            ld::polyline(
                &mut chart,
                surface,
                &[(j, 0.0), (j, top)],
                OPTIMUM.to_rgba(),
                2.5,
            )?;
            legend.add(Mark::Line(OPTIMUM.to_rgba(), 2.5), "optimum J*");
        }
        if let Some(j) = self
            .origin
            .as_ref()
            .filter(|o| reaches(o))
            .map(Solution::cost)
        {
            ld::polyline(
                &mut chart,
                surface,
                &[(j, 0.0), (j, top)],
                SOLUTION.to_rgba(),
                1.5,
            )?;
            legend.add(Mark::Line(SOLUTION.to_rgba(), 1.5), "LOInK, z = 0");
        }
        legend.finish_on(&area, surface, &chart, Corner::UpperRight)
    }

    fn draw_trade(&self, surface: &Surface) -> DrawResult {
        let area =
            surface.captioned("The trade: mean gap to J* (%) and variety (rad) against σ")?;
        let (g0, g1) = ld::padded_range(self.trade.iter().map(|p| p.gap).chain([0.0]));
        let (s0, s1) = ld::padded_range(self.trade.iter().map(|p| p.spread).chain([0.0]));
        let (lo_s, hi_s) = self
            .trade
            .iter()
            .map(|p| p.spread)
            .filter(|v| v.is_finite())
            .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| {
                (a.min(v), b.max(v))
            });
        let mut chart =
            ld::line_chart(&area, surface, 0.0..2.0, g0..g1, "σ", "mean gap to J* (%)")?;
        let gap: Vec<(f64, f64)> = self.trade.iter().map(|p| (p.sigma, p.gap)).collect();
        ld::polyline(&mut chart, surface, &gap, SURROGATE.to_rgba(), 2.5)?;
        // Variety on the same axes, rescaled to the gap range (its own scale in the legend).
        let scale = |s: f64| g0 + (s - s0) / (s1 - s0).max(1e-12) * (g1 - g0);
        let var: Vec<(f64, f64)> = self
            .trade
            .iter()
            .map(|p| (p.sigma, scale(p.spread)))
            .collect();
        ld::polyline(&mut chart, surface, &var, SAMPLE.to_rgba(), 2.5)?;
        ld::polyline(
            &mut chart,
            surface,
            &[(self.sigma, g0), (self.sigma, g1)],
            INK.mix(0.5),
            1.0,
        )?;
        let mut legend = Legend::default();
        legend.add(Mark::Line(SURROGATE.to_rgba(), 2.5), "mean gap to J* (%)");
        legend.add(
            Mark::Line(SAMPLE.to_rgba(), 2.5),
            format!("variety, {lo_s:.2}–{hi_s:.2} rad (rescaled)"),
        );
        legend.add(Mark::Line(INK.mix(0.5), 1.0), "current σ");
        legend.finish_on(&area, surface, &chart, Corner::UpperLeft)
    }
}

impl Lesson for Diversity {
    const WORD: &'static str = "diversity";
    const TEXT: &'static str = "LOInK puts the cheapest solution for a target at latent z = 0, so sampling z \
around the origin trades optimality for variety in a controlled way: σ = 0 gives the one learned \
optimum, a larger σ gives more varied arms (ghosts) that cost more. The histogram shows the true costs J \
(the cost the landscape plots: joint centring plus 4·com_x²) against the reference optimum J*, of the samples \
that reach the target within 0.1 mm only — an answer that misses can be cheaper than any that reaches; the \
lower chart shows the trade over σ.";
    const TRY: &'static str =
        "Move σ from 0 to 2 and watch the histogram slide away from J* while the ghosts \
spread; then change the seed — the link in the address bar reproduces exactly these samples.";
    const PROBLEM: &'static str = "planar3";
    const SOLVER: SolverKind = SolverKind::Loink;
    /// Default target (m).
    const TARGET: &'static [f64] = &[0.6, 0.4];
    const MODELS: &'static [ModelFile] = &[models::PLANAR3];
    type State = DiversityState;

    const PANELS: &'static [Panel] = &[
        Panel::new(
            "arm",
            "Sampled solutions as ghost arms; drag to move the target",
            true,
        ),
        Panel::new(
            "histogram",
            "Histogram of the samples' true costs against the optimum",
            false,
        ),
        Panel::new("trade", "Optimality gap and variety as sigma grows", false),
    ];

    fn controls(settings: &Settings) -> Vec<Control> {
        vec![
            Control::range(
                "sigma",
                "σ (latent spread)",
                [0.0, crate::settings::SIGMA_MAX, 0.05],
                settings.sigma,
            ),
            Control::number("seed", "Seed", [0.0, 1e9], settings.seed as f64),
        ]
    }

    fn more_defaults(settings: &mut Settings, unset: super::lesson::Unset) {
        if unset("sigma") {
            settings.sigma = DEFAULT_SIGMA;
        }
        if unset("samples") {
            settings.samples = DEFAULT_SAMPLES;
        }
    }
    fn compute(models: &Loaded, settings: &Settings) -> Self {
        Diversity::new(
            models,
            target_xy(settings),
            settings.sigma,
            settings.samples as usize,
            settings.seed,
        )
    }

    /// `getState().lesson`.
    fn state(&self) -> Self::State {
        let j_star = self.optimum.as_ref().map(Solution::cost);
        DiversityState {
            lesson: "diversity",
            target: self.target,
            sigma: self.sigma,
            count: self.count,
            seed: self.seed,
            samples: self.samples.iter().map(|s| s.q().to_vec()).collect(),
            costs: self.samples.iter().map(Solution::cost).collect(),
            statuses: self.samples.iter().map(|s| s.status().as_str()).collect(),
            reaches: self.samples.iter().map(reaches).collect(),
            reach_m: REACH_M,
            optimum_cost: j_star,
            origin_cost: self.origin.as_ref().map(Solution::cost).and_then(finite),
            mean_gap_pct: finite(mean_gap(&self.samples, j_star)),
            spread_rad: finite(spread(&self.samples)),
        }
    }

    /// Readout rows.
    fn readouts(&self) -> Vec<[String; 2]> {
        let st = self.state();
        let f = |v: Option<f64>, d: usize| v.map_or("—".to_string(), |v| format!("{v:.d$}"));
        let reaching = st.reaches.iter().filter(|r| **r).count();
        vec![
            ["reference optimum J*".into(), f(st.optimum_cost, 4)],
            [
                "J at z = 0 (LOInK)".into(),
                match &self.origin {
                    Some(o) => format!(
                        "{} — {}, {:.1e} m from the target{}",
                        f(st.origin_cost, 4),
                        o.status(),
                        o.residual(),
                        if reaches(o) {
                            ""
                        } else {
                            " (too far to compare with J*)"
                        }
                    ),
                    None => "planar3 model not loaded".into(),
                },
            ],
            [
                format!("samples (σ = {}, seed {})", self.sigma, self.seed),
                format!(
                    "{} drawn, {reaching} within 0.1 mm of the target (only their costs are compared)",
                    st.samples.len()
                ),
            ],
            [
                "mean gap of the samples to J*".into(),
                if st.mean_gap_pct.is_some_and(|g| g > 100.0 * loink::gap::PRINTED_MAX) {
                    "> 10,000 %".into()
                } else {
                    format!("{} %", f(st.mean_gap_pct, 2))
                },
            ],
            [
                "variety (mean joint std)".into(),
                format!("{} rad", f(st.spread_rad, 3)),
            ],
        ]
    }

    /// Draws panel `name` (`arm`, `histogram`, `trade`).
    fn draw(&self, name: &str, surface: &Surface) -> DrawResult<Option<Viewport>> {
        match name {
            "arm" => self.draw_arm(surface).map(Some),
            "histogram" => self.draw_histogram(surface).map(|_| None),
            "trade" => self.draw_trade(surface).map(|_| None),
            _ => Ok(None),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn at_sigma_zero_no_compared_cost_undercuts_the_optimum() {
        let models = models::shipped::<Diversity>();
        for target in [
            crate::lessons::lesson::xy(Diversity::TARGET),
            [0.9, -0.3],
            [-0.4, 0.9],
            [0.3, 0.2],
        ] {
            let s = Diversity::new(&models, target, 0.0, 8, 1).state();
            let j_star = s.optimum_cost.unwrap();
            let compared: Vec<f64> = s
                .costs
                .iter()
                .zip(&s.reaches)
                .filter(|(_, r)| **r)
                .map(|(c, _)| *c)
                .collect();
            assert!(!compared.is_empty(), "{s:?}");
            for c in compared {
                assert!(
                    c >= j_star * (1.0 - 1e-4),
                    "J {c} < J* {j_star} at {target:?}"
                );
            }
            assert!(s.mean_gap_pct.unwrap() >= -1e-2, "{s:?}");
        }
    }

    #[test]
    fn an_answer_that_misses_is_not_compared() {
        let models = models::shipped::<Diversity>();
        let mut d = Diversity::new(
            &models,
            crate::lessons::lesson::xy(Diversity::TARGET),
            0.5,
            16,
            3,
        );
        let before = d.state().mean_gap_pct;
        // A cheap pose that misses the target by centimetres must not enter the comparison.
        let problem = d.problem.clone();
        let centre = problem.limits().centres();
        d.samples.push(Solution::assess(
            &problem,
            "test",
            Diversity::TARGET,
            None,
            centre,
            0,
            0.0,
            loink::report::Termination::Approximate,
        ));
        let s = d.state();
        assert_eq!(s.reaches.last(), Some(&false));
        assert_eq!(s.mean_gap_pct, before);
    }
}
