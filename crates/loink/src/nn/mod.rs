//! The learned solver's neural building blocks on explicit f64 matrices (loink-math.md §2–3):
//!
//! - [`cayley`]: free matrix → orthonormal columns;
//! - [`orthogonal`]: u = R x + b and its transpose inverse;
//! - [`monotone`]: the monotone Lipschitz layer F and its preallocated [`MonotoneState`];
//!   [`active_pass`]: its forward pass listing the active units (the Newton kernel);
//! - [`dys`]: F⁻¹ by Davis–Yin splitting; [`newton`]: F⁻¹ by semi-smooth Newton;
//! - [`inverse`]: the options and per-layer reports both inverses share;
//! - [`bilipnet`]: G = O_d ∘ F_{d−1} ∘ … ∘ F₀ ∘ O₀ with forward, inverse, μ, ν, τ;
//! - [`path`]: warm starts predicted along a path of equally spaced targets;
//! - [`section`]: the distilled start σ(ỹ) ≈ G⁻¹([ỹ; 0]) of a cold inverse;
//! - [`mlp`]: the tanh heads M(ỹ) and b(ỹ);
//! - [`linalg`]: the small dense kernels underneath; [`simd`]: their wide build on x86-64;
//!   `widths`: the input widths with fixed-size kernels.

pub mod active_pass;
pub mod bilipnet;
pub mod cayley;
#[cfg(feature = "davis-yin")]
pub mod dys;
pub mod inverse;
pub mod linalg;
pub mod mlp;
pub mod monotone;
pub mod monotone_state;
pub mod newton;
pub mod orthogonal;
pub mod path;
pub mod section;
pub mod simd;
mod widths;

pub use bilipnet::{BiLipNet, BiLipState, Inverse, InverseReport};
pub use inverse::{InverseMethod, InverseOptions, LayerReport, Stop};
pub use mlp::{Dense, Mlp};
pub use monotone::{MonotoneLayer, MonotoneState};
pub use orthogonal::OrthogonalLayer;
pub use path::PathPredictor;
pub use section::{SectionHead, SectionWork};
