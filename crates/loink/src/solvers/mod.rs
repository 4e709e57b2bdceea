//! Classical solvers. Every one returns a [`crate::report::Solution`] built by
//! [`crate::report::Solution::assess`], so its residual, margin and status come from
//! forward-kinematics replay, not from the solver's own belief.
//!
//! - [`analytic`]: closed-form two-link IK, both elbow branches.
//! - [`dls`]: damped least squares (seed 002) with null-space descent of the cost.
//! - [`reference`]: the global reference optimum by self-motion sweep (planar3.md), and the
//!   sampled self-motion set the playground's landscape panel draws.
//! - [`refine`]: limit-aware Gauss–Newton refinement onto the task that keeps the null-space
//!   component (used after the learned solver).
//! - [`linalg`]: the small dense kernels they share (2 × n Jacobians, 2 × 2 solves).

pub mod analytic;
mod connectivity;
pub mod dls;
pub mod linalg;
pub mod reference;
pub mod refine;
mod sweep;

use std::f64::consts::TAU;

/// Shifts `angle` by a multiple of 2π to the representative nearest the mid-range of
/// `[lower, upper]`. Angles are never wrapped by the robot itself, so a closed-form solution
/// (defined modulo 2π) has to pick its representative against the limits: when any shift lies
/// inside the range this one does (and is the most central), otherwise it is the least violating.
pub fn wrap_into(angle: f64, lower: f64, upper: f64) -> f64 {
    let centre = 0.5 * (lower + upper);
    angle + TAU * ((centre - angle) / TAU).round()
}

/// Microseconds elapsed since `start` (the wasm build has no clock; it reports 0).
pub(crate) fn micros_since(start: Option<Clock>) -> f64 {
    match start {
        Some(t) => t.elapsed().as_secs_f64() * 1e6,
        None => 0.0,
    }
}

/// The monotonic clock used for `Solution::micros` (absent on wasm32, where `Instant` panics).
#[cfg(not(target_arch = "wasm32"))]
pub(crate) type Clock = std::time::Instant;
#[cfg(target_arch = "wasm32")]
pub(crate) type Clock = NoClock;

/// Placeholder clock on wasm32 (never constructed).
#[cfg(target_arch = "wasm32")]
#[derive(Clone, Copy)]
pub(crate) struct NoClock;
#[cfg(target_arch = "wasm32")]
impl NoClock {
    fn elapsed(&self) -> std::time::Duration {
        std::time::Duration::ZERO
    }
}

/// Starts the clock (None on wasm32).
pub(crate) fn clock() -> Option<Clock> {
    #[cfg(not(target_arch = "wasm32"))]
    {
        Some(std::time::Instant::now())
    }
    #[cfg(target_arch = "wasm32")]
    {
        None
    }
}
