//! `chain`: a serial robot read from its URDF (any chain of revolute, continuous and prismatic
//! joints), the Franka Panda and TIAGo's arm among the presets. docs/panda.md defines the
//! `panda` problem.
//!
//! Symbols: q ∈ Rⁿ the movable joints; T_i the transform of joint i's frame in the base frame,
//! T_i = T_{i−1} · M_{i−1}(q_{i−1}) · O_i with O_i the joint's fixed origin and M the motion
//! about (or along) its axis a_i; y = T_n · M_n(q_n) · O_tip · 0, the tip's position (m = 3).
//! The Jacobian's column i is a_i × (y − p_i) for a rotation (a_i and p_i, the axis and origin
//! of joint i in the base frame) and a_i for a translation.
//!
//! - this file: [`SerialChain`] and its [`Kinematics`] implementation (forward kinematics and
//!   the analytic Jacobian on fixed-size arrays: no allocation per call);
//! - [`frame`]: rigid transforms; [`spec`]: the chain spec a model file stores;
//! - [`urdf`] (feature `urdf`, native): the URDF reader that makes a chain spec, and the
//!   presets (`panda`, `tiago`) from the URDF files shipped in `robots/`.

pub mod collision;
pub mod frame;
pub mod panda_ik;
pub mod spec;
pub mod sweep;
mod task;
#[cfg(feature = "urdf")]
pub mod urdf;
#[cfg(feature = "urdf")]
pub mod urdf_file;

use std::any::Any;

use super::capability::{Domain, Search, SpaceView};
use super::{
    Basics, Capabilities, DlsTuning, JointLimits, Kinematics, Problem, ProblemSpec, Profile,
    Reachability, TaskSpace, View,
};
use crate::error::{LoinkError, Result};
pub use frame::Frame;
use spec::Drive;
pub use spec::{ChainJoint, ChainSource, ChainSpec, HeldJoint, JointType, Mimic, Task};
use task::TaskColumns;

/// The kind's tag in model files.
pub const KIND: &str = "chain";
/// The serial chains in the registry: the presets read from `robots/` (feature `urdf`), each
/// with the joint centring of docs/panda.md.
pub const REGISTRY_ENTRY: super::entry::KindEntry = super::entry::KindEntry {
    kind: KIND,
    presets: PRESETS,
    build: |spec, limits| {
        let Some(chain) = &spec.chain else {
            return Err(LoinkError::OutOfRange {
                what: "chain problem".into(),
                detail: "the spec has no `chain`".into(),
            });
        };
        let chain = SerialChain::new(&spec.name, (**chain).clone(), limits)?;
        Ok(std::sync::Arc::new(chain))
    },
    preset,
};
#[cfg(feature = "urdf")]
const PRESETS: &[&str] = &urdf::PRESETS;
#[cfg(not(feature = "urdf"))]
const PRESETS: &[&str] = &[];

/// One of [`PRESETS`] with the joint centring.
fn preset(name: &str) -> Result<super::entry::Preset> {
    #[cfg(feature = "urdf")]
    if let Some(chain) = urdf::preset(name) {
        let chain = chain?;
        let cost = if chain.chain().collision.is_some() {
            crate::cost::CostSpec::with_collisions()
        } else {
            crate::cost::CostSpec::joint_centring()
        };
        return Ok((std::sync::Arc::new(chain), cost));
    }
    Err(LoinkError::UnknownRobot {
        name: name.into(),
        known: PRESETS.join(", "),
    })
}

/// The reference's starts on a chain with a collision model: clear neighbours of the target,
/// then spread starts. On 20 targets under the shelf, 48 neighbours and 16 spread starts left 2
/// more than 1 % above IPOPT's best of 16; 16 and 16, 8; 64 spread starts alone, 10
/// (docs/collision.md).
const COLLISION_NEAR_STARTS: usize = 48;
const COLLISION_SPREAD_STARTS: usize = 16;

/// Most movable joints a chain may have (a bound on hostile files, far above any arm).
pub const MAX_JOINTS: usize = 64;
/// How far a stored rotation may be from orthonormal, or an axis from unit length.
const UNIT_TOLERANCE: f64 = 1e-9;

/// A serial chain with its joint box (see the module docs).
#[derive(Debug, Clone, PartialEq)]
pub struct SerialChain {
    chain: ChainSpec,
    /// The variables' names: the free joints', and the sources' of joints following a joint off
    /// the chain, in chain order.
    variables: Vec<String>,
    /// How each movable joint takes its value from q.
    drives: Vec<Drive>,
    /// Whether some joint follows another (the Jacobian then sums the columns of each
    /// variable's joints).
    coupled: bool,
    /// p_1, the first movable joint's origin in the base frame (nothing moves it).
    first_origin: [f64; 3],
    /// An upper bound of |y − p_1| over every q in the box.
    reach: f64,
    basics: Basics,
    /// The closed-form inverse of a Panda chain whose task turns the hand (the reference's
    /// seeds: [`sweep`]).
    panda: Option<panda_ik::PandaIk>,
    /// The clear configurations the reference starts from on a chain with a collision model
    /// (made on first use: [`collision::seeds`]).
    clear_pool: std::sync::OnceLock<Vec<(Vec<f64>, [f64; 3])>>,
    /// The collision model flattened for evaluation, built once with the chain: the domain
    /// test, the clearance and both cost terms read it.
    collision_layout: Option<std::sync::Arc<collision::placed::Layout>>,
}

impl SerialChain {
    /// The chain `chain` with joint box `limits` (one interval per variable: each free joint,
    /// and each source off the chain of a joint that follows one), validated: finite origins,
    /// rotations and axes, unit axes, at least one and at most [`MAX_JOINTS`] movable joints,
    /// mimics that name a variable.
    pub fn new(name: &str, chain: ChainSpec, limits: JointLimits) -> Result<Self> {
        let n = chain.joints.len();
        if n == 0 || n > MAX_JOINTS {
            return Err(LoinkError::OutOfRange {
                what: "chain joints".into(),
                detail: format!("{n} movable joints (a chain has 1..={MAX_JOINTS})"),
            });
        }
        let (variables, drives) =
            spec::drives(&chain.joints).map_err(|detail| LoinkError::OutOfRange {
                what: "the chain's mimic joints".into(),
                detail,
            })?;
        if limits.len() != variables.len() {
            return Err(LoinkError::Dimension {
                what: "chain joint limits".into(),
                expected: variables.len(),
                got: limits.len(),
            });
        }
        let frames = chain
            .joints
            .iter()
            .map(|j| (j.name.as_str(), &j.origin))
            .chain(std::iter::once((chain.tip.as_str(), &chain.tip_origin)));
        for (what, frame) in frames {
            check_frame(what, frame)?;
        }
        for joint in &chain.joints {
            let norm = frame::length(joint.axis);
            if !(norm - 1.0).abs().le(&UNIT_TOLERANCE) {
                return Err(LoinkError::OutOfRange {
                    what: format!("axis of joint '{}'", joint.name),
                    detail: format!("length {norm} (must be a unit vector)"),
                });
            }
        }
        for (what, angle) in [("cone", chain.cone), ("cover", chain.cover)] {
            if let Some(angle) = angle.filter(|a| !(*a > 0.0 && *a <= 180.0)) {
                return Err(LoinkError::OutOfRange {
                    what: format!("the chain's {what}"),
                    detail: format!("{angle}° (a half-angle in (0, 180])"),
                });
            }
        }
        if chain.cover.is_some() && chain.task != Task::Pose {
            return Err(LoinkError::OutOfRange {
                what: "the chain's cover".into(),
                detail: "narrows a pose task's orientations only".into(),
            });
        }
        if let Some(collision) = &chain.collision {
            collision.validate(n)?;
        }
        if let Some([lo, hi]) = &chain.workspace {
            crate::error::ensure_finite(
                "the chain's workspace",
                &[lo.as_slice(), hi.as_slice()].concat(),
            )?;
            if (0..3).any(|k| lo[k] >= hi[k]) {
                return Err(LoinkError::OutOfRange {
                    what: "the chain's workspace".into(),
                    detail: format!("lower {lo:?} is not below upper {hi:?}"),
                });
            }
        }
        if let Some(held) = chain.held.iter().find(|h| !h.value.is_finite()) {
            return Err(LoinkError::NonFinite {
                what: format!("held joint '{}'", held.name),
                value: held.value,
            });
        }
        let prismatic_travel: f64 = chain
            .joints
            .iter()
            .zip(&drives)
            .filter(|(j, _)| !j.joint_type.rotates())
            .map(|(_, d)| {
                let (lo, hi) = (limits.lower()[d.variable], limits.upper()[d.variable]);
                (d.multiplier * lo + d.offset)
                    .abs()
                    .max((d.multiplier * hi + d.offset).abs())
            })
            .sum();
        let links: f64 = chain.joints[1..]
            .iter()
            .map(|j| frame::length(j.origin.xyz))
            .sum::<f64>()
            + frame::length(chain.tip_origin.xyz);
        let first_origin = chain.joints[0].origin.xyz;
        let reach = links + prismatic_travel;
        let coupled = drives
            .iter()
            .enumerate()
            .any(|(i, d)| d.variable != i || d.multiplier != 1.0 || d.offset != 0.0);
        let mut turning = vec![true; variables.len()];
        for (joint, drive) in chain.joints.iter().zip(&drives) {
            turning[drive.variable] &=
                joint.joint_type.rotates() && drive.multiplier.fract() == 0.0;
        }
        let mut profile = profile(&chain, first_origin, reach);
        profile.turning = turning;
        let mut built = SerialChain {
            variables,
            drives,
            coupled,
            first_origin,
            reach,
            basics: Basics {
                kind: KIND,
                name: name.to_string(),
                limits,
                task: TaskSpace::points(3),
                profile,
            },
            chain,
            panda: None,
            clear_pool: std::sync::OnceLock::new(),
            collision_layout: None,
        };
        built.collision_layout = built
            .chain
            .collision
            .as_ref()
            .map(|spec| std::sync::Arc::new(collision::placed::Layout::new(spec, n)));
        let space = task::space(
            &built.chain,
            |q| built.walk(q, |_, _| ()),
            &built.basics.limits,
        )?;
        built.basics.task = space;
        if built.basics.task.has_angle() {
            built.panda = panda_ik::PandaIk::of(&built.chain, &built.basics.limits);
        }
        Ok(built)
    }

    /// The chain spec.
    pub fn chain(&self) -> &ChainSpec {
        &self.chain
    }

    /// The variables' names, in the order of q: each free joint's, and for a joint that follows
    /// a joint off the chain, that source's.
    pub fn joint_names(&self) -> impl Iterator<Item = &str> {
        self.variables.iter().map(String::as_str)
    }

    /// An upper bound of the tip's distance from the first joint's origin (m).
    pub fn reach(&self) -> f64 {
        self.reach
    }

    /// The first movable joint's origin in the base frame.
    pub fn first_origin(&self) -> [f64; 3] {
        self.first_origin
    }

    /// Every movable joint's origin, then the tip, in the base frame (one point per movable
    /// joint, and the tip): the arm as a polyline, for drawing.
    pub fn points(&self, q: &[f64]) -> Vec<[f64; 3]> {
        let mut points = Vec::with_capacity(self.drives.len() + 1);
        let tip = self.walk(q, |_, frame| points.push(frame.xyz));
        points.push(tip.xyz);
        points
    }

    /// Where a view of this chain opens (`target` in the task's coordinates, checked).
    pub fn with_default_target(mut self, target: Vec<f64>) -> Result<Self> {
        crate::error::ensure_len("default target", &target, self.basics.task.dim())?;
        crate::error::ensure_finite("default target", &target)?;
        self.basics.profile.default_target = Some(target);
        Ok(self)
    }

    /// The Jacobian of a chain with joints that follow others: each variable's column is the
    /// sum of its joints' columns, each times its multiplier (two walks, no allocation).
    fn coupled_jacobian_into(&self, q: &[f64], y: &mut [f64], jac: &mut [f64]) {
        let tip = self.walk(q, |_, _| ());
        self.task_coordinates(&tip, y);
        let columns = TaskColumns::at(self.chain.task, &tip);
        let m = y.len();
        jac.iter_mut().for_each(|v| *v = 0.0);
        let mut column = [0.0; 6];
        self.walk(q, |i, frame| {
            let joint = &self.chain.joints[i];
            let drive = self.drives[i];
            let axis = frame.rotate(joint.axis);
            columns.write(
                joint.joint_type.rotates(),
                axis,
                frame.xyz,
                &mut column[..m],
            );
            let target = &mut jac[m * drive.variable..m * (drive.variable + 1)];
            for (t, c) in target.iter_mut().zip(&column[..m]) {
                *t += drive.multiplier * c;
            }
        });
    }

    /// The task coordinates of the tip's frame into `y`.
    fn task_coordinates(&self, tip: &Frame, y: &mut [f64]) {
        task::coordinates(&self.basics.task, tip, y);
    }

    /// The segment frames at q (segment 0 the base, i + 1 the frame joint i moves) into
    /// `frames`, and each movable joint's axis and origin in the base frame into `axes`.
    pub fn segments_into(
        &self,
        q: &[f64],
        frames: &mut Vec<Frame>,
        axes: &mut Vec<collision::cost::JointAxis>,
    ) {
        frames.clear();
        axes.clear();
        frames.push(Frame::IDENTITY);
        if q.len() != self.variables.len() {
            return;
        }
        let mut frame = Frame::IDENTITY;
        for (joint, drive) in self.chain.joints.iter().zip(&self.drives) {
            frame = frame.then(&joint.origin);
            let rotates = joint.joint_type.rotates();
            axes.push(collision::cost::JointAxis {
                axis: frame.rotate(joint.axis),
                origin: frame.xyz,
                rotates,
                variable: drive.variable,
                multiplier: drive.multiplier,
            });
            let qi = drive.value(q);
            let motion = if rotates {
                Frame::rotation_about(joint.axis, qi)
            } else {
                Frame::translation_along(joint.axis, qi)
            };
            frame = frame.then(&motion);
            frames.push(frame);
        }
    }

    /// The smallest sphere distance of posture q and what it separates (`None`: the chain has no
    /// collision model, or q has the wrong length).
    pub fn clearance(&self, q: &[f64]) -> Option<collision::Clearance> {
        let (spec, layout) = (self.chain.collision.as_ref()?, self.collision_layout()?);
        if q.len() != self.variables.len() {
            return None;
        }
        let frames = collision::cost::segment_frames(self, q);
        layout.place(&frames).clearance(layout, spec)
    }

    /// The collision model flattened for evaluation (`None`: the chain has none).
    pub fn collision_layout(&self) -> Option<&collision::placed::Layout> {
        self.collision_layout.as_deref()
    }

    /// Walks the chain at q: calls `visit(i, T_i)` with each movable joint's frame before its
    /// motion, and returns the tip's frame.
    #[inline]
    fn walk(&self, q: &[f64], mut visit: impl FnMut(usize, &Frame)) -> Frame {
        let mut frame = Frame::IDENTITY;
        for (i, (joint, drive)) in self.chain.joints.iter().zip(&self.drives).enumerate() {
            let qi = drive.value(q);
            frame = frame.then(&joint.origin);
            visit(i, &frame);
            let motion = if joint.joint_type.rotates() {
                Frame::rotation_about(joint.axis, qi)
            } else {
                Frame::translation_along(joint.axis, qi)
            };
            frame = frame.then(&motion);
        }
        frame.then(&self.chain.tip_origin)
    }
}

/// Checks one stored transform: finite, its rotation orthonormal.
fn check_frame(what: &str, frame: &Frame) -> Result<()> {
    crate::error::ensure_finite(&format!("origin of '{what}'"), &frame.xyz)?;
    crate::error::ensure_finite(&format!("rotation of '{what}'"), &frame.rotation)?;
    let error = frame.orthonormality_error();
    if error > UNIT_TOLERANCE {
        return Err(LoinkError::OutOfRange {
            what: format!("rotation of '{what}'"),
            detail: format!("not orthonormal (|RᵀR − I| = {error:.3e})"),
        });
    }
    Ok(())
}

impl Kinematics for SerialChain {
    fn basics(&self) -> &Basics {
        &self.basics
    }
    fn spec(&self) -> ProblemSpec {
        ProblemSpec {
            chain: Some(Box::new(self.chain.clone())),
            ..ProblemSpec::with_box(KIND, &self.basics.name, &self.basics.limits)
        }
    }
    fn cost_term(
        &self,
        term: &crate::cost::TermSpec,
    ) -> Option<std::sync::Arc<dyn crate::cost::CostTerm>> {
        use collision::cost::{CollisionTerm, Which};
        let which = match term.term {
            crate::cost::Term::SelfCollision => Which::SelfPairs,
            crate::cost::Term::SceneCollision => Which::Scene,
            _ => return None,
        };
        let built = CollisionTerm::new(self, which, term.weight)?;
        Some(std::sync::Arc::new(built))
    }
    fn forward_into(&self, q: &[f64], y: &mut [f64]) {
        let tip = self.walk(q, |_, _| ());
        self.task_coordinates(&tip, y);
    }
    fn jacobian_into(&self, q: &[f64], y: &mut [f64], jac: &mut [f64]) {
        // Each column needs the tip. Up to STACK_JOINTS joints, one walk keeps every joint's
        // world axis and origin on the stack; a longer chain walks twice rather than allocate.
        const STACK_JOINTS: usize = 8;
        if self.coupled {
            return self.coupled_jacobian_into(q, y, jac);
        }
        if q.len() <= STACK_JOINTS {
            let mut axes = [([0.0; 3], [0.0; 3]); STACK_JOINTS];
            let tip = self.walk(q, |i, frame| {
                axes[i] = (frame.rotate(self.chain.joints[i].axis), frame.xyz);
            });
            self.task_coordinates(&tip, y);
            let columns = TaskColumns::at(self.chain.task, &tip);
            let m = y.len();
            for (i, (axis, origin)) in axes[..q.len()].iter().enumerate() {
                let rotates = self.chain.joints[i].joint_type.rotates();
                columns.write(rotates, *axis, *origin, &mut jac[m * i..m * (i + 1)]);
            }
            return;
        }
        let tip = self.walk(q, |_, _| ());
        self.task_coordinates(&tip, y);
        let columns = TaskColumns::at(self.chain.task, &tip);
        let m = y.len();
        self.walk(q, |i, frame| {
            let joint = &self.chain.joints[i];
            let axis = frame.rotate(joint.axis);
            columns.write(
                joint.joint_type.rotates(),
                axis,
                frame.xyz,
                &mut jac[m * i..m * (i + 1)],
            );
        });
    }
    /// Proved unreachable only by position: beyond the sum of the links (and a rounding
    /// margin) no q reaches. An orientation is never proved out of reach here.
    fn reachability(&self, y: &[f64], _search: Option<&Problem>) -> Reachability {
        let d = [
            y[0] - self.first_origin[0],
            y[1] - self.first_origin[1],
            y[2] - self.first_origin[2],
        ];
        if frame::length(d) > self.reach * (1.0 + 1e-12) + 1e-12 {
            Reachability::Unreachable
        } else {
            Reachability::Unknown
        }
    }
    fn capabilities(&self) -> Capabilities<'_> {
        Capabilities {
            view: Some(View::Space(self)),
            search: (self.panda.is_some() || self.chain.collision.is_some())
                .then_some(self as &dyn Search),
            domain: (self.chain.cone.is_some()
                || self.chain.cover.is_some()
                || self.chain.workspace.is_some())
            .then_some(self as &dyn Domain),
            ..Capabilities::default()
        }
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// The Panda's pose and axis tasks: the reference starts from its closed-form answers swept
/// over q7 ([`sweep`]).
impl Search for SerialChain {
    fn reference_seeds(&self, problem: &Problem, y: &[f64]) -> Option<Vec<Vec<f64>>> {
        if self.chain.collision.is_some()
            && self.basics.task.measure() == crate::problem::Measure::Distance
        {
            // Clear neighbours (and the reference's spread starts: a target far from them all).
            let pool = self
                .clear_pool
                .get_or_init(|| collision::seeds::clear_pool(self));
            return Some(collision::seeds::nearest(pool, y, COLLISION_NEAR_STARTS));
        }
        let ik = self.panda.as_ref()?;
        let task = &self.basics.task;
        let position = [y[0], y[1], y[2]];
        match task.measure() {
            crate::problem::Measure::Pose { .. } => {
                let rotation = task.quaternion(y)?.to_matrix();
                Some(sweep::pose_seeds(ik, problem, position, &rotation))
            }
            crate::problem::Measure::Axis => {
                Some(sweep::axis_seeds(ik, problem, position, task.tool_axis(y)?))
            }
            crate::problem::Measure::Distance => None,
        }
    }

    fn reference_spread_starts(&self) -> usize {
        if self.chain.collision.is_some() {
            COLLISION_SPREAD_STARTS
        } else {
            0
        }
    }

    fn has_closed_form_search(&self) -> bool {
        self.panda.is_some()
            && matches!(
                self.basics.task.measure(),
                crate::problem::Measure::Pose { .. }
            )
    }

    fn closed_form_search(
        &self,
        problem: &Problem,
        y: &[f64],
        grid: usize,
        keep: usize,
    ) -> Option<crate::problem::capability::ClosedFormAnswer> {
        let (ik, hand) = self.pose_target(y)?;
        Some(sweep::pose_search(
            ik,
            problem,
            (hand.0, &hand.1),
            grid,
            keep,
        ))
    }

    fn answer_sweep(
        &self,
        problem: &Problem,
        y: &[f64],
        steps: usize,
    ) -> Option<crate::problem::capability::AnswerSweep> {
        let (ik, hand) = self.pose_target(y)?;
        Some(sweep::pose_pieces(ik, problem, (hand.0, &hand.1), steps))
    }
}

impl SerialChain {
    /// The Panda's closed form and the hand's position and rotation that pose target y asks
    /// for (None: no closed form, or not a pose task).
    fn pose_target(
        &self,
        y: &[f64],
    ) -> Option<(&panda_ik::PandaIk, ([f64; 3], crate::so3::Matrix3))> {
        let ik = self.panda.as_ref()?;
        let task = &self.basics.task;
        if !matches!(task.measure(), crate::problem::Measure::Pose { .. }) || y.len() != 6 {
            return None;
        }
        let rotation = task.quaternion(y)?.to_matrix();
        Some((ik, ([y[0], y[1], y[2]], rotation)))
    }
}

/// A chain narrowed to a cone of hand orientations (the tabletop set): configurations whose tip
/// z axis lies within the cone's half-angle of straight down.
impl Domain for SerialChain {
    fn contains(&self, q: &[f64]) -> bool {
        let tip = self.walk(q, |_, _| ());
        let in_cone = self
            .chain
            .cone
            .is_none_or(|cone| (-tip.rotation[8]).clamp(-1.0, 1.0).acos() <= cone.to_radians());
        let covered = self.chain.cover.is_none_or(|cover| {
            let mut y = [0.0; 6];
            self.task_coordinates(&tip, &mut y);
            crate::so3::norm([y[3], y[4], y[5]]) <= cover.to_radians()
        });
        let placed = self.chain.workspace.is_none_or(|[lo, hi]| {
            (0..3).all(|k| tip.xyz[k] >= lo[k] && tip.xyz[k] <= hi[k])
                && self.clearance(q).is_none_or(|c| c.is_clear())
        });
        in_cone && covered && placed
    }

    fn covers(&self, y: &[f64]) -> bool {
        let task = &self.basics.task;
        let in_cone = self.chain.cone.is_none_or(|cone| {
            task.tool_axis(y)
                .is_some_and(|z| (-z[2]).clamp(-1.0, 1.0).acos() <= cone.to_radians())
        });
        let covered = self.chain.cover.is_none_or(|cover| {
            y.len() == 6 && crate::so3::norm([y[3], y[4], y[5]]) <= cover.to_radians()
        });
        let placed = self
            .chain
            .workspace
            .is_none_or(|[lo, hi]| y.len() >= 3 && (0..3).all(|k| y[k] >= lo[k] && y[k] <= hi[k]));
        in_cone && covered && placed
    }
}

impl SpaceView for SerialChain {
    fn skeleton(&self, q: &[f64]) -> Vec<[f64; 3]> {
        let mut points = vec![[0.0; 3]];
        points.extend(self.points(q));
        points
    }
    fn reach_ball(&self) -> ([f64; 3], f64) {
        (self.first_origin, self.reach)
    }
    fn hand_frame(&self, q: &[f64]) -> Option<([f64; 3], [f64; 9])> {
        (q.len() == self.variables.len()).then(|| {
            let tip = self.walk(q, |_, _| ());
            (tip.xyz, tip.rotation)
        })
    }
    fn obstacles(&self) -> Vec<crate::problem::collision_picture::Obstacle> {
        collision::picture::obstacles(self)
    }
    fn collision(&self, q: &[f64]) -> Option<crate::problem::collision_picture::CollisionPicture> {
        collision::picture::picture(self, q)
    }
}

/// The facts of a chain: its title, the workspace radius (the first joint's distance from the
/// base plus the reach), the reach as DLS's span, and TRAC-IK's practice for DLS: a stronger
/// pull to mid-range (k = 0.5) that stops once the projected gradient is below 10⁻³, and up to
/// 16 restarts from random seeds (64 for a pose or an axis task; a count, never a time, so an
/// answer is the same on any machine). 32 reference starts: on 300 uniform-q Panda targets, 32
/// found the optimum of 256 on every one (16 missed one).
fn profile(chain: &ChainSpec, first_origin: [f64; 3], reach: f64) -> Profile {
    let held = match chain.held.len() {
        0 => String::new(),
        k => format!(", {k} held"),
    };
    let followers = chain.joints.iter().filter(|j| j.mimic.is_some()).count();
    let joints = match followers {
        0 => format!("{} joints", chain.joints.len()),
        k => format!("{} joints ({k} following another)", chain.joints.len()),
    };
    let task = match chain.task {
        Task::Position => "3-D tip position",
        Task::Pose => "the hand's full pose",
        Task::Axis => "the hand's position and axis",
    };
    Profile {
        task_scale: reach,
        reference_starts: 32,
        dls: Some(DlsTuning {
            nullspace_gain: 0.5,
            nullspace_tol: 1e-3,
            restarts: if chain.task == Task::Position { 16 } else { 64 },
            error_damping: chain.task != Task::Position,
            max_iters: if chain.task == Task::Position {
                500
            } else {
                150
            },
        }),
        ..Profile::new(
            format!("serial arm, {joints}{held}, {task}"),
            frame::length(first_origin) + reach,
        )
    }
}
