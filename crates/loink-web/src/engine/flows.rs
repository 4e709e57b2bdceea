//! The flow baseline in the page (feature `flow`): a problem's flow as a solver, with its K
//! samples as the family of shapes. `flows_off.rs` is this module in a bundle without the flow:
//! the same calls, nothing loaded.

use loink::flow::{Flow, FlowFile, FlowSolver};
use loink::report::Solution;
use loink::solvers::registry::{Solver, SolverKind, SolverSettings};

use super::Engine;
use crate::catalog::ModelEntry;
use crate::keyed::Keyed;
use crate::model_json::Decoded;

/// The flows' part of the engine's state.
#[derive(Default)]
pub struct Flows {
    /// Each problem's flow, by problem name.
    flows: Keyed<Flow>,
    /// The flow's samples for the current target, judged (its family of shapes).
    family: Vec<Solution>,
}

impl Engine {
    /// Whether the solver kind is the flow's.
    pub(super) fn flow_applies(&self, kind: SolverKind) -> bool {
        kind.is_flow()
    }

    /// Whether a decoded file is a flow ([`Self::load_flow_file`] keeps it).
    pub(super) fn is_flow_file(&self, decoded: &Decoded) -> bool {
        matches!(decoded, Decoded::Flow(_))
    }

    /// Keeps a decoded flow file as its problem's flow.
    pub(super) fn load_flow_file(
        &mut self,
        entry: &'static ModelEntry,
        decoded: Decoded,
    ) -> Result<(), String> {
        match decoded {
            Decoded::Flow(file) => self.load_flow(entry, *file),
            _ => Err(format!("model '{}' is not a flow", entry.name)),
        }
    }

    /// Validates a flow file for catalog entry `entry` and keeps it as its problem's flow.
    fn load_flow(&mut self, entry: &'static ModelEntry, file: FlowFile) -> Result<(), String> {
        let flow = Flow::new(file).map_err(|e| format!("model '{}': {e}", entry.name))?;
        if flow.problem().name() != entry.problem {
            return Err(format!(
                "model '{}': its file is for '{}', the catalog says '{}'",
                entry.name,
                flow.problem().name(),
                entry.problem
            ));
        }
        self.flows.flows.insert(entry.problem, flow);
        if self.entry.problem == entry.problem && self.settings.solver.is_flow() {
            self.rebuild_solver();
            self.solve_target();
        }
        Ok(())
    }

    /// The current problem's flow, if loaded.
    pub fn flow(&self) -> Option<&Flow> {
        self.flows.flows.get(self.entry.problem)
    }

    /// Whether the flow can solve here; `Err` says why not.
    pub(super) fn flow_available(&self) -> Result<(), String> {
        match self.flow() {
            Some(_) => Ok(()),
            None => Err(format!("no flow is loaded for '{}'", self.entry.problem)),
        }
    }

    /// The flow solver for `settings` ([`Self::flow_settings`]'s), or the refusal's stand-in.
    pub(super) fn flow_solver(&self, settings: &SolverSettings) -> Box<dyn Solver> {
        match self.flow().map(|flow| flow.solver(settings)) {
            Some(Ok(solver)) => solver,
            _ => Box::new(super::Unavailable {
                kind: settings.kind,
            }),
        }
    }

    /// The flow's settings from the page's: K = the samples control when σ > 0 (else the one
    /// z = 0 sample), at scale σ, seeded by the seed control; samples and σ act only together.
    pub(super) fn flow_settings(&self, mut settings: SolverSettings) -> SolverSettings {
        let sampling = self.settings.sigma > 0.0 && self.settings.samples > 1;
        settings.samples = if sampling {
            (self.settings.samples as usize).min(loink::flow::MAX_SAMPLES)
        } else {
            1
        };
        settings.sigma = if sampling { self.settings.sigma } else { 0.0 };
        settings.seed = self.settings.seed;
        settings
    }

    /// The panels' samples of the flow, when the solver is the flow: its family replaces the
    /// latent samples (`true`: done).
    pub(super) fn sample_flow(&mut self, target: &[f64]) -> bool {
        if !self.settings.solver.is_flow() {
            return false;
        }
        self.samples = self.flow_family(target);
        self.sample_z.clear();
        self.revision = self.revision.wrapping_add(1);
        true
    }

    /// The controls the flow acts on, added to `on` when it is the solver.
    pub(super) fn flow_controls(&self, on: &mut Vec<&'static str>) {
        if self.settings.solver.is_flow() && !on.contains(&"sigma") {
            on.extend(["sigma", "samples", "seed"]);
        }
    }

    /// The flow's K samples for the current target (its family; empty unless the solver is the
    /// flow drawing more than one sample). Drawn by a fresh solver with the same seed, so they
    /// are the samples the answer was picked from.
    fn flow_family(&mut self, target: &[f64]) -> Vec<Vec<f64>> {
        self.flows.family.clear();
        if !self.settings.solver.is_flow() {
            return Vec::new();
        }
        let settings = self.flow_settings(SolverSettings::new(self.settings.solver));
        let Some(flow) = self.flow() else {
            return Vec::new();
        };
        if settings.samples < 2 {
            return Vec::new();
        }
        let Ok(mut sampler) = FlowSolver::new(
            flow.clone(),
            settings.samples,
            settings.sigma,
            settings.seed,
        ) else {
            return Vec::new();
        };
        self.flows.family = sampler.candidates(target).unwrap_or_default();
        self.flows.family.iter().map(|s| s.q().to_vec()).collect()
    }

    /// Forgets the flow's family (a new target or solver).
    pub(super) fn forget_family(&mut self) {
        self.flows.family.clear();
    }

    /// The flow's samples of the current target with their efforts (the family's legend).
    pub fn family(&self) -> &[Solution] {
        &self.flows.family
    }
}
