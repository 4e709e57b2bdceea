//! # loink — learned optimal inverse kinematics
//!
//! Pure Rust (ndarray, serde, seeded RNG; no web, no files) so it compiles natively and to
//! `wasm32-unknown-unknown` alike.
//!
//! - [`robot`]: the [`robot::Robot`] trait and [`robot::PlanarArm`] with its named presets.
//! - [`cost`]: cost terms (joint-limit, centre-of-mass, effort) with values and gradients.
//! - [`problem`]: a robot and its cost, the pair every solver works on.
//! - [`report`]: the one [`report::Solution`] type every solver returns.
//! - [`solvers`]: analytic two-link IK, damped least squares, the global reference optimum,
//!   limit-aware Gauss–Newton refinement.
//! - [`regressor`]: the MSE and mixture-density regression baselines (the averaging trap).
//! - [`error`]: the typed errors every fallible call returns.

pub mod artifact;
pub mod cost;
pub mod error;
pub mod nn;
pub mod problem;
pub mod regressor;
pub mod report;
pub mod robot;
pub mod solvers;
pub mod surrogate;

pub use error::{LoinkError, Result};
