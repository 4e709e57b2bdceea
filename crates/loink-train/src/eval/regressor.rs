//! `loink eval --model REGRESSOR.json`: the direct-regression baselines (`--kind mse`, the
//! 7-joint DNN literature's; `--kind mdn`, the mixture) on a targets file. One answer per target:
//! the network's joints (the heaviest component's mean for an MDN), judged by replay like every
//! other answer. The columns and summary are the learned solvers' ([`super::learned`]): the gap to
//! J\* shows the averaging trap's cost beside its miss.

use std::path::Path;

use loink::regressor::{Regressor, RegressorKind};
use loink::report::Solution;

use super::learned::report_single;
use super::targets_csv::read_targets;
use super::{EvalArgs, Timed};
use crate::cli::CliError;

/// Whether a model file's `kind` is a regressor's (`mse`, `mdn`).
pub fn is_regressor_kind(kind: &str) -> bool {
    [RegressorKind::Mse, RegressorKind::Mdn]
        .iter()
        .any(|k| k.as_str() == kind)
}

/// A regressor as `evaluate` times it: stateless, so a snapshot is a copy.
#[derive(Clone)]
struct Direct(Regressor);

impl Timed for Direct {
    fn label(&self) -> &'static str {
        self.0.kind().as_str()
    }
    fn solve(&mut self, y: &[f64]) -> Solution {
        self.0.solve(y)
    }
    fn snapshot(&self) -> Box<dyn Timed> {
        Box::new(self.clone())
    }
}

/// Runs `loink eval` on a regressor file.
pub fn run(args: &EvalArgs, path: &Path) -> Result<(), CliError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| CliError::Input(format!("cannot read model file {}: {e}", path.display())))?;
    let regressor = Regressor::from_json(&text)
        .map_err(|e| CliError::Input(format!("model file {}: {e}", path.display())))?;
    let problem = regressor.problem().clone();
    if let Some(asked) = args.problem.as_deref() {
        if asked != problem.name() {
            return Err(CliError::Input(format!(
                "--robot {asked} does not match the model's problem {}",
                problem.name()
            )));
        }
    }
    let loink_only = [
        ("--solver", args.solver.is_some()),
        ("--refine", args.refine > 0),
        ("--feedback", args.feedback > 0),
        ("--sigma", args.sigma.is_some()),
        ("--samples", args.samples > 1),
    ];
    if let Some((flag, _)) = loink_only.iter().find(|(_, given)| *given) {
        return Err(CliError::Input(format!(
            "{flag} does not apply to a regression model (its one answer is the network's output)"
        )));
    }
    let kind = regressor.kind().as_str();
    let targets = read_targets(&args.targets, problem.task())?;
    targets.report_invalid(&args.targets);
    let answers = super::evaluate(&targets.rows, &mut Direct(regressor), &problem);
    let line = format!("solver {kind} (direct regression, no refinement)");
    report_single(args, &problem, &targets, answers, line)
}
