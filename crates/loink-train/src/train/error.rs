//! The errors of `loink train`, for every trainer and the epoch loop they share.

use std::path::PathBuf;

/// Errors of `loink train`.
#[derive(Debug, thiserror::Error)]
pub enum TrainError {
    /// Robot or cost could not be built.
    #[error(transparent)]
    Loink(#[from] loink::LoinkError),
    /// A flag value is unusable.
    #[error("invalid argument: {0}")]
    Argument(String),
    /// Training produced a non-finite loss.
    #[error("training diverged: loss became {0} at epoch {1}")]
    Diverged(f64, usize),
    /// The inference crate rejected the network being trained (`--surface` inverts it every epoch).
    #[error("optimal-surface draw at epoch {epoch}: {reason}")]
    Surface {
        /// The epoch (1-based).
        epoch: usize,
        /// The inference crate's reason.
        reason: String,
    },
    /// A reference search of the anchors at the optimum (`--optima`) did not finish.
    #[error("anchors at the optimum: {0}")]
    Anchors(String),
    /// The output file could not be written.
    #[error("cannot write {path}: {source}")]
    Io {
        /// The path.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
}
