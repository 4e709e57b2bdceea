//! `loink eval --model REGRESSOR.json`: the direct-regression baselines (`--kind mse`, the
//! 7-joint DNN literature's; `--kind mdn`, the mixture) on a targets file. One answer per target:
//! the network's joints (the heaviest component's mean for an MDN), judged by replay like every
//! other answer. The columns and summary are the learned solvers' ([`super::learned`]): the gap to
//! J\* shows the averaging trap's cost beside its miss.

use loink::regressor::Regressor;

use super::learned::report_single;
use super::targets_csv::read_targets;
use super::EvalArgs;
use crate::cli::CliError;

/// Runs `loink eval` on a regressor file.
pub fn run(args: &EvalArgs, regressor: &Regressor) -> Result<(), CliError> {
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
    let answers = super::evaluate(&targets.rows, &mut regressor.solver(), &problem);
    let line = format!("solver {kind} (direct regression, no refinement)");
    report_single(args, &problem, &targets, answers, line)
}
