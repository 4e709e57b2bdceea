//! Box limits on the joints, `lower[i] ≤ q[i] ≤ upper[i]`: every problem's joint space.

use serde::{Deserialize, Serialize};

use crate::error::{ensure_len, LoinkError, Result};

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
    /// The point of the box at unit coordinates `u ∈ [0, 1]ⁿ` (lower + u·(upper − lower)).
    pub fn at_unit(&self, u: &[f64]) -> Vec<f64> {
        u.iter()
            .enumerate()
            .map(|(i, &t)| self.lower[i] + t * (self.upper[i] - self.lower[i]))
            .collect()
    }
}

/// Shifts `angle` by a multiple of 2π to the representative nearest the mid-range of
/// `[lower, upper]`. Angles are never wrapped by the robot itself, so a closed-form solution
/// (defined modulo 2π) has to pick its representative against the limits: when any shift lies
/// inside the range this one does (and is the most central), otherwise it is the least violating.
pub fn wrap_into(angle: f64, lower: f64, upper: f64) -> f64 {
    let centre = 0.5 * (lower + upper);
    angle + std::f64::consts::TAU * ((centre - angle) / std::f64::consts::TAU).round()
}
