//! A turning hand in the 3-D view: the target as a frame of three short axes (x red, y green,
//! z blue; a tool axis alone as one arrow), the hand's own frame drawn the same way at the
//! point it reaches, so an orientation miss shows as axes that do not line up; and the ring
//! around the target that a drag along turns it about the viewing axis.

use plotters::prelude::*;

use super::{line, pixel, projected, Area, DrawResult, Layout};
use crate::draw::palette::{MUTED, TARGET};
use crate::draw::{text_err, Surface};

/// The ring around a turning target (CSS px): a press on it turns the target about the viewing
/// axis (the 3-D view's input grips it within a few pixels).
pub const RING_RADIUS: f64 = 40.0;
/// Length of a drawn axis (m).
pub const AXIS_LENGTH: f64 = 0.09;
/// The axes' colours: x, y, z.
pub const AXIS_COLOURS: [RGBColor; 3] = [
    RGBColor(214, 39, 40),
    RGBColor(44, 160, 44),
    RGBColor(31, 119, 180),
];

/// Which axes of a frame are drawn: all three for a pose, z alone for a tool axis.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shown {
    /// x, y and z.
    All,
    /// The tool's z axis alone (the turn about it is free).
    ToolAxis,
}

/// A frame to draw: its origin and its axes in the world (x, y, z).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Axes {
    /// Where the axes start (m).
    pub origin: [f64; 3],
    /// The unit axes x, y, z in the world.
    pub axes: [[f64; 3]; 3],
}

impl Axes {
    /// The frame of a rotation given row-major (its columns are the axes).
    pub fn of(origin: [f64; 3], rotation: [f64; 9]) -> Axes {
        Axes {
            origin,
            axes: std::array::from_fn(|i| [rotation[i], rotation[3 + i], rotation[6 + i]]),
        }
    }
}

/// The axes in `shown`, back to front, as lines from the origin through `flat` (a world point
/// to device pixels), `width` CSS px wide at `alpha`; the target's are solid, the hand's thin.
pub fn draw_axes(
    area: &Area,
    surface: &Surface,
    frame: &Axes,
    shown: Shown,
    (length, width, alpha): (f64, f64, f64),
    flat: &dyn Fn([f64; 3]) -> (i32, i32),
) -> DrawResult {
    let axes: &[usize] = match shown {
        Shown::All => &[0, 1, 2],
        Shown::ToolAxis => &[2],
    };
    let o = frame.origin;
    for &i in axes {
        let a = frame.axes[i];
        let tip = [
            o[0] + length * a[0],
            o[1] + length * a[1],
            o[2] + length * a[2],
        ];
        let style = AXIS_COLOURS[i]
            .mix(alpha)
            .stroke_width(surface.stroke(width));
        line(area, vec![flat(o), flat(tip)], style)?;
        if shown == Shown::ToolAxis || i == 2 {
            area.draw(&Circle::new(
                flat(tip),
                surface.px(width * 0.9).max(2),
                AXIS_COLOURS[i].mix(alpha).filled(),
            ))
            .map_err(text_err)?;
        }
    }
    Ok(())
}

/// The ring around the target in the main view (CSS radius `radius`), with four ticks so a
/// turn along it reads as one.
pub fn ring(
    area: &Area,
    surface: &Surface,
    layout: &Layout,
    t: [f64; 3],
    radius: f64,
) -> DrawResult {
    let centre = layout.main.to_pixel(t);
    let r = radius * surface.dpr();
    let points: Vec<(i32, i32)> = (0..=64)
        .map(|k| {
            let a = std::f64::consts::TAU * f64::from(k) / 64.0;
            pixel([centre[0] + r * a.cos(), centre[1] + r * a.sin()])
        })
        .collect();
    line(
        area,
        points,
        MUTED.mix(0.7).stroke_width(surface.stroke(1.5)),
    )?;
    let tick = surface.dpr() * 4.0;
    for k in 0..4 {
        let a = std::f64::consts::FRAC_PI_2 * f64::from(k) + std::f64::consts::FRAC_PI_4;
        let (c, s) = (a.cos(), a.sin());
        line(
            area,
            vec![
                pixel([centre[0] + (r - tick) * c, centre[1] + (r - tick) * s]),
                pixel([centre[0] + (r + tick) * c, centre[1] + (r + tick) * s]),
            ],
            TARGET.mix(0.6).stroke_width(surface.stroke(1.5)),
        )?;
    }
    Ok(())
}

/// The main view's projection of a world point, for [`draw_axes`].
pub fn main_view(layout: &Layout) -> impl Fn([f64; 3]) -> (i32, i32) + '_ {
    move |p| projected(layout, &[p])[0]
}
