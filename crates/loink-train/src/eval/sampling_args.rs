//! The arguments `loink targets` and `loink data` share: which problem, how many rows, the seed
//! of their uniform draws in the joint box, the tabletop cone of a task that turns the hand,
//! and the file to write.

use std::path::PathBuf;

use clap::Args;
use loink::problem::Problem;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::cli::CliError;

/// Arguments of `loink targets` and `loink data`.
#[derive(Debug, Clone, Args)]
pub struct SamplingArgs {
    #[arg(long, visible_alias = "robot", default_value = "", required_unless_present = "urdf",
          help = loink_train::cli::preset_help(" With --urdf, the name of that robot's problem."))]
    pub problem: String,
    #[command(flatten)]
    pub robot_file: loink_train::robot_file::RobotFileArgs,
    /// Number of rows to write.
    #[arg(long)]
    pub count: usize,
    /// RNG seed (ChaCha8).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// For a task that turns the hand (a pose or an axis): keep only configurations whose hand z
    /// axis is within DEG degrees of straight down (60: the tabletop set of docs/pose.md).
    #[arg(long, value_name = "DEG")]
    pub cone: Option<f64>,
    /// Output CSV.
    #[arg(long)]
    pub out: PathBuf,
}

impl SamplingArgs {
    /// The cone's half-angle (rad), checked: only for a task that turns the hand, in (0, 180].
    pub fn cone(&self, problem: &Problem) -> Result<Option<f64>, CliError> {
        let Some(degrees) = self.cone else {
            return Ok(None);
        };
        if !problem.task().has_angle() {
            return Err(CliError::Input(format!(
                "--cone keeps the hand pointing down: '{}' does not turn the hand (its task is {})",
                problem.name(),
                problem.task().columns().join(",")
            )));
        }
        if !(degrees > 0.0 && degrees <= 180.0) {
            return Err(CliError::Input(format!(
                "--cone {degrees} must be in (0, 180] degrees"
            )));
        }
        Ok(Some(degrees.to_radians()))
    }
}

/// Configurations uniform in the box (one draw per joint, in order, ChaCha8 from `seed`), the
/// kind's domain kept, and with `cone` only those whose hand z axis is within `cone` rad of
/// straight down; each with its task coordinates. `None` once a configuration takes more than
/// [`loink::problem::MAX_DRAWS`] draws (a cone nothing reaches).
pub struct Draws<'a> {
    problem: &'a Problem,
    rng: ChaCha8Rng,
    cone: Option<f64>,
    domain: bool,
}

impl<'a> Draws<'a> {
    /// The draws of `problem` from `seed`, inside its domain (the targets of every benchmark,
    /// as [`Problem::random_targets`] draws them).
    pub fn new(problem: &'a Problem, seed: u64, cone: Option<f64>) -> Self {
        Draws {
            problem,
            rng: ChaCha8Rng::seed_from_u64(seed),
            cone,
            domain: true,
        }
    }

    /// The draws of the whole box, the kind's domain ignored (a data file's rows).
    pub fn unfiltered(problem: &'a Problem, seed: u64, cone: Option<f64>) -> Self {
        Draws {
            domain: false,
            ..Self::new(problem, seed, cone)
        }
    }
}

impl Iterator for Draws<'_> {
    type Item = (Vec<f64>, Vec<f64>);
    fn next(&mut self) -> Option<Self::Item> {
        let limits = self.problem.limits();
        let domain = self.problem.capabilities().domain.filter(|_| self.domain);
        for _ in 0..loink::problem::MAX_DRAWS {
            let q: Vec<f64> = (0..limits.len())
                .map(|i| self.rng.random_range(limits.lower()[i]..=limits.upper()[i]))
                .collect();
            if domain.is_some_and(|d| !d.contains(&q)) {
                continue;
            }
            let y = self.problem.position(&q);
            if let Some(cone) = self.cone {
                let down = self
                    .problem
                    .task()
                    .tool_axis(&y)
                    .map(|a| (-a[2]).clamp(-1.0, 1.0).acos());
                if down.is_none_or(|angle| angle > cone) {
                    continue;
                }
            }
            return Some((q, y));
        }
        None
    }
}
