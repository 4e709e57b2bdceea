//! The climber's closed-form stance (docs/climber.md §9): the configuration that stands on a
//! wall of inclination γ with foot span d and clearance h, its body tilted by α and slid by c
//! along the wall — the self-motion set's own coordinates (α, c), in which the reference optimum
//! searches a grid.
//!
//! In B the wall runs along ŝ = (cos α, −sin α) with normal n̂ = (sin α, cos α); the ankles sit at
//! A_L = (−c − d/2) ŝ + (pad − h) n̂ and A_U = A_L + d ŝ, each leg reaches its ankle with the knee
//! bent down (q_t ≤ 0), and θ_b = γ + α turns ŝ onto the wall.

use super::body::{FEMUR, PAD, PIVOT_U, PIVOT_V, TIBIA};

/// Where the body stands on its wall: (γ, d, h) the task in words, (α, c) the self-motion.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Placement {
    /// γ, the wall's inclination (rad; 0 floor, π/2 wall climbed head-up, π ceiling).
    pub inclination: f64,
    /// d, the foot span (m).
    pub span: f64,
    /// h, the body's clearance (m).
    pub clearance: f64,
    /// α, the body's tilt (rad; + lifts the front end off the wall).
    pub tilt: f64,
    /// c, the body's offset along the wall (m).
    pub offset: f64,
}

/// The configuration of `placement`, or `None` where a leg cannot reach its ankle.
pub fn stance(placement: &Placement) -> Option<[f64; 5]> {
    let Placement {
        inclination,
        span,
        clearance,
        tilt,
        offset,
    } = *placement;
    let along = [tilt.cos(), -tilt.sin()];
    let normal = [tilt.sin(), tilt.cos()];
    let at = |s: f64| {
        let n = PAD - clearance;
        [s * along[0] + n * normal[0], s * along[1] + n * normal[1]]
    };
    let rear = at(-offset - span / 2.0);
    let front = at(-offset + span / 2.0);
    let (qf_u, qt_u) = reach(1.0, front)?;
    let (qf_l, qt_l) = reach(-1.0, rear)?;
    Some([inclination + tilt, qf_u, qt_u, qf_l, qt_l])
}

/// The femur and tibia angles of the pair on side σ whose ankle is at `ankle` (knee down).
fn reach(side: f64, ankle: [f64; 2]) -> Option<(f64, f64)> {
    // In the pair's own coordinates the leg is a plain two-link arm: u mirrored for σ = −1.
    let x = side * (ankle[0] - side * PIVOT_U);
    let y = ankle[1] - PIVOT_V;
    let cos_knee = (x * x + y * y - FEMUR * FEMUR - TIBIA * TIBIA) / (2.0 * FEMUR * TIBIA);
    if !(-1.0..=1.0).contains(&cos_knee) {
        return None;
    }
    let tibia = -cos_knee.acos();
    let femur = y.atan2(x) - (TIBIA * tibia.sin()).atan2(FEMUR + TIBIA * tibia.cos());
    Some((femur, tibia))
}

/// The inclination γ, span d and clearance h a task y = (y1, y2, h) names.
pub fn placement_of(y: &[f64], tilt: f64, offset: f64) -> Placement {
    Placement {
        inclination: y[1].atan2(y[0]),
        span: y[0].hypot(y[1]),
        clearance: y[2],
        tilt,
        offset,
    }
}
