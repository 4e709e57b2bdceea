//! The LOInK rows: the learned solver x* = G⁻¹([ỹ; 0]) cold and warm, one-shot, with task
//! feedback, and polished (limit-aware task restoration and null-space cost descent).
//!
//! An untrained network (`artifact::random_model`, metrics `untrained = 1`) is labelled as such
//! everywhere it appears: its numbers measure the inference crate's speed, never LOInK's optimality.

use std::path::Path;

use loink::artifact::{load_any_bytes, random_model, validate, LoadedModel, ModelFile};
use loink::problem::Problem;
use loink::solvers::registry::{SolverKind, SolverSettings, Start};
use loink::surrogate::{ChartSet, Loink};

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
    charts: ChartSet,
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
        let (charts, revision) =
            match load_any_bytes(&bytes).map_err(|e| format!("{}: {e}", path.display()))? {
                LoadedModel::Loink(model) => {
                    let revision = model.file().git_revision.clone();
                    (ChartSet::from(Loink::new(*model)), revision)
                }
                LoadedModel::Charts(charts) => {
                    let revision = charts.meta().git_revision.clone();
                    (ChartSet::from_validated(*charts), revision)
                }
            };
        let untrained = charts
            .charts()
            .iter()
            .any(|c| is_untrained(c.model().file()));
        let label = if untrained {
            format!(
                "{} (UNTRAINED stand-in: speed only, not LOInK's accuracy)",
                path.display()
            )
        } else if charts.is_multi() {
            format!(
                "{} ({} charts, trained, git {revision})",
                path.display(),
                charts.len()
            )
        } else {
            format!("{} (trained, git {revision})", path.display())
        };
        Self::checked(charts, label, untrained, problem)
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
        Self::checked(ChartSet::from(Loink::new(model)), label, true, problem)
    }

    fn checked(
        charts: ChartSet,
        label: String,
        untrained: bool,
        problem: &Problem,
    ) -> Result<Self, String> {
        // A model of part of the problem (a chain narrowed to the tabletop cone) answers its
        // targets with the same kinematics and cost.
        let model = charts.problem();
        let same =
            model.spec().within(&problem.spec()) && model.cost().spec() == problem.cost().spec();
        if !same {
            return Err(format!(
                "{label}: trained for a different problem or cost than --robot"
            ));
        }
        Ok(Self {
            charts,
            label,
            untrained,
        })
    }

    /// How the page names this model.
    pub fn describe(&self) -> String {
        self.label.clone()
    }

    /// The first chart's model (no refinement; the whole model for a one-chart file).
    pub fn first_chart(&self) -> &Loink {
        self.charts.chart(0)
    }

    /// A row label, marked when the network is untrained so no table can pass it off as LOInK's.
    fn label(&self, mode: &str, variant: Variant) -> String {
        let name = if self.charts.is_multi() {
            format!("loink {}-chart", self.charts.len())
        } else {
            "loink".to_string()
        };
        let base = match variant {
            Variant::OneShot => format!("{name} {mode}"),
            Variant::Feedback(rounds) => format!("{name} {mode} + feedback {rounds}"),
            Variant::Refine(steps) => format!("{name} {mode} + refine {steps}"),
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
                    self.charts.problem(),
                    Some(&self.charts),
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
