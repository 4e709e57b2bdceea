//! LOInK's network in burn and everything one training step needs, shared by the native trainer
//! (`loink train`, crate `loink-train`) and the page's in-browser trainer (crate
//! `loink-web-train`, a Web Worker): the same numerics in both places.
//!
//! - [`model`]: G = O_d ∘ F_{d−1} ∘ … ∘ F₀ ∘ O₀ on free parameters, plus the surrogate-cost heads.
//! - [`cayley`]: the Cayley transform, differentiable (burn) and in f64 (export).
//! - [`loss`]: the weighted task + cost loss.
//! - [`optimiser`]: global gradient-norm clipping and Adam; [`schedule`]: the one-cycle rate.
//! - [`data`]: configurations in the limits, labelled by FK and cost; normalisation; split.
//! - [`export`]: the model file (`loink::artifact::ModelFile`).
//! - [`session`]: a training run taken a slice at a time, as the browser's worker runs it, with
//!   its [`settings`].

pub mod cayley;
pub mod data;
pub mod export;
pub mod loss;
pub mod model;
pub mod optimiser;
pub mod schedule;
pub mod session;
pub mod settings;
