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

pub mod capability;
#[cfg(feature = "chain")]
pub mod chain;
#[cfg(feature = "climber")]
pub mod climber;
pub mod collision_picture;
#[cfg(feature = "data-only")]
pub mod data;
pub mod entry;
pub mod jacobian;
pub mod limits;
pub mod planar;
pub mod presentation;
pub mod reachable;
pub mod region;
pub mod registry;
pub mod restore;
pub mod sketch;
#[cfg(feature = "soft-arm")]
pub mod soft4;
pub mod spec;
pub mod task_space;

use std::any::Any;
use std::fmt::Debug;
use std::sync::Arc;

pub use capability::{AnswerSweep, Basics, Capabilities, DlsTuning, Profile, View};
pub use limits::JointLimits;
pub use sketch::{Shape, Sketch, Stroke};
pub use spec::ProblemSpec;
pub use task_space::{Measure, Miss, TaskSpace, Unit};

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

/// One kind of problem: what it is (its joints, its task space, its facts: [`Basics`]), its
/// forward map and Jacobian, its reachability verdict and the cost terms only it can
/// evaluate. Everything else a kind may offer is a capability ([`Capabilities`]) asked for
/// when needed.
///
/// Implementations are immutable and shareable across threads (the CLI's reference pass runs
/// in parallel). Slices passed to the unchecked methods have the right lengths: [`Problem`]
/// checks inputs once at its boundary.
pub trait Kinematics: Debug + Send + Sync + 'static {
    /// What the kind is, as data: its tag, name, joint box (n), task space (m, units, scales,
    /// the error measure, the columns) and profile ([`Basics`]).
    fn basics(&self) -> &Basics;
    /// The spec that rebuilds this problem (what a model file stores).
    fn spec(&self) -> ProblemSpec;
    /// y = f(q) into `y` (m entries); q has n entries.
    fn forward_into(&self, q: &[f64], y: &mut [f64]);
    /// f(q) into `y` and the Jacobian, column-major (`jac[i·m + r]`), in the task space's
    /// tangent coordinates ([`TaskSpace::difference_into`]: ∂y_r/∂q_i for a Euclidean task).
    /// The default is forward differences (n + 1 forward calls).
    fn jacobian_into(&self, q: &[f64], y: &mut [f64], jac: &mut [f64]) {
        finite_difference_jacobian(self, q, y, jac);
    }
    /// The kind's verdict on target y: with `search` `None` a cheap exact test (e.g. outside
    /// an arm's reach), with the problem given its full decision where it has one (a dense
    /// sweep of the self-motion set); [`Reachability::Unknown`] otherwise — never a guess.
    fn reachability(&self, _y: &[f64], _search: Option<&Problem>) -> Reachability {
        Reachability::Unknown
    }
    /// A cost term only this kind can evaluate (a planar arm's centre of mass); `None` when the
    /// term does not apply to it.
    fn cost_term(&self, _term: &TermSpec) -> Option<Arc<dyn CostTerm>> {
        None
    }
    /// The whole cost as one term when every term is this kind's and they share work (the
    /// climber's parts share one stance); it adds each term's value and gradient in their
    /// order, the same bits as the terms one by one. `None` (the default): one term each.
    fn cost_terms_together(&self, _terms: &[TermSpec]) -> Option<Arc<dyn CostTerm>> {
        None
    }
    /// The capabilities it offers (none by default).
    fn capabilities(&self) -> Capabilities<'_> {
        Capabilities::default()
    }
    /// Downcasting, for the lessons about one kind (the planar arms).
    fn as_any(&self) -> &dyn Any;
}

impl dyn Kinematics {
    /// The kind's tag in model files (`planar`, `chain`, …).
    pub fn kind(&self) -> &'static str {
        self.basics().kind
    }
    /// Preset or user-given name.
    pub fn name(&self) -> &str {
        &self.basics().name
    }
    /// The joint box (its length is n).
    pub fn limits(&self) -> &JointLimits {
        &self.basics().limits
    }
    /// The task space.
    pub fn task(&self) -> &TaskSpace {
        &self.basics().task
    }
    /// The kind's facts.
    pub fn profile(&self) -> &Profile {
        &self.basics().profile
    }
}

/// Draws per configuration before [`Problem::random_configurations`] gives up on it (the
/// climber keeps about 1 in 40).
pub const MAX_DRAWS: usize = 100_000;

/// f(q) and its forward-difference Jacobian in the task's tangent coordinates (step 1e-7
/// scaled by |q_i|).
pub fn finite_difference_jacobian<K: Kinematics + ?Sized>(
    kinematics: &K,
    q: &[f64],
    y: &mut [f64],
    jac: &mut [f64],
) {
    let m = y.len();
    kinematics.forward_into(q, y);
    let task = &kinematics.basics().task;
    let mut shifted = q.to_vec();
    let mut y_step = vec![0.0; m];
    let mut step = vec![0.0; m];
    for i in 0..q.len() {
        let h = 1e-7 * q[i].abs().max(1.0);
        shifted[i] = q[i] + h;
        kinematics.forward_into(&shifted, &mut y_step);
        shifted[i] = q[i];
        task.difference_into(&y_step, y, &mut step);
        for r in 0..m {
            jac[i * m + r] = step[r] / h;
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
        self.kinematics.task().dim()
    }
    /// The task space (the kind's [`Basics::task`]).
    pub fn task(&self) -> &TaskSpace {
        self.kinematics.task()
    }
    /// The kind's facts (its [`Basics::profile`]).
    pub fn profile(&self) -> &Profile {
        self.kinematics.profile()
    }
    /// The kind's capabilities ([`Kinematics::capabilities`]).
    pub fn capabilities(&self) -> Capabilities<'_> {
        self.kinematics.capabilities()
    }
    /// Radius of a ball holding the workspace (task units): the scale of "far".
    pub fn workspace_radius(&self) -> f64 {
        self.kinematics.profile().workspace_radius
    }
    /// How far `reached` is from `target` ([`TaskSpace::miss`]).
    pub fn miss(&self, target: &[f64], reached: &[f64]) -> Miss {
        self.kinematics.task().miss(target, reached)
    }
    /// The joint box.
    pub fn limits(&self) -> &JointLimits {
        self.kinematics.limits()
    }
    /// The spec that rebuilds it.
    pub fn spec(&self) -> ProblemSpec {
        self.kinematics.spec()
    }
    /// Where a view of this problem opens: the kind's own default target, else the image of
    /// the box's centre, f((lower + upper) / 2).
    pub fn default_target(&self) -> Vec<f64> {
        if let Some(target) = &self.kinematics.profile().default_target {
            return target.clone();
        }
        let mut y = vec![0.0; self.task_dim()];
        if self.replayable() {
            self.kinematics
                .forward_into(&self.limits().centres(), &mut y);
        }
        y
    }
    /// Whether answers can be replayed through a forward map.
    pub fn replayable(&self) -> bool {
        self.kinematics.profile().replayable
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
        self.capabilities().search?.closest_pose(self, y)
    }

    /// Every answer for target y along one joint swept over `steps` values (the pieces of the
    /// set of answers; see [`AnswerSweep`]); `None` for a bad target or a kind without one.
    pub fn answer_sweep(&self, y: &[f64], steps: usize) -> Option<AnswerSweep> {
        self.check_target(y).ok()?;
        self.capabilities().search?.answer_sweep(self, y, steps)
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
        let domain = self.capabilities().domain;
        let mut out = Vec::with_capacity(count);
        for _ in 0..count {
            for _ in 0..MAX_DRAWS {
                let q: Vec<f64> = (0..limits.len())
                    .map(|i| rng.random_range(limits.lower()[i]..=limits.upper()[i]))
                    .collect();
                if domain.is_none_or(|d| d.contains(&q)) {
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
        if let Some(region) = self.capabilities().plane().and_then(|v| v.region(samples)) {
            return Some(region);
        }
        // Only kinds without a region of their own sample their box (feature `box-region`, which
        // those kinds enable): the page's slim bundle carries no sampler.
        #[cfg(feature = "box-region")]
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
