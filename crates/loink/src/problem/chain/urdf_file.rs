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
    /// A spheres file (`loink spheres`) and, optionally, a scene file (TOML): the chain then
    /// keeps clear of itself and of the scene, its cost `limits=1,self=10,scene=10`.
    pub collision: Option<(&'a Path, Option<&'a Path>)>,
}

/// The margins (m) of a user's chain with a collision model: the `self` term's and the
/// `scene` term's (those of `panda-shelf`).
pub const MARGINS: (f64, f64) = super::urdf::SHELF_MARGINS;

/// Largest scene file read (bytes).
pub const MAX_SCENE_BYTES: u64 = 1024 * 1024;

/// Reads a file of at most `limit` bytes, or an error naming it.
fn read_bounded(path: &Path, limit: u64, what: &str) -> Result<Vec<u8>> {
    let unreadable = |e: std::io::Error| {
        LoinkError::RobotFile(format!("cannot read {what} {}: {e}", path.display()))
    };
    let size = std::fs::metadata(path).map_err(unreadable)?.len();
    if size > limit {
        return Err(LoinkError::RobotFile(format!(
            "{what} {} is {size} bytes, larger than {limit}",
            path.display()
        )));
    }
    std::fs::read(path).map_err(unreadable)
}

/// A scene file (TOML, [`super::collision::Scene`]): read, checked and its normals made unit.
pub fn read_scene(path: &Path) -> Result<super::collision::Scene> {
    let bytes = read_bounded(path, MAX_SCENE_BYTES, "scene file")?;
    let text = std::str::from_utf8(&bytes).map_err(|e| {
        LoinkError::RobotFile(format!("scene file {}: not UTF-8 ({e})", path.display()))
    })?;
    let scene: super::collision::Scene = toml::from_str(text)
        .map_err(|e| LoinkError::RobotFile(format!("scene file {}: {e}", path.display())))?;
    scene
        .normalised()
        .map_err(|e| LoinkError::RobotFile(format!("scene file {}: {e}", path.display())))
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
        let chain = SerialChain::new(name, spec.clone(), limits.clone())?;
        let Some((spheres, scene)) = self.collision else {
            return Ok((
                Problem::new(Arc::new(chain), CostSpec::joint_centring())?,
                notes,
            ));
        };
        let spheres_bytes = read_bounded(
            spheres,
            super::collision::spheres_file::MAX_BYTES as u64,
            "spheres file",
        )?;
        let spheres = super::collision::spheres_file::SpheresFile::from_json(&spheres_bytes)?;
        let scene = match scene {
            Some(path) => read_scene(path)?,
            None => super::collision::Scene::default(),
        };
        let (self_margin, scene_margin) = MARGINS;
        let collision = super::collision::bind::collision_spec(
            &chain,
            &bytes,
            &spheres,
            scene,
            self_margin,
            scene_margin,
        )?;
        spec.collision = Some(collision);
        let chain = SerialChain::new(name, spec, limits)?;
        Ok((
            Problem::new(Arc::new(chain), CostSpec::with_collisions())?,
            notes,
        ))
    }
}
