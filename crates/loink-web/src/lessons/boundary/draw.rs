//! The boundary lesson's panels: the arm on its line, each method's residual and iterations
//! against the signed distance to the edge, and the re-seeding counts.

use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;

use super::sweep::{Method, Row, CONTACTS_M, PAST_EDGE_M};
use super::BoundaryLesson;
use crate::draw::palette::{INK, LIMITS, MUTED, OPTIMUM, SAMPLE, SOLUTION, SURROGATE, TARGET};
use crate::draw::plots as ld;
use crate::draw::{text_err, Area, Canvas2d, Corner, DrawResult, Legend, Mark, Surface};
use crate::view::Viewport;

/// A chart of d (mm) against a value on a log scale.
type LogChart<'a> = ChartContext<'a, Canvas2d, Cartesian2d<RangedCoordf64, LogCoord<f64>>>;

/// Residuals below this are drawn at it (a converged answer's residual can be exactly 0).
const RESIDUAL_FLOOR: f64 = 1e-12;

/// Each method's colour.
pub fn colour(method: Method) -> RGBAColor {
    match method {
        Method::DlsWarm => TARGET.to_rgba(),
        Method::DlsCold => SURROGATE.to_rgba(),
        Method::LoinkOneShot => SAMPLE.to_rgba(),
        Method::LoinkRefine => SOLUTION.to_rgba(),
        Method::Reference => OPTIMUM.to_rgba(),
    }
}

/// A status's marker shape on the curves: a disc where `converged`, a ring where `unreachable`,
/// a cross for anything else (`capped`, `approximate`, `limits`).
fn marker(
    row: &Row,
    at: (f64, f64),
    surface: &Surface,
    colour: RGBAColor,
) -> DynElement<'static, Canvas2d, (f64, f64)> {
    let r = surface.px(2.6);
    match row.status {
        "converged" => Circle::new(at, r, colour.filled()).into_dyn(),
        "unreachable" => Circle::new(at, r, colour.stroke_width(surface.stroke(1.2))).into_dyn(),
        _ => Cross::new(at, r, colour.stroke_width(surface.stroke(1.4))).into_dyn(),
    }
}

impl BoundaryLesson {
    /// The arm panel: planar3, the line and its edge, the target at the chosen point, the
    /// reference's posture and each method's answer there (× where it lands).
    pub(super) fn draw_arm(&self, surface: &Surface) -> DrawResult<Viewport> {
        let area = surface.captioned(
            "The target walks along the line to 5 cm past the edge (drag it along the line)",
        )?;
        let (mut chart, view) = ld::workspace(&area, surface, &self.arm)?;
        let mut legend = Legend::default();
        if let Some(sweep) = &self.sweep {
            let (start, end) = (
                sweep.line.start,
                sweep.line.point(sweep.edge_m + PAST_EDGE_M),
            );
            chart
                .draw_series(DashedLineSeries::new(
                    vec![(start[0], start[1]), (end[0], end[1])],
                    surface.px(5.0) as u32,
                    surface.px(4.0) as u32,
                    INK.mix(0.6).stroke_width(surface.stroke(1.2)),
                ))
                .map_err(text_err)?;
            legend.add(Mark::Line(INK.mix(0.6), 1.2), "the line");
            let edge = sweep.line.point(sweep.edge_m);
            chart
                .draw_series(std::iter::once(Cross::new(
                    (edge[0], edge[1]),
                    surface.px(7.0),
                    LIMITS.stroke_width(surface.stroke(2.5)),
                )))
                .map_err(text_err)?;
            legend.add(
                Mark::Cross(LIMITS.to_rgba()),
                "the edge (the reference's verdict)",
            );
            if let Some(r) = sweep.nearest(Method::Reference, self.d_m) {
                ld::optimum(&mut chart, surface, &self.arm, &r.q)?;
                legend.add(Mark::Line(OPTIMUM.mix(0.5), 7.0), "reference");
            }
            for method in [Method::DlsWarm, Method::LoinkRefine] {
                if let Some(r) = sweep.nearest(method, self.d_m) {
                    ld::arm(
                        &mut chart,
                        surface,
                        &self.arm,
                        &r.q,
                        colour(method),
                        3.0,
                        true,
                    )?;
                    if let Some(p) = ld::points(&self.arm, &r.q).last() {
                        ld::cross(&mut chart, surface, [p.0, p.1], colour(method))?;
                    }
                    legend.add(Mark::Line(colour(method), 3.0), method.name());
                }
            }
        }
        ld::base_and_target(&area, &chart, surface, self.target)?;
        legend.add(Mark::Ring(TARGET.to_rgba()), "target");
        legend.finish_on(&area, surface, &chart, Corner::away_from(self.target))?;
        Ok(view)
    }

    /// The x range of the value charts (mm).
    fn d_range(&self) -> std::ops::Range<f64> {
        let inside = self.sweep.as_ref().map_or(250.0, |s| s.edge_m * 1e3);
        -inside..PAST_EDGE_M * 1e3
    }

    /// A chart of a value (log scale, `y` its range) against d in mm, framed and meshed, with
    /// the edge and the chosen point marked.
    fn d_chart<'a>(
        &self,
        area: &'a Area,
        surface: &Surface,
        y: (f64, f64),
        y_desc: &str,
        y_label: &dyn Fn(&f64) -> String,
    ) -> DrawResult<LogChart<'a>> {
        let mut chart = ld::framed(area, surface, 32.0, 56.0)
            .build_cartesian_2d(self.d_range(), (y.0..y.1).log_scale())
            .map_err(text_err)?;
        ld::styled_mesh(
            &mut chart,
            surface,
            "distance to the edge d (mm; inside < 0)",
            y_desc,
        )
        .y_label_formatter(y_label)
        .draw()
        .map_err(text_err)?;
        self.marks(&mut chart, surface, y)?;
        Ok(chart)
    }

    /// A vertical line at the edge (d = 0) and one at the chosen point.
    fn marks(&self, chart: &mut LogChart<'_>, surface: &Surface, y: (f64, f64)) -> DrawResult {
        chart
            .draw_series(std::iter::once(PathElement::new(
                vec![(0.0, y.0), (0.0, y.1)],
                LIMITS.stroke_width(surface.stroke(1.5)),
            )))
            .map_err(text_err)?;
        chart
            .draw_series(std::iter::once(PathElement::new(
                vec![(self.d_m * 1e3, y.0), (self.d_m * 1e3, y.1)],
                TARGET.mix(0.5).stroke_width(surface.stroke(1.0)),
            )))
            .map_err(text_err)?;
        Ok(())
    }

    /// Each method's residual against d (log scale), its status marked on the curve.
    pub(super) fn draw_sweep(&self, surface: &Surface) -> DrawResult {
        let area = surface.captioned(
            "Residual ‖p(q) − y‖ against the distance to the edge (● converged, ○ unreachable, × other)",
        )?;
        let mut chart = self.d_chart(
            &area,
            surface,
            (RESIDUAL_FLOOR * 0.5, 1.0),
            "residual (m)",
            &|v| format!("{v:.0e}"),
        )?;
        let mut legend = Legend::default();
        for method in self.methods() {
            let rows: Vec<&Row> = self.sweep.iter().flat_map(|s| s.of(method)).collect();
            let at = |r: &Row| (r.d_m * 1e3, r.residual_m.max(RESIDUAL_FLOOR));
            chart
                .draw_series(LineSeries::new(
                    rows.iter().map(|r| at(r)),
                    colour(method).stroke_width(surface.stroke(1.5)),
                ))
                .map_err(text_err)?;
            // Every tenth point marked, and every point where the status changes.
            let marked = rows.iter().enumerate().filter(|(k, r)| {
                k % 10 == 0
                    || rows
                        .get(k.wrapping_sub(1))
                        .is_some_and(|p| p.status != r.status)
            });
            chart
                .draw_series(marked.map(|(_, r)| marker(r, at(r), surface, colour(method))))
                .map_err(text_err)?;
            legend.add(Mark::Line(colour(method), 1.5), method.name());
        }
        legend.add(Mark::Line(LIMITS.to_rgba(), 1.5), "the edge");
        legend.finish_on(&area, surface, &chart, Corner::UpperLeft)
    }

    /// Each method's iterations against d.
    pub(super) fn draw_iterations(&self, surface: &Surface) -> DrawResult {
        let area = surface.captioned("Iterations against the distance to the edge (log scale)")?;
        let top = self
            .sweep
            .iter()
            .flat_map(|s| s.rows.iter())
            .map(|r| r.iterations as f64)
            .fold(10.0, f64::max);
        let mut chart = self.d_chart(&area, surface, (0.8, top * 1.5), "iterations", &|v| {
            format!("{v:.0}")
        })?;
        let mut legend = Legend::default();
        for method in self.methods() {
            let rows: Vec<&Row> = self.sweep.iter().flat_map(|s| s.of(method)).collect();
            chart
                .draw_series(LineSeries::new(
                    rows.iter()
                        .map(|r| (r.d_m * 1e3, (r.iterations as f64).max(1.0))),
                    colour(method).stroke_width(surface.stroke(1.5)),
                ))
                .map_err(text_err)?;
            legend.add(Mark::Line(colour(method), 1.5), method.name());
        }
        legend.finish_on(&area, surface, &chart, Corner::UpperLeft)
    }

    /// DLS's iterations after a contact, from the stale seed and the measured joints, and
    /// LOInK's cold answer, per deflection.
    pub(super) fn draw_reseed(&self, surface: &Surface) -> DrawResult {
        let area = surface.captioned(
            "After a contact: DLS's iterations from the stale seed and from the measured joints; LOInK needs no seed",
        )?;
        let top = self
            .reseed
            .iter()
            .flat_map(|r| {
                [
                    r.stale_iterations,
                    r.measured_iterations,
                    r.loink_iterations.unwrap_or(0.0),
                ]
            })
            .fold(1.0, f64::max);
        let n = CONTACTS_M.len() as f64;
        let mut chart = ld::framed(&area, surface, 32.0, 52.0)
            .build_cartesian_2d(0.0..n, 0.0..top * 1.35)
            .map_err(text_err)?;
        ld::styled_mesh(
            &mut chart,
            surface,
            "contact deflection",
            "iterations (mean)",
        )
        .disable_x_mesh()
        .x_labels(CONTACTS_M.len() * 2 + 1)
        .x_label_formatter(&|x| {
            let i = (x - 0.5).round();
            if (x - 0.5 - i).abs() < 1e-6 && i >= 0.0 {
                CONTACTS_M
                    .get(i as usize)
                    .map(|c| format!("{:.1} mm", c * 1e3))
                    .unwrap_or_default()
            } else {
                String::new()
            }
        })
        .draw()
        .map_err(text_err)?;
        let kinds: [(RGBAColor, &str); 3] = [
            (MUTED.to_rgba(), "DLS from the stale seed"),
            (colour(Method::DlsWarm), "DLS from the measured joints"),
            (colour(Method::LoinkRefine), "LOInK + refine 3, cold"),
        ];
        for (i, r) in self.reseed.iter().enumerate() {
            let values = [
                Some(r.stale_iterations),
                Some(r.measured_iterations),
                r.loink_iterations,
            ];
            for (k, v) in values.into_iter().enumerate() {
                let Some(v) = v else { continue };
                let x0 = i as f64 + 0.12 + k as f64 * 0.26;
                chart
                    .draw_series(std::iter::once(Rectangle::new(
                        [(x0, 0.0), (x0 + 0.22, v)],
                        kinds[k].0.filled(),
                    )))
                    .map_err(text_err)?;
            }
        }
        let mut legend = Legend::default();
        for (c, name) in kinds {
            legend.add(Mark::Swatch(c), name);
        }
        legend.finish_on(&area, surface, &chart, Corner::UpperLeft)
    }
}
