//! The length unit of a panel's task axes: metres for an arm a metre across, millimetres for
//! a workspace of centimetres (the soft arm), so that tick labels read 12, 24, … and not
//! 0.012. Only the labels change: every coordinate stays in metres.

use plotters::chart::{ChartContext, MeshStyle};
use plotters::coord::cartesian::Cartesian2d;
use plotters::coord::types::RangedCoordf64;

use super::palette::{self, INK};
use super::{Canvas2d, Surface};

/// A view narrower than this (m) is labelled in millimetres.
pub const MILLIMETRE_SPAN: f64 = 0.5;

/// Whether axes spanning `span` metres (the wider of a view's two) are labelled in millimetres.
pub fn in_millimetres(span: f64) -> bool {
    span.is_finite() && span < MILLIMETRE_SPAN
}

/// The axis captions, x then y, for axes in millimetres or metres.
pub fn captions(millimetres: bool) -> (&'static str, &'static str) {
    if millimetres {
        ("x (mm)", "y (mm)")
    } else {
        ("x (m)", "y (m)")
    }
}

/// A tick label in millimetres for `metres`, to a tenth of a millimetre ("12", "12.5", "-3").
pub fn millimetre_tick(metres: &f64) -> String {
    let tenths = (metres * 1e4).round() / 10.0;
    // −0 reads as 0.
    format!("{}", tenths + 0.0)
}

/// The x–y axes of a workspace chart, not yet drawn: captions in the panel's unit, seven labels
/// a side, millimetre ticks for a small workspace, no grid.
pub fn workspace_mesh<'a, 'b>(
    chart: &'b mut ChartContext<'a, Canvas2d, Cartesian2d<RangedCoordf64, RangedCoordf64>>,
    surface: &Surface,
    millimetres: bool,
) -> MeshStyle<'a, 'b, RangedCoordf64, RangedCoordf64, Canvas2d> {
    let (x_desc, y_desc) = captions(millimetres);
    let mut mesh = chart.configure_mesh();
    mesh.disable_mesh()
        .x_desc(x_desc)
        .y_desc(y_desc)
        .x_labels(7)
        .y_labels(7)
        .label_style(surface.font(palette::LABEL_PX, INK))
        .axis_desc_style(surface.font(palette::LABEL_PX, INK));
    if millimetres {
        mesh.x_label_formatter(&millimetre_tick)
            .y_label_formatter(&millimetre_tick);
    }
    mesh
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_centimetre_workspace_is_labelled_in_millimetres() {
        assert!(in_millimetres(0.08));
        assert!(!in_millimetres(2.6));
        assert!(!in_millimetres(f64::NAN));
        assert_eq!(captions(true), ("x (mm)", "y (mm)"));
        assert_eq!(millimetre_tick(&0.012), "12");
        assert_eq!(millimetre_tick(&0.0125), "12.5");
        assert_eq!(millimetre_tick(&-0.0), "0");
        assert_eq!(millimetre_tick(&-0.00001), "0");
        assert_eq!(millimetre_tick(&-0.03), "-30");
    }
}
