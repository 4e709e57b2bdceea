//! Solvers. Every one returns a [`crate::report::Solution`] built by
//! [`crate::report::Solution::assess`], so its residual, margin and status come from
//! forward-map replay, not from the solver's own belief.
//!
//! - [`registry`]: the one [`registry::Solver`] trait and the registry that builds any solver the
//!   CLI, the benchmark and the page run, from one [`registry::SolverKind`] and its settings;
//! - [`analytic`]: closed-form two-link IK, both elbow branches (planar two-link arms);
//! - [`closed_form_search`]: a closed form along a free joint, searched (the Panda's pose);
//! - [`dls`]: damped least squares with null-space descent of the cost (any problem);
//! - [`learned`]: what every learned model builds its solvers through ([`learned::Learned`]);
//! - [`reference`](mod@reference): the global reference optimum, where the problem has one;
//! - [`refine`]: limit-aware Gauss–Newton restoration of the task that keeps the null-space
//!   component (a sample's latent position, the reachability witness);
//! - [`polish`]: limit-aware steps that restore the task and descend the cost in the null space
//!   (after the learned solver's answer at z = 0);
//! - [`linalg`]: the small dense kernels they share (m × n Jacobians, m × m solves).

pub mod analytic;
// Only a serial chain has a closed form along a free joint: elsewhere a twin that applies nowhere.
#[cfg_attr(not(feature = "chain"), path = "closed_form_search_off.rs")]
pub mod closed_form_search;
pub mod dls;
pub mod learned;
pub use crate::problem::jacobian as linalg;
pub mod polish;
pub mod reference;
pub mod refine;
pub mod registry;

pub use crate::problem::limits::wrap_into;

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
