//! The playground's state machine, free of any browser type so it runs (and is tested)
//! natively: the current settings, the problem, loaded models, the solver, the last solution and
//! the reference optimum. [`crate::playground::Playground`] wraps it for JS.
//!
//! The problem is the loaded model file's own (a model names its problem; before its file loads,
//! or when it fails to, the preset of that name stands in, classical solvers only). The solver is
//! built by `loink`'s registry from the settings, exactly as `loink eval` builds it, warm-started
//! from the previous frame as a pointer drags.

use loink::artifact::ArtifactError;
use loink::problem::Problem;
use loink::report::{Solution, Status};
use loink::solvers::reference::planar::SelfMotion;
use loink::solvers::registry::{self, Solver, SolverSettings, Start};

use crate::catalog::{self, ModelEntry};
use crate::clock::now_micros;
use crate::keyed::Keyed;
use crate::learned::{LatentCurve, LatentMap, LoinkView};
use crate::settings::{Settings, SolverKind, PROBE_LIMIT};

mod checks;
#[cfg(feature = "flow")]
mod flows;
#[cfg(not(feature = "flow"))]
#[path = "flows_off.rs"]
mod flows;
mod frame;
mod idle;
mod play;
mod probe;
mod target;
mod unavailable;
#[cfg(feature = "unswept")]
mod unswept;
#[cfg(not(feature = "unswept"))]
#[path = "unswept_off.rs"]
mod unswept;
#[cfg(feature = "view3d")]
mod view3d;

pub use play::play_target;
use unavailable::Unavailable;

pub use checks::{check_target, comparable, gap_percent, GAP_RESIDUAL};

/// φ samples drawn in the landscape panel.
pub const MOTION_SAMPLES: usize = 480;
/// Dense φ samples of the per-frame self-motion pass on three links (the full pass, when the
/// pointer rests, uses `reference::SAMPLES`).
pub const FRAME_DENSE: usize = 1_000;
/// Points of the learned-set curve in the landscape panel.
pub const CURVE_POINTS: usize = 64;
/// Cells of the 1-D latent strip.
pub const LATENT_CELLS_1D: usize = 96;
/// Cells per side of the 2-D latent heat map.
pub const LATENT_CELLS_2D: usize = 32;

/// Most repeats of the idle re-timing of a solve.
pub const TIMING_REPEATS: usize = 1_000;
/// Fewest repeats of the idle re-timing of a solve: one repeat slowed by a pause of the page's
/// thread (a garbage collection, a compilation) is then one batch among others, not the figure.
pub const TIMING_MIN_REPEATS: usize = 3;

/// Half-width of the latent window: wide enough for the optimum's latent point, the samples
/// and 3σ, at least 1 and at most 6 normalised units.
pub fn latent_half_range(optimum_z: Option<&[f64]>, sigma: f64, samples: &[Vec<f64>]) -> f64 {
    let extent = |z: &[f64]| z.iter().fold(0.0f64, |m, v| m.max(v.abs()));
    let mut half = (3.0 * sigma).max(1.0);
    if let Some(z) = optimum_z {
        half = half.max(1.3 * extent(z));
    }
    for z in samples {
        half = half.max(1.1 * extent(z));
    }
    if half.is_finite() {
        half.min(6.0)
    } else {
        1.0
    }
}

/// The global optimum of the current target (reference): q* and J*.
#[derive(Debug, Clone, PartialEq)]
pub struct Optimum {
    /// q*.
    pub q: Vec<f64>,
    /// J* = J(q*).
    pub cost: f64,
}

/// Everything the page computes, owned in one place.
pub struct Engine {
    /// The settings; their target in the task's columns (what links, the page and embedders
    /// give and read: a pose's quaternion, w first).
    settings: Settings,
    /// The same target in the task's coordinates (what the solvers take).
    target: Vec<f64>,
    entry: &'static ModelEntry,
    problem: Problem,
    models: Keyed<LoinkView>,
    solver: Box<dyn Solver>,
    /// The solver as it was before the last solve, to time that solve again while idle.
    before_solve: Option<Box<dyn Solver>>,
    /// The last solve timed by repetition while idle: (µs per solve, repeats).
    timed: Option<(f64, usize)>,
    /// `timed` was taken on opening the page; the idle work times the solve once more.
    timing_provisional: bool,
    solution: Solution,
    optimum: Option<Optimum>,
    motion: Option<SelfMotion>,
    /// The self-motion set and optimum come from the full-density sweep (not the frame's).
    motion_full: bool,
    samples: Vec<Vec<f64>>,
    sample_z: Vec<Vec<f64>>,
    /// A multi-chart model's per-chart answers for the current target (empty otherwise).
    proposals: Vec<Solution>,
    curve: Option<LatentCurve>,
    latent_map: Option<LatentMap>,
    warnings: Vec<String>,
    /// Distance to the closest pose within the limits, for a target out of reach (deferred
    /// panel work; None otherwise or while pending).
    closest: Option<f64>,
    /// The pose G⁻¹([y; z]) at the reader's latent probe z (None without one).
    probe: Option<Solution>,
    frame_ms: f64,
    revision: u64,
    /// The per-target panel work (frame reference pass, samples, learned curve) has not run
    /// for the current target yet: [`Self::move_target`] defers it to [`Self::prepare_panels`].
    panels_pending: bool,
    /// A target carried over from another problem's view (the model menu), for the next
    /// settings to bring ([`Self::carry_target`]).
    carried: Option<Vec<f64>>,
    /// The flows and their families.
    flows: flows::Flows,
    /// The idle reference of a problem without a planar sweep, the call count.
    unswept: unswept::Unswept,
}

/// The preset standing in for an entry's problem until (or unless) its model file loads.
fn preset_problem(entry: &ModelEntry) -> Result<Problem, String> {
    Problem::preset(entry.problem).map_err(|e| format!("model '{}': {e}", entry.name))
}

/// The registry's settings for the page's settings: warm starts (the page tracks a pointer).
fn solver_settings(settings: &Settings) -> SolverSettings {
    SolverSettings {
        refine: settings.refine as usize,
        feedback: settings.feedback as usize,
        start: Start::Warm,
        ..SolverSettings::new(settings.solver)
    }
}

/// Where a view of `entry` opens on `problem` (task coordinates): its card's opening target
/// (from the catalog) where it is a target of this problem, else the problem's own default.
pub fn opening_target(entry: &ModelEntry, problem: &Problem) -> Vec<f64> {
    let task = problem.task();
    (!entry.opening_target.is_empty())
        .then(|| task.from_columns(entry.opening_target).ok())
        .flatten()
        .filter(|t| problem.check_target(t).is_ok())
        .unwrap_or_else(|| problem.default_target())
}

impl Engine {
    /// The default view (the catalog's default model, default settings), solved with a
    /// classical solver until the model loads; its panels' per-target work is pending until
    /// [`Self::prepare_panels`].
    pub fn new() -> Result<Self, String> {
        let entry = catalog::default_entry();
        let problem = preset_problem(entry)?;
        let target = opening_target(entry, &problem);
        let settings = Settings {
            solver: SolverKind::Dls,
            target: problem.task().to_columns(&target),
            ..Settings::default()
        };
        let solver =
            registry::build(&problem, &solver_settings(&settings)).map_err(|e| e.to_string())?;
        let solution = Solution::invalid("none", &target, 0.0);
        let mut engine = Engine {
            settings,
            target,
            entry,
            problem,
            models: Keyed::default(),
            solver,
            before_solve: None,
            timed: None,
            timing_provisional: false,
            solution,
            optimum: None,
            motion: None,
            motion_full: false,
            samples: Vec::new(),
            sample_z: Vec::new(),
            proposals: Vec::new(),
            curve: None,
            latent_map: None,
            warnings: Vec::new(),
            closest: None,
            probe: None,
            frame_ms: 0.0,
            revision: 0,
            panels_pending: false,
            carried: None,
            flows: Default::default(),
            unswept: Default::default(),
        };
        engine.solve_target();
        Ok(engine)
    }

    /// Loads a trained model for catalog entry `name` from its JSON text. Changes nothing on error.
    pub fn load_model(&mut self, name: &str, json: &str) -> Result<(), String> {
        self.load_model_with(name, || crate::model_json::decode(json))
    }

    /// [`Self::load_model`] with the decoding step given (the page decodes with the browser's
    /// parser); `decode` runs only once the name is known to be in the catalog.
    pub fn load_model_with(
        &mut self,
        name: &str,
        decode: impl FnOnce() -> Result<crate::model_json::Decoded, ArtifactError>,
    ) -> Result<(), String> {
        // A view's model, or its problem's flow (fetched with it); never a lesson's regressor.
        let entry = catalog::lookup(name)
            .filter(|m| m.opens_a_view() || m.kind == "flow")
            .ok_or_else(|| format!("unknown model '{name}' (known: {})", catalog::names()))?;
        let decoded = decode().map_err(|e| format!("model '{name}': {e}"))?;
        self.load_decoded(entry, decoded)
    }

    /// Validates a decoded model file for catalog entry `entry` and keeps it (the part of
    /// [`Self::load_model_with`] that does not depend on how the text was decoded).
    fn load_decoded(
        &mut self,
        entry: &'static ModelEntry,
        decoded: crate::model_json::Decoded,
    ) -> Result<(), String> {
        let name = entry.name;
        if self.is_flow_file(&decoded) {
            return self.load_flow_file(entry, decoded);
        }
        let model = LoinkView::from_file(decoded).map_err(|e| format!("model '{name}': {e}"))?;
        if model.problem().name() != entry.problem {
            return Err(format!(
                "model '{name}': its file is for '{}', the catalog says '{}'",
                model.problem().name(),
                entry.problem
            ));
        }
        // A file can name one problem and describe another: where this build knows the preset,
        // the file's problem must be the preset's (its box may be a part of the preset's).
        if let Ok(preset) = Problem::preset(entry.problem) {
            if !model.problem().spec().within(&preset.spec()) {
                return Err(format!("model '{name}' is not {}'s", entry.problem));
            }
        }
        self.models.insert(entry.name, model);
        if self.entry.name == entry.name {
            self.switch_model(entry)?;
            self.solve_target();
        }
        Ok(())
    }

    /// [`Self::load_trained`] from JSON text.
    pub fn use_trained(&mut self, json: &str) -> Result<&'static str, String> {
        self.load_trained(|| crate::model_json::decode(json))
    }

    /// Loads a model file of a planar arm into the slot of models trained in the page
    /// ([`catalog::TRAINED`]); the slot's name. The view stays where it is (the caller applies
    /// the name as the settings' model).
    pub fn load_trained(
        &mut self,
        decode: impl FnOnce() -> Result<crate::model_json::Decoded, ArtifactError>,
    ) -> Result<&'static str, String> {
        let decoded = decode().map_err(|e| format!("model file: {e}"))?;
        #[allow(unreachable_patterns)] // only the full bundle decodes other kinds
        let problem = match &decoded {
            crate::model_json::Decoded::Loink(file) => file.problem.name.clone(),
            _ => return Err("a trained model is one LOInK network (kind 'loink')".into()),
        };
        let entry = catalog::trained_slot(&problem).ok_or_else(|| {
            format!("a model file of '{problem}': the page trains and takes planar2, planar3 and planar4")
        })?;
        self.load_decoded(entry, decoded)?;
        Ok(entry.name)
    }

    /// Names of the loaded learned models, in load order.
    pub fn loaded(&self) -> Vec<&'static str> {
        self.models.keys()
    }

    fn switch_model(&mut self, entry: &'static ModelEntry) -> Result<(), String> {
        self.problem = match self.models.get(entry.name) {
            Some(m) => m.problem().clone(),
            None => preset_problem(entry)?,
        };
        self.entry = entry;
        self.settings.model = entry.name.to_string();
        self.rebuild_solver();
        Ok(())
    }

    /// Rebuilds the solver from the settings (a cold start); when the settings' solver
    /// cannot run here the answers say why (`invalid`), which `apply` has already warned of.
    ///
    /// A learned kind is built by its model as [`loink::model::LearnedModel::solver`] builds it
    /// (the LOInK charts' `solver`, the flow's); the page calls the kind's own method because
    /// the model type's trait object would add 0.4 kB to the playground's gzipped download.
    fn rebuild_solver(&mut self) {
        let settings = solver_settings(&self.settings);
        if self.flow_applies(settings.kind) {
            self.solver = self.flow_solver(&self.flow_settings(settings));
            return;
        }
        let set = self.models.get(self.entry.name).map(LoinkView::set);
        let built = match set {
            Some(set) if settings.kind.is_learned() => set.solver(&settings),
            _ => registry::build(&self.problem, &settings),
        };
        self.solver = built.unwrap_or_else(|_| {
            Box::new(Unavailable {
                kind: settings.kind,
            })
        });
    }

    /// Whether `solver` can run on the current model; `Err` says why not.
    pub fn solver_available(&self, solver: SolverKind) -> Result<(), String> {
        if self.flow_applies(solver) {
            return self.flow_available();
        }
        if solver.is_learned() {
            return match self.models.get(self.entry.name) {
                Some(_) => Ok(()),
                None => Err(catalog::missing_reason(self.entry)),
            };
        }
        registry::applies(solver, &self.problem).map_err(|e| match e {
            loink::LoinkError::UnsupportedSolver { reason, .. } => reason,
            other => other.to_string(),
        })
    }

    /// The first solver that runs on the current model, LOInK first.
    fn best_available(&self) -> SolverKind {
        SolverKind::ALL
            .into_iter()
            .find(|&k| self.solver_available(k).is_ok())
            .unwrap_or(SolverKind::Dls)
    }

    /// Applies new settings (from the hash or the controls) and solves. Entries that cannot
    /// be honoured keep a working value and are reported in the returned warnings.
    pub fn apply(&mut self, next: Settings) -> Vec<String> {
        let warnings = self.apply_deferred(next);
        self.prepare_panels();
        warnings
    }

    /// [`Self::apply`] without the panels' per-target work (left pending for
    /// [`Self::prepare_panels`], as after [`Self::move_target`]).
    pub fn apply_deferred(&mut self, mut next: Settings) -> Vec<String> {
        let mut warnings = Vec::new();
        let previous_model = self.entry.name;
        let mut entry = match catalog::lookup_view(&next.model) {
            Some(e) => e,
            None => {
                warnings.push(format!("unknown model '{}'", next.model));
                self.entry
            }
        };
        if entry.name != self.entry.name {
            if let Err(why) = self.switch_model(entry) {
                warnings.push(why);
                entry = self.entry;
            }
        }
        // A probe carried over from the previous model's view is dropped quietly when the new
        // model's latent space does not fit it; a probe given anew (a link) says why it is not.
        let carried = entry.name != previous_model && next.probe == self.settings.probe;
        next.model = entry.name.to_string();
        let latent = self.models.get(entry.name).map_or(0, LoinkView::latent_dim);
        if !next.probe.is_empty() && next.probe.len() != latent {
            if !carried {
                warnings.push(format!(
                    "probe: the {} model's latent space has {latent} coordinates, not {}",
                    entry.name,
                    next.probe.len()
                ));
            }
            next.probe.clear();
        }
        // A latent slice names axes of the model's own latent space (three or more).
        #[cfg(feature = "view3d")]
        if let Some([a, b]) = next.view3d.axes {
            if latent < 3 || a >= latent || b >= latent {
                if !(entry.name != previous_model && next.view3d.axes == self.settings.view3d.axes)
                {
                    warnings.push(format!(
                        "axes: the {} model's latent space has {latent} coordinates; the latent panel slices only three or more",
                        entry.name
                    ));
                }
                next.view3d.axes = None;
            }
        }
        next.probe = next
            .probe
            .iter()
            .map(|&z| clamp_or(z, -PROBE_LIMIT, PROBE_LIMIT, 0.0))
            .collect();
        if let Err(why) = self.solver_available(next.solver) {
            let instead = self.best_available();
            warnings.push(format!(
                "{} is not available: {why}; using {}",
                next.solver.as_str(),
                instead.as_str()
            ));
            next.solver = instead;
        }
        let carried_target = self.carried.take().is_some_and(|t| t == next.target);
        if let Some((target, why)) = self.target_for_view(&next.target, carried_target) {
            warnings.extend(why);
            next.target = target;
        }
        // The checks above passed, or chose a target that passes them.
        self.target = self
            .coordinates_of(&next.target)
            .unwrap_or_else(|_| opening_target(self.entry, &self.problem));
        next.target = self.problem.task().to_columns(&self.target);
        next.sigma = clamp_or(next.sigma, 0.0, crate::settings::SIGMA_MAX, 0.0);
        next.samples = next.samples.min(crate::settings::SAMPLES_MAX);
        next.refine = next.refine.min(crate::settings::REFINE_MAX);
        next.feedback = next.feedback.min(crate::settings::FEEDBACK_MAX);
        next.seed = next.seed.min(crate::settings::SEED_MAX);
        let rebuild = next.solver != self.settings.solver
            || next.refine != self.settings.refine
            || next.feedback != self.settings.feedback
            || (next.solver.is_flow()
                && (next.sigma != self.settings.sigma
                    || next.samples != self.settings.samples
                    || next.seed != self.settings.seed));
        self.settings = next;
        if rebuild {
            self.rebuild_solver();
        }
        self.warnings = warnings.clone();
        self.solve_target();
        warnings
    }

    /// Solves for the current target with the current solver, then the reference optimum and
    /// the samples. Bumps [`Self::revision`].
    pub fn solve(&mut self) {
        self.solve_target();
        self.prepare_panels();
    }

    /// Whether the problem's reference comes from the planar sweep the landscape draws (three
    /// links or fewer: one pass gives both).
    fn sweep_gives_reference(&self) -> bool {
        loink::solvers::reference::sweep_gives_landscape(&self.problem)
    }

    /// The solver alone for the current target (the reference sweep too when it is the
    /// solver); the rest is left to [`Self::prepare_panels`].
    fn solve_target(&mut self) {
        let target = self.target.clone();
        self.optimum = None;
        self.motion = None;
        self.motion_full = false;
        self.samples.clear();
        self.sample_z.clear();
        self.proposals.clear();
        self.latent_map = None;
        self.curve = None;
        self.closest = None;
        self.timed = None;
        self.timing_provisional = false;
        self.before_solve = Some(self.solver.boxed_clone());
        self.new_target_unswept();
        self.forget_family();
        let calls_before = self.calls_now();
        let start = now_micros();
        let solution =
            if self.settings.solver == SolverKind::Reference && self.sweep_gives_reference() {
                // The reference optimum is the frame pass's best minimum: no second sweep.
                self.compute_reference(FRAME_DENSE);
                let swept = now_micros();
                match self.reference_solution(&target) {
                    Some(s) => s.with_micros(swept - start),
                    None => {
                        let s = self.solver.solve(&target);
                        s.with_micros(now_micros() - swept)
                    }
                }
            } else {
                let s = self.solver.solve(&target);
                s.with_micros(now_micros() - start)
            };
        if self.settings.solver == SolverKind::Reference
            && !self.sweep_gives_reference()
            && solution.status() == Status::Converged
        {
            // The solver already ran the (slow) reference search: keep its optimum.
            self.optimum = Some(Optimum {
                q: solution.q().to_vec(),
                cost: solution.cost(),
            });
        }
        self.solution = solution;
        self.record_calls(calls_before);
        self.probe = self.probe_solution(&target);
        self.panels_pending = true;
        self.revision = self.revision.wrapping_add(1);
    }

    /// Records the wall time of the last whole frame (solve + panels), in ms.
    pub fn set_frame_ms(&mut self, ms: f64) {
        if ms.is_finite() && ms >= 0.0 {
            self.frame_ms = ms;
        }
    }

    /// Counter bumped by every solve: panels cache on it.
    pub fn revision(&self) -> u64 {
        self.revision
    }

    /// Current settings.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// The catalog entry shown.
    pub fn entry(&self) -> &'static ModelEntry {
        self.entry
    }

    /// The problem (and its cost) shown.
    pub fn problem(&self) -> &Problem {
        &self.problem
    }

    /// The learned model of the current entry, if loaded.
    pub fn model(&self) -> Option<&LoinkView> {
        self.models.get(self.entry.name)
    }

    /// The last solution.
    pub fn solution(&self) -> &Solution {
        &self.solution
    }

    /// The reference optimum for the current target (None when no feasible one exists or it
    /// is still pending).
    pub fn optimum(&self) -> Option<&Optimum> {
        self.optimum.as_ref()
    }

    /// The sampled self-motion set for the current target (None while pending, or for a
    /// problem that is not a planar arm).
    pub fn motion(&self) -> Option<&SelfMotion> {
        self.motion.as_ref()
    }

    /// A multi-chart model's per-chart answers for the current target (empty for a one-chart
    /// model, and while the panel work is pending).
    pub fn proposals(&self) -> &[Solution] {
        &self.proposals
    }

    /// Sampled solutions (σ > 0) for the current target.
    pub fn samples(&self) -> &[Vec<f64>] {
        &self.samples
    }
}

fn clamp_or(v: f64, lo: f64, hi: f64, fallback: f64) -> f64 {
    if v.is_finite() {
        v.clamp(lo, hi)
    } else {
        fallback
    }
}
