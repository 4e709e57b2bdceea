//! The collision lesson's panels: the Panda at each answer with the board where the page has it
//! (and, on the shelf model's panel, dashed where the model learned it), and each answer's
//! clearance from the board over the heights the page offers.

use plotters::style::Color;

use super::{CollisionLesson, SHELF_MAX, SHELF_MIN};
use crate::draw::palette::{self, LIMITS, MUTED, OPTIMUM, SOLUTION};
use crate::draw::{arm3d, plots, Corner, DrawResult, Legend, Mark, Surface};

/// The clearance axis's lowest value and the least of its highest (mm): a board hundreds of
/// millimetres away, or in, says nothing more.
const CLEARANCE_FLOOR: f64 = -150.0;
const CLEARANCE_CEILING: f64 = 400.0;

impl CollisionLesson {
    /// The Panda at answer `k` (0: without the board in the cost, 1: the shelf model), the
    /// reference optimum as the ghost.
    pub(super) fn draw_arm(&self, surface: &Surface, k: usize) -> DrawResult {
        let label = [
            "panda.json + refine 3 (no board in its cost)",
            "panda-shelf.json + refine 3 (the board in its cost)",
        ][k];
        let (Some(page), Some(answer)) = (self.page.as_ref(), self.answers[k].as_ref()) else {
            let area = surface.captioned(label)?;
            let why = if self.missing.is_empty() {
                "no answer".to_string()
            } else {
                self.missing.join("; ")
            };
            crate::draw::landscape::message(&area, surface, &why)?;
            return area.present().map_err(crate::draw::text_err);
        };
        let layout = arm3d::layout(
            surface,
            page,
            [crate::orbit::DEFAULT_YAW, crate::orbit::DEFAULT_PITCH],
        )
        .ok_or("the Panda is drawn in 3-D")?;
        let optimum = self.answers[2].as_ref().map(|s| s.q());
        let scene = arm3d::Arm3dScene {
            answer: crate::draw::Answer {
                problem: page,
                solution: answer,
                solver: label,
                optimum,
                samples: &[],
                probe: None,
                target: &self.state.target,
            },
            hint: None,
            samples_label: None,
            legend: true,
            spheres: false,
            learned_scene: (k == 1).then_some(self.learned_boxes.as_slice()),
        };
        arm3d::draw(surface, &scene, &layout).map(|_| ())
    }

    /// Each learned answer's clearance from the board at every height, with the heights the
    /// model learned and the page has.
    pub(super) fn draw_sweep(&self, surface: &Surface) -> DrawResult {
        let area = surface.captioned(
            "Clearance from the board as it moves: the learned answers stay where they are",
        )?;
        let s = &self.state;
        // Room above the curves for the legend.
        let highest = (s.with.iter().chain(&s.without))
            .flat_map(|p| p.board_mm.iter().copied())
            .filter(|v| v.is_finite())
            .fold(100.0f64, f64::max);
        let (lo, hi) = (CLEARANCE_FLOOR, (1.5 * highest).min(CLEARANCE_CEILING));
        let mut chart = plots::line_chart(
            &area,
            surface,
            SHELF_MIN..SHELF_MAX,
            lo..hi,
            "height of the board's centre (m)",
            "clearance from the board (mm)",
        )?;
        let mut legend = Legend::default();
        let clamp = |v: f64| v.clamp(lo, hi);
        plots::polyline(
            &mut chart,
            surface,
            &[(SHELF_MIN, 0.0), (SHELF_MAX, 0.0)],
            palette::CONTACT.mix(0.8),
            1.5,
        )?;
        legend.add(
            Mark::Line(palette::CONTACT.mix(0.8), 1.5),
            "0: touching (below: in the board)",
        );
        for (posture, colour, name) in [
            (&s.without, LIMITS, "panda.json (no board in its cost)"),
            (&s.with, SOLUTION, "panda-shelf.json (the board learned)"),
        ] {
            let Some(p) = posture else {
                legend.add(
                    Mark::Line(MUTED.to_rgba(), 1.0),
                    format!("{name}: no answer"),
                );
                continue;
            };
            let points: Vec<(f64, f64)> = (s.heights.iter())
                .zip(&p.board_mm)
                .map(|(&h, &mm)| (h, clamp(mm)))
                .collect();
            plots::polyline(&mut chart, surface, &points, colour.to_rgba(), 3.0)?;
            legend.add(Mark::Line(colour.to_rgba(), 3.0), name);
        }
        if let Some(z) = s.learned_z {
            plots::polyline(
                &mut chart,
                surface,
                &[(z, lo), (z, hi)],
                palette::INK.mix(0.6),
                1.5,
            )?;
            legend.add(
                Mark::Line(palette::INK.mix(0.6), 1.5),
                format!("{z:.2} m: where the model learned the board"),
            );
        }
        plots::polyline(
            &mut chart,
            surface,
            &[(s.shelf_z, lo), (s.shelf_z, hi)],
            OPTIMUM.mix(0.9),
            2.5,
        )?;
        legend.add(
            Mark::Line(OPTIMUM.mix(0.9), 2.5),
            format!("{:.2} m: the board in the page (slider)", s.shelf_z),
        );
        legend.finish_on(&area, surface, &chart, Corner::UpperLeft)
    }
}
