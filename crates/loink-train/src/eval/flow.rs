//! `loink eval --model FLOW.json [--samples K --sigma s --seed S]`: the IKFlow-style baseline
//! on a targets file. One answer per target: the z = 0 sample (K = 1, the default), or the
//! cheapest near sample of K at scale s (`loink::flow::solver`), K simulator calls; target row r
//! draws from seed S + r. The columns and summary are the learned solvers' ([`super::learned`]).

use std::path::Path;

use loink::artifact::FileHeader;
use loink::flow::{Flow, KIND_FLOW};
use loink::solvers::registry::{self, SolverKind, SolverSettings};

use super::learned::report_single;
use super::targets_csv::read_targets;
use super::EvalArgs;
use crate::cli::CliError;

/// The model file's kind (`loink` when the header names none), or the error naming the file.
pub fn kind_of(path: &Path) -> Result<String, CliError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| CliError::Input(format!("cannot read model file {}: {e}", path.display())))?;
    let header: FileHeader = serde_json::from_str(&text)
        .map_err(|e| CliError::Input(format!("model file {}: {e}", path.display())))?;
    Ok(header.kind.unwrap_or_else(|| "loink".into()))
}

/// Whether `path` holds a flow.
pub fn is_flow(path: &Path) -> bool {
    kind_of(path).is_ok_and(|k| k == KIND_FLOW)
}

/// Runs `loink eval` on a flow file.
pub fn run(args: &EvalArgs, path: &Path) -> Result<(), CliError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| CliError::Input(format!("cannot read model file {}: {e}", path.display())))?;
    let flow = Flow::from_json(&text)
        .map_err(|e| CliError::Input(format!("model file {}: {e}", path.display())))?;
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
    let mut solver =
        registry::build_flow(&flow, &settings).map_err(|e| CliError::Input(e.to_string()))?;
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
