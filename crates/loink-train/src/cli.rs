//! Shared command-line plumbing: the error type whose variant fixes the exit code.
//!
//! Exit codes: 0 success; 2 bad input (missing or unreadable file, missing columns, unknown
//! robot, a solver that does not apply); 1 internal error.

use std::process::ExitCode;

/// An error that ends a subcommand, carrying its exit code.
#[derive(Debug, Clone, PartialEq)]
pub enum CliError {
    /// The user's input is wrong (exit code 2).
    Input(String),
    /// Something failed inside (exit code 1).
    Internal(String),
}

impl CliError {
    /// The process exit code.
    pub fn code(&self) -> u8 {
        match self {
            CliError::Input(_) => 2,
            CliError::Internal(_) => 1,
        }
    }

    /// Prints the message on stderr and returns the exit code.
    pub fn report(&self) -> ExitCode {
        let message = match self {
            CliError::Input(m) | CliError::Internal(m) => m,
        };
        eprintln!("error: {message}");
        ExitCode::from(self.code())
    }
}

/// Turns a subcommand's result into the process exit code.
pub fn exit_code(result: Result<(), CliError>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => e.report(),
    }
}

impl From<crate::train::TrainError> for CliError {
    /// A flag value, robot or cost the run cannot use is the user's input (exit 2); a diverged
    /// run, a rejected surface draw or a failed write is the run's own failure (exit 1).
    fn from(error: crate::train::TrainError) -> Self {
        use crate::train::TrainError;
        match error {
            TrainError::Argument(_) | TrainError::Loink(_) => CliError::Input(error.to_string()),
            _ => CliError::Internal(error.to_string()),
        }
    }
}

/// The `--robot`/`--problem` help text: the presets as the problem registry lists them, then
/// `more`.
pub fn preset_help(more: &str) -> String {
    format!(
        "Problem preset ({}).{more}",
        loink::problem::registry::preset_names().join(", ")
    )
}
