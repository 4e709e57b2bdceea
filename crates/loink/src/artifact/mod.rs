//! The model artifact: one versioned JSON file holding a trained LOInK model.
//!
//! [`schema`] is the file's shape (serde types, readable with `jq`). Loading and validation
//! live beside it.

pub mod schema;

pub use schema::*;
