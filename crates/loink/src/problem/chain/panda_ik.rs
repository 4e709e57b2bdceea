//! The Franka Panda's closed-form inverse kinematics for a given q7 (the structure of He & Liu,
//! "Analytical inverse kinematics for Franka Emika Panda", ICCMA 2021), derived again on this
//! crate's frames and checked by forward replay (tests/pose_reference.rs).
//!
//! Symbols: p₂ = (0, 0, d₁) the shoulder (joints 1 and 2 meet there); p₄ the elbow; p₆ the wrist
//! (joints 5 and 6 meet there); z₃ the upper arm's axis (joint 3), z₅ the forearm's (joint 5),
//! L₂₄ = √(a₄² + d₃²), L₄₆ = √(a₄² + d₅²). For a hand pose (p, R) and q7, joint 7's frame is
//! R₇ = R·R_tipᵀ, the wrist p₆ = p − d₇ₑ·z₇ − a₇·x₆ with x₆ = R₇·Rz(−q₇)·x̂, and frame 6 is
//! R₆ = R₇·Rz(−q₇)·Rx(−π/2). The triangle p₂ p₄ p₆ (its sides known) gives q4; z₅ lies in that
//! triangle's plane at a known angle to p₂ − p₆, which gives q6 (two roots); the upper arm's axis
//! z₃ = (cos q1 sin q2, sin q1 sin q2, cos q2) meets the forearm's where the two axes cross,
//! which gives (q1, q2) (two representations); then q3 and q5 from the frames. The elbow's
//! interior angle gives q4 bent one way or, past the arms' straight line, the other (the
//! published solution keeps the first only). At most eight answers for one q7.
//!
//! Where z₃ is vertical (q2 = 0) joints 1 and 3 turn about one axis and q1 is free; q1 is then
//! taken at 0. Near it the formulas are used as they are: answers close to q2 = 0 are where
//! joint centring puts the optimum, and a tolerance that snaps them would lose them.

use super::frame::Frame;
use super::spec::ChainSpec;
use crate::problem::JointLimits;
use crate::so3::{self, Matrix3, Vector3};

/// The Panda's geometry as its URDF gives it (m).
const D1: f64 = 0.333;
const D3: f64 = 0.316;
const D5: f64 = 0.384;
const A4: f64 = 0.0825;
const A7: f64 = 0.088;

/// The Panda's joint origins (xyz, roll) before each joint, as a chain spec stores them.
const ORIGINS: [([f64; 3], f64); 7] = [
    ([0.0, 0.0, D1], 0.0),
    ([0.0, 0.0, 0.0], -std::f64::consts::FRAC_PI_2),
    ([0.0, -D3, 0.0], std::f64::consts::FRAC_PI_2),
    ([A4, 0.0, 0.0], std::f64::consts::FRAC_PI_2),
    ([-A4, D5, 0.0], -std::f64::consts::FRAC_PI_2),
    ([0.0, 0.0, 0.0], std::f64::consts::FRAC_PI_2),
    ([A7, 0.0, 0.0], std::f64::consts::FRAC_PI_2),
];

/// The closed-form solver of one Panda chain (its tip any point on joint 7's axis, turned
/// about it).
#[derive(Debug, Clone, PartialEq)]
pub struct PandaIk {
    /// d₇ₑ: from joint 7's origin to the tip, along z₇.
    d7e: f64,
    /// R_tip: the tip's turn about z₇.
    tip: Matrix3,
    lower: [f64; 7],
    upper: [f64; 7],
}

/// One answer: the seven joints.
pub type Joints = [f64; 7];

/// An answer and its branch (0–7): its elbow past the arms' straight line or not, its wrist's
/// root, its shoulder's representation — along q7 each branch is one continuous curve, cut only
/// by the limits.
pub type Answer = (usize, Joints);

impl PandaIk {
    /// The solver of `chain` when it is the Panda's seven joints from its base to a tip on
    /// joint 7's axis (the flange, the hand, the TCP); `None` for any other chain.
    pub fn of(chain: &ChainSpec, limits: &JointLimits) -> Option<PandaIk> {
        if chain.joints.len() != 7
            || !chain.held.is_empty()
            || chain.joints.iter().any(|j| j.mimic.is_some())
        {
            return None;
        }
        let close = |a: &[f64], b: &[f64]| a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-9);
        for (joint, (xyz, roll)) in chain.joints.iter().zip(ORIGINS) {
            let expected = Frame::from_xyz_rpy(xyz, [roll, 0.0, 0.0]);
            let revolute = joint.joint_type.rotates();
            if !(revolute
                && close(&joint.origin.xyz, &expected.xyz)
                && close(&joint.origin.rotation, &expected.rotation)
                && close(&joint.axis, &[0.0, 0.0, 1.0]))
            {
                return None;
            }
        }
        let tip = &chain.tip_origin;
        let r = tip.rotation;
        // The tip on z₇ and turned about it only.
        let about_z = close(&[r[2], r[5], r[6], r[7], r[8]], &[0.0, 0.0, 0.0, 0.0, 1.0]);
        if !(about_z && tip.xyz[0].abs() < 1e-12 && tip.xyz[1].abs() < 1e-12) {
            return None;
        }
        Some(PandaIk {
            d7e: tip.xyz[2],
            tip: r,
            lower: limits.lower().try_into().ok()?,
            upper: limits.upper().try_into().ok()?,
        })
    }

    /// q7's range.
    pub fn q7_range(&self) -> [f64; 2] {
        [self.lower[6], self.upper[6]]
    }

    /// Every answer within the limits for the hand at `position` turned to `rotation`
    /// (row-major, tool to world) with joint 7 at `q7`, into `out` (cleared first).
    pub fn solve(&self, position: Vector3, rotation: &Matrix3, q7: f64, out: &mut Vec<Answer>) {
        out.clear();
        if !(self.lower[6]..=self.upper[6]).contains(&q7) {
            return;
        }
        // Joint 7's frame, the wrist and frame 6.
        let r7 = mul_transpose(rotation, &self.tip);
        let r6 = so3::mul(
            &so3::mul(&r7, &so3::rot_z(-q7)),
            &[1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, -1.0, 0.0],
        );
        let x6 = [r6[0], r6[3], r6[6]];
        let z7 = [r7[2], r7[5], r7[8]];
        let p6: Vector3 = std::array::from_fn(|k| position[k] - self.d7e * z7[k] - A7 * x6[k]);
        let p2 = [0.0, 0.0, D1];
        let v26: Vector3 = std::array::from_fn(|k| p6[k] - p2[k]);
        let l26 = so3::norm(v26);
        let (l24, l46) = (A4.hypot(D3), A4.hypot(D5));
        if l24 + l46 < l26 || l24 + l26 < l46 || l26 + l46 < l24 {
            return;
        }
        // The elbow's interior angle; q4 turns it one way or, past the arms' straight line
        // (q4 > θ_H46 + θ_342 − π), the other.
        let theta_246 = ((l24 * l24 + l46 * l46 - l26 * l26) / (2.0 * l24 * l46))
            .clamp(-1.0, 1.0)
            .acos();
        let offsets = (D5 / A4).atan() + (D3 / A4).atan();
        let bent = theta_246 + offsets - std::f64::consts::TAU;
        let past = offsets - theta_246;
        for (elbow, q4) in [bent, past].into_iter().enumerate() {
            if self.within(3, q4) && (q4 == bent || past != bent) {
                self.solve_elbow(elbow, [q4, q7], &r6, v26, out);
            }
        }
    }

    /// The answers with the elbow at `q4`: in frame 3's x–z plane (the triangle's plane) the
    /// shoulder is u = (−a₄, −d₃) and the wrist v = R(q4)·(−a₄, d₅) from the elbow; z₅ meets
    /// p₂ − p₆ at the angle that fixes q6, and the arms' axes meet where they cross.
    fn solve_elbow(
        &self,
        elbow: usize,
        [q4, q7]: [f64; 2],
        r6: &Matrix3,
        v26: Vector3,
        out: &mut Vec<Answer>,
    ) {
        let (s4, c4) = q4.sin_cos();
        let wrist = [-D5 * s4 - A4 * c4, D5 * c4 - A4 * s4];
        let shoulder = [-A4, -D3];
        // p₆ − p₂ in frame 3's (x, z), and z₅'s direction there.
        let across = [wrist[0] - shoulder[0], wrist[1] - shoulder[1]];
        let z5_plane = [-s4, c4];
        let d26 = -(z5_plane[0] * across[0] + z5_plane[1] * across[1]);
        // (p₂ − p₆) in frame 6: its projection on z₅ = R₆ (sin q6, cos q6, 0) must be d26.
        let v62 = so3::apply_transpose(r6, [-v26[0], -v26[1], -v26[2]]);
        let phi6 = v62[1].atan2(v62[0]);
        let radius = v62[0].hypot(v62[1]);
        if radius < 1e-12 || d26.abs() > radius || s4.abs() < 1e-12 {
            return;
        }
        let theta6 = (d26 / radius).asin();
        // Where the arms' axes cross: p₆ − s·z₅ = p₂ + t·z₃.
        let s = (shoulder[0] - wrist[0]) / s4;
        let t = wrist[1] - s * c4 - shoulder[1];
        let pi = std::f64::consts::PI;
        for (root, q6) in [pi - theta6 - phi6, theta6 - phi6].into_iter().enumerate() {
            let Some(q6) = self.wrapped(5, q6) else {
                continue;
            };
            let z5 = so3::apply(r6, [q6.sin(), q6.cos(), 0.0]);
            let v2p: Vector3 = std::array::from_fn(|k| v26[k] - s * z5[k]);
            let z3 = normalised(v2p).map(|c| c * t.signum());
            let (q1, q2) = if z3[0].hypot(z3[1]) < 1e-12 {
                (0.0, z3[2].clamp(-1.0, 1.0).acos())
            } else {
                (z3[1].atan2(z3[0]), z3[2].clamp(-1.0, 1.0).acos())
            };
            // x₃ from p₆ − p₂ = across₀·x₃ + across₁·z₃.
            let along = so3::dot(v26, z3);
            let x3 = normalised(std::array::from_fn(|k| v26[k] - along * z3[k]))
                .map(|c| c * across[0].signum());
            let x4: Vector3 = std::array::from_fn(|k| c4 * x3[k] + s4 * z3[k]);
            let other = if q1 > 0.0 { q1 - pi } else { q1 + pi };
            for (shoulder, (q1, q2)) in [(q1, q2), (other, -q2)].into_iter().enumerate() {
                if !(self.within(0, q1) && self.within(1, q2)) {
                    continue;
                }
                let r2 = so3::mul(
                    &so3::rot_z(q1),
                    &[
                        q2.cos(),
                        -q2.sin(),
                        0.0,
                        0.0,
                        0.0,
                        1.0,
                        -q2.sin(),
                        -q2.cos(),
                        0.0,
                    ],
                );
                let x3_in_2 = so3::apply_transpose(&r2, x3);
                let q3 = x3_in_2[2].atan2(x3_in_2[0]);
                if !self.within(2, q3) {
                    continue;
                }
                // Frame 5 = R₆·(Rx(π/2)·Rz(q6))ᵀ, and x₄ = R₅·Rz(−q5)·x̂.
                let (s6, c6) = q6.sin_cos();
                let r56 = [c6, -s6, 0.0, 0.0, 0.0, -1.0, s6, c6, 0.0];
                let r5 = mul_transpose(r6, &r56);
                let v5 = so3::apply_transpose(&r5, x4);
                let q5 = -v5[1].atan2(v5[0]);
                if self.within(4, q5) {
                    let branch = 4 * elbow + 2 * root + shoulder;
                    out.push((branch, [q1, q2, q3, q4, q5, q6, q7]));
                }
            }
        }
    }

    fn within(&self, joint: usize, value: f64) -> bool {
        (self.lower[joint]..=self.upper[joint]).contains(&value)
    }

    /// `value` moved by whole turns into joint `joint`'s range, if a turn takes it there.
    fn wrapped(&self, joint: usize, value: f64) -> Option<f64> {
        let tau = std::f64::consts::TAU;
        [value, value - tau, value + tau]
            .into_iter()
            .find(|&v| self.within(joint, v))
    }
}

/// A · Bᵀ.
fn mul_transpose(a: &Matrix3, b: &Matrix3) -> Matrix3 {
    let mut out = [0.0; 9];
    for i in 0..3 {
        for j in 0..3 {
            out[3 * i + j] = (0..3).map(|k| a[3 * i + k] * b[3 * j + k]).sum();
        }
    }
    out
}

fn normalised(v: Vector3) -> Vector3 {
    let length = so3::norm(v);
    v.map(|c| c / length)
}
