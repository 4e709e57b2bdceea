//! # loink — learned optimal inverse kinematics
//!
//! Pure Rust (ndarray, serde, seeded RNG; no web, no files) so it compiles natively and to
//! `wasm32-unknown-unknown` alike.
//!
//! - [`problem`]: the [`problem::Kinematics`] interface every kind of problem implements (joints,
//!   task, forward map, optional capabilities), the [`problem::Problem`] that binds one to a
//!   cost, the spec and registry a model file names, and the kinds (planar arms, …).
//! - [`cost`]: cost terms with values and gradients, open to terms of one kind of problem.
//! - [`report`]: the one [`report::Solution`] type every solver returns, with one meaning of
//!   each status.
//! - [`solvers`]: the solver trait and registry; analytic two-link IK, damped least squares,
//!   the global reference optimum, the polish of a learned answer.
//! - [`nn`], [`artifact`], [`surrogate`]: the BiLipNet, the model file, the learned solver.
//! - [`flow`]: the IKFlow-style conditional normalising flow, the learned baseline of the
//!   model-free soft arm (feature `flow`).
//! - [`regressor`]: the MSE and mixture-density regression baselines (the averaging trap).
//! - [`gap`]: the gap to the optimum J\*, relative or (where J\* is near 0) absolute, one rule
//!   for every report.
//! - [`stats`]: order statistics; [`error`]: the typed errors every fallible call returns.

pub mod artifact;
pub mod cost;
pub mod error;
#[cfg(feature = "flow")]
pub mod flow;
pub mod gap;
pub mod model;
pub mod nn;
pub mod outcome;
pub mod problem;
pub mod regressor;
pub mod report;
#[cfg(feature = "orientation")]
pub mod so3;
pub mod solvers;
pub mod stats;
pub mod surrogate;

pub use error::{LoinkError, Result};
