//! What a lesson's section holds: its panels (canvases) and its controls, as JavaScript builds
//! them (each lesson lists its own, [`super::lesson::Lesson::PANELS`]).

use serde::Serialize;

/// A control the lesson shows (JavaScript builds the element from this).
#[derive(Serialize)]
pub struct Control {
    /// The name `setControl` takes.
    pub name: &'static str,
    /// Its label on the page.
    pub label: &'static str,
    /// `range`, `number` or `select`.
    pub kind: &'static str,
    /// Smallest value (range, number).
    pub min: f64,
    /// Largest value (range, number).
    pub max: f64,
    /// Step (range, number).
    pub step: f64,
    /// Current value, as the element's text.
    pub value: String,
    /// The choices of a `select`.
    pub options: Vec<&'static str>,
}

/// A panel (canvas) of the lesson.
#[derive(Serialize)]
pub struct Panel {
    /// The canvas's name (its id is `lesson-NAME`).
    pub name: &'static str,
    /// Its accessible name.
    pub aria: &'static str,
    /// Whether pointer events on it go to [`super::LessonPage::pointer`].
    pub interactive: bool,
}

impl Panel {
    /// A panel named `name` (its canvas id is `lesson-NAME`) with accessible name `aria`.
    pub const fn new(name: &'static str, aria: &'static str, interactive: bool) -> Panel {
        Panel {
            name,
            aria,
            interactive,
        }
    }
}

impl Control {
    /// A slider from `min` to `max` in steps of `step`, at `value`.
    pub fn range(
        name: &'static str,
        label: &'static str,
        [min, max, step]: [f64; 3],
        value: f64,
    ) -> Control {
        Control {
            name,
            label,
            kind: "range",
            min,
            max,
            step,
            value: value.to_string(),
            options: Vec::new(),
        }
    }

    /// A number field (whole numbers from `min` to `max`), at `value`.
    pub fn number(
        name: &'static str,
        label: &'static str,
        [min, max]: [f64; 2],
        value: f64,
    ) -> Control {
        Control {
            kind: "number",
            ..Control::range(name, label, [min, max, 1.0], value)
        }
    }

    /// A menu of `options`, at `value`.
    pub fn select(
        name: &'static str,
        label: &'static str,
        options: Vec<&'static str>,
        value: &str,
    ) -> Control {
        Control {
            name,
            label,
            kind: "select",
            min: 0.0,
            max: 0.0,
            step: 0.0,
            value: value.into(),
            options,
        }
    }
}
