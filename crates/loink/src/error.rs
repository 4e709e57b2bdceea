//! Typed errors. Every fallible public call returns [`Result`]; nothing in this crate panics on
//! bad input, so a bad target or a hostile model file can never take down a page or a CLI.

use thiserror::Error;

/// Everything that can be wrong with an input to `loink`.
#[derive(Debug, Clone, PartialEq, Error)]
pub enum LoinkError {
    /// A number that must be finite was NaN or infinite.
    #[error("{what} is not finite (got {value})")]
    NonFinite { what: String, value: f64 },
    /// A vector or matrix had the wrong length or shape.
    #[error("{what} has dimension {got}, expected {expected}")]
    Dimension {
        what: String,
        expected: usize,
        got: usize,
    },
    /// A joint's lower limit is above its upper limit (or either is not finite).
    #[error("joint {joint} has invalid limits [{lower}, {upper}]")]
    InvalidLimits {
        joint: usize,
        lower: f64,
        upper: f64,
    },
    /// A value is finite but outside what the call accepts (absurd magnitude, zero length, …).
    #[error("{what} is out of range: {detail}")]
    OutOfRange { what: String, detail: String },
    /// A problem preset name that does not exist.
    #[error("unknown problem '{name}' (known: {known})")]
    UnknownRobot { name: String, known: String },
    /// A cost specification that cannot be parsed or does not fit the problem.
    #[error("invalid cost spec: {0}")]
    InvalidCost(String),
    /// The solver cannot be used for this problem (e.g. analytic IK on a three-link arm).
    #[error("solver '{solver}' does not apply: {reason}")]
    UnsupportedSolver { solver: String, reason: String },
    /// A robot description (URDF) that cannot be read as a serial chain.
    #[error("robot description: {0}")]
    RobotFile(String),
    /// A capability the problem does not have (e.g. a forward map for a data-only problem).
    #[error("{what} is not available: {reason}")]
    Unsupported { what: String, reason: String },
}

/// Shorthand used throughout the crate.
pub type Result<T> = std::result::Result<T, LoinkError>;

/// Checks that every entry of `values` is finite, naming `what` in the error.
pub fn ensure_finite(what: &str, values: &[f64]) -> Result<()> {
    match values.iter().find(|v| !v.is_finite()) {
        Some(&value) => Err(LoinkError::NonFinite {
            what: what.to_string(),
            value,
        }),
        None => Ok(()),
    }
}

/// Checks that `values` has length `expected`, naming `what` in the error.
pub fn ensure_len(what: &str, values: &[f64], expected: usize) -> Result<()> {
    if values.len() == expected {
        Ok(())
    } else {
        Err(LoinkError::Dimension {
            what: what.to_string(),
            expected,
            got: values.len(),
        })
    }
}
