//! Robots: the [`Robot`] trait and the planar serial arm [`PlanarArm`] with its named presets.
//!
//! Symbols: q ∈ Rⁿ joint angles (radians, never wrapped), s_k = q₁ + … + q_k the absolute angle of
//! link k, p(q) = Σ_k l_k (cos s_k, sin s_k) the end-effector position (the task y, m = 2).

use ndarray::Array2;
use serde::{Deserialize, Serialize};

use crate::error::{ensure_finite, ensure_len, LoinkError, Result};

/// Largest target coordinate (metres) accepted at all; beyond it an input is absurd, not just
/// unreachable, and gets a typed error instead of a solve.
pub const MAX_TARGET_MAGNITUDE: f64 = 1e6;

/// Box limits on the joints: `lower[i] ≤ q[i] ≤ upper[i]`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct JointLimits {
    lower: Vec<f64>,
    upper: Vec<f64>,
}

impl JointLimits {
    /// Validates that both bounds are finite, of equal length and ordered.
    pub fn new(lower: Vec<f64>, upper: Vec<f64>) -> Result<Self> {
        ensure_len("upper joint limits", &upper, lower.len())?;
        for (joint, (&lo, &hi)) in lower.iter().zip(&upper).enumerate() {
            if !(lo.is_finite() && hi.is_finite() && lo < hi) {
                return Err(LoinkError::InvalidLimits {
                    joint,
                    lower: lo,
                    upper: hi,
                });
            }
        }
        Ok(Self { lower, upper })
    }
    /// Lower bounds.
    pub fn lower(&self) -> &[f64] {
        &self.lower
    }
    /// Upper bounds.
    pub fn upper(&self) -> &[f64] {
        &self.upper
    }
    /// Number of joints.
    pub fn len(&self) -> usize {
        self.lower.len()
    }
    /// True when there are no joints.
    pub fn is_empty(&self) -> bool {
        self.lower.is_empty()
    }
    /// Mid-range c_i of joint i.
    pub fn centre(&self, i: usize) -> f64 {
        0.5 * (self.lower[i] + self.upper[i])
    }
    /// Half-width h_i of joint i's range.
    pub fn half_width(&self, i: usize) -> f64 {
        0.5 * (self.upper[i] - self.lower[i])
    }
    /// The mid-range configuration c.
    pub fn centres(&self) -> Vec<f64> {
        (0..self.len()).map(|i| self.centre(i)).collect()
    }
    /// Distance from q to the nearest limit (radians); negative when a limit is violated.
    pub fn margin(&self, q: &[f64]) -> f64 {
        q.iter()
            .zip(self.lower.iter().zip(&self.upper))
            .map(|(&qi, (&lo, &hi))| (qi - lo).min(hi - qi))
            .fold(f64::INFINITY, f64::min)
    }
    /// Clamps q into the box in place.
    pub fn clamp(&self, q: &mut [f64]) {
        for (qi, (&lo, &hi)) in q.iter_mut().zip(self.lower.iter().zip(&self.upper)) {
            *qi = qi.clamp(lo, hi);
        }
    }
}

/// A kinematic chain: forward kinematics, its Jacobian, limits and centre of mass.
/// Every method validates its input and returns a typed error instead of panicking.
pub trait Robot {
    /// Preset or user-given name.
    fn name(&self) -> &str;
    /// Number of joints n.
    fn dof(&self) -> usize;
    /// Dimension m of the task (end-effector position).
    fn task_dim(&self) -> usize;
    /// Joint limits.
    fn limits(&self) -> &JointLimits;
    /// End-effector position p(q).
    fn fk(&self, q: &[f64]) -> Result<Vec<f64>>;
    /// Analytic Jacobian ∂p/∂q, an m × n matrix.
    fn jacobian(&self, q: &[f64]) -> Result<Array2<f64>>;
    /// Centre of mass of the links (uniform links, mass proportional to length).
    fn centre_of_mass(&self, q: &[f64]) -> Result<[f64; 2]>;
}

/// Serialisable description of a planar arm, as stored in model artifacts.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RobotSpec {
    /// Always `"planar"` for now; kept so other kinds can be added without a format break.
    pub kind: String,
    /// Preset name (`planar3`, …) or a user name.
    pub name: String,
    /// Link lengths l_k in metres.
    pub link_lengths: Vec<f64>,
    /// Lower joint limits (radians).
    pub lower: Vec<f64>,
    /// Upper joint limits (radians).
    pub upper: Vec<f64>,
}

/// Names accepted by [`PlanarArm::preset`].
pub const PRESET_NAMES: [&str; 4] = ["planar2", "planar3", "planar3-wide", "planar4"];

/// Longest chain accepted (keeps hostile specs from allocating without bound).
pub const MAX_LINKS: usize = 64;

/// A planar serial arm with revolute joints and its base at the origin.
#[derive(Debug, Clone, PartialEq)]
pub struct PlanarArm {
    name: String,
    lengths: Vec<f64>,
    limits: JointLimits,
    /// Centre-of-mass coefficients a_k: com = Σ_k a_k (cos s_k, sin s_k).
    com_coeffs: Vec<f64>,
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
        Ok(Self {
            name: name.to_string(),
            lengths,
            limits,
            com_coeffs,
        })
    }

    /// A named preset (see [`PRESET_NAMES`] and `design/planar3.md`).
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
                    known: PRESET_NAMES.join(", "),
                })
            }
        };
        Self::new(name, lengths, JointLimits::new(lower, upper)?)
    }

    /// Builds an arm from its serialised spec, validating everything.
    pub fn from_spec(spec: &RobotSpec) -> Result<Self> {
        if spec.kind != "planar" {
            return Err(LoinkError::OutOfRange {
                what: "robot kind".into(),
                detail: format!("'{}' (only 'planar' is supported)", spec.kind),
            });
        }
        let limits = JointLimits::new(spec.lower.clone(), spec.upper.clone())?;
        Self::new(&spec.name, spec.link_lengths.clone(), limits)
    }

    /// The serialisable spec of this arm.
    pub fn spec(&self) -> RobotSpec {
        RobotSpec {
            kind: "planar".into(),
            name: self.name.clone(),
            link_lengths: self.lengths.clone(),
            lower: self.limits.lower().to_vec(),
            upper: self.limits.upper().to_vec(),
        }
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

    /// Checks a target: right dimension, finite, not absurd.
    pub fn check_target(&self, target: &[f64]) -> Result<()> {
        ensure_len("target", target, 2)?;
        ensure_finite("target", target)?;
        if let Some(&v) = target.iter().find(|v| v.abs() > MAX_TARGET_MAGNITUDE) {
            return Err(LoinkError::OutOfRange {
                what: "target".into(),
                detail: format!("|{v}| m exceeds {MAX_TARGET_MAGNITUDE} m"),
            });
        }
        Ok(())
    }

    /// Checks a configuration: right dimension and finite.
    pub fn check_q(&self, q: &[f64]) -> Result<()> {
        ensure_len("joint vector", q, self.lengths.len())?;
        ensure_finite("joint vector", q)
    }

    /// Absolute link angles s_k (unchecked: q must have n entries).
    pub fn absolute_angles(&self, q: &[f64]) -> Vec<f64> {
        q.iter()
            .scan(0.0, |s, &qi| {
                *s += qi;
                Some(*s)
            })
            .collect()
    }

    /// Joint positions from the base to the end effector (n + 1 points), for drawing.
    pub fn joint_positions(&self, q: &[f64]) -> Result<Vec<[f64; 2]>> {
        self.check_q(q)?;
        let mut points = vec![[0.0, 0.0]];
        let (mut x, mut y, mut s) = (0.0, 0.0, 0.0);
        for (&l, &qi) in self.lengths.iter().zip(q) {
            s += qi;
            x += l * s.cos();
            y += l * s.sin();
            points.push([x, y]);
        }
        Ok(points)
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

    /// Jacobian without checks: column i is Σ_{k≥i} l_k (−sin s_k, cos s_k).
    pub fn jacobian_unchecked(&self, q: &[f64]) -> Array2<f64> {
        let n = self.lengths.len();
        let s = self.absolute_angles(q);
        let mut jac = Array2::zeros((2, n));
        let (mut jx, mut jy) = (0.0, 0.0);
        for k in (0..n.min(s.len())).rev() {
            jx -= self.lengths[k] * s[k].sin();
            jy += self.lengths[k] * s[k].cos();
            jac[[0, k]] = jx;
            jac[[1, k]] = jy;
        }
        jac
    }
}

impl Robot for PlanarArm {
    fn name(&self) -> &str {
        &self.name
    }
    fn dof(&self) -> usize {
        self.lengths.len()
    }
    fn task_dim(&self) -> usize {
        2
    }
    fn limits(&self) -> &JointLimits {
        &self.limits
    }
    fn fk(&self, q: &[f64]) -> Result<Vec<f64>> {
        self.check_q(q)?;
        Ok(self.position(q).to_vec())
    }
    fn jacobian(&self, q: &[f64]) -> Result<Array2<f64>> {
        self.check_q(q)?;
        Ok(self.jacobian_unchecked(q))
    }
    fn centre_of_mass(&self, q: &[f64]) -> Result<[f64; 2]> {
        self.check_q(q)?;
        let s = self.absolute_angles(q);
        let (mut x, mut y) = (0.0, 0.0);
        for (a, sk) in self.com_coeffs.iter().zip(&s) {
            x += a * sk.cos();
            y += a * sk.sin();
        }
        Ok([x, y])
    }
}
