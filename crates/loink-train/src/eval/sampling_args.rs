//! The arguments `loink targets` and `loink data` share: which problem, how many rows, the seed
//! of their uniform draws in the joint box, and the file to write.

use std::path::PathBuf;

use clap::Args;

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
    /// Output CSV.
    #[arg(long)]
    pub out: PathBuf,
}
