//! The elbow lesson's panels: the arm with the elbow swung, the cost along each latent axis,
//! and the misses of direct regression against LOInK.

use plotters::style::Color;

use super::{ElbowLesson, SWING};
use crate::draw::palette::{self, MUTED, OPTIMUM, SOLUTION, TARGET};
use crate::draw::{arm3d, plots, Corner, DrawResult, Legend, Mark, Surface};

impl ElbowLesson {
    /// The cost along each latent axis through z = 0, with J*.
    pub(super) fn draw_swing(&self, surface: &Surface) -> DrawResult {
        let area = surface.captioned(
            "Swinging the elbow: J(G⁻¹([y; z])) along each latent axis, the hand held on the target",
        )?;
        let values = (self.state.swings.iter())
            .flat_map(|s| s.held_points().map(|i| s.cost[i]))
            .chain([self.state.optimum]);
        let (lo, hi) = plots::padded_range(values);
        let mut chart = plots::line_chart(
            &area,
            surface,
            -SWING..SWING,
            // Room above the curves for the legend.
            lo.min(0.0)..hi * 1.45,
            "latent coordinate zᵢ (the other two at 0)",
            "cost J",
        )?;
        let mut legend = Legend::default();
        for (k, swing) in self.state.swings.iter().enumerate() {
            let colour = palette::chart(k);
            // Drawn where the hand stays on the target: beyond, the pose reaches another point.
            let points: Vec<(f64, f64)> = swing
                .held_points()
                .map(|i| (swing.z[i], swing.cost[i]))
                .collect();
            plots::polyline(&mut chart, surface, &points, colour.to_rgba(), 2.5)?;
            let reach = swing
                .held_points()
                .map(|i| swing.elbow[i])
                .filter(|v| v.is_finite())
                .fold(0.0f64, f64::max);
            legend.add(
                Mark::Line(colour.to_rgba(), 2.5),
                format!(
                    "z{}: hand within 1 mm for z in [{:.1}, {:.1}], elbow moves {:.0} cm",
                    swing.axis,
                    swing.held[0],
                    swing.held[1],
                    reach * 100.0
                ),
            );
        }
        if self.state.optimum.is_finite() {
            let j = self.state.optimum;
            plots::polyline(
                &mut chart,
                surface,
                &[(-SWING, j), (SWING, j)],
                OPTIMUM.mix(0.9),
                1.5,
            )?;
            legend.add(
                Mark::Line(OPTIMUM.mix(0.9), 1.5),
                format!("J* = {j:.4} (reference optimum)"),
            );
        }
        for why in &self.missing {
            legend.add(Mark::Line(MUTED.to_rgba(), 1.0), why.clone());
        }
        legend.finish_on(&area, surface, &chart, Corner::UpperLeft)
    }

    /// The arm at z = 0 with the poses along z₁ as ghosts and the optimum.
    pub(super) fn draw_arm(&self, surface: &Surface) -> DrawResult {
        let (Some(problem), Some(answer)) = (self.problem.as_ref(), self.answer.as_ref()) else {
            let area = surface.captioned("The Panda")?;
            crate::draw::landscape::message(&area, surface, &self.missing.join("; "))?;
            return area.present().map_err(crate::draw::text_err);
        };
        let layout = arm3d::layout(
            surface,
            problem,
            [crate::orbit::DEFAULT_YAW, crate::orbit::DEFAULT_PITCH],
        )
        .ok_or("the Panda is drawn in 3-D")?;
        let scene = arm3d::Arm3dScene {
            answer: crate::draw::Answer {
                problem,
                solution: answer,
                solver: "LOInK, z = 0",
                optimum: self.optimum_q.as_deref(),
                samples: &self.ghosts,
                probe: None,
                target: &self.state.target,
            },
            hint: None,
            samples_label: Some("the elbow swung along z₁, the hand on the target"),
            legend: true,
            spheres: false,
            learned_scene: None,
        };
        arm3d::draw(surface, &scene, &layout).map(|_| ())
    }

    /// How far each solver's answers miss the held-out targets, sorted.
    pub(super) fn draw_misses(&self, surface: &Surface) -> DrawResult {
        let area = surface.captioned(&format!(
            "Direct regression against LOInK on {} held-out targets: how far each answer misses",
            self.state.targets
        ))?;
        if self.state.targets == 0 {
            let why = "computed once both model files have arrived";
            crate::draw::landscape::message(&area, surface, why)?;
            return area.present().map_err(crate::draw::text_err);
        }
        let n = self.state.targets as f64;
        let top = (self.state.regression.iter())
            .flat_map(|a| a.miss.last().copied())
            .fold(0.01f64, f64::max)
            * 1e3;
        let mut chart = plots::line_chart(
            &area,
            surface,
            0.0..100.0,
            0.0..top * 1.05,
            "share of targets (%), sorted by miss",
            "miss (mm)",
        )?;
        let mut legend = Legend::default();
        for (answers, colour, name) in [
            (&self.state.regression, TARGET, "direct regression (MSE)"),
            (&self.state.loink, SOLUTION, "LOInK + refine 3"),
        ] {
            let Some(a) = answers else {
                legend.add(
                    Mark::Line(MUTED.to_rgba(), 1.0),
                    format!("{name}: not loaded"),
                );
                continue;
            };
            let points: Vec<(f64, f64)> = (a.miss.iter().enumerate())
                .map(|(i, m)| (100.0 * (i as f64 + 0.5) / n, m * 1e3))
                .collect();
            plots::polyline(&mut chart, surface, &points, colour.to_rgba(), 3.0)?;
            legend.add(
                Mark::Line(colour.to_rgba(), 3.0),
                format!("{name}: median {}", miss_text(a.median_miss)),
            );
        }
        legend.finish_on(&area, surface, &chart, Corner::UpperLeft)
    }
}

/// A miss in the unit that reads best.
pub(super) fn miss_text(m: f64) -> String {
    if m >= 0.01 {
        format!("{:.0} mm", m * 1e3)
    } else if m >= 1e-5 {
        format!("{:.3} mm", m * 1e3)
    } else {
        format!("{m:.1e} m")
    }
}
