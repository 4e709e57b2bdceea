//! Where a planar arm can reach: the reach ring (limits ignored) and the decision inside the
//! limits.
//!
//! Outside the ring inner ≤ |y| ≤ Σ l (inner = max(0, 2·max l − Σ l)) nothing reaches y. Inside
//! it, y is reachable within the limits when the self-motion set of y has a feasible point:
//! two links — one of the two closed-form branches lies in the limits (exact); three links — a
//! feasible sample among [`REACHABILITY_SAMPLES`] φ values of the sweep (a feasible piece
//! narrower than the spacing, ~3π/4,096 rad of φ, can be missed); four links — a feasible node
//! of the [`REACHABILITY_GRID`]² lattice of `connectivity`. Longer arms: undecided.

use super::connectivity::grid_pieces;
use super::sweep::{sweep, Chain};
use super::two_link::{wrapped_pose, Branch};
use super::PlanarArm;
use crate::nn::linalg::distance;
use crate::outcome::Tolerance;
use crate::problem::limits::wrap_into;
use crate::problem::{Problem, Reachability};

/// φ samples of the three-joint decision: 4,096 like the four-joint 64 × 64 grid (the full
/// reference sweep's 40,000 cost ~5.5 ms a call natively).
pub const REACHABILITY_SAMPLES: usize = 4_096;
/// Lattice of the four-joint decision.
pub const REACHABILITY_GRID: usize = 64;

/// `Unreachable` outside the reach ring (allowing 1e-12 of rounding), `Unknown` inside.
pub fn outside_ring(arm: &PlanarArm, y: &[f64]) -> Reachability {
    let radius = distance(y, &[0.0, 0.0]);
    let slack = 1e-12 * arm.reach();
    if radius > arm.reach() + slack || radius < arm.inner_radius() - slack {
        Reachability::Unreachable
    } else {
        Reachability::Unknown
    }
}

/// The decision inside the ring (see the module docs for how exact it is per arm length).
pub fn decide(arm: &PlanarArm, problem: &Problem, y: &[f64]) -> Reachability {
    let pieces = match arm.dof() {
        1 => {
            let angle = wrap_into(
                y[1].atan2(y[0]),
                arm.limits().lower()[0],
                arm.limits().upper()[0],
            );
            let on_circle = (distance(y, &[0.0, 0.0]) - arm.lengths()[0]).abs() <= 1e-9;
            Some(usize::from(
                on_circle && arm.limits().margin(&[angle]) >= 0.0,
            ))
        }
        2 => Some(feasible_branches(arm, y)),
        3 => {
            let mut chain = Chain::new(arm, problem, [y[0], y[1]], &[]);
            Some(sweep(&mut chain, REACHABILITY_SAMPLES, false).pieces())
        }
        4 => Some(grid_pieces(arm, [y[0], y[1]], REACHABILITY_GRID)),
        _ => None,
    };
    match pieces {
        Some(0) => Reachability::Unreachable,
        Some(_) => Reachability::Reachable,
        None => Reachability::Unknown,
    }
}

/// The elbow branches of a two-link arm whose closed-form answer (each angle taken to its
/// representative nearest mid-range) lands on `y` inside the limits, to the classical
/// tolerances: the pieces of a set without self-motion.
fn feasible_branches(arm: &PlanarArm, y: &[f64]) -> usize {
    let (l1, l2) = (arm.lengths()[0], arm.lengths()[1]);
    let limits = arm.limits();
    let tolerance = Tolerance::CLASSICAL;
    Branch::BOTH
        .into_iter()
        .filter(|&branch| {
            let (q, _) = wrapped_pose(l1, l2, limits, [y[0], y[1]], branch);
            distance(&arm.position(&q), y) <= tolerance.residual
                && limits.margin(&q) >= -tolerance.limits
        })
        .count()
}
