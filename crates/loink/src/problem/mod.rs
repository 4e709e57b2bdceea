//! Problems: what every solver, learner and panel works on.
//!
//! A problem has n joints in a box ([`JointLimits`]), a task y ∈ Rᵐ reached through a forward
//! map y = f(q), and a cost J(q) to minimise among the configurations that reach a target:
//! minimise J(q) subject to f(q) = y and the box. [`Kinematics`] is the interface one kind of
//! problem implements (planar serial arms in [`planar`]); a [`Problem`] binds one to a cost.
//!
//! What a kind gives beyond n, m, the box and the forward map is optional and reported as such:
//! an analytic Jacobian (finite differences otherwise), a reachability decision
//! ([`Reachability::Unknown`] otherwise — never a guessed `unreachable`), a global reference
//! optimum, problem-specific cost terms, and the shapes the page draws ([`sketch`]).
//!
//! - [`limits`]: the joint box; [`spec`]: the tagged spec a model file names; [`registry`]: the
//!   one place that builds a kind from a spec or a preset name; [`sketch`]: drawing primitives;
//!   [`region`]: the reachable region as a raster; [`jacobian`]: m × n Jacobians and the small
//!   dense kernels of the steps; [`restore`]: the raw limit-aware task restoration;
//!   [`reachable`]: the reachability verdict with its witness;
//! - [`planar`]: planar serial arms (reach ring, two-link geometry, φ sweep, connectivity,
//!   region lattice);
//! - [`chain`]: serial robots read from their URDF (the Franka Panda, TIAGo's arm), 3-D tasks;
//! - [`soft4`]: a soft arm of four twisted rods, a simulator that counts its calls; [`data`]: a
//!   problem known only through a data file (no forward map).

#[cfg(feature = "chain")]
pub mod chain;
#[cfg(feature = "climber")]
pub mod climber;
#[cfg(feature = "model-free")]
pub mod data;
pub mod jacobian;
pub mod limits;
pub mod planar;
pub mod presentation;
pub mod reachable;
pub mod region;
pub mod registry;
pub mod restore;
pub mod sketch;
#[cfg(feature = "model-free")]
pub mod soft4;
pub mod spec;

use std::any::Any;
use std::fmt::Debug;
use std::sync::Arc;

pub use limits::JointLimits;
pub use sketch::{Shape, Sketch, Stroke};
pub use spec::ProblemSpec;

use crate::cost::{CostModel, CostSpec, CostTerm, TermSpec};
use crate::error::{ensure_finite, ensure_len, LoinkError, Result};

/// Largest target coordinate accepted at all; beyond it an input is absurd, not just
/// unreachable, and gets a typed error instead of a solve.
pub const MAX_TARGET_MAGNITUDE: f64 = 1e6;

/// Whether a target can be reached inside the joint limits, as far as the problem can tell.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reachability {
    /// Some configuration inside the box reaches it (a witness was found).
    Reachable,
    /// No configuration inside the box reaches it, as the problem decides it (each kind says
    /// how: a planar arm samples its self-motion set densely).
    Unreachable,
    /// The problem cannot decide it.
    Unknown,
}

/// A kind's settings for damped least squares with the null-space cost pull: TRAC-IK's practice
/// for a 6-joint arm, a shorter descent for a cost whose gradient is costly.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DlsTuning {
    /// k, the gain of the null-space cost descent.
    pub nullspace_gain: f64,
    /// Norm of the projected cost gradient below which the cost counts as stationary.
    pub nullspace_tol: f64,
    /// Restarts from random seeds when the first run does not converge.
    pub restarts: usize,
    /// No restart begins once the solve has taken this long (µs).
    pub restart_budget_micros: f64,
}

/// One kind of problem: joints, task, forward map and optional capabilities.
///
/// Implementations are immutable and shareable across threads (the CLI's reference pass runs
/// in parallel). Slices passed to the unchecked methods have the right lengths: [`Problem`]
/// checks inputs once at its boundary.
pub trait Kinematics: Debug + Send + Sync + 'static {
    /// The kind's tag in model files (`planar`, `soft4`, `data`).
    fn kind(&self) -> &'static str;
    /// Preset or user-given name.
    fn name(&self) -> &str;
    /// The joint box (its length is n).
    fn limits(&self) -> &JointLimits;
    /// Task dimension m.
    fn task_dim(&self) -> usize;
    /// The spec that rebuilds this problem (what a model file stores).
    fn spec(&self) -> ProblemSpec;
    /// What the problem is, in a few words, e.g. "planar arm, 3 links (1 redundant)".
    fn title(&self) -> String {
        let (n, m) = (self.limits().len(), self.task_dim());
        format!("{} problem, {n} joints, {m}-D task", self.kind())
    }
    /// A target the problem reaches inside its limits, well inside its workspace: where a view
    /// of it opens. The default is the image of the box's centre, f((lower + upper) / 2).
    fn default_target(&self) -> Vec<f64> {
        let mut y = vec![0.0; self.task_dim()];
        self.forward_into(&self.limits().centres(), &mut y);
        y
    }
    /// Radius of a disc holding the workspace (task units): the scale of "far".
    fn workspace_radius(&self) -> f64;
    /// The names of the task's columns in targets and results files, when the kind has its own
    /// (else `x,y`, `x,y,z` or `y1…ym` by the task's dimension).
    fn task_columns(&self) -> Option<Vec<String>> {
        None
    }
    /// Whether configuration q is a useful one to draw targets and training data from (every
    /// configuration in the box, unless the kind narrows it: the climber's stances on a wall).
    fn in_domain(&self, _q: &[f64]) -> bool {
        true
    }
    /// Starting points the reference search polishes for target y, when the kind can place
    /// them near its optimum (the climber's grid over its self-motion set); `None`: the
    /// multi-start's spread starts.
    fn reference_seeds(&self, _problem: &Problem, _y: &[f64]) -> Option<Vec<Vec<f64>>> {
        None
    }
    /// For a kind whose task is a point in the plane reached from the origin: the radius of the
    /// disc about the origin holding every point the tip reaches with the limits ignored (the
    /// arm panel frames its view on it and draws it). `None` for every other kind.
    fn reach_disc(&self) -> Option<f64> {
        None
    }
    /// The span of the workspace itself (task units; the workspace radius unless the workspace
    /// sits far from the origin, as a soft arm's does): damped least squares scales its damping
    /// by it (capped at 1, the planar arms' scale).
    fn task_scale(&self) -> f64 {
        self.workspace_radius()
    }
    /// Whether a forward map exists (false for a problem known only through data).
    fn replayable(&self) -> bool {
        true
    }
    /// Forward-map calls so far, for a simulator whose calls cost (the soft arm); None for a
    /// problem that does not count them.
    fn simulator_calls(&self) -> Option<u64> {
        None
    }
    /// y = f(q) into `y` (m entries); q has n entries.
    fn forward_into(&self, q: &[f64], y: &mut [f64]);
    /// f(q) into `y` and the Jacobian, column-major (`jac[i·m + r] = ∂y_r/∂q_i`), into `jac`.
    /// The default is forward differences (n + 1 forward calls).
    fn jacobian_into(&self, q: &[f64], y: &mut [f64], jac: &mut [f64]) {
        finite_difference_jacobian(self, q, y, jac);
    }
    /// Whether [`Self::jacobian_into`] is analytic (else finite differences).
    fn analytic_jacobian(&self) -> bool {
        false
    }
    /// A cheap exact verdict on `y` where one exists (e.g. outside an arm's reach ring), or
    /// [`Reachability::Unknown`].
    fn quick_reachability(&self, _y: &[f64]) -> Reachability {
        Reachability::Unknown
    }
    /// The verdict when the problem can decide it (e.g. a dense sweep of the self-motion set),
    /// or [`Reachability::Unknown`]. Called only after the cheap tests left it open.
    fn decide_reachability(&self, _problem: &Problem, _y: &[f64]) -> Reachability {
        Reachability::Unknown
    }
    /// The configuration inside the box whose image lies nearest `y` (what "the closest pose"
    /// means for a target out of reach), when the kind can find it.
    fn closest_pose(&self, _problem: &Problem, _y: &[f64]) -> Option<Vec<f64>> {
        None
    }
    /// Whether the reference solver (`solvers::reference`) can search this kind's global
    /// optimum: a planar arm sweeps its self-motion set, any other kind with a forward map gets
    /// the multi-start polish; a problem known only through data has none.
    fn has_reference_optimum(&self) -> bool {
        self.replayable()
    }
    /// How many starts the multi-start reference search needs on this kind to find the global
    /// optimum (each kind measures its own: the soft arm's optimum is unique, a 6-joint arm has
    /// mirror branches and several local minima per target).
    fn reference_starts(&self) -> usize {
        16
    }
    /// How damped least squares should pull along this kind's self-motion set and retry, when
    /// its measurements call for other settings than the planar arms' (`None`: the solver's
    /// defaults). Consumed by `solvers::dls::DlsOptions::for_problem`.
    fn dls_tuning(&self) -> Option<DlsTuning> {
        None
    }
    /// The target at phase t ∈ [0, 1) of a smooth closed path through the kind's useful domain,
    /// when a path through the joint box would leave it (the climber: most of its box is no
    /// stance on a wall); `None`: benchmarks walk a Lissajous curve through the box.
    fn domain_path(&self, _t: f64) -> Option<Vec<f64>> {
        None
    }
    /// A cost term only this kind can evaluate (e.g. a planar arm's centre of mass); `None`
    /// when the term does not apply to it.
    fn cost_term(&self, _term: &TermSpec) -> Option<Arc<dyn CostTerm>> {
        None
    }
    /// The shapes of configuration q for drawing, in task coordinates (two-dimensional tasks).
    fn sketch(&self, _q: &[f64]) -> Option<Sketch> {
        None
    }
    /// The robot at q in three dimensions, for a kind drawn in 3-D: the points its links join,
    /// base to tip, in task coordinates (a serial arm's base, joint origins and tool point);
    /// `None` for a kind drawn in a plane by [`Kinematics::sketch`].
    fn skeleton(&self, _q: &[f64]) -> Option<Vec<[f64; 3]>> {
        None
    }
    /// A ball no reachable task point leaves, `(centre, radius)`, for a kind drawn in 3-D (the
    /// view's workspace outline).
    fn reach_ball(&self) -> Option<([f64; 3], f64)> {
        None
    }
    /// The rectangle `[x0, x1, y0, y1]` of the sketch plane a view of this kind frames, when
    /// the kind knows it better than its reachable region does (the climber: its body hangs off
    /// the wall on either side of the feet).
    fn sketch_bounds(&self) -> Option<[f64; 4]> {
        None
    }
    /// What a pose for a valid target is outside the useful domain for ([`Kinematics::in_domain`]
    /// false), when the kind has a domain narrower than its joint box (the climber: an ankle
    /// past its range or the body on the wall); `None`: every pose inside the box is useful.
    fn domain_words(&self) -> Option<&'static str> {
        None
    }
    /// What the shaded region of the sketch plane is ([`Kinematics::reachable_region`]).
    fn region_words(&self) -> &'static str {
        "reachable within limits"
    }
    /// The target coordinates beyond the first two (which a pointer sets in the sketch plane),
    /// each with the range a control offers; empty for a two-dimensional task.
    fn target_controls(&self) -> Vec<presentation::TargetControl> {
        Vec::new()
    }
    /// Named targets a view offers as one click each.
    fn target_presets(&self) -> Vec<presentation::TargetPreset> {
        Vec::new()
    }
    /// What the robot's contacts must hold at configuration q, when it stands on them.
    fn contact_loads(&self, _q: &[f64]) -> Option<Vec<presentation::ContactLoad>> {
        None
    }
    /// The posture a controller without an optimiser takes for target y (the climber's
    /// untilted, centred stance), to compare an answer's loads with.
    fn neutral_pose(&self, _y: &[f64]) -> Option<Vec<f64>> {
        None
    }
    /// The reachable region as a raster from about `samples` configurations, when the kind
    /// has its own way to fill it (else [`Problem::reachable_region`] samples the box); for a
    /// task of more than two coordinates, the part of the sketch plane a pointer may put the
    /// target in.
    fn reachable_region(&self, _samples: usize) -> Option<region::Region> {
        None
    }
    /// Downcasting for the capabilities only one kind has (the planar landscape, analytic IK).
    fn as_any(&self) -> &dyn Any;
}

/// Draws per configuration before [`Problem::random_configurations`] gives up on it (the
/// climber keeps about 1 in 40).
pub const MAX_DRAWS: usize = 100_000;

/// f(q) and its forward-difference Jacobian (step 1e-7 scaled by |q_i|).
pub fn finite_difference_jacobian<K: Kinematics + ?Sized>(
    kinematics: &K,
    q: &[f64],
    y: &mut [f64],
    jac: &mut [f64],
) {
    let m = y.len();
    kinematics.forward_into(q, y);
    let mut shifted = q.to_vec();
    let mut y_step = vec![0.0; m];
    for i in 0..q.len() {
        let h = 1e-7 * q[i].abs().max(1.0);
        shifted[i] = q[i] + h;
        kinematics.forward_into(&shifted, &mut y_step);
        shifted[i] = q[i];
        for r in 0..m {
            jac[i * m + r] = (y_step[r] - y[r]) / h;
        }
    }
}

/// An IK problem: minimise J(q) subject to f(q) = y and the joint limits.
#[derive(Debug, Clone)]
pub struct Problem {
    kinematics: Arc<dyn Kinematics>,
    cost: CostModel,
}

impl PartialEq for Problem {
    fn eq(&self, other: &Self) -> bool {
        self.kinematics.spec() == other.kinematics.spec() && self.cost.spec() == other.cost.spec()
    }
}

impl Problem {
    /// Binds a cost spec to a kind of problem (each term must apply to it).
    pub fn new(kinematics: Arc<dyn Kinematics>, spec: CostSpec) -> Result<Self> {
        let cost = CostModel::new(spec, kinematics.as_ref())?;
        Ok(Self { kinematics, cost })
    }

    /// The kind behind this problem.
    pub fn kinematics(&self) -> &dyn Kinematics {
        self.kinematics.as_ref()
    }
    /// The shared handle to the kind (cheap to clone).
    pub fn kinematics_arc(&self) -> Arc<dyn Kinematics> {
        Arc::clone(&self.kinematics)
    }
    /// The planar arm, when this is a planar problem.
    pub fn planar(&self) -> Option<&planar::PlanarArm> {
        self.kinematics.as_any().downcast_ref()
    }
    /// The cost bound to it.
    pub fn cost(&self) -> &CostModel {
        &self.cost
    }
    /// Name of the problem.
    pub fn name(&self) -> &str {
        self.kinematics.name()
    }
    /// Number of joints n.
    pub fn dof(&self) -> usize {
        self.kinematics.limits().len()
    }
    /// Task dimension m.
    pub fn task_dim(&self) -> usize {
        self.kinematics.task_dim()
    }
    /// The joint box.
    pub fn limits(&self) -> &JointLimits {
        self.kinematics.limits()
    }
    /// The spec that rebuilds it.
    pub fn spec(&self) -> ProblemSpec {
        self.kinematics.spec()
    }
    /// Where a view of this problem opens ([`Kinematics::default_target`]).
    pub fn default_target(&self) -> Vec<f64> {
        self.kinematics.default_target()
    }
    /// Whether answers can be replayed through a forward map.
    pub fn replayable(&self) -> bool {
        self.kinematics.replayable()
    }

    /// Checks a target: m entries, finite, each at most [`MAX_TARGET_MAGNITUDE`] in size.
    pub fn check_target(&self, target: &[f64]) -> Result<()> {
        ensure_len("target", target, self.task_dim())?;
        ensure_finite("target", target)?;
        if let Some(&v) = target.iter().find(|v| v.abs() > MAX_TARGET_MAGNITUDE) {
            return Err(LoinkError::OutOfRange {
                what: "target".into(),
                detail: format!("|{v}| exceeds {MAX_TARGET_MAGNITUDE}"),
            });
        }
        Ok(())
    }

    /// Checks a configuration: n entries, all finite.
    pub fn check_q(&self, q: &[f64]) -> Result<()> {
        ensure_len("joint vector", q, self.dof())?;
        ensure_finite("joint vector", q)
    }

    /// f(q), checked (an error for a problem without a forward map).
    pub fn forward(&self, q: &[f64]) -> Result<Vec<f64>> {
        self.check_q(q)?;
        if !self.replayable() {
            return Err(LoinkError::Unsupported {
                what: "forward map".into(),
                reason: format!("'{}' is known only through data", self.name()),
            });
        }
        Ok(self.position(q))
    }

    /// f(q) without checks, for inner loops whose input was validated once.
    pub fn position(&self, q: &[f64]) -> Vec<f64> {
        let mut y = vec![0.0; self.task_dim()];
        self.kinematics.forward_into(q, &mut y);
        y
    }

    /// f(q) into a caller's buffer, without checks.
    pub fn position_into(&self, q: &[f64], y: &mut [f64]) {
        self.kinematics.forward_into(q, y);
    }

    /// The closest pose within the limits to `y` (a bad target, or a kind that cannot find it:
    /// `None`).
    pub fn closest_pose(&self, y: &[f64]) -> Option<Vec<f64>> {
        self.check_target(y).ok()?;
        self.kinematics.closest_pose(self, y)
    }

    /// `count` reachable targets f(q), q uniform in the box (one draw per joint, in order) and
    /// inside the kind's domain, from `rng`: the evaluation targets of every benchmark
    /// (`docs/planar3.md`).
    pub fn random_targets<R: rand::Rng>(&self, count: usize, rng: &mut R) -> Vec<Vec<f64>> {
        self.random_configurations(count, rng)
            .iter()
            .map(|q| self.position(q))
            .collect()
    }

    /// `count` configurations uniform in the box and inside the kind's useful domain (drawn by
    /// rejection: at most [`MAX_DRAWS`] draws per configuration, so a kind whose domain is
    /// almost empty yields fewer).
    pub fn random_configurations<R: rand::Rng>(&self, count: usize, rng: &mut R) -> Vec<Vec<f64>> {
        let limits = self.limits();
        let mut out = Vec::with_capacity(count);
        for _ in 0..count {
            for _ in 0..MAX_DRAWS {
                let q: Vec<f64> = (0..limits.len())
                    .map(|i| rng.random_range(limits.lower()[i]..=limits.upper()[i]))
                    .collect();
                if self.kinematics.in_domain(&q) {
                    out.push(q);
                    break;
                }
            }
        }
        out
    }

    /// The reachable region: the kind's own raster (of the sketch plane, for a kind whose task
    /// has more coordinates), or the images of a lattice of the box on the task's first two
    /// coordinates inside their bounding square (5 % margin; a 3-D arm's workspace seen from
    /// above). `None` for a problem without a forward map.
    pub fn reachable_region(&self, samples: usize) -> Option<region::Region> {
        if let Some(region) = self.kinematics.reachable_region(samples) {
            return Some(region);
        }
        // Only kinds other than the planar arms (which fill their own) sample their box: the
        // page's slim bundle, built without them, carries no sampler.
        #[cfg(any(feature = "model-free", feature = "chain", feature = "climber"))]
        if self.task_dim() >= 2 && self.replayable() {
            let bounds = self.task_bounds(samples.clamp(1_000, 20_000))?;
            return Some(region::Region::sample_box(self, bounds, samples));
        }
        None
    }

    /// Per task coordinate, the range [lo, hi] of the images of a lattice of about `samples`
    /// configurations of the box (m entries; empty for a problem without a forward map).
    pub fn task_box(&self, samples: usize) -> Vec<[f64; 2]> {
        let m = self.task_dim();
        if !self.replayable() {
            return Vec::new();
        }
        let limits = self.limits();
        let n = limits.len();
        let mut ranges = vec![[f64::INFINITY, f64::NEG_INFINITY]; m];
        let mut y = vec![0.0; m];
        let per_joint =
            ((samples.max(2) as f64).powf(1.0 / n.max(1) as f64).ceil() as usize).max(2);
        let mut index = vec![0usize; n];
        loop {
            let u: Vec<f64> = index
                .iter()
                .map(|&k| k as f64 / (per_joint - 1) as f64)
                .collect();
            self.position_into(&limits.at_unit(&u), &mut y);
            for (range, v) in ranges.iter_mut().zip(&y) {
                range[0] = range[0].min(*v);
                range[1] = range[1].max(*v);
            }
            let Some(j) = index.iter().position(|&k| k + 1 < per_joint) else {
                break;
            };
            index[j] += 1;
            index[..j].iter_mut().for_each(|k| *k = 0);
        }
        ranges
    }

    /// A square around [`Self::task_box`] with a 5 % margin, `[x0, x1, y0, y1]`: where the page
    /// looks at a two-dimensional task without its own view. `None` for other task dimensions.
    pub fn task_bounds(&self, samples: usize) -> Option<[f64; 4]> {
        let [[x0, x1], [y0, y1], ..] = self.task_box(samples)[..] else {
            return None;
        };
        let centre = [(x0 + x1) / 2.0, (y0 + y1) / 2.0];
        let half = 0.5 * (x1 - x0).max(y1 - y0).max(1e-9) * 1.05;
        Some([
            centre[0] - half,
            centre[0] + half,
            centre[1] - half,
            centre[1] + half,
        ])
    }
}
