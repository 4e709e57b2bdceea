//! Rigid transforms T = (R, p) on fixed-size arrays: what a serial chain's forward kinematics
//! multiplies, with no allocation.
//!
//! A point x in the child frame is R·x + p in the parent frame; composing parent → child
//! transforms left to right walks a chain from its base to its tip.

use serde::{Deserialize, Serialize};

/// A rigid transform: rotation R (row-major 3 × 3) and translation p (m).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Frame {
    /// p, the child frame's origin in the parent frame (m).
    pub xyz: [f64; 3],
    /// R, row-major: the child frame's axes as the columns, in parent coordinates.
    pub rotation: [f64; 9],
}

/// The identity rotation, row-major.
const IDENTITY: [f64; 9] = [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0];

impl Default for Frame {
    fn default() -> Self {
        Frame::IDENTITY
    }
}

impl Frame {
    /// The identity transform.
    pub const IDENTITY: Frame = Frame {
        xyz: [0.0; 3],
        rotation: IDENTITY,
    };

    /// A URDF `<origin xyz rpy>`: R = Rz(yaw) · Ry(pitch) · Rx(roll), then the translation.
    pub fn from_xyz_rpy(xyz: [f64; 3], rpy: [f64; 3]) -> Frame {
        let (sr, cr) = rpy[0].sin_cos();
        let (sp, cp) = rpy[1].sin_cos();
        let (sy, cy) = rpy[2].sin_cos();
        Frame {
            xyz,
            rotation: [
                cy * cp,
                cy * sp * sr - sy * cr,
                cy * sp * cr + sy * sr,
                sy * cp,
                sy * sp * sr + cy * cr,
                sy * sp * cr - cy * sr,
                -sp,
                cp * sr,
                cp * cr,
            ],
        }
    }

    /// A rotation by `angle` (rad) about the unit `axis` (Rodrigues' formula).
    pub fn rotation_about(axis: [f64; 3], angle: f64) -> Frame {
        let (s, c) = angle.sin_cos();
        let t = 1.0 - c;
        let [x, y, z] = axis;
        Frame {
            xyz: [0.0; 3],
            rotation: [
                c + t * x * x,
                t * x * y - s * z,
                t * x * z + s * y,
                t * x * y + s * z,
                c + t * y * y,
                t * y * z - s * x,
                t * x * z - s * y,
                t * y * z + s * x,
                c + t * z * z,
            ],
        }
    }

    /// A translation by `distance` along `axis`.
    pub fn translation_along(axis: [f64; 3], distance: f64) -> Frame {
        Frame {
            xyz: axis.map(|a| a * distance),
            rotation: IDENTITY,
        }
    }

    /// self · child: the child's transform expressed in self's parent frame.
    #[inline]
    pub fn then(&self, child: &Frame) -> Frame {
        let (a, b) = (&self.rotation, &child.rotation);
        let mut rotation = [0.0; 9];
        for r in 0..3 {
            for c in 0..3 {
                rotation[3 * r + c] =
                    a[3 * r] * b[c] + a[3 * r + 1] * b[3 + c] + a[3 * r + 2] * b[6 + c];
            }
        }
        Frame {
            xyz: self.apply(child.xyz),
            rotation,
        }
    }

    /// R·v + p: a point of the child frame in the parent frame.
    #[inline]
    pub fn apply(&self, v: [f64; 3]) -> [f64; 3] {
        let mut out = self.rotate(v);
        for (o, p) in out.iter_mut().zip(self.xyz) {
            *o += p;
        }
        out
    }

    /// R·v: a direction of the child frame in the parent frame.
    #[inline]
    pub fn rotate(&self, v: [f64; 3]) -> [f64; 3] {
        let r = &self.rotation;
        [
            r[0] * v[0] + r[1] * v[1] + r[2] * v[2],
            r[3] * v[0] + r[4] * v[1] + r[5] * v[2],
            r[6] * v[0] + r[7] * v[1] + r[8] * v[2],
        ]
    }

    /// Largest entry of |RᵀR − I| (0 for an exact rotation): how far from a rotation a stored
    /// matrix is.
    pub fn orthonormality_error(&self) -> f64 {
        let r = &self.rotation;
        let mut worst: f64 = 0.0;
        for i in 0..3 {
            for j in 0..3 {
                let dot = r[i] * r[j] + r[3 + i] * r[3 + j] + r[6 + i] * r[6 + j];
                let want = if i == j { 1.0 } else { 0.0 };
                let error = (dot - want).abs();
                if !error.is_finite() {
                    return f64::INFINITY;
                }
                worst = worst.max(error);
            }
        }
        worst
    }
}

/// a × b.
#[inline]
pub fn cross(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

/// The Euclidean length of v.
#[inline]
pub fn length(v: [f64; 3]) -> f64 {
    (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::f64::consts::FRAC_PI_2;

    fn close(a: [f64; 3], b: [f64; 3]) -> bool {
        a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-15)
    }

    #[test]
    fn rpy_is_yaw_pitch_roll_applied_right_to_left() {
        // Roll π/2 turns y into z; yaw π/2 turns x into y.
        let roll = Frame::from_xyz_rpy([0.0; 3], [FRAC_PI_2, 0.0, 0.0]);
        assert!(close(roll.rotate([0.0, 1.0, 0.0]), [0.0, 0.0, 1.0]));
        let yaw = Frame::from_xyz_rpy([0.0; 3], [0.0, 0.0, FRAC_PI_2]);
        assert!(close(yaw.rotate([1.0, 0.0, 0.0]), [0.0, 1.0, 0.0]));
        let both = Frame::from_xyz_rpy([0.0; 3], [FRAC_PI_2, 0.0, FRAC_PI_2]);
        let composed = yaw.then(&roll);
        for v in [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]] {
            assert!(close(both.rotate(v), composed.rotate(v)));
        }
    }

    #[test]
    fn rodrigues_agrees_with_rpy_about_the_coordinate_axes() {
        for angle in [-2.5, -0.3, 0.0, 1.1, 3.0] {
            let pairs = [
                ([1.0, 0.0, 0.0], [angle, 0.0, 0.0]),
                ([0.0, 1.0, 0.0], [0.0, angle, 0.0]),
                ([0.0, 0.0, 1.0], [0.0, 0.0, angle]),
            ];
            for (axis, rpy) in pairs {
                let a = Frame::rotation_about(axis, angle);
                let b = Frame::from_xyz_rpy([0.0; 3], rpy);
                for (x, y) in a.rotation.iter().zip(b.rotation) {
                    assert!((x - y).abs() < 1e-15);
                }
                assert!(a.orthonormality_error() < 1e-15);
            }
        }
    }

    #[test]
    fn composition_applies_the_child_first() {
        let parent = Frame::from_xyz_rpy([1.0, 2.0, 3.0], [0.2, -0.4, 0.9]);
        let child = Frame::from_xyz_rpy([-0.5, 0.1, 0.7], [1.0, 0.3, -0.2]);
        let v = [0.3, -0.8, 0.25];
        assert!(close(
            parent.then(&child).apply(v),
            parent.apply(child.apply(v))
        ));
        assert_eq!(Frame::IDENTITY.then(&child), child);
    }

    #[test]
    fn a_matrix_that_is_not_a_rotation_is_measured() {
        let mut skew = Frame::IDENTITY;
        skew.rotation[1] = 0.1;
        assert!(skew.orthonormality_error() > 0.09);
        skew.rotation[0] = f64::NAN;
        assert_eq!(skew.orthonormality_error(), f64::INFINITY);
        assert_eq!(cross([1.0, 0.0, 0.0], [0.0, 1.0, 0.0]), [0.0, 0.0, 1.0]);
        assert_eq!(length([3.0, 4.0, 0.0]), 5.0);
    }
}
