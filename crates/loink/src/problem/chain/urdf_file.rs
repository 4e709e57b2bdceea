//! A user's own robot from a URDF file on disk: the problem of its chain from a base link to a
//! tip link, with the task the caller asks for and joint centring as its cost. One reading for
//! every front end (the CLI's `--urdf`, the Python bindings), with the same messages.

use std::path::Path;
use std::sync::Arc;

use super::urdf::{self, ChainRequest, MAX_URDF_BYTES};
use super::{HeldJoint, SerialChain, Task};
use crate::cost::CostSpec;
use crate::error::{LoinkError, Result};
use crate::problem::Problem;

/// Which chain of which file, and what its tip must do.
#[derive(Debug, Clone, Copy)]
pub struct UrdfProblem<'a> {
    /// The URDF file.
    pub path: &'a Path,
    /// The problem's name (`None`: the file's stem).
    pub name: Option<&'a str>,
    /// The base link, the frame targets are given in.
    pub base: &'a str,
    /// The tip link, the frame the task places.
    pub tip: &'a str,
    /// Position, full pose or position and tool axis.
    pub task: Task,
    /// Joints held at a value (no joints of the problem; the cost skips them).
    pub held: &'a [HeldJoint],
}

impl UrdfProblem<'_> {
    /// Reads the file (at most [`MAX_URDF_BYTES`]) and builds the problem, with the reader's
    /// notes (joints that follow others, joints fixed by their limits, a held angle wrapped).
    /// A file that cannot be read is [`LoinkError::RobotFile`] naming it; a chain that cannot
    /// be built is the reader's error.
    pub fn load(&self) -> Result<(Problem, Vec<String>)> {
        let path = self.path;
        let unreadable = |e: std::io::Error| {
            LoinkError::RobotFile(format!("cannot read {}: {e}", path.display()))
        };
        let size = std::fs::metadata(path).map_err(unreadable)?.len();
        if size > MAX_URDF_BYTES as u64 {
            return Err(LoinkError::RobotFile(format!(
                "{} is {size} bytes, larger than {MAX_URDF_BYTES}",
                path.display()
            )));
        }
        let bytes = std::fs::read(path).map_err(unreadable)?;
        let file = path
            .file_name()
            .map(|f| f.to_string_lossy().into_owned())
            .unwrap_or_default();
        let request = ChainRequest {
            file: &file,
            base: self.base,
            tip: self.tip,
            held: self.held,
        };
        let urdf::ChainRead {
            mut spec,
            limits,
            notes,
        } = urdf::read(&bytes, &request)?;
        spec.task = self.task;
        let stem = path
            .file_stem()
            .map(|f| f.to_string_lossy().into_owned())
            .unwrap_or_else(|| "urdf".into());
        let name = self.name.filter(|n| !n.is_empty()).unwrap_or(&stem);
        let chain = SerialChain::new(name, spec, limits)?;
        Ok((
            Problem::new(Arc::new(chain), CostSpec::joint_centring())?,
            notes,
        ))
    }
}
