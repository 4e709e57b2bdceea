//! The LOInK rows: the learned solver x* = G⁻¹([ỹ; 0]) cold and warm, one-shot, with task
//! feedback, and polished (limit-aware task restoration and null-space cost descent).
//!
//! An untrained network (`artifact::random_model`, metrics `untrained = 1`) is labelled as such
//! everywhere it appears: its numbers measure the engine's speed, never LOInK's optimality.

use std::path::Path;

use loink::artifact::{load_model_bytes, random_model, validate, ModelFile};
use loink::problem::Problem;
use loink::solvers::registry::{SolverKind, SolverSettings, Start};
use loink::surrogate::Loink;

use super::methods::{registered, Method};

/// Which learned row.
#[derive(Debug, Clone, Copy)]
enum Variant {
    /// x* = G⁻¹([y; 0]) once.
    OneShot,
    /// With this many task-feedback rounds.
    Feedback(usize),
    /// Polished with this many steps.
    Refine(usize),
}

/// A loaded model and how to describe it.
pub struct Learned {
    engine: Loink,
    label: String,
    untrained: bool,
}

/// True when the model file says it is an untrained stand-in.
pub fn is_untrained(file: &ModelFile) -> bool {
    file.metrics.get("untrained").is_some_and(|v| *v != 0.0)
}

impl Learned {
    /// Loads and validates a model file; its robot and cost must be the benchmark's.
    pub fn load(path: &Path, problem: &Problem) -> Result<Self, String> {
        let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let model = load_model_bytes(&bytes).map_err(|e| format!("{}: {e}", path.display()))?;
        let label = if is_untrained(model.file()) {
            format!(
                "{} (UNTRAINED stand-in: speed only, not LOInK's accuracy)",
                path.display()
            )
        } else {
            format!(
                "{} (trained, git {})",
                path.display(),
                model.file().git_revision
            )
        };
        let untrained = is_untrained(model.file());
        Self::checked(Loink::new(model), label, untrained, problem)
    }

    /// An untrained random network of the given shape, built in memory (labelled UNTRAINED).
    pub fn untrained(
        problem: &Problem,
        robot: &str,
        depth: usize,
        hidden: &[usize],
        seed: u64,
    ) -> Result<Self, String> {
        let file =
            random_model(robot, depth, hidden, 0.05, 20.0, seed).map_err(|e| e.to_string())?;
        let model = validate(file).map_err(|e| e.to_string())?;
        let label =
            format!("UNTRAINED random network, depth {depth}, hidden {hidden:?} (speed only)");
        Self::checked(Loink::new(model), label, true, problem)
    }

    fn checked(
        engine: Loink,
        label: String,
        untrained: bool,
        problem: &Problem,
    ) -> Result<Self, String> {
        if engine.problem() != problem {
            return Err(format!(
                "{label}: trained for a different problem or cost than --robot"
            ));
        }
        Ok(Self {
            engine,
            label,
            untrained,
        })
    }

    /// How the page names this model.
    pub fn describe(&self) -> String {
        self.label.clone()
    }

    /// The engine (no refinement).
    pub fn engine(&self) -> &Loink {
        &self.engine
    }

    /// A row label, marked when the network is untrained so no table can pass it off as LOInK's.
    fn label(&self, mode: &str, variant: Variant) -> String {
        let base = match variant {
            Variant::OneShot => format!("loink {mode}"),
            Variant::Feedback(rounds) => format!("loink {mode} + feedback {rounds}"),
            Variant::Refine(steps) => format!("loink {mode} + refine {steps}"),
        };
        if self.untrained {
            format!("{base} [UNTRAINED]")
        } else {
            base
        }
    }

    /// The learned rows starting `start`: one-shot, with `feedback` task-feedback rounds (none
    /// when 0) and refined with `steps` polish steps.
    fn methods(
        &self,
        mode: &str,
        start: Start,
        feedback: usize,
        steps: usize,
    ) -> Result<Vec<Method>, String> {
        let mut variants = vec![Variant::OneShot];
        if feedback > 0 {
            variants.push(Variant::Feedback(feedback));
        }
        variants.push(Variant::Refine(steps));
        variants
            .into_iter()
            .map(|variant| {
                let settings = match variant {
                    Variant::OneShot => SolverSettings {
                        start,
                        ..SolverSettings::new(SolverKind::Loink)
                    },
                    Variant::Feedback(rounds) => SolverSettings {
                        start,
                        feedback: rounds,
                        ..SolverSettings::new(SolverKind::Loink)
                    },
                    Variant::Refine(steps) => SolverSettings {
                        start,
                        refine: steps,
                        ..SolverSettings::new(SolverKind::LoinkRefine)
                    },
                };
                registered(
                    &self.label(mode, variant),
                    self.engine.problem(),
                    Some(&self.engine),
                    settings,
                )
            })
            .collect()
    }

    /// Cold solves (a fresh state for every target): one-shot, with feedback, refined.
    pub fn cold_methods(&self, feedback: usize, steps: usize) -> Result<Vec<Method>, String> {
        self.methods("cold", Start::Cold, feedback, steps)
    }

    /// Warm solves along the path (each state carries over from the previous target).
    pub fn warm_methods(&self, feedback: usize, steps: usize) -> Result<Vec<Method>, String> {
        self.methods("warm", Start::Warm, feedback, steps)
    }
}
