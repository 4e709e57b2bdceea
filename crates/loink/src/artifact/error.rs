//! [`ArtifactError`]: why a model file was rejected, naming the offending field by its JSON path
//! (e.g. `bilipnet.monotone[1].s: row 3 has 2 entries, expected 3`).

use thiserror::Error;

/// Everything that can be wrong with a model file. Each check has its own variant so callers
/// (and tests) can tell a truncated file from a broken certificate.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum ArtifactError {
    /// The file is larger than the size cap (checked before parsing).
    #[error("model file is {bytes} bytes, larger than the {limit}-byte cap")]
    TooLarge { bytes: usize, limit: usize },
    /// The text is not UTF-8.
    #[error("model file is not UTF-8: {0}")]
    NotUtf8(String),
    /// The JSON ends early.
    #[error("model file is truncated: {0}")]
    Truncated(String),
    /// The JSON nests deeper than the parser allows (hostile input).
    #[error("model file nests too deeply: {0}")]
    TooDeep(String),
    /// Not JSON, or JSON that does not fit the schema (missing field, wrong type, …).
    #[error("model file does not parse: {0}")]
    Parse(String),
    /// `format` is not `loink-model`.
    #[error("format is '{found}', expected '{expected}'")]
    Format { found: String, expected: String },
    /// `version` is not one this crate reads.
    #[error("version {found} is not supported (this build reads versions 1 to {supported})")]
    Version { found: u32, supported: u32 },
    /// A vector or matrix has the wrong shape.
    #[error("{path}: {detail}")]
    Shape { path: String, detail: String },
    /// A number is NaN or infinite.
    #[error("{path}: entry {index} is not finite ({value})")]
    NonFinite {
        path: String,
        index: String,
        value: f64,
    },
    /// A scalar is outside its allowed range (μ ≥ ν, non-positive scale, …).
    #[error("{path}: {detail}")]
    OutOfRange { path: String, detail: String },
    /// An orthogonal layer's R is not orthogonal: max |RᵀR − I| exceeds the tolerance.
    #[error("{path}: max |RᵀR − I| = {deviation:e} exceeds {tolerance:e}")]
    NotOrthogonal {
        path: String,
        deviation: f64,
        tolerance: f64,
    },
    /// A monotone layer fails S Sᵀ ⪯ I − ½(V + Vᵀ) + tol·I.
    #[error("{path}: monotone certificate S Sᵀ ⪯ I − ½(V + Vᵀ) fails ({detail})")]
    Certificate { path: String, detail: String },
    /// The layers do not imply the claimed bounds or disagree with `hyper`.
    #[error("{path}: {detail}")]
    Inconsistent { path: String, detail: String },
    /// The problem spec does not describe a valid problem.
    #[error("problem: {0}")]
    Problem(String),
    /// `kind` names a model this build does not know.
    #[error("kind '{0}' is not a model kind this build reads (known: loink, charts)")]
    Kind(String),
    /// The cost spec is invalid for the problem.
    #[error("cost: {0}")]
    Cost(String),
    /// A head declares an activation other than its own (`tanh`; `relu` for the section head).
    #[error("{path}: activation '{found}' is not supported (the cost heads: 'tanh'; the section head: 'relu')")]
    Activation { path: String, found: String },
}
