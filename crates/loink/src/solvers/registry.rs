//! The one solver interface and the registry that builds every solver from a [`SolverKind`]
//! and its [`SolverSettings`]: `loink eval`, `loink bench`, the page and its gap map
//! all call [`build`], so the same settings and target give the same status, residual and
//! iterations everywhere.
//!
//! Adding a solver: a [`SolverKind`] variant (its word, label and whether it needs a model), a
//! [`Solver`] implementation, one arm in [`build`].

use serde::{Deserialize, Serialize};

use super::{analytic, dls, reference};
use crate::error::{LoinkError, Result};
use crate::problem::Problem;
use crate::report::Solution;
use crate::surrogate::{ChartSet, SolverState};

/// The solvers, by the word the CLI, the page's hash and reports use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SolverKind {
    /// LOInK: x\* = G⁻¹([y; 0]) (then any task-feedback rounds).
    Loink,
    /// LOInK followed by the polish (task restoration and null-space cost descent).
    LoinkRefine,
    /// Damped least squares with null-space cost descent.
    Dls,
    /// Closed-form two-link IK, the cheaper feasible branch.
    Analytic,
    /// The global reference optimum.
    Reference,
    /// The IKFlow-style flow baseline: one sample at z = 0, or the cheapest near sample of K
    /// (`crate::flow`); built by [`build_flow`].
    #[cfg(feature = "flow")]
    Flow,
}

impl SolverKind {
    /// Every kind, in menu order.
    #[cfg(not(feature = "flow"))]
    pub const ALL: [SolverKind; 5] = [
        SolverKind::Loink,
        SolverKind::LoinkRefine,
        SolverKind::Dls,
        SolverKind::Analytic,
        SolverKind::Reference,
    ];
    /// Every kind, in menu order.
    #[cfg(feature = "flow")]
    pub const ALL: [SolverKind; 6] = [
        SolverKind::Loink,
        SolverKind::LoinkRefine,
        SolverKind::Flow,
        SolverKind::Dls,
        SolverKind::Analytic,
        SolverKind::Reference,
    ];

    /// The word (`loink`, `loink-refine`, `dls`, `analytic`, `reference`).
    pub fn as_str(self) -> &'static str {
        match self {
            SolverKind::Loink => "loink",
            SolverKind::LoinkRefine => "loink-refine",
            SolverKind::Dls => "dls",
            SolverKind::Analytic => "analytic",
            SolverKind::Reference => "reference",
            #[cfg(feature = "flow")]
            SolverKind::Flow => "flow",
        }
    }

    /// Parses a word.
    pub fn parse(word: &str) -> Option<SolverKind> {
        SolverKind::ALL.into_iter().find(|k| k.as_str() == word)
    }

    /// Whether it needs a learned LOInK model.
    pub fn is_learned(self) -> bool {
        matches!(self, SolverKind::Loink | SolverKind::LoinkRefine)
    }

    /// Whether it is the flow baseline (which needs a flow model, not a LOInK one).
    pub fn is_flow(self) -> bool {
        #[cfg(feature = "flow")]
        return self == SolverKind::Flow;
        #[cfg(not(feature = "flow"))]
        false
    }

    /// Its name in menus and legends.
    pub fn label(self) -> &'static str {
        match self {
            SolverKind::Loink => "LOInK (learned, z = 0)",
            SolverKind::LoinkRefine => "LOInK + refinement",
            SolverKind::Dls => "DLS + null-space descent",
            SolverKind::Analytic => "analytic (two links)",
            SolverKind::Reference => "reference optimum",
            #[cfg(feature = "flow")]
            SolverKind::Flow => "flow (IKFlow-style baseline)",
        }
    }
}

/// Where an iterative solver starts each solve.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Start {
    /// From the mid-range of the box (DLS) or a fresh state (LOInK): every solve alone.
    Cold,
    /// From the previous answer (DLS) or the previous solve's state (LOInK): tracking. A DLS
    /// warm start that stalls short of the target is followed by a restart from the mid-range
    /// (the answer's note says so).
    Warm,
    /// DLS: from a uniform random configuration of the box, drawn from ChaCha8 seeded by this
    /// (one draw per solve, in call order).
    Random(u64),
}

/// Everything that picks one solver's behaviour.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SolverSettings {
    /// Which solver.
    pub kind: SolverKind,
    /// Refinement steps of `loink-refine` (ignored by the others).
    pub refine: usize,
    /// Task-feedback rounds of both learned solvers (ignored by the others).
    pub feedback: usize,
    /// Where each solve starts.
    pub start: Start,
    /// DLS options; `None`: the problem's own ([`dls::DlsOptions::for_problem`]).
    pub dls: Option<dls::DlsOptions>,
    /// The flow: samples K per solve (1: the z = 0 sample).
    pub samples: usize,
    /// The flow: the scale s of its samples z ~ N(0, s²I).
    pub sigma: f64,
    /// The flow: solve r draws from ChaCha8 seeded by seed + r.
    pub seed: u64,
}

impl SolverSettings {
    /// `kind` with cold starts, no feedback, 3 refinement steps and the default DLS options.
    pub fn new(kind: SolverKind) -> Self {
        Self {
            kind,
            refine: 3,
            feedback: 0,
            start: Start::Cold,
            dls: None,
            samples: 1,
            sigma: 0.0,
            seed: 0,
        }
    }
}

/// A solver: a target in, a judged [`Solution`] out. Solvers may keep state between calls
/// (warm starts); [`Solver::reset`] forgets it.
pub trait Solver {
    /// The kind it was built as.
    fn kind(&self) -> SolverKind;
    /// Solves for `target`.
    fn solve(&mut self, target: &[f64]) -> Solution;
    /// Forgets any state carried from earlier solves.
    fn reset(&mut self);
    /// A copy with the same state (a benchmark restores it before each repeat of one solve).
    fn boxed_clone(&self) -> Box<dyn Solver>;
}

/// Whether `kind` runs on `problem` (with `model` loaded or not); `Err` says why not.
pub fn applies(kind: SolverKind, problem: &Problem, model: Option<&ChartSet>) -> Result<()> {
    match kind {
        SolverKind::Loink | SolverKind::LoinkRefine => match model {
            Some(_) => Ok(()),
            None => Err(LoinkError::UnsupportedSolver {
                solver: kind.as_str().into(),
                reason: format!("no learned model is loaded for '{}'", problem.name()),
            }),
        },
        SolverKind::Dls if !problem.replayable() => Err(LoinkError::UnsupportedSolver {
            solver: kind.as_str().into(),
            reason: format!("'{}' has no forward map to iterate on", problem.name()),
        }),
        SolverKind::Dls => Ok(()),
        SolverKind::Analytic => analytic::applies(problem).map(|_| ()),
        SolverKind::Reference => reference::applies(problem),
        #[cfg(feature = "flow")]
        SolverKind::Flow => Err(LoinkError::UnsupportedSolver {
            solver: kind.as_str().into(),
            reason: format!("no flow model is loaded for '{}'", problem.name()),
        }),
    }
}

/// Builds the solver `settings` describe for `problem` (and `model`, for the learned ones: one
/// LOInK chart or several, `ChartSet::from(loink)` for one).
pub fn build(
    problem: &Problem,
    model: Option<&ChartSet>,
    settings: &SolverSettings,
) -> Result<Box<dyn Solver>> {
    applies(settings.kind, problem, model)?;
    Ok(match (settings.kind, model) {
        (SolverKind::Loink | SolverKind::LoinkRefine, Some(model)) => {
            let refine = if settings.kind == SolverKind::LoinkRefine {
                settings.refine
            } else {
                0
            };
            let loink = model
                .clone()
                .with_refinement(refine)
                .with_feedback(settings.feedback);
            let states = loink.new_states();
            Box::new(Learned {
                kind: settings.kind,
                loink,
                states,
                warm: settings.start == Start::Warm,
            })
        }
        (SolverKind::Dls, _) => Box::new(Dls::new(problem, settings)),
        (SolverKind::Analytic, _) => Box::new(Analytic {
            problem: problem.clone(),
        }),
        (SolverKind::Reference, _) => Box::new(Reference {
            problem: problem.clone(),
        }),
        #[cfg(feature = "flow")]
        (SolverKind::Flow, _) => {
            return Err(LoinkError::UnsupportedSolver {
                solver: "flow".into(),
                reason: "the flow is built from its model by build_flow".into(),
            })
        }
        (kind, None) => {
            return Err(LoinkError::UnsupportedSolver {
                solver: kind.as_str().into(),
                reason: "no learned model".into(),
            })
        }
    })
}

/// The flow baseline for `flow`'s problem: `settings.samples` samples per solve at scale
/// `settings.sigma` (1: the z = 0 sample). Cold (`loink eval`), solve r is seeded by
/// `settings.seed + r`; tracking a pointer (`Start::Warm`, the page) every solve draws from
/// `settings.seed` itself, so a link's answer does not depend on the solves before it.
#[cfg(feature = "flow")]
pub fn build_flow(flow: &crate::flow::Flow, settings: &SolverSettings) -> Result<Box<dyn Solver>> {
    let solver = crate::flow::FlowSolver::new(
        flow.clone(),
        settings.samples,
        settings.sigma,
        settings.seed,
    )?;
    Ok(Box::new(FlowBaseline {
        solver,
        same_seed: settings.start == Start::Warm,
    }))
}

/// The flow as a registry solver.
#[cfg(feature = "flow")]
#[derive(Clone)]
struct FlowBaseline {
    solver: crate::flow::FlowSolver,
    same_seed: bool,
}

#[cfg(feature = "flow")]
impl Solver for FlowBaseline {
    fn kind(&self) -> SolverKind {
        SolverKind::Flow
    }
    fn solve(&mut self, target: &[f64]) -> Solution {
        if self.same_seed {
            self.solver.reset();
        }
        self.solver.solve(target)
    }
    fn reset(&mut self) {
        self.solver.reset();
    }
    fn boxed_clone(&self) -> Box<dyn Solver> {
        Box::new(self.clone())
    }
}

/// LOInK (and LOInK + refine): the model's inverse (every chart's, the cheapest feasible
/// winning), warm-started or cold.
#[derive(Clone)]
struct Learned {
    kind: SolverKind,
    loink: ChartSet,
    states: Vec<SolverState>,
    warm: bool,
}

impl Solver for Learned {
    fn kind(&self) -> SolverKind {
        self.kind
    }
    fn solve(&mut self, target: &[f64]) -> Solution {
        if !self.warm {
            self.reset();
        }
        self.loink.solve(&mut self.states, target)
    }
    fn reset(&mut self) {
        self.states.iter_mut().for_each(SolverState::reset);
    }
    fn boxed_clone(&self) -> Box<dyn Solver> {
        Box::new(self.clone())
    }
}

/// Damped least squares from the mid-range, the previous answer or seeded random starts.
#[derive(Clone)]
struct Dls {
    problem: Problem,
    options: dls::DlsOptions,
    start: Start,
    previous: Option<Vec<f64>>,
    rng: Option<rand_chacha::ChaCha8Rng>,
}

impl Dls {
    fn new(problem: &Problem, settings: &SolverSettings) -> Self {
        use rand::SeedableRng;
        Self {
            problem: problem.clone(),
            options: settings
                .dls
                .unwrap_or_else(|| dls::DlsOptions::for_problem(problem)),
            start: settings.start,
            previous: None,
            rng: match settings.start {
                Start::Random(seed) => Some(rand_chacha::ChaCha8Rng::seed_from_u64(seed)),
                _ => None,
            },
        }
    }
}

impl Solver for Dls {
    fn kind(&self) -> SolverKind {
        SolverKind::Dls
    }
    fn solve(&mut self, target: &[f64]) -> Solution {
        use rand::Rng;
        let limits = self.problem.limits();
        let seed: Vec<f64> = match (self.start, self.rng.as_mut(), &self.previous) {
            (Start::Random(_), Some(rng), _) => (0..limits.len())
                .map(|i| rng.random_range(limits.lower()[i]..=limits.upper()[i]))
                .collect(),
            (Start::Warm, _, Some(previous)) => previous.clone(),
            _ => limits.centres(),
        };
        let solution = match (self.start, &self.previous) {
            (Start::Warm, Some(_)) => dls::solve_warm(&self.problem, target, &seed, &self.options),
            _ => dls::solve_restarting(&self.problem, target, &seed, &self.options),
        };
        if !solution.q().is_empty() {
            self.previous = Some(solution.q().to_vec());
        }
        solution
    }
    fn reset(&mut self) {
        self.previous = None;
    }
    fn boxed_clone(&self) -> Box<dyn Solver> {
        Box::new(self.clone())
    }
}

/// Closed-form two-link IK (stateless).
#[derive(Clone)]
struct Analytic {
    problem: Problem,
}

impl Solver for Analytic {
    fn kind(&self) -> SolverKind {
        SolverKind::Analytic
    }
    fn solve(&mut self, target: &[f64]) -> Solution {
        analytic::solve_best(&self.problem, target)
            .unwrap_or_else(|_| Solution::invalid(analytic::NAME, target, 0.0))
    }
    fn reset(&mut self) {}
    fn boxed_clone(&self) -> Box<dyn Solver> {
        Box::new(self.clone())
    }
}

/// The reference optimum (stateless).
#[derive(Clone)]
struct Reference {
    problem: Problem,
}

impl Solver for Reference {
    fn kind(&self) -> SolverKind {
        SolverKind::Reference
    }
    fn solve(&mut self, target: &[f64]) -> Solution {
        reference::solve(&self.problem, target)
    }
    fn reset(&mut self) {}
    fn boxed_clone(&self) -> Box<dyn Solver> {
        Box::new(self.clone())
    }
}
