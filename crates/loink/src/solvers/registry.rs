//! The one solver interface and the registry that builds every solver from a [`SolverKind`]
//! and its [`SolverSettings`]: `loink eval`, `loink bench`, the page and its gap map
//! all call [`build`], so the same settings and target give the same status, residual and
//! iterations everywhere.
//!
//! The learned solvers (LOInK, the flow, a regressor) are built by the model that holds their
//! weights ([`crate::model::LearnedModel::solver`]); [`build`] builds the ones a problem alone
//! defines. Adding a solver: a [`SolverKind`] variant (its word, label and whether it needs a
//! model), a [`Solver`] implementation, one arm in [`build`] (or in the model's).

use serde::{Deserialize, Serialize};

use super::{analytic, closed_form_search, dls, reference};
use crate::error::{LoinkError, Result};
use crate::problem::Problem;
use crate::report::Solution;

/// The solvers, by the word the CLI, the page's hash and reports use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
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
    /// A closed form along a free joint, searched on a grid and along the cheapest pieces
    /// (the Panda's pose task; feature `chain`).
    ClosedFormSearch,
    /// The IKFlow-style flow baseline: one sample at z = 0, or the cheapest near sample of K
    /// (`crate::flow`; feature `flow`).
    Flow,
    /// A direct regressor's answer (`mse`, `mdn`): not in menus or links, built only from its
    /// file.
    Regression,
}

impl SolverKind {
    /// Every kind a menu or `--solver` offers, in menu order (the flow and the closed-form
    /// search only in builds that have them).
    pub const ALL: [SolverKind;
        5 + cfg!(feature = "flow") as usize + cfg!(feature = "chain") as usize] = [
        SolverKind::Loink,
        SolverKind::LoinkRefine,
        #[cfg(feature = "flow")]
        SolverKind::Flow,
        SolverKind::Dls,
        SolverKind::Analytic,
        SolverKind::Reference,
        #[cfg(feature = "chain")]
        SolverKind::ClosedFormSearch,
    ];

    /// The word (`loink`, `loink-refine`, `dls`, `analytic`, `reference`).
    pub fn as_str(self) -> &'static str {
        match self {
            SolverKind::Loink => "loink",
            SolverKind::LoinkRefine => "loink-refine",
            SolverKind::Dls => "dls",
            SolverKind::Analytic => "analytic",
            SolverKind::Reference => "reference",
            SolverKind::ClosedFormSearch => closed_form_search::NAME,
            SolverKind::Flow => "flow",
            SolverKind::Regression => "regression",
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
        self == SolverKind::Flow
    }

    /// Whether a model file's weights build it ([`crate::model::LearnedModel::solver`]).
    pub fn needs_model(self) -> bool {
        matches!(
            self,
            SolverKind::Loink | SolverKind::LoinkRefine | SolverKind::Flow | SolverKind::Regression
        )
    }

    /// Its name in menus and legends.
    pub fn label(self) -> &'static str {
        match self {
            SolverKind::Loink => "LOInK (learned, z = 0)",
            SolverKind::LoinkRefine => "LOInK + refinement",
            SolverKind::Dls => "DLS + null-space descent",
            SolverKind::Analytic => "analytic (two links)",
            SolverKind::Reference => "reference optimum",
            SolverKind::ClosedFormSearch => "closed form + q7 search (classical)",
            SolverKind::Flow => "flow (IKFlow-style baseline)",
            SolverKind::Regression => "direct regression (baseline)",
        }
    }
}

// By its word ([`SolverKind::as_str`], [`SolverKind::parse`]): one list of the words, and no
// second one in serde's derived visitors (about 0.3 kB of the playground's gzipped download).
impl Serialize for SolverKind {
    fn serialize<S: serde::Serializer>(
        &self,
        serializer: S,
    ) -> std::result::Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for SolverKind {
    fn deserialize<D: serde::Deserializer<'de>>(
        deserializer: D,
    ) -> std::result::Result<Self, D::Error> {
        let word = String::deserialize(deserializer)?;
        SolverKind::parse(&word)
            .ok_or_else(|| serde::de::Error::custom(format!("unknown solver '{word}'")))
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

/// Whether `kind` runs on `problem` with no model; `Err` says why not (a learned kind: no model
/// is loaded).
pub fn applies(kind: SolverKind, problem: &Problem) -> Result<()> {
    match kind {
        SolverKind::Dls if !problem.replayable() => Err(LoinkError::UnsupportedSolver {
            solver: kind.as_str().into(),
            reason: format!("'{}' has no forward map to iterate on", problem.name()),
        }),
        SolverKind::Dls => Ok(()),
        SolverKind::Analytic => analytic::applies(problem).map(|_| ()),
        SolverKind::Reference => reference::applies(problem),
        SolverKind::ClosedFormSearch => closed_form_search::applies(problem),
        learned => Err(LoinkError::UnsupportedSolver {
            solver: learned.as_str().into(),
            reason: format!("no learned model is loaded for '{}'", problem.name()),
        }),
    }
}

/// Builds the solver `settings` describe for `problem` (a learned kind is refused: its model
/// builds it).
pub fn build(problem: &Problem, settings: &SolverSettings) -> Result<Box<dyn Solver>> {
    applies(settings.kind, problem)?;
    Ok(match settings.kind {
        SolverKind::Analytic => Stateless::boxed(settings.kind, problem, analytic_best),
        SolverKind::Reference => Stateless::boxed(settings.kind, problem, reference::solve),
        SolverKind::ClosedFormSearch => {
            Stateless::boxed(settings.kind, problem, closed_form_search::solve)
        }
        _ => Box::new(Dls::new(problem, settings)),
    })
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

/// A solver that keeps nothing between calls: the analytic two links, the reference, the
/// closed-form search.
#[derive(Clone)]
struct Stateless {
    kind: SolverKind,
    problem: Problem,
    solve: fn(&Problem, &[f64]) -> Solution,
}

impl Stateless {
    fn boxed(
        kind: SolverKind,
        problem: &Problem,
        solve: fn(&Problem, &[f64]) -> Solution,
    ) -> Box<dyn Solver> {
        Box::new(Stateless {
            kind,
            problem: problem.clone(),
            solve,
        })
    }
}

impl Solver for Stateless {
    fn kind(&self) -> SolverKind {
        self.kind
    }
    fn solve(&mut self, target: &[f64]) -> Solution {
        (self.solve)(&self.problem, target)
    }
    fn reset(&mut self) {}
    fn boxed_clone(&self) -> Box<dyn Solver> {
        Box::new(self.clone())
    }
}

/// The cheaper feasible branch of the two-link closed form (`invalid` where it does not apply).
fn analytic_best(problem: &Problem, target: &[f64]) -> Solution {
    analytic::solve_best(problem, target)
        .unwrap_or_else(|_| Solution::invalid(analytic::NAME, target, 0.0))
}
