//! The flow baseline's place in the engine of a bundle without the flow (feature `flow` off):
//! the calls of `flows.rs`, with nothing ever loaded.

use loink::report::Solution;
use loink::solvers::registry::{Solver, SolverKind, SolverSettings};

use super::{Engine, Unavailable};
use crate::catalog::ModelEntry;
use crate::model_json::Decoded;

/// No flows.
#[derive(Default)]
pub struct Flows;

impl Flows {
    /// No samples of a flow.
    fn family(&self) -> &[Solution] {
        &[]
    }
}

impl Engine {
    /// The flow is never the solver here.
    pub(super) fn flow_applies(&self, _kind: SolverKind) -> bool {
        false
    }

    /// This bundle decodes no flow.
    pub(super) fn is_flow_file(&self, _decoded: &Decoded) -> bool {
        false
    }

    /// This bundle decodes no flow.
    pub(super) fn load_flow_file(
        &mut self,
        entry: &'static ModelEntry,
        _decoded: Decoded,
    ) -> Result<(), String> {
        Err(format!("model '{}' is not a flow", entry.name))
    }

    /// The flow never solves here.
    pub(super) fn flow_available(&self) -> Result<(), String> {
        Err("the flow runs in the page's full bundle".into())
    }

    /// The refusal's stand-in.
    pub(super) fn flow_solver(&self, settings: &SolverSettings) -> Box<dyn Solver> {
        Box::new(Unavailable {
            kind: settings.kind,
        })
    }

    /// The settings as they are.
    pub(super) fn flow_settings(&self, settings: SolverSettings) -> SolverSettings {
        settings
    }

    /// Nothing to sample.
    pub(super) fn sample_flow(&mut self, _target: &[f64]) -> bool {
        false
    }

    /// No controls of the flow's.
    pub(super) fn flow_controls(&self, _on: &mut Vec<&'static str>) {}

    /// No family to forget.
    pub(super) fn forget_family(&mut self) {}

    /// No samples of a flow.
    pub fn family(&self) -> &[Solution] {
        self.flows.family()
    }
}
