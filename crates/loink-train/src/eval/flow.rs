//! `loink eval --model FLOW.json [--samples K --sigma s --seed S]`: the IKFlow-style baseline
//! on a targets file. One answer per target: the z = 0 sample (K = 1, the default), or the
//! cheapest near sample of K at scale s (`loink::flow::solver`), K simulator calls; target row r
//! draws from seed S + r. The columns and summary are the learned solvers' ([`super::learned`]).

use std::path::Path;

use loink::artifact::ModelKind;
use loink::flow::Flow;
use loink::solvers::registry::{SolverKind, SolverSettings};

use super::learned::report_single;
use super::targets_csv::read_targets;
use super::EvalArgs;
use crate::cli::CliError;

/// Whether `path` holds a flow (its `kind`).
pub fn is_flow(path: &Path) -> bool {
    std::fs::read_to_string(path)
        .is_ok_and(|text| loink::artifact::model_kind_of(&text).is_ok_and(|k| k == ModelKind::Flow))
}

/// Runs `loink eval` on a flow file.
pub fn run(args: &EvalArgs, flow: &Flow) -> Result<(), CliError> {
    if let Some(asked) = args.problem.as_deref() {
        if asked != flow.problem().name() {
            return Err(CliError::Input(format!(
                "--robot {asked} does not match the model's problem {}",
                flow.problem().name()
            )));
        }
    }
    let loink_only = [
        ("--solver", args.solver.is_some_and(|k| !k.is_flow())),
        ("--refine", args.refine > 0),
        ("--feedback", args.feedback > 0),
    ];
    if let Some((flag, _)) = loink_only.iter().find(|(_, given)| *given) {
        return Err(CliError::Input(format!(
            "{flag} does not apply to a flow (it takes --samples K --sigma s --seed S)"
        )));
    }
    if args.samples > 1 && args.sigma.is_none() {
        return Err(CliError::Input(format!(
            "--samples {} needs --sigma (the latent scale to sample at)",
            args.samples
        )));
    }
    let sigma = args.sigma.unwrap_or(0.0);
    let settings = SolverSettings {
        samples: args.samples,
        sigma,
        seed: args.seed.unwrap_or(0),
        ..SolverSettings::new(SolverKind::Flow)
    };
    let mut solver = flow
        .solver(&settings)
        .map_err(|e| CliError::Input(e.to_string()))?;
    let problem = flow.problem().clone();
    let targets = read_targets(&args.targets, problem.task())?;
    targets.report_invalid(&args.targets);
    let answers = super::evaluate(&targets.rows, &mut solver, &problem);
    let line = format!(
        "solver flow, {} sample{} at σ = {sigma}",
        args.samples,
        if args.samples == 1 { " (z = 0)" } else { "s" }
    );
    report_single(args, &problem, &targets, answers, line)
}
