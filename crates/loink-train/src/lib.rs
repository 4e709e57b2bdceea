//! Library side of the `loink` binary, so integration tests can reach the trainer.
//!
//! - [`bench`](mod@bench): `loink bench` (LOInK against IPOPT and the classical solvers, one run).
//! - [`progress`]: the progress bar long commands draw on a terminal; [`cli`]: exit codes.
//! - [`robot_file`]: `--urdf FILE --base LINK --tip LINK --hold NAME=VALUE`, a user's own robot.
//! - [`targets_csv`]: reading a targets file of any task dimension (`loink eval`, `loink bench`).
//! - [`train`]: `loink train` (burn training, export of the model artifact).
//! - [`train_baseline`]: `loink train --kind mse|mdn` (the averaging-trap baselines).
//! - [`train_flow`]: `loink train --kind flow` (the IKFlow-style baseline of the soft arm).

pub mod bench;
pub mod cli;
pub mod fit;
pub mod progress;
pub mod robot_file;
pub mod targets_csv;
pub mod train;
pub mod train_baseline;
pub mod train_flow;
