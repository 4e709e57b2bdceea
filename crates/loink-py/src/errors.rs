//! The core's errors as Python exceptions: bad input and unreadable or hostile files are
//! `ValueError` with the CLI's message, a missing file `FileNotFoundError`.

use std::path::Path;

use pyo3::exceptions::{PyFileNotFoundError, PyValueError};
use pyo3::PyErr;

/// A `ValueError` carrying `message`.
pub fn value_error(message: impl Into<String>) -> PyErr {
    PyValueError::new_err(message.into())
}

/// A core error as a `ValueError` with its message.
pub fn from_core(error: loink::LoinkError) -> PyErr {
    value_error(error.to_string())
}

/// Reads a model file as text: `FileNotFoundError` when it does not exist, `ValueError` when
/// it cannot be read or is not UTF-8 (the CLI's words).
pub fn read_model_text(path: &Path) -> Result<String, PyErr> {
    let bytes = std::fs::read(path).map_err(|e| {
        let message = format!("cannot read model file {}: {e}", path.display());
        if e.kind() == std::io::ErrorKind::NotFound {
            PyFileNotFoundError::new_err(message)
        } else {
            value_error(message)
        }
    })?;
    String::from_utf8(bytes)
        .map_err(|e| value_error(format!("model file {}: not UTF-8: {e}", path.display())))
}

/// A missing URDF file as `FileNotFoundError` (the reader's message), other read errors as
/// `ValueError`.
pub fn check_robot_file(path: &Path) -> Result<(), PyErr> {
    if path.exists() {
        Ok(())
    } else {
        Err(PyFileNotFoundError::new_err(format!(
            "cannot read {}: no such file",
            path.display()
        )))
    }
}
