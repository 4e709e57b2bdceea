//! The 3-D view's camera: an orthographic projection that orbits the robot (yaw about the
//! vertical, pitch above the floor), and its inverse onto the plane through a point that faces
//! the viewer — so a pointer drags a 3-D target exactly under itself.
//!
//! Task coordinates are the robot's: x forward, y left, z up (metres). The screen basis is
//! right r = (−sin ψ, cos ψ, 0), up u = (−sin θ cos ψ, −sin θ sin ψ, cos θ) and toward the viewer
//! e = (cos θ cos ψ, cos θ sin ψ, sin θ) for yaw ψ and pitch θ; r × u = e.

use serde::Serialize;

/// Yaw of a fresh view (degrees): the viewer in front of the robot and to its right.
pub const DEFAULT_YAW: f64 = -50.0;
/// Pitch of a fresh view (degrees above the floor).
pub const DEFAULT_PITCH: f64 = 22.0;
/// The pitch a view is kept in (degrees): from a little below the floor to straight down.
pub const PITCH_RANGE: [f64; 2] = [-30.0, 89.0];
/// Degrees the view turns per CSS pixel of an orbit drag.
pub const DEGREES_PER_PIXEL: f64 = 0.5;

/// An orthographic view of the world on a canvas.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Projection {
    /// Yaw ψ about the vertical (degrees).
    pub yaw: f64,
    /// Pitch θ above the floor (degrees).
    pub pitch: f64,
    /// The world point drawn at `origin`.
    pub centre: [f64; 3],
    /// Device pixels per metre.
    pub scale: f64,
    /// Where `centre` lands (device pixels).
    pub origin: [f64; 2],
}

impl Projection {
    /// The screen's right, up and toward-the-viewer unit vectors in the world.
    pub fn basis(&self) -> [[f64; 3]; 3] {
        let (sy, cy) = self.yaw.to_radians().sin_cos();
        let (sp, cp) = self.pitch.to_radians().sin_cos();
        [
            [-sy, cy, 0.0],
            [-sp * cy, -sp * sy, cp],
            [cp * cy, cp * sy, sp],
        ]
    }

    /// World point → device pixel.
    pub fn to_pixel(&self, p: [f64; 3]) -> [f64; 2] {
        let [right, up, _] = self.basis();
        let d = sub(p, self.centre);
        [
            self.origin[0] + self.scale * dot(right, d),
            self.origin[1] - self.scale * dot(up, d),
        ]
    }

    /// How far `p` is toward the viewer from the centre (m): larger is nearer.
    pub fn depth(&self, p: [f64; 3]) -> f64 {
        dot(self.basis()[2], sub(p, self.centre))
    }

    /// Device pixel → the world point under it on the plane through `through` that faces the
    /// viewer (the drag plane of a target at `through`).
    pub fn to_world_on_plane(&self, px: f64, py: f64, through: [f64; 3]) -> [f64; 3] {
        let [right, up, toward] = self.basis();
        let s = (px - self.origin[0]) / self.scale;
        let t = (self.origin[1] - py) / self.scale;
        let depth = self.depth(through);
        std::array::from_fn(|i| self.centre[i] + s * right[i] + t * up[i] + depth * toward[i])
    }

    /// The view turned by a drag of (dx, dy) CSS pixels: right turns the robot to the right
    /// (the viewer to its left), down raises the viewer; the pitch stays in [`PITCH_RANGE`].
    pub fn orbited(yaw: f64, pitch: f64, dx: f64, dy: f64) -> [f64; 2] {
        let yaw = yaw - DEGREES_PER_PIXEL * dx.clamp(-2_000.0, 2_000.0);
        let pitch = (pitch + DEGREES_PER_PIXEL * dy.clamp(-2_000.0, 2_000.0))
            .clamp(PITCH_RANGE[0], PITCH_RANGE[1]);
        [normal_yaw(yaw), pitch]
    }
}

/// A yaw in (−180°, 180°].
pub fn normal_yaw(yaw: f64) -> f64 {
    let wrapped = (yaw + 180.0).rem_euclid(360.0) - 180.0;
    if wrapped == -180.0 {
        180.0
    } else {
        wrapped
    }
}

fn sub(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

/// Dot product of two 3-vectors.
pub fn dot(a: [f64; 3], b: [f64; 3]) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn view(yaw: f64, pitch: f64) -> Projection {
        Projection {
            yaw,
            pitch,
            centre: [0.1, -0.2, 0.3],
            scale: 250.0,
            origin: [300.0, 200.0],
        }
    }

    #[test]
    fn the_basis_is_right_handed_and_orthonormal() {
        for (yaw, pitch) in [(0.0, 0.0), (-50.0, 22.0), (135.0, 89.0), (10.0, -30.0)] {
            let [r, u, e] = view(yaw, pitch).basis();
            for (a, b, want) in [
                (r, r, 1.0),
                (u, u, 1.0),
                (e, e, 1.0),
                (r, u, 0.0),
                (u, e, 0.0),
            ] {
                assert!((dot(a, b) - want).abs() < 1e-12);
            }
            let cross = [
                r[1] * u[2] - r[2] * u[1],
                r[2] * u[0] - r[0] * u[2],
                r[0] * u[1] - r[1] * u[0],
            ];
            assert!(cross.iter().zip(e).all(|(c, w)| (c - w).abs() < 1e-12));
        }
    }

    #[test]
    fn a_pixel_maps_back_to_the_point_on_the_drag_plane() {
        let p = view(-50.0, 22.0);
        let target = [0.45, -0.2, 0.35];
        let [px, py] = p.to_pixel(target);
        let back = p.to_world_on_plane(px, py, target);
        assert!(back.iter().zip(target).all(|(a, b)| (a - b).abs() < 1e-12));
        // Another pixel lands on the same plane, at the screen distance it was moved.
        let moved = p.to_world_on_plane(px + 25.0, py - 50.0, target);
        assert!((p.depth(moved) - p.depth(target)).abs() < 1e-12);
        let [qx, qy] = p.to_pixel(moved);
        assert!((qx - px - 25.0).abs() < 1e-9 && (qy - py + 50.0).abs() < 1e-9);
    }

    #[test]
    fn up_is_up_and_the_front_view_looks_along_x() {
        let p = view(0.0, 0.0);
        let low = p.to_pixel([0.0, 0.0, 0.0]);
        let high = p.to_pixel([0.0, 0.0, 1.0]);
        assert!(high[1] < low[1], "z up draws higher on the screen");
        // Looking back along −x: +y (the robot's left) is on the viewer's right.
        let left = p.to_pixel([0.0, 1.0, 0.0]);
        assert!(left[0] > low[0]);
        assert!((p.to_pixel([1.0, 0.0, 0.0])[0] - low[0]).abs() < 1e-9);
    }

    #[test]
    fn orbiting_wraps_the_yaw_and_keeps_the_pitch_in_range() {
        assert_eq!(Projection::orbited(170.0, 20.0, -40.0, 0.0), [-170.0, 20.0]);
        assert_eq!(
            Projection::orbited(0.0, 80.0, 0.0, 100.0)[1],
            PITCH_RANGE[1]
        );
        assert_eq!(Projection::orbited(0.0, 0.0, 0.0, -1e9)[1], PITCH_RANGE[0]);
        assert_eq!(normal_yaw(-180.0), 180.0);
        assert_eq!(normal_yaw(540.0), 180.0);
    }
}
