//! The model artifact: one versioned JSON file holding a trained LOInK model.
//!
//! - [`schema`]: the file's shape (serde types, readable with `jq`) and inference conventions;
//! - [`load`]: size cap, nesting guard, format/version, then [`validate()`] → [`ValidatedModel`];
//!   [`save_model`] writes pretty JSON that loads back exactly;
//! - [`validate`](mod@validate): every shape, finiteness, orthogonality, the monotone certificate, bounds;
//! - [`error`]: [`ArtifactError`], naming the offending field path;
//! - [`kind`](mod@kind): the kinds of model file and their words, defined once;
//! - [`charts`]: a multi-chart file (kind `charts`), K LOInK models on regions of the box;
//!   [`load_any`] reads either kind;
//! - [`random`]: [`random_model`], an untrained but valid model for tests and benches.

pub mod charts;
pub mod error;
pub mod kind;
pub mod load;
pub mod random;
pub mod schema;
pub mod validate;

pub use charts::{
    charts_file, validate_charts, ChartEntry, ChartsFile, RegionBox, ValidatedCharts, MAX_CHARTS,
};
pub use error::ArtifactError;
pub use kind::{ModelKind, KIND_CHARTS, KIND_FLOW, KIND_LOINK, KIND_MDN, KIND_MSE};
pub use load::{
    load_any, load_any_bytes, load_model, load_model_bytes, model_kind_of, parse_model,
    save_charts, save_model, FileHeader, LoadedModel, MAX_MODEL_BYTES,
};
pub use random::{bilipnet_weights, mlp_weights, random_model};
pub use schema::*;
pub use validate::{problem_of, validate, ValidatedModel};
