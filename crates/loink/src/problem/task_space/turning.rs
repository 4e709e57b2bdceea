//! The measures of tasks that turn the hand (feature `orientation`): a pose as a position and a
//! rotation vector about the chart reference, an axis as a position and the stereographic
//! coordinates of the tool's z axis (see the parent module's docs for both).

use super::{ColumnsError, Measure, Miss};
use crate::so3::{self, Matrix3, Quaternion, Vector3, UNIT_SLACK};

/// The columns of a pose or an axis target.
pub(super) fn columns(measure: Measure) -> Vec<String> {
    let names: &[&str] = match measure {
        Measure::Pose { .. } => &["x", "y", "z", "qw", "qx", "qy", "qz"],
        _ => &["x", "y", "z", "ax", "ay", "az"],
    };
    names.iter().map(|s| s.to_string()).collect()
}

/// A pose's or an axis's target from its columns (`row` has the columns' count).
pub(super) fn from_columns(measure: Measure, row: &[f64]) -> Result<Vec<f64>, ColumnsError> {
    let mut y = row[..3].to_vec();
    match measure {
        Measure::Pose { reference } => {
            let q = Quaternion::new(row[3], row[4], row[5], row[6])
                .checked_unit()
                .map_err(|e| ColumnsError(format!("the quaternion (qw,qx,qy,qz): {e}")))?;
            y.extend(so3::log(&so3::transpose_mul(&reference, &q.to_matrix())));
        }
        _ => {
            let d = unit_direction([row[3], row[4], row[5]])
                .map_err(|e| ColumnsError(format!("the axis (ax,ay,az): {e}")))?;
            let s = stereographic(d).ok_or_else(|| {
                ColumnsError(
                    "the axis (ax,ay,az) points straight up, where the axis chart ends".into(),
                )
            })?;
            y.extend(s);
        }
    }
    Ok(y)
}

/// The columns of target y (a quaternion with w ≥ 0, a unit direction).
pub(super) fn to_columns(measure: Measure, y: &[f64]) -> Vec<f64> {
    let mut row = y[..3].to_vec();
    match measure {
        Measure::Pose { reference } => {
            let q = quaternion(&reference, y);
            row.extend([q.w, q.x, q.y, q.z]);
        }
        _ => row.extend(direction([y[3], y[4]])),
    }
    row
}

/// The orientation of pose coordinates y about `reference`, in the world (w ≥ 0).
pub(super) fn quaternion(reference: &Matrix3, y: &[f64]) -> Quaternion {
    let r = so3::mul(reference, &so3::exp([y[3], y[4], y[5]]));
    Quaternion::from_matrix(&r)
}

/// The tool's z axis of target y in the world.
pub(super) fn tool_axis(measure: Measure, y: &[f64]) -> Vector3 {
    match measure {
        Measure::Pose { reference } => {
            let r = quaternion(&reference, y).to_matrix();
            [r[2], r[5], r[8]]
        }
        _ => direction([y[3], y[4]]),
    }
}

/// The target's own axes in the world, as the columns of a rotation (row-major): a pose's
/// orientation; for an axis, a frame whose z is the direction (x and y from
/// [`tangent_basis`]).
pub(super) fn frame(measure: Measure, y: &[f64]) -> Matrix3 {
    match measure {
        Measure::Pose { reference } => quaternion(&reference, y).to_matrix(),
        _ => {
            let z = direction([y[3], y[4]]);
            let (u, v) = tangent_basis(z);
            [u[0], v[0], z[0], u[1], v[1], z[1], u[2], v[2], z[2]]
        }
    }
}

/// Target y turned by `angle` (rad) about the world's unit `axis` (the position kept); `None`
/// where the turned target leaves the task's chart (an axis pointing straight up).
pub(super) fn turned(measure: Measure, y: &[f64], axis: Vector3, angle: f64) -> Option<Vec<f64>> {
    let turn = so3::exp(axis.map(|a| a * angle));
    let mut out = y[..3].to_vec();
    match measure {
        Measure::Pose { reference } => {
            let r = so3::mul(&turn, &quaternion(&reference, y).to_matrix());
            out.extend(so3::log(&so3::transpose_mul(&reference, &r)));
        }
        _ => out.extend(stereographic(so3::apply(&turn, direction([y[3], y[4]])))?),
    }
    Some(out)
}

/// The position's distance and the geodesic angle between target and reached.
pub(super) fn miss(measure: Measure, target: &[f64], reached: &[f64]) -> Miss {
    let distance = crate::nn::linalg::distance(&reached[..3], &target[..3]);
    let angle = match measure {
        Measure::Pose { .. } => Quaternion::from_rotation_vector([target[3], target[4], target[5]])
            .angle_to(Quaternion::from_rotation_vector([
                reached[3], reached[4], reached[5],
            ])),
        _ => {
            let a = direction([target[3], target[4]]);
            let b = direction([reached[3], reached[4]]);
            so3::norm(so3::cross(a, b)).atan2(so3::dot(a, b))
        }
    };
    Miss {
        distance,
        angle: Some(angle),
    }
}

/// The turning part of a ⊖ b into `out[3..]`: a pose's turn log(R_bᵀR_a) in b's frame, an
/// axis's turn of b's direction towards a's in the tangent basis at b.
pub(super) fn difference_into(measure: Measure, a: &[f64], b: &[f64], out: &mut [f64]) {
    if let Measure::Pose { .. } = measure {
        let qa = Quaternion::from_rotation_vector([a[3], a[4], a[5]]);
        let qb = Quaternion::from_rotation_vector([b[3], b[4], b[5]]);
        out[3..6].copy_from_slice(&(qb.conjugate() * qa).to_rotation_vector());
        return;
    }
    let da = direction([a[3], a[4]]);
    let db = direction([b[3], b[4]]);
    let (u, v) = tangent_basis(db);
    let along = so3::dot(da, db);
    let t = [
        da[0] - along * db[0],
        da[1] - along * db[1],
        da[2] - along * db[2],
    ];
    let sine = so3::norm(t);
    let angle = sine.atan2(along);
    let delta = if sine > 1e-300 {
        t.map(|c| c * angle / sine)
    } else if along < 0.0 {
        u.map(|c| c * std::f64::consts::PI)
    } else {
        [0.0; 3]
    };
    out[3] = so3::dot(u, delta);
    out[4] = so3::dot(v, delta);
}

/// A direction given as input, normalised (refused when zero, non-finite or off unit length by
/// more than [`UNIT_SLACK`]).
pub fn unit_direction(d: Vector3) -> Result<Vector3, so3::QuaternionError> {
    if d.iter().any(|v| !v.is_finite()) {
        return Err(so3::QuaternionError::NonFinite);
    }
    let length = so3::norm(d);
    if length == 0.0 {
        return Err(so3::QuaternionError::Zero);
    }
    if (length - 1.0).abs() > UNIT_SLACK {
        return Err(so3::QuaternionError::NotUnit(length));
    }
    Ok(d.map(|v| v / length))
}

/// s = (d_x, d_y)/(1 − d_z), the stereographic coordinates of unit direction d from straight up
/// (`None` within 1e-12 of straight up, where they leave every bound).
pub fn stereographic(d: Vector3) -> Option<[f64; 2]> {
    let below = 1.0 - d[2];
    // For d_z near −1 the difference is exact; near +1 (the chart's end) refuse instead.
    (below > 1e-12).then(|| [d[0] / below, d[1] / below])
}

/// The unit direction of stereographic coordinates s: (2s, |s|² − 1)/(|s|² + 1).
pub fn direction(s: [f64; 2]) -> Vector3 {
    let s2 = s[0] * s[0] + s[1] * s[1];
    let k = 1.0 / (s2 + 1.0);
    [2.0 * s[0] * k, 2.0 * s[1] * k, (s2 - 1.0) * k]
}

/// An orthonormal basis (u, v) of the plane perpendicular to unit d, a function of d alone: u
/// is perpendicular to the world axis d has the least of, v = d × u. The axis task's error and
/// its Jacobian rows use the same basis at the reached direction.
pub fn tangent_basis(d: Vector3) -> (Vector3, Vector3) {
    let abs = d.map(f64::abs);
    let axis = if abs[0] <= abs[1] && abs[0] <= abs[2] {
        [1.0, 0.0, 0.0]
    } else if abs[1] <= abs[2] {
        [0.0, 1.0, 0.0]
    } else {
        [0.0, 0.0, 1.0]
    };
    let u = so3::cross(axis, d);
    let length = so3::norm(u);
    let u = u.map(|c| c / length);
    (u, so3::cross(d, u))
}
