//! The closed-form two-link geometry every planar computation shares: for a wrist point at
//! distance r from the base, the law of cosines gives the relative elbow angle
//! cos q₂ = (r² − l₁² − l₂²)/(2 l₁ l₂), and q₁ = atan2(y) − atan2(l₂ sin q₂, l₁ + l₂ cos q₂), on
//! either elbow branch. The analytic solver (`solvers::analytic`) and the self-motion sweep build
//! on it.

use crate::problem::limits::{wrap_into, JointLimits};

/// Which of the two closed-form solutions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Branch {
    /// q₂ ≤ 0: the elbow lies on the counter-clockwise (left) side of the ray from the base to
    /// the target.
    ElbowUp,
    /// q₂ ≥ 0: the elbow lies on the clockwise (right) side; the only branch inside planar3's
    /// limits (q₂, q₃ ∈ [0, 2.6]).
    ElbowDown,
}

impl Branch {
    /// Both branches, in the order `solvers::analytic::solve_both` returns them.
    pub const BOTH: [Branch; 2] = [Branch::ElbowUp, Branch::ElbowDown];

    /// The sign of q₂ on this branch.
    pub fn sign(self) -> f64 {
        match self {
            Branch::ElbowUp => -1.0,
            Branch::ElbowDown => 1.0,
        }
    }
}

/// Raw two-link solution for a wrist point `w` relative to the base, lengths `l1`, `l2`:
/// `(q1, q2, reachable)` with q₂'s sign from `branch` and no wrapping. When `w` is outside the
/// annulus, the closest pose (cos q₂ clamped to ±1) is returned with `reachable = false`.
pub fn two_link(l1: f64, l2: f64, w: [f64; 2], branch: Branch) -> (f64, f64, bool) {
    let r2 = w[0] * w[0] + w[1] * w[1];
    let cos_q2 = (r2 - l1 * l1 - l2 * l2) / (2.0 * l1 * l2);
    let reachable = (-1.0..=1.0).contains(&cos_q2);
    let cos_q2 = cos_q2.clamp(-1.0, 1.0);
    let q2 = branch.sign() * cos_q2.acos();
    let q1 = w[1].atan2(w[0]) - (l2 * q2.sin()).atan2(l1 + l2 * q2.cos());
    (q1, q2, reachable)
}

/// The closed-form pose of a two-link arm (lengths `l1`, `l2`) for target `y` on `branch`, each
/// angle taken to its 2π representative nearest the mid-range of `limits`
/// ([`wrap_into`]), and whether `y` lies in the reach annulus.
pub fn wrapped_pose(
    l1: f64,
    l2: f64,
    limits: &JointLimits,
    y: [f64; 2],
    branch: Branch,
) -> ([f64; 2], bool) {
    let (q1, q2, reachable) = two_link(l1, l2, y, branch);
    let q = [
        wrap_into(q1, limits.lower()[0], limits.upper()[0]),
        wrap_into(q2, limits.lower()[1], limits.upper()[1]),
    ];
    (q, reachable)
}
