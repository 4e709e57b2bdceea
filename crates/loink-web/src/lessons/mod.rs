//! Lessons for course pages: thirteen fixed views, each one URL
//! (`index.html#lesson=averaging`, …) that opens in the state that makes its point, with two to
//! four sentences of text and one "try this".
//!
//! - [`averaging`]: the averaging trap on planar2 — MSE regression vs MDN vs LOInK.
//! - [`smoothness`]: a moving target; joint angles and velocities of LOInK at two μ, DLS and
//!   the MDN's most likely component; jumps counted.
//! - [`diversity`]: z ~ N(0, σ²I) as ghost arms, their true costs against the optimum.
//! - [`robustness`]: joint noise and backlash (the robustness exercise): error and reported status.
//! - [`latent`]: planar4's latent plane; dragging z moves the arm along its self-motion set.
//! - [`charts`]: planar3-wide, where the limits cut the solution set into pieces: one chart
//!   against eight.
//! - [`model_free`]: the soft arm learned from data alone: LOInK, the flow and black-box DLS
//!   by their simulator calls.
//! - [`climbing`]: the climbing robot from slope to ceiling: the pull its feet need in LOInK's
//!   posture, and whether posture matters under each rule of sharing the load.
//! - [`redundancy3d`]: the Panda's elbow swung through the latent space with the hand fixed,
//!   and direct regression against LOInK on held-out targets.
//! - [`pieces`]: the Panda's hand held at one pose, the pieces of its answers and the cheapest.
//! - [`training`]: planar3 trained from scratch in the page (web/train.js), the panels following
//!   its weights, beside `loink train`'s shipped network.
//! - [`boundary`]: planar3's target swept out past the workspace's edge, each solver's residual,
//!   iterations and status against the distance to it; re-seeding after a contact.
//! - [`collision`]: the Panda under a shelf, the board in the cost or not, and the board moved
//!   after training: what a learned cost cannot know.
//!
//! [`LessonSettings`] is the lesson part of the URL hash (`lesson`, `path`, `noise`,
//! `deadband`, `z`, `rule`, `edge`, `shelf`); [`LESSONS`] is the table of lessons, [`lesson::Lesson`] the trait each implements and [`facade::LessonPage`] the wasm type `web/lessons.js` drives. Every number
//! a lesson shows is computed here and formatted here; JavaScript only forwards events.

// The lessons are the `lessons` feature, gated where lib.rs declares this module: the
// playground's own bundle (pkg/) is built without it and stays small; pkg/lessons/ is built with
// it and is only fetched by lesson pages. The table's identities and the settings are
// `crate::lesson_table`, always compiled: the playground lists the lessons and keeps a lesson's
// hash entries when it rewrites the hash.
pub mod averaging;
pub mod boundary;
pub mod charts;
pub mod climbing;
pub mod collision;
pub mod diversity;
pub mod facade;
pub mod latent;
pub mod layout;
pub mod lesson;
pub mod model_free;
pub mod models;
pub mod pieces;
pub mod redundancy3d;
pub mod robustness;
pub mod smoothness;
pub mod training;

pub use crate::lesson_table as table;

pub use facade::LessonPage;
pub use table::{
    EdgeKind, LessonEntry, LessonKind, LessonSettings, PathKind, RuleKind, DEFAULT_Z, LATENT_MAX,
    LESSONS, NOISE_MAX,
};

/// Each lesson's behaviour (text, models, panels, computation, drawing), at its index in
/// [`LESSONS`].
pub const BEHAVIOURS: [lesson::Behaviour; LESSONS.len()] = [
    lesson::Behaviour::of::<averaging::Averaging>(),
    lesson::Behaviour::of::<smoothness::Smoothness>(),
    lesson::Behaviour::of::<diversity::Diversity>(),
    lesson::Behaviour::of::<robustness::Robustness>(),
    lesson::Behaviour::of::<latent::LatentLesson>(),
    lesson::Behaviour::of::<charts::ChartsLesson>(),
    lesson::Behaviour::of::<model_free::ModelFreeLesson>(),
    lesson::Behaviour::of::<climbing::ClimbingLesson>(),
    lesson::Behaviour::of::<redundancy3d::ElbowLesson>(),
    lesson::Behaviour::of::<pieces::PiecesLesson>(),
    lesson::Behaviour::of::<training::TrainingLesson>(),
    lesson::Behaviour::of::<boundary::BoundaryLesson>(),
    lesson::Behaviour::of::<collision::CollisionLesson>(),
];

impl LessonKind {
    /// The lesson's behaviour.
    pub fn behaviour(self) -> &'static lesson::Behaviour {
        &BEHAVIOURS[self.index()]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each behaviour sits at its lesson's row of the table.
    #[test]
    fn behaviours_line_up_with_the_table() {
        for kind in LessonKind::all() {
            assert_eq!(kind.behaviour().word, kind.entry().word);
        }
    }
}
