//! The one [`Lesson`] trait every lesson implements, and [`Behaviour`], the same lesson with
//! its type erased so that the table of lessons ([`super::LESSONS`]) can hold it.
//!
//! A lesson's identity (hash word, title, one-line summary, playground link, hash keys) is in
//! its table entry, which the playground's slim bundle reads too; everything else — its text,
//! models, teaching defaults, panels, controls, computation, state, readouts and drawing — is
//! here, in the lesson's own file.

use serde::Serialize;

use super::layout::{Control, Panel};
use super::models::{Loaded, ModelFile};
use super::LessonSettings;
use crate::draw::{DrawResult, Surface};
use crate::settings::{Settings, SolverKind};
use crate::view::Viewport;

/// One lesson: what it loads and shows, and the view it computes from the page settings.
pub trait Lesson: Sized + 'static {
    /// The lesson's word in the hash (`lesson=<word>`): its row in the table of lessons.
    const WORD: &'static str;
    /// Two to four sentences of text.
    const TEXT: &'static str;
    /// The "try this" line.
    const TRY: &'static str;
    /// The problem the lesson's models are for (and the page's model when the link names none).
    const PROBLEM: &'static str;
    /// The solver the page shows when the link names none.
    const SOLVER: SolverKind;
    /// The target the lesson opens at when the link names none (task units: m).
    const TARGET: &'static [f64];
    /// The model files it loads (JavaScript fetches exactly these).
    const MODELS: &'static [ModelFile];
    /// Its panels (canvases), in page order.
    const PANELS: &'static [Panel];
    /// The measured values `getState().lesson` reports.
    type State: Serialize;

    /// Its controls, set from the page settings.
    fn controls(_settings: &Settings) -> Vec<Control> {
        Vec::new()
    }
    /// Teaching defaults beyond model, solver and target, for keys `unset` says the link
    /// leaves out.
    fn more_defaults(_settings: &mut Settings, _unset: Unset) {}
    /// Computes the view from the loaded models and the page settings.
    fn compute(models: &Loaded, settings: &Settings) -> Self;
    /// The measured values.
    fn state(&self) -> Self::State;
    /// The readouts as `[label, text]` rows, formatted.
    fn readouts(&self) -> Vec<[String; 2]>;
    /// Draws panel `name`; returns its pixel ↔ world map when it takes pointer input.
    fn draw(&self, name: &str, surface: &Surface) -> DrawResult<Option<Viewport>>;
    /// A pointer at world point `world` of panel `name` that moves the lesson's own state
    /// (true: handled; otherwise the point is the playground's new target).
    fn pointer(_name: &str, _world: [f64; 2], _lesson: &mut LessonSettings) -> bool {
        false
    }
    /// Arrow-key steps on panel `name` that move the lesson's own state (true: handled).
    fn nudge(_name: &str, _dx: f64, _dy: f64, _lesson: &mut LessonSettings) -> bool {
        false
    }
}

/// A computed lesson view behind a pointer: the object-safe part of [`Lesson`].
pub trait View {
    /// `getState().lesson` as JSON.
    fn state_json(&self) -> serde_json::Result<serde_json::Value>;
    /// See [`Lesson::readouts`].
    fn readouts(&self) -> Vec<[String; 2]>;
    /// See [`Lesson::draw`].
    fn draw(&self, name: &str, surface: &Surface) -> DrawResult<Option<Viewport>>;
}

impl<L: Lesson> View for L {
    fn state_json(&self) -> serde_json::Result<serde_json::Value> {
        serde_json::to_value(Lesson::state(self))
    }
    fn readouts(&self) -> Vec<[String; 2]> {
        Lesson::readouts(self)
    }
    fn draw(&self, name: &str, surface: &Surface) -> DrawResult<Option<Viewport>> {
        Lesson::draw(self, name, surface)
    }
}

/// Says whether the link leaves a hash key out (so a lesson default may set it).
pub type Unset<'a> = &'a dyn Fn(&str) -> bool;

/// A [`Lesson`] with its type erased, as its table entry holds it.
pub struct Behaviour {
    /// See [`Lesson::WORD`].
    pub word: &'static str,
    /// See [`Lesson::TEXT`].
    pub text: &'static str,
    /// See [`Lesson::TRY`].
    pub try_this: &'static str,
    /// See [`Lesson::PROBLEM`].
    pub problem: &'static str,
    /// See [`Lesson::MODELS`].
    pub models: &'static [ModelFile],
    /// The page settings' teaching defaults (model, solver, target and the lesson's own).
    pub defaults: fn(&mut Settings, Unset),
    /// See [`Lesson::PANELS`].
    pub panels: &'static [Panel],
    /// See [`Lesson::controls`].
    pub controls: fn(&Settings) -> Vec<Control>,
    /// See [`Lesson::compute`].
    pub compute: fn(&Loaded, &Settings) -> Box<dyn View>,
    /// See [`Lesson::pointer`].
    pub pointer: fn(&str, [f64; 2], &mut LessonSettings) -> bool,
    /// See [`Lesson::nudge`].
    pub nudge: fn(&str, f64, f64, &mut LessonSettings) -> bool,
    /// How many coordinates the lesson's target has (its [`Lesson::TARGET`]'s).
    pub target_dim: usize,
}

impl Behaviour {
    /// The behaviour of lesson `L`.
    pub const fn of<L: Lesson>() -> Behaviour {
        Behaviour {
            word: L::WORD,
            text: L::TEXT,
            try_this: L::TRY,
            problem: L::PROBLEM,
            models: L::MODELS,
            defaults: defaults::<L>,
            panels: L::PANELS,
            controls: L::controls,
            compute: compute::<L>,
            pointer: L::pointer,
            nudge: L::nudge,
            target_dim: L::TARGET.len(),
        }
    }
}

fn defaults<L: Lesson>(settings: &mut Settings, unset: Unset) {
    if unset("model") {
        settings.model = L::PROBLEM.into();
    }
    if unset("solver") {
        settings.solver = L::SOLVER;
    }
    if unset("target") {
        settings.target = L::TARGET.to_vec();
    }
    L::more_defaults(settings, unset);
}

fn compute<L: Lesson>(models: &Loaded, settings: &Settings) -> Box<dyn View> {
    Box::new(L::compute(models, settings))
}

/// The first two coordinates of the page's target (the planar lessons' task; NaN where
/// missing, which the lessons' solvers refuse).
pub fn target_xy(settings: &Settings) -> [f64; 2] {
    let t = &settings.target;
    [
        t.first().copied().unwrap_or(f64::NAN),
        t.get(1).copied().unwrap_or(f64::NAN),
    ]
}

/// A planar lesson's two-coordinate target (its `TARGET`) as an array.
pub fn xy(target: &[f64]) -> [f64; 2] {
    [target[0], target[1]]
}
