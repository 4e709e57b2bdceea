//! What a kind offers beyond the core interface: plain facts ([`Profile`]) and optional
//! capabilities ([`Capabilities`]), each a small trait a kind implements when it has it and a
//! caller asks for as `Option<&dyn …>` (the shape-query style of collision libraries: ask, and
//! use what is there). Nothing here is required of a kind; the words, controls and presets
//! that exist only for the page live in the web crate, keyed by kind.
//!
//! - [`View`]: how the robot is drawn, in the task plane ([`PlaneView`]: a sketch, the reach
//!   disc, the framed rectangle, the reachable region) or in space ([`SpaceView`]: the links'
//!   points, the reach ball, the hand's frame, the scene's boxes and the collision spheres).
//! - [`Domain`]: the configurations targets and data are drawn from, when narrower than the
//!   joint box, and a path through them.
//! - [`Statics`]: what the robot's contacts must hold, and the posture a controller without an
//!   optimiser would take.
//! - [`Search`]: starts near the optimum for the reference search, the closest pose to a
//!   target out of reach.
//! - [`Simulator`]: a forward map whose calls cost, and their count.

use super::collision_picture::{CollisionPicture, Obstacle};
use super::presentation::ContactLoad;
use super::region::Region;
use super::{JointLimits, Problem, Sketch, TaskSpace};

/// A kind's settings for damped least squares with the null-space cost pull, when its
/// measurements call for other than the solver's defaults (TRAC-IK's practice for a 6-joint
/// arm, a shorter descent for a cost whose gradient is costly).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DlsTuning {
    /// k, the gain of the null-space cost descent.
    pub nullspace_gain: f64,
    /// Norm of the projected cost gradient below which the cost counts as stationary.
    pub nullspace_tol: f64,
    /// Restarts from random seeds when the first run does not converge.
    pub restarts: usize,
    /// Damping that follows the error (Sugihara's Levenberg–Marquardt) instead of a fixed λ.
    pub error_damping: bool,
    /// Iterations of one run (the first and each restart).
    pub max_iters: usize,
}

/// What every kind is, as data: its tag in model files, its name, its joint box (n), its task
/// space (m, units, scales, the error measure, the columns) and its profile.
#[derive(Debug, Clone, PartialEq)]
pub struct Basics {
    /// The kind's tag in model files (`planar`, `chain`, …).
    pub kind: &'static str,
    /// Preset or user-given name.
    pub name: String,
    /// The joint box.
    pub limits: JointLimits,
    /// The task space.
    pub task: TaskSpace,
    /// The kind's facts.
    pub profile: Profile,
}

/// Plain facts about a kind, as data.
#[derive(Debug, Clone, PartialEq)]
pub struct Profile {
    /// What the problem is, in a few words ("planar arm, 3 links (1 redundant)").
    pub title: String,
    /// Radius of a ball holding the workspace (task units): the scale of "far".
    pub workspace_radius: f64,
    /// The span of the workspace itself (task units; the radius unless the workspace sits far
    /// from the origin, as a soft arm's does): damped least squares scales its damping by it.
    pub task_scale: f64,
    /// Whether a forward map exists (false for a problem known only through data).
    pub replayable: bool,
    /// Whether the Jacobian is analytic (else finite differences).
    pub analytic_jacobian: bool,
    /// How many starts the multi-start reference needs to find the global optimum on this kind.
    pub reference_starts: usize,
    /// Damped least squares' pull, stopping test and restarts (`None`: the solver's defaults).
    pub dls: Option<DlsTuning>,
    /// Where a view of the problem opens (`None`: the image of the box's centre).
    pub default_target: Option<Vec<f64>>,
    /// Which joints turn a full circle: q_i and q_i ± 2π are the same posture (empty: none).
    /// Where a range is wider than 2π the solvers keep the representative nearest mid-range.
    pub turning: Vec<bool>,
}

impl Profile {
    /// A replayable kind with an analytic Jacobian, 16 reference starts, DLS's defaults and
    /// the box's centre for a view: kinds change what differs.
    pub fn new(title: impl Into<String>, workspace_radius: f64) -> Self {
        Profile {
            title: title.into(),
            workspace_radius,
            task_scale: workspace_radius,
            replayable: true,
            analytic_jacobian: true,
            reference_starts: 16,
            dls: None,
            default_target: None,
            turning: Vec::new(),
        }
    }
}

/// How a kind is drawn: in its task plane or in space. One answer to "is it drawn in 3-D".
#[derive(Clone, Copy)]
pub enum View<'a> {
    /// A two-dimensional task drawn in its plane.
    Plane(&'a dyn PlaneView),
    /// A robot in space, drawn in an orbiting orthographic view.
    Space(&'a dyn SpaceView),
}

/// Drawing in the task plane (two-dimensional tasks, or the first two coordinates of one a
/// pointer sets in the plane).
pub trait PlaneView {
    /// The shapes of configuration q, in task coordinates.
    fn sketch(&self, q: &[f64]) -> Sketch;
    /// For a task reached from the origin: the radius of the disc holding every point the tip
    /// reaches with the limits ignored (the arm panel frames its view on it and draws it).
    fn reach_disc(&self) -> Option<f64> {
        None
    }
    /// The rectangle `[x0, x1, y0, y1]` a view frames, when the kind knows it better than its
    /// reachable region does.
    fn bounds(&self) -> Option<[f64; 4]> {
        None
    }
    /// The reachable region as a raster from about `samples` configurations, when the kind
    /// has its own way to fill it (else the problem samples its box).
    fn region(&self, _samples: usize) -> Option<Region> {
        None
    }
}

/// Drawing in space.
pub trait SpaceView {
    /// The points the links join at q, base to tip, in task coordinates.
    fn skeleton(&self, q: &[f64]) -> Vec<[f64; 3]>;
    /// A ball no reachable task point leaves, `(centre, radius)` (the view's outline).
    fn reach_ball(&self) -> ([f64; 3], f64);
    /// The hand's frame at q, `(origin, rotation row-major)`, for a task that turns it.
    fn hand_frame(&self, _q: &[f64]) -> Option<([f64; 3], [f64; 9])> {
        None
    }
    /// The scene's boxes, for a kind that keeps clear of them.
    fn obstacles(&self) -> Vec<Obstacle> {
        Vec::new()
    }
    /// The robot's collision model placed at q (None: the kind has none, or q is not one of
    /// its configurations).
    fn collision(&self, _q: &[f64]) -> Option<CollisionPicture> {
        None
    }
}

/// The useful configurations of a kind whose domain is narrower than its joint box.
pub trait Domain {
    /// Whether configuration q is one to draw targets and training data from.
    fn contains(&self, q: &[f64]) -> bool;
    /// Whether target y is one of the domain's own (the images of its configurations), where
    /// the target alone tells: a chart of several covers part of the task and says which.
    fn covers(&self, _y: &[f64]) -> bool {
        true
    }
    /// The target at phase t ∈ [0, 1) of a smooth closed path through the domain, for
    /// benchmarks that drag a target along one (`None`: a path through the box, which stays
    /// in a domain as large as this one).
    fn path(&self, _t: f64) -> Option<Vec<f64>> {
        None
    }
}

/// Loads on the robot's contacts.
pub trait Statics {
    /// What the robot's contacts must hold at configuration q.
    fn contact_loads(&self, q: &[f64]) -> Option<Vec<ContactLoad>>;
    /// The posture a controller without an optimiser takes for target y, to compare an
    /// answer's loads with.
    fn neutral_pose(&self, y: &[f64]) -> Option<Vec<f64>>;
}

/// A kind's own help for the searches.
pub trait Search {
    /// Starting points the reference search polishes for target y, placed near its optimum.
    fn reference_seeds(&self, _problem: &Problem, _y: &[f64]) -> Option<Vec<Vec<f64>>> {
        None
    }
    /// Spread starts the reference adds to [`Self::reference_seeds`] (0: the kind's seeds
    /// are enough).
    fn reference_spread_starts(&self) -> usize {
        0
    }
    /// The configuration inside the box whose image lies nearest y (the closest pose to a
    /// target out of reach).
    fn closest_pose(&self, _problem: &Problem, _y: &[f64]) -> Option<Vec<f64>> {
        None
    }
    /// Every answer for target y along one joint swept over its range (`steps` values): the
    /// pieces of the set of answers, each a curve of the cost, cut where the limits end it.
    fn answer_sweep(&self, _problem: &Problem, _y: &[f64], _steps: usize) -> Option<AnswerSweep> {
        None
    }
    /// Whether the kind answers its task in closed form along one free joint, so that
    /// [`Search::closed_form_search`] runs.
    fn has_closed_form_search(&self) -> bool {
        false
    }
    /// The classical answer to target y: every closed-form answer on a grid of `grid` values of
    /// the free joint, then a golden-section search along each of the `keep` cheapest pieces'
    /// minima (None: the kind has no closed form for this task).
    fn closed_form_search(
        &self,
        _problem: &Problem,
        _y: &[f64],
        _grid: usize,
        _keep: usize,
    ) -> Option<ClosedFormAnswer> {
        None
    }
}

/// What a closed-form search found: the cheapest answer on the target (None: no answer within
/// the limits anywhere on its grid) and how many times it evaluated the closed form.
#[derive(Debug, Clone, PartialEq)]
pub struct ClosedFormAnswer {
    /// The cheapest answer found.
    pub q: Option<Vec<f64>>,
    /// Closed-form evaluations (each gives up to eight answers).
    pub evaluations: usize,
}

/// The set of answers for one target along a swept joint: at each of its values, the cost of
/// the answer on each branch (NaN where the branch has none within the limits). Drawn as
/// curves, the branches are the pieces a local solver slides along; J\* is their lowest point.
#[derive(Debug, Clone, PartialEq)]
pub struct AnswerSweep {
    /// The swept joint (0-based).
    pub joint: usize,
    /// Its values, increasing.
    pub values: Vec<f64>,
    /// Per branch, the cost at each value (NaN: no answer there).
    pub costs: Vec<Vec<f64>>,
}

/// A forward map whose calls cost (a simulator).
pub trait Simulator {
    /// Forward-map calls so far.
    fn calls(&self) -> u64;
}

/// The capabilities a kind has (each `None` unless it offers it).
#[derive(Clone, Copy, Default)]
pub struct Capabilities<'a> {
    /// How it is drawn (`None`: the page does not draw it).
    pub view: Option<View<'a>>,
    /// Its useful domain, when narrower than the box.
    pub domain: Option<&'a dyn Domain>,
    /// Its contacts' loads.
    pub statics: Option<&'a dyn Statics>,
    /// Its own help for the searches.
    pub search: Option<&'a dyn Search>,
    /// Its forward map's call count.
    pub simulator: Option<&'a dyn Simulator>,
}

impl<'a> Capabilities<'a> {
    /// The plane view, when it is drawn in its task plane.
    pub fn plane(&self) -> Option<&'a dyn PlaneView> {
        match self.view {
            Some(View::Plane(view)) => Some(view),
            _ => None,
        }
    }
    /// The space view, when it is drawn in space.
    pub fn space(&self) -> Option<&'a dyn SpaceView> {
        match self.view {
            Some(View::Space(view)) => Some(view),
            _ => None,
        }
    }
}
