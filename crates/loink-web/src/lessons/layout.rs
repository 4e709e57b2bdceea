//! What each lesson's section holds: its panels (canvases) and its controls, as JavaScript builds
//! them.

use serde::Serialize;

use super::{LessonKind, PathKind};
use crate::settings::{self, Settings};

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
    /// Whether pointer events on it go to [`super::Lesson::pointer`].
    pub interactive: bool,
}

/// The panels of lesson `kind`, in page order.
pub fn panels(kind: LessonKind) -> Vec<Panel> {
    let p = |name, aria, interactive| Panel {
        name,
        aria,
        interactive,
    };
    match kind {
        LessonKind::Averaging => vec![
            p(
                "arm",
                "Arm: the MSE, MDN and LOInK answers for the target; drag to move the target",
                true,
            ),
            p(
                "misses",
                "Bar chart of each answer's end-effector miss",
                false,
            ),
        ],
        LessonKind::Smoothness => vec![
            p("path", "The target's path and the arm along it", false),
            p("angles", "Joint angles over time per method", false),
            p(
                "velocity",
                "Largest joint speed over time per method",
                false,
            ),
        ],
        LessonKind::Diversity => vec![
            p(
                "arm",
                "Sampled solutions as ghost arms; drag to move the target",
                true,
            ),
            p(
                "histogram",
                "Histogram of the samples' true costs against the optimum",
                false,
            ),
            p("trade", "Optimality gap and variety as sigma grows", false),
        ],
        LessonKind::Robustness => vec![
            p(
                "errors",
                "End-effector error against joint noise per solver",
                false,
            ),
            p(
                "status",
                "Share of trials each solver reports as failed against the true share",
                false,
            ),
        ],
        LessonKind::Latent => vec![
            p(
                "plane",
                "Latent plane: true cost over z; drag the point to move along the self-motion set",
                true,
            ),
            p(
                "arm",
                "The arm at the dragged latent point and at the origin",
                false,
            ),
        ],
        LessonKind::Charts => vec![
            p(
                "arm",
                "Arm: one chart's answer against every chart's proposal; drag to move the target",
                true,
            ),
            p(
                "pieces",
                "Cost along the self-motion set, its pieces coloured by the chart covering them",
                false,
            ),
        ],
        LessonKind::ModelFree => vec![
            p(
                "arms",
                "Soft arm: LOInK's, the flow's and black-box DLS's answers; drag to move the target",
                true,
            ),
            p(
                "twists",
                "Each rod's twist for the three answers against the optimum",
                false,
            ),
            p("calls", "Bar chart of the simulator calls each answer cost", false),
        ],
    }
}

/// The controls of lesson `kind`, set from `s`.
pub fn controls(kind: LessonKind, s: &Settings) -> Vec<Control> {
    let range = |name, label, min, max, step, value: f64| Control {
        name,
        label,
        kind: "range",
        min,
        max,
        step,
        value: value.to_string(),
        options: Vec::new(),
    };
    match kind {
        LessonKind::Smoothness => vec![Control {
            name: "path",
            label: "Path",
            kind: "select",
            min: 0.0,
            max: 0.0,
            step: 0.0,
            value: s.lesson.path.as_str().into(),
            options: PathKind::ALL.map(PathKind::as_str).to_vec(),
        }],
        LessonKind::Diversity => vec![
            range(
                "sigma",
                "σ (latent spread)",
                0.0,
                settings::SIGMA_MAX,
                0.05,
                s.sigma,
            ),
            Control {
                kind: "number",
                ..range("seed", "Seed", 0.0, 1e9, 1.0, s.seed as f64)
            },
        ],
        LessonKind::Robustness => vec![
            range(
                "noise",
                "Joint noise σ (rad)",
                0.0,
                0.1,
                0.0025,
                s.lesson.noise,
            ),
            range(
                "deadband",
                "Dead band (rad)",
                0.0,
                0.1,
                0.0025,
                s.lesson.deadband,
            ),
        ],
        _ => Vec::new(),
    }
}
