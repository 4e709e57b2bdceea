//! `soft4`: a planar soft arm of four twisted HSA rods (docs/soft-arm.md), the model-free
//! problem: the learners see only data rows; the simulator here replays answers, draws the arm
//! and gives the reference optimum, and it counts its calls (what a user of a real soft robot
//! pays for).
//!
//! Symbols: φ ∈ [0, φ_max]⁴ the rods' twists (the joints x); u_j = φ_j / l the twist strain;
//! ξ = (κ, σ_sh, σ_a) the backbone's bending, shear and axial strain. Rod j has stiffness
//! S_j = [[S_b + C_b u_j, S_bsh, 0], [S_bsh, S_sh + C_sh u_j, 0], [0, 0, S_a + C_a u_j]], strain
//! map B_j (its axial strain is σ_a + r_j κ) and rest strain ρ_j = (0, 0, 1 + C_ε u_j); the
//! platform settles where Σ_j B_jᵀ S_j (B_j ξ − ρ_j) = 0, one 3 × 3 linear solve A ξ = b. The
//! end effector y ∈ R² is the tip of the constant-strain backbone plus the distal cap and the
//! platform.
//!
//! - this file: [`SoftArm`] and its [`Kinematics`] implementation;
//! - [`statics`]: the steady state ξ(φ) and the forward map y(ξ);
//! - its global reference optimum is the reference solver's multi-start polish
//!   (`solvers::reference::multistart`).

pub mod statics;

use std::any::Any;
use std::sync::atomic::{AtomicU64, Ordering};

use super::capability::{PlaneView, Simulator};
use super::sketch::{Shape, Sketch, Stroke};
use super::{
    Basics, Capabilities, JointLimits, Kinematics, Problem, ProblemSpec, Profile, Reachability,
    TaskSpace, View,
};
use crate::error::{LoinkError, Result};

pub use statics::{Params, PARAMS, PHI_MAX};

/// The preset's name.
pub const NAME: &str = "soft4";

/// The soft arm in the registry (its cost: the actuation effort Σ (φ_j / φ_max)²).
pub const REGISTRY_ENTRY: super::entry::KindEntry = super::entry::KindEntry {
    kind: "soft4",
    presets: &[NAME],
    build: |spec, limits| Ok(std::sync::Arc::new(SoftArm::new(&spec.name, limits)?)),
    preset: |_| {
        let cost = crate::cost::CostSpec {
            terms: vec![crate::cost::TermSpec::new(
                crate::cost::Term::Actuation,
                1.0,
            )],
        };
        Ok((std::sync::Arc::new(SoftArm::preset()), cost))
    },
};

/// Where a view of the soft arm opens (m): right of centre and high, where the effort-optimal
/// twists are uneven and the optimum stays clear of the limits.
pub const DEFAULT_TARGET: [f64; 2] = [0.012, 0.124];

/// The soft arm, with its simulator-call counter.
#[derive(Debug)]
pub struct SoftArm {
    params: Params,
    calls: AtomicU64,
    basics: Basics,
}

impl Clone for SoftArm {
    fn clone(&self) -> Self {
        SoftArm {
            params: self.params,
            calls: AtomicU64::new(self.calls()),
            basics: self.basics.clone(),
        }
    }
}

impl PartialEq for SoftArm {
    fn eq(&self, other: &Self) -> bool {
        self.basics == other.basics
    }
}

impl SoftArm {
    /// The arm with these twist limits, which must lie inside [0, φ_max] for every rod (where
    /// the equilibrium is a positive definite solve).
    pub fn new(name: &str, limits: JointLimits) -> Result<Self> {
        if limits.len() != 4 {
            return Err(LoinkError::OutOfRange {
                what: "soft4 joints".into(),
                detail: format!("{} (the arm has 4 rods)", limits.len()),
            });
        }
        let slack = 1e-12;
        if limits.lower().iter().any(|&l| l < -slack)
            || limits.upper().iter().any(|&u| u > PHI_MAX + slack)
        {
            return Err(LoinkError::OutOfRange {
                what: "soft4 twist limits".into(),
                detail: format!("each must lie in [0, {PHI_MAX}] rad"),
            });
        }
        Ok(SoftArm {
            params: PARAMS,
            calls: AtomicU64::new(0),
            basics: Basics {
                kind: NAME,
                name: name.to_string(),
                limits,
                task: TaskSpace::points(2),
                profile: profile(),
            },
        })
    }

    /// The preset: every twist in [0, φ_max].
    pub fn preset() -> Self {
        let limits = JointLimits::new(vec![0.0; 4], vec![PHI_MAX; 4]).expect("a valid box");
        SoftArm::new(NAME, limits).expect("the preset box is valid")
    }

    /// Simulator calls so far (every forward evaluation, finite-difference ones included).
    pub fn calls(&self) -> u64 {
        self.calls.load(Ordering::Relaxed)
    }

    /// The steady-state strains ξ = (κ, σ_sh, σ_a) at twists φ (not counted as a call).
    pub fn strains(&self, phi: &[f64]) -> [f64; 3] {
        statics::strains(&self.params, phi)
    }
}

impl Kinematics for SoftArm {
    fn basics(&self) -> &Basics {
        &self.basics
    }
    fn spec(&self) -> ProblemSpec {
        ProblemSpec::with_box(NAME, &self.basics.name, &self.basics.limits)
    }
    fn forward_into(&self, q: &[f64], y: &mut [f64]) {
        self.calls.fetch_add(1, Ordering::Relaxed);
        let xi = statics::strains(&self.params, q);
        let [yx, yy] = statics::end_effector(&self.params, xi);
        y[0] = yx;
        y[1] = yy;
    }
    fn reachability(&self, y: &[f64], search: Option<&Problem>) -> Reachability {
        // The end effector never leaves the disc of the workspace radius: 0.025 m of proximal
        // cap, a 0.059 m backbone stretched at most 1.6× (σ_a at full twist, the shear a few
        // hundredths), 0.026 m of cap and platform make under 0.15 m. Nothing more is decided.
        if search.is_none() && y[0].hypot(y[1]) > self.basics.profile.workspace_radius {
            Reachability::Unreachable
        } else {
            Reachability::Unknown
        }
    }
    fn capabilities(&self) -> Capabilities<'_> {
        Capabilities {
            view: Some(View::Plane(self)),
            simulator: Some(self),
            ..Capabilities::default()
        }
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

impl PlaneView for SoftArm {
    fn sketch(&self, q: &[f64]) -> Sketch {
        statics::sketch(&self.params, q)
    }
}

impl Simulator for SoftArm {
    fn calls(&self) -> u64 {
        SoftArm::calls(self)
    }
}

/// The soft arm's facts: a 0.2 m workspace radius (the end effector sits 0.110–0.145 m above
/// the base), a 0.04 m span (it sweeps about ±36 mm across and 33 mm up, docs/soft-arm.md), a
/// Jacobian by finite differences, and the view opening at [`DEFAULT_TARGET`].
fn profile() -> Profile {
    Profile {
        task_scale: 0.04,
        analytic_jacobian: false,
        default_target: Some(DEFAULT_TARGET.to_vec()),
        ..Profile::new("soft arm, 4 twisted rods (2 redundant)", 0.2)
    }
}

/// The shapes of one pose: base, rods, platform, end effector.
fn shapes(points: Vec<(Stroke, Vec<[f64; 2]>)>, effector: [f64; 2]) -> Sketch {
    let mut shapes: Vec<Shape> = points
        .into_iter()
        .map(|(stroke, points)| Shape::Polyline { stroke, points })
        .collect();
    shapes.push(Shape::Dot {
        stroke: Stroke::Effector,
        at: effector,
    });
    Sketch { shapes }
}
