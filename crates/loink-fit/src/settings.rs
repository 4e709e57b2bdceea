//! The settings of a training run in the page ([`SessionSettings`], the JavaScript `train({…})`
//! object), their ranges, and what a run can fail with ([`SessionError`]).

use loink::cost::CostSpec;
use loink::problem::Problem;
use serde::{Deserialize, Serialize};

use crate::model::Architecture;

/// The problems a session trains.
pub const PROBLEMS: [&str; 3] = ["planar2", "planar3", "planar4"];

/// A run's settings (the JavaScript `train({…})` object; camelCase there).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct SessionSettings {
    /// planar2, planar3 or planar4.
    pub problem: String,
    /// Hidden block size of each monotone layer (four blocks).
    pub width: usize,
    /// Monotone layers d.
    pub depth: usize,
    /// Overall lower Lipschitz bound μ of G (ν stays 20).
    pub mu: f64,
    /// The cost, as `loink train --cost` writes it (`limits=1,com=4`); empty: the problem's own.
    pub cost: String,
    /// The seed of the data, the initialisation and the batch order.
    pub seed: u64,
    /// The time budget (s); the schedule runs on its share spent. Ignored when `steps` is set.
    pub seconds: f64,
    /// A fixed number of steps instead of a time budget (a deterministic run).
    pub steps: Option<usize>,
    /// Configurations drawn (10 % held out).
    pub samples: usize,
    /// Rows per step.
    pub batch: usize,
    /// Peak learning rate of the one-cycle schedule.
    pub lr: f64,
}

impl Default for SessionSettings {
    /// The page's defaults: on planar3 they reach `loink train`'s default model's figures in
    /// about a fifth of its steps (a wider batch at twice the rate).
    fn default() -> Self {
        Self {
            problem: "planar3".into(),
            width: 32,
            depth: 3,
            mu: 0.05,
            cost: String::new(),
            seed: 1,
            seconds: 60.0,
            steps: None,
            samples: 100_000,
            batch: 512,
            lr: 0.02,
        }
    }
}

/// A setting refused, or a run that cannot go on.
#[derive(Debug, Clone, PartialEq)]
pub enum SessionError {
    /// A setting out of its range: its name and the range.
    Setting {
        /// The setting's name, as JavaScript spells it.
        name: &'static str,
        /// What it must be.
        reason: String,
    },
    /// The loss went non-finite at this step.
    Diverged {
        /// The step (1-based).
        step: usize,
    },
    /// The network could not be exported as a valid model file.
    Export(String),
}

impl std::fmt::Display for SessionError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SessionError::Setting { name, reason } => write!(f, "training setting '{name}': {reason}"),
            SessionError::Diverged { step } => write!(
                f,
                "training diverged at step {step} (the loss is not finite): lower the rate or raise μ"
            ),
            SessionError::Export(e) => write!(f, "the trained network is no valid model: {e}"),
        }
    }
}

impl std::error::Error for SessionError {}

fn refuse<T>(name: &'static str, reason: &str) -> Result<T, SessionError> {
    Err(SessionError::Setting {
        name,
        reason: reason.into(),
    })
}

impl SessionSettings {
    /// The settings' names as JavaScript spells them.
    pub const KEYS: [&'static str; 11] = [
        "problem", "width", "depth", "mu", "cost", "seed", "seconds", "steps", "samples", "batch",
        "lr",
    ];

    /// Refuses a name that is none of [`Self::KEYS`] (a misspelt setting would otherwise be
    /// left at its default without a word).
    pub fn check_keys<'a>(names: impl IntoIterator<Item = &'a str>) -> Result<(), SessionError> {
        for name in names {
            if !Self::KEYS.contains(&name) {
                return Err(SessionError::Setting {
                    name: "settings",
                    reason: format!(
                        "unknown setting '{name}' (known: {})",
                        Self::KEYS.join(", ")
                    ),
                });
            }
        }
        Ok(())
    }

    /// Checks every setting's range; the problem they describe (its chart for planar2).
    pub fn problem(&self) -> Result<Problem, SessionError> {
        if !PROBLEMS.contains(&self.problem.as_str()) {
            return refuse("problem", "one of planar2, planar3, planar4");
        }
        if !(1..=128).contains(&self.width) {
            return refuse("width", "a whole number of units from 1 to 128");
        }
        if !(1..=8).contains(&self.depth) {
            return refuse("depth", "a whole number of layers from 1 to 8");
        }
        if !(self.mu.is_finite() && self.mu > 0.0 && self.mu <= 1.0) {
            return refuse("mu", "a number in (0, 1]");
        }
        if !(self.seconds.is_finite() && self.seconds > 0.0 && self.seconds <= 3600.0) {
            return refuse("seconds", "a number of seconds in (0, 3600]");
        }
        if matches!(self.steps, Some(s) if s == 0 || s > 1_000_000) {
            return refuse("steps", "a whole number from 1 to 1,000,000");
        }
        if !(1000..=1_000_000).contains(&self.samples) {
            return refuse("samples", "a whole number from 1,000 to 1,000,000");
        }
        if !(1..=8192).contains(&self.batch) {
            return refuse("batch", "a whole number from 1 to 8,192");
        }
        if !(self.lr.is_finite() && self.lr > 0.0 && self.lr <= 1.0) {
            return refuse("lr", "a number in (0, 1]");
        }
        if self.seed > (1 << 53) {
            return refuse("seed", "a whole number from 0 to 2^53");
        }
        let preset = Problem::preset(&self.problem).map_err(|e| SessionError::Setting {
            name: "problem",
            reason: e.to_string(),
        })?;
        let cost = if self.cost.trim().is_empty() {
            preset.cost().spec().clone()
        } else {
            CostSpec::parse(&self.cost).map_err(|e| SessionError::Setting {
                name: "cost",
                reason: e.to_string(),
            })?
        };
        let mut spec = preset.spec();
        if self.problem == "planar2" {
            // One elbow chart: without redundancy both branches would be averaged.
            spec.lower = vec![-std::f64::consts::FRAC_PI_2, 0.0];
            spec.upper = vec![std::f64::consts::FRAC_PI_2, std::f64::consts::PI];
        }
        Problem::from_spec(&spec, cost).map_err(|e| SessionError::Setting {
            name: "cost",
            reason: e.to_string(),
        })
    }

    /// The network these settings describe on `problem`.
    pub fn architecture(&self, problem: &Problem) -> Architecture {
        Architecture {
            dof: problem.dof(),
            task_dim: problem.task_dim(),
            mu: self.mu,
            nu: 20.0,
            depth: self.depth,
            hidden: vec![self.width; 4],
            head_hidden: vec![32, 32],
            metric_eps: 1e-3,
        }
    }

    /// The JavaScript call that repeats this run step for step (`steps` fixed at `steps`).
    pub fn call(&self, steps: usize) -> String {
        let cost = if self.cost.trim().is_empty() {
            String::new()
        } else {
            format!(", cost: '{}'", self.cost.trim())
        };
        format!(
            "loinkPlayground.train({{problem: '{}', steps: {steps}, seed: {}, width: {}, depth: {}, mu: {}{cost}, samples: {}, batch: {}, lr: {}}})",
            self.problem, self.seed, self.width, self.depth, self.mu, self.samples, self.batch, self.lr
        )
    }
}
