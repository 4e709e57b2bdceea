//! The length unit of a panel's task axes: metres for an arm a metre across, millimetres for
//! a workspace of centimetres (the soft arm), so that tick labels read 12, 24, … and not
//! 0.012. Only the labels change: every coordinate stays in metres.

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
