//! Rotations in three dimensions, small and fixed-size: unit quaternions (w first), rotation
//! matrices, the exponential and logarithm maps between rotation vectors and rotations, the
//! geodesic angle between two orientations, and the inverse right Jacobian of SO(3).
//!
//! Conventions (docs/pose.md): a rotation matrix R is row-major and maps tool coordinates to
//! world coordinates (its columns are the tool's axes in the world); a quaternion is
//! (w, x, y, z), w first, and q and −q are the same orientation.
//!
//! Symbols: θ ∈ R³ a rotation vector (angle φ = ‖θ‖ about the axis θ/φ); \[θ\]× its skew matrix;
//! exp(θ) = I + (sin φ/φ)\[θ\]× + ((1 − cos φ)/φ²)\[θ\]×²; log the inverse, with φ ≤ π. The right
//! Jacobian J_r(θ) relates a change of θ to a turn in the rotated frame,
//! exp(θ + δ) ≈ exp(θ)·exp(J_r(θ)·δ); its inverse is
//! J_r⁻¹(θ) = I + ½\[θ\]× + (1/φ² − (1 + cos φ)/(2φ sin φ))\[θ\]×².
//!
//! The logarithm goes through the quaternion, 2·atan2(‖v‖, w)·v/‖v‖ with w ≥ 0, which keeps its
//! precision from 0 to π (a matrix trace formula loses half the digits near both ends).

/// A 3 × 3 matrix, row-major.
pub type Matrix3 = [f64; 9];
/// A vector of R³.
pub type Vector3 = [f64; 3];

/// The identity matrix.
pub const IDENTITY: Matrix3 = [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0];

/// A quaternion (w, x, y, z); a rotation when of unit length.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Quaternion {
    /// The scalar part.
    pub w: f64,
    /// The vector part's x.
    pub x: f64,
    /// The vector part's y.
    pub y: f64,
    /// The vector part's z.
    pub z: f64,
}

/// Why four numbers are not an orientation.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum QuaternionError {
    /// A component is NaN or infinite.
    NonFinite,
    /// Its length is 0 (no rotation at all).
    Zero,
    /// Its length is off 1 by more than the accepted share (the length it has).
    NotUnit(f64),
}

impl std::fmt::Display for QuaternionError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            QuaternionError::NonFinite => f.write_str("a component is not finite"),
            QuaternionError::Zero => f.write_str("it has length 0"),
            QuaternionError::NotUnit(length) => write!(
                f,
                "its length is {length:.4}, off 1 by more than {:.0} %",
                UNIT_SLACK * 100.0
            ),
        }
    }
}

/// How far from unit length a quaternion or a direction given as input may be before it is
/// refused rather than normalised (10 %).
pub const UNIT_SLACK: f64 = 0.1;

impl Quaternion {
    /// No rotation.
    pub const IDENTITY: Quaternion = Quaternion {
        w: 1.0,
        x: 0.0,
        y: 0.0,
        z: 0.0,
    };

    /// (w, x, y, z) as given.
    pub const fn new(w: f64, x: f64, y: f64, z: f64) -> Self {
        Quaternion { w, x, y, z }
    }

    /// Its length.
    pub fn norm(self) -> f64 {
        (self.w * self.w + self.x * self.x + self.y * self.y + self.z * self.z).sqrt()
    }

    /// The unit quaternion of an input: normalised when its length is within
    /// [`UNIT_SLACK`] of 1, refused (with the reason) when zero, non-finite or further off.
    pub fn checked_unit(self) -> Result<Self, QuaternionError> {
        let parts = [self.w, self.x, self.y, self.z];
        if parts.iter().any(|v| !v.is_finite()) {
            return Err(QuaternionError::NonFinite);
        }
        let length = self.norm();
        if length == 0.0 {
            return Err(QuaternionError::Zero);
        }
        if (length - 1.0).abs() > UNIT_SLACK {
            return Err(QuaternionError::NotUnit(length));
        }
        Ok(self.scaled(1.0 / length))
    }

    fn scaled(self, s: f64) -> Self {
        Quaternion::new(self.w * s, self.x * s, self.y * s, self.z * s)
    }

    /// The same orientation with w ≥ 0 (the representative files and links carry).
    pub fn canonical(self) -> Self {
        if self.w < 0.0 {
            self.scaled(-1.0)
        } else {
            self
        }
    }

    /// The conjugate (the inverse rotation, for a unit quaternion).
    pub fn conjugate(self) -> Self {
        Quaternion::new(self.w, -self.x, -self.y, -self.z)
    }

    /// exp: the rotation by ‖θ‖ about θ.
    pub fn from_rotation_vector(theta: Vector3) -> Self {
        let phi = norm(theta);
        let half = 0.5 * phi;
        // sin(φ/2)/φ → ½ − φ²/48 near 0.
        let s = if phi < 1e-6 {
            0.5 - phi * phi / 48.0
        } else {
            half.sin() / phi
        };
        Quaternion::new(half.cos(), s * theta[0], s * theta[1], s * theta[2])
    }

    /// log: the rotation vector θ with ‖θ‖ ≤ π (of the representative with w ≥ 0).
    pub fn to_rotation_vector(self) -> Vector3 {
        let q = self.canonical();
        let s = (q.x * q.x + q.y * q.y + q.z * q.z).sqrt();
        // 2·atan2(s, w)/s → 2/w·(1 − s²/(3w²)) near 0 (w ≈ 1 there).
        let factor = if s < 1e-8 {
            2.0 / q.w * (1.0 - s * s / (3.0 * q.w * q.w))
        } else {
            2.0 * s.atan2(q.w) / s
        };
        [factor * q.x, factor * q.y, factor * q.z]
    }

    /// The rotation matrix of a unit quaternion.
    pub fn to_matrix(self) -> Matrix3 {
        let Quaternion { w, x, y, z } = self;
        [
            1.0 - 2.0 * (y * y + z * z),
            2.0 * (x * y - w * z),
            2.0 * (x * z + w * y),
            2.0 * (x * y + w * z),
            1.0 - 2.0 * (x * x + z * z),
            2.0 * (y * z - w * x),
            2.0 * (x * z - w * y),
            2.0 * (y * z + w * x),
            1.0 - 2.0 * (x * x + y * y),
        ]
    }

    /// The unit quaternion (w ≥ 0) of a rotation matrix, by Shepperd's method: the largest of
    /// w², x², y², z² is taken from the diagonal, the others from off-diagonal sums, so no
    /// square root of a small difference loses digits.
    pub fn from_matrix(r: &Matrix3) -> Self {
        let [m00, m01, m02, m10, m11, m12, m20, m21, m22] = *r;
        let trace = m00 + m11 + m22;
        let q = if trace >= m00.max(m11).max(m22) {
            let w = 0.5 * (1.0 + trace).max(0.0).sqrt();
            let k = 0.25 / w;
            Quaternion::new(w, (m21 - m12) * k, (m02 - m20) * k, (m10 - m01) * k)
        } else if m00 >= m11 && m00 >= m22 {
            let x = 0.5 * (1.0 + m00 - m11 - m22).max(0.0).sqrt();
            let k = 0.25 / x;
            Quaternion::new((m21 - m12) * k, x, (m01 + m10) * k, (m02 + m20) * k)
        } else if m11 >= m22 {
            let y = 0.5 * (1.0 - m00 + m11 - m22).max(0.0).sqrt();
            let k = 0.25 / y;
            Quaternion::new((m02 - m20) * k, (m01 + m10) * k, y, (m12 + m21) * k)
        } else {
            let z = 0.5 * (1.0 - m00 - m11 + m22).max(0.0).sqrt();
            let k = 0.25 / z;
            Quaternion::new((m10 - m01) * k, (m02 + m20) * k, (m12 + m21) * k, z)
        };
        q.scaled(1.0 / q.norm()).canonical()
    }

    /// The geodesic angle to `other` (rad, in [0, π]): 2·atan2(‖v‖, |w|) of the relative
    /// quaternion (w, v) = conj(self) ⊗ other, stable near 0 and near π.
    pub fn angle_to(self, other: Self) -> f64 {
        let r = self.conjugate() * other;
        let s = (r.x * r.x + r.y * r.y + r.z * r.z).sqrt();
        2.0 * s.atan2(r.w.abs())
    }
}

/// The Hamilton product a ⊗ b (rotate by b, then by a).
impl std::ops::Mul for Quaternion {
    type Output = Quaternion;
    fn mul(self, o: Self) -> Self {
        Quaternion::new(
            self.w * o.w - self.x * o.x - self.y * o.y - self.z * o.z,
            self.w * o.x + self.x * o.w + self.y * o.z - self.z * o.y,
            self.w * o.y - self.x * o.z + self.y * o.w + self.z * o.x,
            self.w * o.z + self.x * o.y - self.y * o.x + self.z * o.w,
        )
    }
}

/// ‖v‖.
pub fn norm(v: Vector3) -> f64 {
    (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]).sqrt()
}

/// a · b.
pub fn dot(a: Vector3, b: Vector3) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

/// a × b.
pub fn cross(a: Vector3, b: Vector3) -> Vector3 {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

/// exp(θ) as a matrix.
pub fn exp(theta: Vector3) -> Matrix3 {
    Quaternion::from_rotation_vector(theta).to_matrix()
}

/// log(R): the rotation vector of R with ‖θ‖ ≤ π.
pub fn log(r: &Matrix3) -> Vector3 {
    Quaternion::from_matrix(r).to_rotation_vector()
}

/// A · B.
pub fn mul(a: &Matrix3, b: &Matrix3) -> Matrix3 {
    let mut out = [0.0; 9];
    for i in 0..3 {
        for j in 0..3 {
            out[3 * i + j] = (0..3).map(|k| a[3 * i + k] * b[3 * k + j]).sum();
        }
    }
    out
}

/// Aᵀ · B.
pub fn transpose_mul(a: &Matrix3, b: &Matrix3) -> Matrix3 {
    let mut out = [0.0; 9];
    for i in 0..3 {
        for j in 0..3 {
            out[3 * i + j] = (0..3).map(|k| a[3 * k + i] * b[3 * k + j]).sum();
        }
    }
    out
}

/// A · v.
pub fn apply(a: &Matrix3, v: Vector3) -> Vector3 {
    [
        a[0] * v[0] + a[1] * v[1] + a[2] * v[2],
        a[3] * v[0] + a[4] * v[1] + a[5] * v[2],
        a[6] * v[0] + a[7] * v[1] + a[8] * v[2],
    ]
}

/// Aᵀ · v.
pub fn apply_transpose(a: &Matrix3, v: Vector3) -> Vector3 {
    [
        a[0] * v[0] + a[3] * v[1] + a[6] * v[2],
        a[1] * v[0] + a[4] * v[1] + a[7] * v[2],
        a[2] * v[0] + a[5] * v[1] + a[8] * v[2],
    ]
}

/// The rotation by `angle` about the z axis.
pub fn rot_z(angle: f64) -> Matrix3 {
    let (s, c) = angle.sin_cos();
    [c, -s, 0.0, s, c, 0.0, 0.0, 0.0, 1.0]
}

/// The geodesic angle between two rotation matrices (rad, in [0, π]).
pub fn angle_between(a: &Matrix3, b: &Matrix3) -> f64 {
    Quaternion::from_matrix(a).angle_to(Quaternion::from_matrix(b))
}

/// J_r⁻¹(θ), the inverse right Jacobian of SO(3): δθ = J_r⁻¹(θ)·ω for a turn ω in the rotated
/// frame (see the module docs). Defined for ‖θ‖ < π; it grows without bound towards π, where
/// the rotation-vector chart ends.
pub fn right_jacobian_inverse(theta: Vector3) -> Matrix3 {
    let phi2 = dot(theta, theta);
    let phi = phi2.sqrt();
    // 1/φ² − (1 + cos φ)/(2φ sin φ) → 1/12 + φ²/720 near 0.
    let c = if phi < 1e-4 {
        1.0 / 12.0 + phi2 / 720.0
    } else {
        1.0 / phi2 - (1.0 + phi.cos()) / (2.0 * phi * phi.sin())
    };
    let [a, b, d] = theta;
    let skew = [0.0, -d, b, d, 0.0, -a, -b, a, 0.0];
    let skew2 = mul(&skew, &skew);
    let mut out = IDENTITY;
    for k in 0..9 {
        out[k] += 0.5 * skew[k] + c * skew2[k];
    }
    out
}
