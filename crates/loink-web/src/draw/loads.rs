//! The loads inset of the arm panel, for a robot that stands on contacts (the climber): per
//! contact a bar of the force it needs against the force it has, the neutral posture's bar as a
//! ghost outline, and one line saying what the answer saves over the neutral posture.

use loink::problem::presentation::Loads;
use loink::problem::Problem;
use loink::report::Solution;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::palette::{FORCE, INK, MUTED, MUTED_INK, PAPER};
use super::{text_err, Area, DrawResult, Surface};

/// The loads of the answer and of the neutral posture for the same target.
pub struct LoadScene(Loads);

impl LoadScene {
    /// The loads of `solution` (None for a kind without contacts or an answer without a
    /// configuration) and of the kind's neutral posture for `target`.
    pub fn of(problem: &Problem, solution: &Solution, target: &[f64]) -> Option<LoadScene> {
        Loads::of(problem, solution.q(), target).map(LoadScene)
    }

    /// The saving over the neutral posture on the most loaded contact of the neutral posture,
    /// in words (`short`: fewer of them; None without a neutral posture).
    pub fn saving(&self, short: bool) -> Option<String> {
        let neutral = self.0.neutral.as_ref()?;
        let (k, worst) = neutral
            .iter()
            .enumerate()
            .max_by(|a, b| a.1.needed.total_cmp(&b.1.needed))?;
        let diff = worst.needed - self.0.answer.get(k)?.needed;
        let (amount, way) = if diff >= 0.0 {
            (diff, "less")
        } else {
            (-diff, "more")
        };
        Some(if short {
            format!("{amount:.1} N {way} than neutral on the {}", worst.label)
        } else {
            format!(
                "this posture needs {amount:.1} N {way} on the {} than the neutral stance",
                worst.label
            )
        })
    }

    /// Draws the bars in `band` (device pixels: left, top, right, bottom), under the plot.
    pub fn draw(&self, area: &Area, surface: &Surface, band: [i32; 4]) -> DrawResult {
        let [l, top, r, b] = band.map(f64::from);
        // A narrow panel gives the bars the room the words would take.
        let narrow = (r - l) / surface.dpr() < 420.0;
        let pad = f64::from(surface.px(if narrow { 3.0 } else { 6.0 }));
        let line = f64::from(surface.px(if narrow { 13.5 } else { 15.0 }));
        let (left, right) = (l + pad, r - pad);
        let label_w = f64::from(surface.px(if narrow { 84.0 } else { 118.0 }));
        let value_w = f64::from(surface.px(if narrow { 116.0 } else { 150.0 }));
        let bar = (left + label_w, (right - value_w).max(left + label_w + 20.0));
        let text = |at: (f64, f64), s: &str, colour| -> DrawResult {
            let style = surface
                .font(super::palette::LABEL_PX, colour)
                .pos(Pos::new(HPos::Left, VPos::Center));
            area.draw_text(s, &style, (at.0 as i32, at.1 as i32))
                .map_err(text_err)
        };
        area.draw(&Rectangle::new(
            [(l as i32, top as i32), (r as i32, b as i32)],
            PAPER.mix(0.85).filled(),
        ))
        .map_err(text_err)?;
        let available = self.0.answer.first().map_or(0.0, |c| c.available);
        let mut y = top + pad + line / 2.0;
        let title = if narrow {
            format!("magnet pull per foot, of {available:.0} N (outline: neutral)")
        } else {
            format!("magnet pull needed per foot, of the {available:.0} N a foot has (outline: neutral stance)")
        };
        text((left, y), &title, INK)?;
        let half = f64::from(surface.px(5.0));
        for (k, load) in self.0.answer.iter().enumerate() {
            y += line;
            let label = if narrow {
                load.label.split(' ').next().unwrap_or(load.label)
            } else {
                load.label
            };
            text((left, y), label, INK)?;
            let x_of = |n: f64| bar.0 + (bar.1 - bar.0) * (n / load.available).clamp(0.0, 1.0);
            area.draw(&Rectangle::new(
                [
                    (bar.0 as i32, (y - half) as i32),
                    (bar.1 as i32, (y + half) as i32),
                ],
                MUTED.mix(0.25).filled(),
            ))
            .map_err(text_err)?;
            area.draw(&Rectangle::new(
                [
                    (bar.0 as i32, (y - half) as i32),
                    (x_of(load.needed) as i32, (y + half) as i32),
                ],
                FORCE.filled(),
            ))
            .map_err(text_err)?;
            let neutral = self.0.neutral.as_ref().and_then(|n| n.get(k));
            if let Some(ghost) = neutral {
                area.draw(&Rectangle::new(
                    [
                        (bar.0 as i32, (y - half - 2.0) as i32),
                        (x_of(ghost.needed) as i32, (y + half + 2.0) as i32),
                    ],
                    INK.stroke_width(surface.stroke(1.0)),
                ))
                .map_err(text_err)?;
            }
            let value = match neutral {
                Some(ghost) if narrow => format!("{:.1} N ({:.1})", load.needed, ghost.needed),
                Some(ghost) => format!("{:.1} N (neutral {:.1})", load.needed, ghost.needed),
                None => format!("{:.1} N", load.needed),
            };
            text((bar.1 + pad, y), &value, INK)?;
        }
        if let Some(saving) = self.saving(narrow) {
            text((left, y + line), &saving, MUTED_INK)?;
        }
        Ok(())
    }
}
