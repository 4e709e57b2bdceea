//! The model-free views (feature `model-free`, the full bundle): a problem's baseline flow as a
//! solver with its K samples as the family of shapes, the reference optimum of a problem that
//! has no planar sweep (computed once per target while the page idles), and the simulator calls
//! of the last solve.

use loink::flow::{Flow, FlowFile, FlowSolver};
use loink::report::{Solution, Status};
use loink::solvers::registry::{self, Solver, SolverSettings};

use super::{Engine, Optimum};
use crate::catalog::ModelEntry;
use crate::keyed::Keyed;

/// The model-free part of the engine's state.
#[derive(Default)]
pub struct ModelFree {
    /// Each problem's flow, by problem name.
    flows: Keyed<Flow>,
    /// The reference search ran for the current target (found an optimum or not).
    reference_done: bool,
    /// Simulator calls of the last solve (a problem whose simulator counts them).
    calls: Option<u64>,
    /// The flow's samples for the current target, judged (its family of shapes).
    family: Vec<Solution>,
}

impl ModelFree {
    /// Forgets the per-target work (a new target or solver).
    pub fn new_target(&mut self) {
        self.reference_done = false;
        self.family.clear();
    }
}

impl Engine {
    /// Validates a flow file for catalog entry `entry` and keeps it as its problem's flow.
    pub(super) fn load_flow(
        &mut self,
        entry: &'static ModelEntry,
        file: FlowFile,
    ) -> Result<(), String> {
        let flow = Flow::new(file).map_err(|e| format!("model '{}': {e}", entry.name))?;
        if flow.problem().name() != entry.problem {
            return Err(format!(
                "model '{}': its file is for '{}', the catalog says '{}'",
                entry.name,
                flow.problem().name(),
                entry.problem
            ));
        }
        self.free.flows.insert(entry.problem, flow);
        if self.entry.problem == entry.problem && self.settings.solver.is_flow() {
            self.rebuild_solver();
            self.solve_target();
        }
        Ok(())
    }

    /// The current problem's flow, if loaded.
    pub fn flow(&self) -> Option<&Flow> {
        self.free.flows.get(self.entry.problem)
    }

    /// Whether the flow can solve here; `Err` says why not.
    pub(super) fn flow_available(&self) -> Result<(), String> {
        match self.flow() {
            Some(_) => Ok(()),
            None => Err(format!("no flow is loaded for '{}'", self.entry.problem)),
        }
    }

    /// The flow solver for the page's settings: K = the samples control when σ > 0 (else the
    /// one z = 0 sample), at scale σ, seeded by the seed control.
    pub(super) fn flow_solver(&self, settings: &SolverSettings) -> Option<Box<dyn Solver>> {
        registry::build_flow(self.flow()?, settings).ok()
    }

    /// The flow's settings from the page's: samples and σ act only together.
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

    /// The call counter of the simulator the current solver replays on (the flow's file
    /// carries its own copy of the problem), None for a problem that does not count.
    pub(super) fn calls_now(&self) -> Option<u64> {
        match self.flow() {
            Some(flow) if self.settings.solver.is_flow() => {
                flow.problem().kinematics().simulator_calls()
            }
            _ => self.problem.kinematics().simulator_calls(),
        }
    }

    /// Records the calls the last solve spent, from the counter read before it.
    pub(super) fn record_calls(&mut self, before: Option<u64>) {
        self.free.calls = match (before, self.calls_now()) {
            (Some(a), Some(b)) => Some(b.saturating_sub(a)),
            _ => None,
        };
    }

    /// Simulator calls of the last solve (a problem whose simulator counts them).
    pub fn sim_calls(&self) -> Option<u64> {
        self.free.calls
    }

    /// The flow's K samples for the current target (its family; empty unless the solver is the
    /// flow drawing more than one sample). Drawn by a fresh solver with the same seed, so they
    /// are the samples the answer was picked from.
    pub(super) fn flow_family(&mut self, target: &[f64]) -> Vec<Vec<f64>> {
        self.free.family.clear();
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
        self.free.family = sampler.candidates(target).unwrap_or_default();
        self.free.family.iter().map(|s| s.q().to_vec()).collect()
    }

    /// The flow's samples of the current target with their efforts (the family's legend).
    pub fn family(&self) -> &[Solution] {
        &self.free.family
    }

    /// Per-target work reset by a solve.
    pub(super) fn new_target_model_free(&mut self) {
        self.free.new_target();
    }

    /// The reference optimum of a problem without a planar sweep (the soft arm), once per
    /// target while the page idles. Returns whether it ran.
    pub(super) fn idle_reference(&mut self) -> bool {
        if self.free.reference_done
            || self.optimum.is_some()
            || loink::solvers::reference::sweeps(&self.problem)
            || !loink::solvers::reference::available(&self.problem)
        {
            return false;
        }
        self.free.reference_done = true;
        let best = loink::solvers::reference::solve(&self.problem, &self.settings.target);
        if best.status() == Status::Converged {
            self.optimum = Some(Optimum {
                q: best.q().to_vec(),
                cost: best.cost(),
            });
        }
        true
    }

    /// Whether the idle reference search has run for this target (a problem without a planar
    /// sweep: J* is then known, or known not to exist).
    pub(super) fn reference_searched(&self) -> bool {
        self.free.reference_done
    }
}
