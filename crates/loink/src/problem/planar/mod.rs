//! Planar serial arms: revolute joints, base at the origin, task y = p(q) ∈ R² (m = 2).
//!
//! Symbols: q ∈ Rⁿ joint angles (radians, never wrapped), s_k = q₁ + … + q_k the absolute angle
//! of link k, p(q) = Σ_k l_k (cos s_k, sin s_k) the end-effector position; the centre of mass of
//! uniform links (mass proportional to length) is Σ_k a_k (cos s_k, sin s_k).
//!
//! - this file: [`PlanarArm`], its presets and its [`Kinematics`] implementation;
//! - [`com`]: the centre-of-mass cost term (only planar arms have it); [`closest`]: the closest
//!   pose within the limits to a target out of reach;
//! - [`reach`]: the reach ring and the reachability decision inside the limits (sampled);
//! - [`two_link`]: the closed-form two-link geometry; [`sweep`]: the φ sweep of a three-link
//!   tail; [`connectivity`]: connected pieces of a four-link set (the reference optimum and the
//!   sampled self-motion set built on them are the reference solver's:
//!   `solvers::reference::planar`);
//! - [`region`]: the reachable region as a raster, from a lattice of configurations.

pub mod closest;
pub mod com;
pub mod connectivity;
pub mod reach;
pub mod region;
pub mod sweep;
pub mod two_link;

use std::any::Any;
use std::sync::Arc;

use super::capability::{PlaneView, Search};
use super::sketch::{Shape, Sketch, Stroke};
use super::{
    Basics, Capabilities, JointLimits, Kinematics, Problem, ProblemSpec, Profile, Reachability,
    TaskSpace, View,
};
use crate::cost::{CostTerm, Term, TermSpec};
use crate::error::{ensure_finite, ensure_len, LoinkError, Result};

/// The planar presets (the problems' presets are [`super::registry::preset_names`]).
pub const PLANAR_PRESETS: [&str; 4] = ["planar2", "planar3", "planar3-wide", "planar4"];

/// The planar arms in the registry (`kind = "planar"`; their cost: docs/planar3.md's).
pub const REGISTRY_ENTRY: super::entry::KindEntry = super::entry::KindEntry {
    kind: "planar",
    presets: &PLANAR_PRESETS,
    build: |spec, limits| {
        PlanarArm::new(&spec.name, spec.link_lengths.clone(), limits)
            .map(|arm| Arc::new(arm) as Arc<dyn Kinematics>)
    },
    preset: |name| {
        let arm = PlanarArm::preset(name)?;
        Ok((Arc::new(arm), crate::cost::CostSpec::planar3()))
    },
};

/// Longest chain accepted (keeps hostile specs from allocating without bound).
pub const MAX_LINKS: usize = 64;

/// A planar serial arm with revolute joints and its base at the origin.
#[derive(Debug, Clone, PartialEq)]
pub struct PlanarArm {
    lengths: Vec<f64>,
    /// Centre-of-mass coefficients a_k: com = Σ_k a_k (cos s_k, sin s_k).
    com_coeffs: Vec<f64>,
    basics: Basics,
}

impl PlanarArm {
    /// Builds an arm, validating lengths (finite, positive, at most [`MAX_LINKS`]) and limits.
    pub fn new(name: &str, lengths: Vec<f64>, limits: JointLimits) -> Result<Self> {
        if lengths.is_empty() || lengths.len() > MAX_LINKS {
            return Err(LoinkError::OutOfRange {
                what: "number of links".into(),
                detail: format!("{} (allowed 1..={MAX_LINKS})", lengths.len()),
            });
        }
        ensure_finite("link length", &lengths)?;
        if let Some(&l) = lengths.iter().find(|&&l| !(l > 0.0 && l < 1e3)) {
            return Err(LoinkError::OutOfRange {
                what: "link length".into(),
                detail: format!("{l} (must be in (0, 1000) m)"),
            });
        }
        ensure_len("joint limits", limits.lower(), lengths.len())?;
        let total: f64 = lengths.iter().sum();
        let com_coeffs = (0..lengths.len())
            .map(|j| {
                let beyond: f64 = lengths[j + 1..].iter().sum();
                lengths[j] * (lengths[j] / 2.0 + beyond) / total
            })
            .collect();
        let reach: f64 = lengths.iter().sum();
        // Where a view opens: (0.5, 0.25) of the reach, to the millimetre ((0.6, 0.3) m on the
        // 1.2-m presets).
        let mm = |share: f64| (share * reach * 1e3).round() * 1e-3;
        let profile = Profile {
            default_target: Some(vec![mm(0.5), mm(0.25)]),
            ..Profile::new(title(lengths.len()), reach)
        };
        Ok(Self {
            lengths,
            com_coeffs,
            basics: Basics {
                kind: "planar",
                name: name.to_string(),
                limits,
                task: TaskSpace::points(2),
                profile,
            },
        })
    }

    /// A named preset (`docs/planar3.md`).
    ///
    /// - `planar2`: links (1.0, 1.0), limits ±π — the averaging-trap arm.
    /// - `planar3`: links (0.5, 0.4, 0.3), q₁ ∈ [−π/2, π/2], q₂, q₃ ∈ [0, 2.6].
    /// - `planar3-wide`: the same links, every joint in [−2.6, 2.6].
    /// - `planar4`: links (0.3, 0.2, 0.5, 0.2) (reach 1.2 m), q₁ ∈ [−1, 1], q₂ ∈ [0, 1.5],
    ///   q₃ ∈ [0, 2.1], q₄ ∈ [0, 3]. Chosen so the 2-D self-motion set inside the limits is connected
    ///   for 99.0% of 1,000 reachable targets (98.9% at a finer grid; `loink connectivity --robot
    ///   planar4 --count 1000 --seed 11 --grid 150|300`). An evenly split arm (0.4, 0.3, 0.3, 0.2)
    ///   with q₂..q₄ ∈ [0, 2.2] was connected for only ~88%; a long third link keeps the set whole.
    pub fn preset(name: &str) -> Result<Self> {
        use std::f64::consts::{FRAC_PI_2, PI};
        let (lengths, lower, upper) = match name {
            "planar2" => (vec![1.0, 1.0], vec![-PI, -PI], vec![PI, PI]),
            "planar3" => (
                vec![0.5, 0.4, 0.3],
                vec![-FRAC_PI_2, 0.0, 0.0],
                vec![FRAC_PI_2, 2.6, 2.6],
            ),
            "planar3-wide" => (vec![0.5, 0.4, 0.3], vec![-2.6; 3], vec![2.6; 3]),
            "planar4" => (
                vec![0.3, 0.2, 0.5, 0.2],
                vec![-1.0, 0.0, 0.0, 0.0],
                vec![1.0, 1.5, 2.1, 3.0],
            ),
            _ => {
                return Err(LoinkError::UnknownRobot {
                    name: name.to_string(),
                    known: PLANAR_PRESETS.join(", "),
                })
            }
        };
        Self::new(name, lengths, JointLimits::new(lower, upper)?)
    }

    /// Number of joints n.
    pub fn dof(&self) -> usize {
        self.lengths.len()
    }

    /// The joint box.
    pub fn limits(&self) -> &JointLimits {
        &self.basics.limits
    }

    /// Link lengths l_k.
    pub fn lengths(&self) -> &[f64] {
        &self.lengths
    }

    /// Centre-of-mass coefficients a_k (com = Σ a_k (cos s_k, sin s_k)).
    pub fn com_coeffs(&self) -> &[f64] {
        &self.com_coeffs
    }

    /// Full reach Σ l_k (outer radius of the workspace ignoring limits).
    pub fn reach(&self) -> f64 {
        self.lengths.iter().sum()
    }

    /// Inner radius of the workspace ignoring limits: max(0, 2·max l − Σ l).
    pub fn inner_radius(&self) -> f64 {
        let longest = self.lengths.iter().cloned().fold(0.0, f64::max);
        (2.0 * longest - self.reach()).max(0.0)
    }

    /// Absolute link angles s_k (q must have n entries).
    pub fn absolute_angles(&self, q: &[f64]) -> Vec<f64> {
        q.iter()
            .scan(0.0, |s, &qi| {
                *s += qi;
                Some(*s)
            })
            .collect()
    }

    /// Joint positions from the base to the end effector (n + 1 points), for drawing.
    pub fn joint_positions(&self, q: &[f64]) -> Vec<[f64; 2]> {
        let mut points = vec![[0.0, 0.0]];
        let (mut x, mut y, mut s) = (0.0, 0.0, 0.0);
        for (&l, &qi) in self.lengths.iter().zip(q) {
            s += qi;
            x += l * s.cos();
            y += l * s.sin();
            points.push([x, y]);
        }
        points
    }

    /// p(q) without checks, for inner loops whose input was validated once.
    pub fn position(&self, q: &[f64]) -> [f64; 2] {
        let (mut x, mut y, mut s) = (0.0, 0.0, 0.0);
        for (&l, &qi) in self.lengths.iter().zip(q) {
            s += qi;
            x += l * s.cos();
            y += l * s.sin();
        }
        [x, y]
    }

    /// Writes the Jacobian columns ∂p/∂q_i = Σ_{k≥i} l_k (−sin s_k, cos s_k) into `cols`
    /// (column-major, 2 entries per joint) and returns p(q).
    pub fn jacobian_columns(&self, q: &[f64], cols: &mut [f64]) -> [f64; 2] {
        let mut s = 0.0;
        let (mut x, mut y) = (0.0, 0.0);
        for (i, (&l, &qi)) in self.lengths.iter().zip(q).enumerate() {
            s += qi;
            let (sin, cos) = s.sin_cos();
            let (dx, dy) = (l * cos, l * sin);
            x += dx;
            y += dy;
            // Temporarily the link vector; the suffix sum below turns it into the column.
            cols[2 * i] = -dy;
            cols[2 * i + 1] = dx;
        }
        let (mut jx, mut jy) = (0.0, 0.0);
        for col in cols[..2 * q.len()].chunks_exact_mut(2).rev() {
            jx += col[0];
            jy += col[1];
            col[0] = jx;
            col[1] = jy;
        }
        [x, y]
    }

    /// Centre of mass of the links (q must have n entries).
    pub fn centre_of_mass(&self, q: &[f64]) -> [f64; 2] {
        let (mut x, mut y, mut s) = (0.0, 0.0, 0.0);
        for (a, qi) in self.com_coeffs.iter().zip(q) {
            s += qi;
            x += a * s.cos();
            y += a * s.sin();
        }
        [x, y]
    }
}

impl Kinematics for PlanarArm {
    fn basics(&self) -> &Basics {
        &self.basics
    }
    fn spec(&self) -> ProblemSpec {
        ProblemSpec {
            link_lengths: self.lengths.clone(),
            ..ProblemSpec::with_box("planar", &self.basics.name, &self.basics.limits)
        }
    }
    fn forward_into(&self, q: &[f64], y: &mut [f64]) {
        y.copy_from_slice(&self.position(q));
    }
    fn jacobian_into(&self, q: &[f64], y: &mut [f64], jac: &mut [f64]) {
        y.copy_from_slice(&self.jacobian_columns(q, jac));
    }
    fn reachability(&self, y: &[f64], search: Option<&Problem>) -> Reachability {
        match search {
            None => reach::outside_ring(self, y),
            Some(problem) => reach::decide(self, problem, y),
        }
    }
    fn cost_term(&self, term: &TermSpec) -> Option<Arc<dyn CostTerm>> {
        match term.term {
            Term::CentreOfMass => Some(Arc::new(com::ComX {
                weight: term.weight,
                coeffs: self.com_coeffs.clone(),
            })),
            _ => None,
        }
    }
    fn capabilities(&self) -> Capabilities<'_> {
        Capabilities {
            view: Some(View::Plane(self)),
            search: Some(self),
            ..Capabilities::default()
        }
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
}

impl PlaneView for PlanarArm {
    fn sketch(&self, q: &[f64]) -> Sketch {
        sketch(self, q)
    }
    fn reach_disc(&self) -> Option<f64> {
        Some(self.reach())
    }
    fn region(&self, samples: usize) -> Option<crate::problem::region::Region> {
        Some(region::sample(self, samples))
    }
}

impl Search for PlanarArm {
    fn closest_pose(&self, problem: &Problem, y: &[f64]) -> Option<Vec<f64>> {
        closest::closest_pose(self, problem, y)
    }
}

impl Problem {
    /// The planar arm, when this is a planar problem.
    pub fn planar(&self) -> Option<&PlanarArm> {
        self.kinematics().as_any().downcast_ref()
    }
}

/// What a planar arm is, in a few words: "3 links, 1 redundant joint".
fn title(links: usize) -> String {
    let latent = match links.saturating_sub(2) {
        0 => "no redundancy".to_string(),
        1 => "1 redundant joint".to_string(),
        k => format!("{k} redundant joints"),
    };
    format!("{links} links, {latent}")
}

/// The arm as the page draws it: each joint's range as an arc around the joint (measured from
/// the previous link's direction), the links, the base and the joints up to the end effector.
fn sketch(arm: &PlanarArm, q: &[f64]) -> Sketch {
    let points = arm.joint_positions(q);
    let absolute = arm.absolute_angles(q);
    let radius = arm.reach() * 0.07;
    let limits = arm.limits();
    let mut shapes = Vec::with_capacity(2 * points.len() + 2);
    for i in 0..arm.dof().min(q.len()) {
        let before = if i == 0 { 0.0 } else { absolute[i - 1] };
        shapes.push(Shape::Arc {
            stroke: Stroke::LimitArc,
            centre: points[i],
            radius,
            from: before + limits.lower()[i],
            to: before + limits.upper()[i],
        });
    }
    shapes.push(Shape::Polyline {
        stroke: Stroke::Link,
        points: points.clone(),
    });
    shapes.push(Shape::Dot {
        stroke: Stroke::Base,
        at: points[0],
    });
    shapes.extend(points[1..].iter().map(|&at| Shape::Dot {
        stroke: Stroke::Joint,
        at,
    }));
    Sketch { shapes }
}
