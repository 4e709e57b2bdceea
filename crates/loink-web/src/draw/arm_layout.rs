//! Where each part of the 2-D arm panel is: the plot (its [`Viewport`]), the legend in a
//! column beside it (a wide panel) or as one line of short names above it (a narrow one), and
//! the loads bars in a band under it (a robot on contacts). Nothing but the plot shows the
//! world, so no legend or bar ever covers the robot or its target.

pub use super::legend::LegendSpot;
use super::legend::PixelBox;
use super::{Surface, CAPTION_BAND};
use crate::view::Viewport;

/// Panels narrower than this (CSS px) show the legend as one line above the plot.
pub const NARROW: f64 = 520.0;
/// Width of the legend column of a wide panel (CSS px; the 3-D panel's right-hand column too).
pub const COLUMN: f64 = 186.0;
/// Height of the one-line legend of a narrow panel (CSS px; the 3-D panel's too).
pub const LINE_BAND: f64 = 18.0;
/// Height of the loads bars' band (CSS px): a title, one bar per contact, the saving (tighter
/// on a narrow panel).
pub const BARS_BAND: f64 = 70.0;
/// The same on a narrow panel.
const BARS_BAND_NARROW: f64 = 60.0;
/// Margins (CSS px): left (y labels), right, top (below the caption), bottom (x labels).
const LEFT: f64 = 40.0;
const RIGHT: f64 = 10.0;
const TOP: f64 = 4.0;
const BOTTOM: f64 = 30.0;

/// The panel's parts at its current size.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ArmLayout {
    /// The plot and the world it shows.
    pub view: Viewport,
    /// The legend's place.
    pub legend: LegendSpot,
    /// The loads bars' band (device pixels), for a robot that stands on contacts.
    pub bars: Option<PixelBox>,
}

/// The layout of a panel of `surface`'s size showing world rectangle `bounds`, with a band
/// for loads bars when `bars`.
pub fn layout(surface: &Surface, bounds: [f64; 4], bars: bool) -> ArmLayout {
    let (w, h) = surface.size();
    let (w, h) = (f64::from(w), f64::from(h));
    let d = surface.dpr();
    let px = |css: f64| (css * d).round();
    let narrow = w / d < NARROW;
    let line = if narrow { px(LINE_BAND) } else { 0.0 };
    let column = if narrow { 0.0 } else { px(COLUMN) };
    let band = match (bars, narrow) {
        (false, _) => 0.0,
        (true, false) => px(BARS_BAND),
        (true, true) => px(BARS_BAND_NARROW),
    };
    let l = px(LEFT + 8.0);
    let t = px(CAPTION_BAND + TOP) + line;
    let r = w - px(RIGHT) - column;
    let b = h - px(BOTTOM + 8.0) - band;
    let (x, y) = Viewport::fit_world(bounds, r - l, b - t);
    let view = Viewport {
        pixels: [l, t, r, b],
        world: [x[0], x[1], y[0], y[1]],
    };
    let legend = if narrow {
        LegendSpot::Line(
            [
                px(6.0),
                px(CAPTION_BAND) - px(2.0),
                w - px(6.0),
                px(CAPTION_BAND) + line - px(2.0),
            ]
            .map(|v| v as i32),
        )
    } else {
        LegendSpot::Column([r + px(10.0), t, w - px(4.0), b].map(|v| v as i32))
    };
    let bars = bars.then(|| [l, h - band, w - px(RIGHT), h - px(2.0)].map(|v| v as i32));
    ArmLayout { view, legend, bars }
}
