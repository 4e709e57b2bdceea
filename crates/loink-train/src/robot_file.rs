//! `--urdf FILE --base LINK --tip LINK [--task position|pose|axis] [--hold NAME=VALUE …]`: a
//! user's own serial robot, read from its URDF, wherever a command takes `--problem`. The
//! problem is the chain from the base link to the tip link, its task the tip's position (m = 3),
//! its full pose (m = 6, the orientation about the tip's orientation at the middle of the box)
//! or its position and z axis (m = 5), and joint centring its cost.

use std::path::PathBuf;

use clap::Args;
use loink::problem::chain::urdf_file::UrdfProblem;
use loink::problem::chain::{HeldJoint, Task};
use loink::problem::Problem;
use loink::LoinkError;

/// The flags that name a robot by its URDF file (flattened into each command's arguments).
#[derive(Debug, Clone, Default, Args)]
pub struct RobotFileArgs {
    /// A URDF file: the problem is its serial chain from --base to --tip (revolute, continuous
    /// and prismatic joints; fixed ones folded in; a joint that follows another (`<mimic>`) takes
    /// its value from it; one with zero-width limits is fixed), the tip's position its task and
    /// joint centring its cost. --problem, if given, names it (the file's stem otherwise).
    #[arg(long, value_name = "FILE", requires_all = ["base", "tip"])]
    pub urdf: Option<PathBuf>,
    /// With --urdf: the base link, the frame targets are given in.
    #[arg(long, value_name = "LINK", requires = "urdf")]
    pub base: Option<String>,
    /// With --urdf: the tip link, the point the task places.
    #[arg(long, value_name = "LINK", requires = "urdf")]
    pub tip: Option<String>,
    /// With --urdf: what the tip must do — reach a position (the default), a full pose
    /// (position and orientation: targets `x,y,z,qw,qx,qy,qz`) or a position and the direction
    /// of its z axis (targets `x,y,z,ax,ay,az`).
    #[arg(long, value_name = "TASK", requires = "urdf", value_parser = parse_task)]
    pub task: Option<Task>,
    /// With --urdf: holds a joint at a value (rad or m; a continuous joint's wrapped into
    /// [−π, π]) — it is then no joint of the problem and the cost skips it, nor are the joints
    /// that follow it. Repeat for more joints.
    #[arg(long = "hold", value_name = "NAME=VALUE", requires = "urdf", value_parser = parse_hold)]
    pub hold: Vec<HeldJoint>,
    /// With --urdf: the links as spheres (`loink spheres`): the chain keeps clear of itself,
    /// its cost joint centring + 10 × self-collision + 10 × scene collision.
    #[arg(long, value_name = "FILE", requires = "urdf")]
    pub spheres: Option<PathBuf>,
    /// With --spheres: the scene (TOML: `[[half_space]]` and `[[box]]` tables, docs/collision.md).
    #[arg(long, value_name = "FILE", requires = "spheres")]
    pub scene: Option<PathBuf>,
}

impl RobotFileArgs {
    /// The problem these flags and `--problem NAME` describe: the URDF's chain when `--urdf` is
    /// given (named NAME, or after the file; what loading did that the file does not say
    /// outright goes to stderr, a line each), else the preset NAME.
    pub fn problem(&self, name: &str) -> Result<Problem, LoinkError> {
        let Some(path) = &self.urdf else {
            return Problem::preset(name);
        };
        UrdfProblem {
            path,
            name: Some(name),
            base: self.base.as_deref().unwrap_or_default(),
            tip: self.tip.as_deref().unwrap_or_default(),
            task: self.task.unwrap_or_default(),
            held: &self.hold,
            collision: self
                .spheres
                .as_deref()
                .map(|spheres| (spheres, self.scene.as_deref())),
        }
        .load()
        .map(|(problem, notes)| {
            for note in notes {
                eprintln!("{}: {note}", path.display());
            }
            problem
        })
    }
}

/// Parses a task's word.
fn parse_task(text: &str) -> Result<Task, String> {
    Task::parse(text).ok_or_else(|| format!("'{text}' is no task (position, pose or axis)"))
}

/// Parses `NAME=VALUE` (VALUE finite).
fn parse_hold(text: &str) -> Result<HeldJoint, String> {
    let (name, value) = text
        .split_once('=')
        .ok_or_else(|| format!("'{text}' is not NAME=VALUE"))?;
    let value: f64 = value
        .trim()
        .parse()
        .map_err(|_| format!("'{value}' is not a number"))?;
    if !value.is_finite() {
        return Err(format!("'{text}': the value must be finite"));
    }
    Ok(HeldJoint {
        name: name.trim().to_string(),
        value,
    })
}
