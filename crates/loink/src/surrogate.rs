//! The LOInK surrogate (loink-math.md §1, §4): G = [G₁; G₂] maps normalised joints x̃ to
//! [ỹ; z]; the surrogate cost is ĉ(x) = G₂ᵀ M(G₁) G₂ + b(G₁) with M = L Lᵀ + εI ≻ 0, so for a task
//! y the cheapest learned solution sits at z = 0: **x\* = G⁻¹([ỹ; 0])**, de-normalised.
//!
//! Every answer is a [`Solution`] judged by forward-map replay ([`Solution::assess`]), with the
//! one meaning of each status every solver shares: `converged` only when the replayed residual
//! is at most 1e-6 and the limits hold; a learned answer that misses by more is `approximate`
//! (its residual says by how much), `capped` when the network's inverse did not converge,
//! `limits` when it breaks a joint limit, and `unreachable` only when the problem decides so —
//! then the answer is clamped into the joint box, like every solver's answer to such a target.
//! G is a bijection, so every y has a preimage; only the replay can tell a solution from a
//! confident miss.
//!
//! **Task feedback** ([`Loink::with_feedback`], module [`feedback`]): up to K more inverses aimed
//! at y' ← y' + (y − f(x)), so the answer is the point of the learned solution set at the same
//! z whose *true* position is y (off by default: the one-shot inverse of the paper).
//!
//! **Refinement** ([`Loink::with_refinement`]): at most K polish steps after the inverse (and any
//! feedback) at z = 0: limit-aware task restoration and null-space cost descent
//! ([`crate::solvers::polish`], which finishes steps that end just short of the target), never
//! ending worse than the learned answer; at z ≠ 0 (a sample)
//! the task alone is restored, keeping the sample's place in the self-motion set.
//!
//! Timing: `Solution::micros` is measured natively; on wasm32 (no clock) it is 0 and callers
//! time the call themselves (`Solution::with_micros`).

use std::sync::Arc;

use ndarray::Array2;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rand_distr::{Distribution, Normal};

use crate::artifact::{load_model, validate, ArtifactError, ModelFile, ValidatedModel};
use crate::error::{ensure_finite, ensure_len, LoinkError, Result};
use crate::nn::{BiLipState, InverseOptions, InverseReport, PathPredictor, SectionWork};
use crate::problem::{Problem, Reachability};
use crate::report::{Solution, Termination, Tolerance, REACHABILITY_CHECK_SHARE};
use crate::solvers::{clock, micros_since, polish, refine};

mod as_solver;
pub mod charts;
pub mod feedback;
pub use charts::ChartSet;
pub use feedback::{FeedbackReport, FEEDBACK_TOL, MAX_FEEDBACK_ROUNDS};

/// Solver name of the unrefined learned answer.
pub const SOLVER_NAME: &str = "loink";
/// Solver name when the polish followed the inverse.
pub const REFINED_SOLVER_NAME: &str = "loink+refine";
/// Most samples one [`Loink::sample`] call returns.
pub const MAX_SAMPLES: usize = 10_000;

/// softplus(x) = ln(1 + eˣ), overflow-safe.
fn softplus(x: f64) -> f64 {
    if x > 30.0 {
        x
    } else {
        x.exp().ln_1p()
    }
}

/// The learned solver built from a validated model (the model is shared: clones are cheap).
#[derive(Debug, Clone, PartialEq)]
pub struct Loink {
    model: Arc<ValidatedModel>,
    options: InverseOptions,
    refine_steps: usize,
    feedback_rounds: usize,
    /// Whether a far miss asks the problem to decide the target's reachability (off for a
    /// chart's proposal: the set decides once, for its winner).
    decide_reachability: bool,
    /// Whether the refinement restores the task before it polishes a far answer (on for a
    /// chart of a set: see [`Self::with_restore_first`]).
    restore_first: bool,
}

/// Per-caller state: the inverse's work buffers and warm starts, reused across frames.
#[derive(Debug, Clone, PartialEq)]
pub struct SolverState {
    net: BiLipState,
    target: Vec<f64>,
    x: Vec<f64>,
    last: Option<InverseReport>,
    /// The refinement's buffers (made on the first refined solve).
    polisher: Option<polish::Polisher>,
    /// The section head's buffers and its guess x̃ (empty without a head).
    section: SectionWork,
    guess: Vec<f64>,
}

impl SolverState {
    /// The last inverse's report (None before the first solve).
    pub fn last_inverse(&self) -> Option<InverseReport> {
        self.last
    }
    /// Per monotone layer (forward order): the last solve's iterations.
    pub fn layer_iterations(&self) -> Vec<usize> {
        self.net.layer_reports().map(|r| r.iterations).collect()
    }
    /// Forgets the warm start (the next solve is cold).
    pub fn reset(&mut self) {
        self.net.reset();
    }
    /// Sets the warm start for the next point of a path of equally spaced targets (see
    /// [`PathPredictor`]).
    pub fn predict(&mut self, path: &mut PathPredictor) {
        path.predict(&mut self.net);
    }
}

/// Task-restoration steps that bring an answer to an out-of-reach target back inside the joint
/// box and as near the target as the box allows (the answer is clamped first).
pub const OUT_OF_REACH_STEPS: usize = 10;

impl Loink {
    /// The solver for a validated model: Newton inverse, warm starts on, no refinement, no
    /// feedback (the one-shot inverse).
    pub fn new(model: ValidatedModel) -> Self {
        // A simulator whose calls cost (the soft arm) is not asked to decide a far miss's
        // target: that search would spend calls the answer does not need (see
        // `with_reachability_decision`).
        let decide_reachability = model.problem().capabilities().simulator.is_none();
        Self {
            model: Arc::new(model),
            options: InverseOptions::default(),
            refine_steps: 0,
            feedback_rounds: 0,
            decide_reachability,
            restore_first: false,
        }
    }

    /// Loads, validates and builds in one call.
    pub fn from_json(json: &str) -> std::result::Result<Self, ArtifactError> {
        Ok(Self::new(load_model(json)?))
    }

    /// [`Self::new`] for a decoded (not yet validated) model file: validates it first. For
    /// callers that decode the JSON themselves (the playground uses the browser's parser).
    pub fn from_file(file: ModelFile) -> std::result::Result<Self, ArtifactError> {
        Ok(Self::new(validate(file)?))
    }

    /// Whether the refinement restores the task before it polishes an answer farther than
    /// [`polish::RESTORE_FIRST_RESIDUAL`] from the target
    /// ([`polish::Polisher::polish_restoring_first`]). A chart of a set does: the set compares
    /// its charts' polished answers, which means something only when each stays on the piece
    /// of the answers its chart proposed (docs/pose.md).
    pub fn with_restore_first(mut self, restore_first: bool) -> Self {
        self.restore_first = restore_first;
        self
    }

    /// Replaces the inverse options (method, tolerance, cap, warm start).
    pub fn with_options(mut self, options: InverseOptions) -> Self {
        self.options = options;
        self
    }
    /// Follows every inverse with at most `steps` polish steps (0 = off).
    pub fn with_refinement(mut self, steps: usize) -> Self {
        self.refine_steps = steps;
        self
    }
    /// Follows the first inverse with at most `rounds` task-feedback rounds (module
    /// [`feedback`]; 0 = off, the one-shot inverse). Rounds above [`MAX_FEEDBACK_ROUNDS`] are
    /// capped there.
    pub fn with_feedback(mut self, rounds: usize) -> Self {
        self.set_feedback(rounds);
        self
    }
    /// [`Self::with_feedback`] in place (the playground changes it without reloading weights).
    pub fn set_feedback(&mut self, rounds: usize) {
        self.feedback_rounds = rounds.min(MAX_FEEDBACK_ROUNDS);
    }
    /// Whether a far miss asks the problem to decide the target's reachability (the default, but
    /// for a simulator that counts its calls): off, such a miss is judged by the problem's cheap
    /// tests alone (`approximate`, `limits`) and costs no search — for a chart's proposal, which
    /// the chart set re-judges when it wins, and for a soft robot, whose simulator calls cost.
    pub fn with_reachability_decision(mut self, decide: bool) -> Self {
        self.decide_reachability = decide;
        self
    }

    /// Current task-feedback rounds.
    pub fn feedback_rounds(&self) -> usize {
        self.feedback_rounds
    }
    /// Current refinement steps.
    pub fn refinement(&self) -> usize {
        self.refine_steps
    }
    /// Inverse options.
    pub fn options(&self) -> InverseOptions {
        self.options
    }
    /// The model (file, arm, network, heads).
    pub fn model(&self) -> &ValidatedModel {
        &self.model
    }
    /// The problem and its cost.
    pub fn problem(&self) -> &Problem {
        self.model.problem()
    }
    /// Task dimension m.
    pub fn task_dim(&self) -> usize {
        self.model.file().hyper.task_dim
    }
    /// Latent dimension n − m.
    pub fn latent_dim(&self) -> usize {
        self.model.file().hyper.latent_dim
    }

    /// A fresh state (cold start).
    pub fn new_state(&self) -> SolverState {
        let n = self.model.net().dim();
        SolverState {
            net: self.model.net().new_state(),
            target: vec![0.0; n],
            x: vec![0.0; n],
            last: None,
            polisher: None,
            section: self
                .model
                .section_head()
                .map(|head| head.new_work())
                .unwrap_or_default(),
            guess: vec![0.0; n],
        }
    }

    /// x\* = G⁻¹([ỹ; 0]) for target y (then any feedback rounds), warm-started from `state`,
    /// judged by replay.
    pub fn solve(&self, state: &mut SolverState, y: &[f64]) -> Solution {
        let zero = [0.0; 8];
        let k = self.latent_dim();
        if k <= zero.len() {
            self.solve_latent(state, y, &zero[..k])
        } else {
            self.solve_latent(state, y, &vec![0.0; k])
        }
    }

    /// [`Self::solve`] from a cold state.
    pub fn solve_cold(&self, y: &[f64]) -> Solution {
        self.solve(&mut self.new_state(), y)
    }

    /// The one-shot x\* = G⁻¹([ỹ; 0]) from a cold state, whatever [`Self::feedback_rounds`]
    /// says (for caches that must not depend on a setting changed later).
    pub fn solve_cold_one_shot(&self, y: &[f64]) -> Solution {
        let zero = vec![0.0; self.latent_dim()];
        self.solve_latent_rounds(&mut self.new_state(), y, &zero, 0)
    }

    /// G⁻¹([ỹ; z]) for a latent z (normalised units): the learned solution set of y as z
    /// varies (z = 0 is the learned optimum). Judged by replay like [`Self::solve`].
    pub fn solve_latent(&self, state: &mut SolverState, y: &[f64], z: &[f64]) -> Solution {
        self.solve_latent_rounds(state, y, z, self.feedback_rounds)
    }

    /// [`Self::solve_latent`] with `rounds` feedback rounds (whatever
    /// [`Self::feedback_rounds`] says).
    pub fn solve_latent_rounds(
        &self,
        state: &mut SolverState,
        y: &[f64],
        z: &[f64],
        rounds: usize,
    ) -> Solution {
        let start = clock();
        let name = if self.refine_steps > 0 {
            REFINED_SOLVER_NAME
        } else {
            SOLVER_NAME
        };
        let report = match self.preimage_into(state, y, z) {
            Ok(report) => report,
            Err(_) => return Solution::invalid(name, y, micros_since(start)),
        };
        let feedback = self.feedback_into(state, y, z, report, rounds);
        let problem = self.problem();
        let learned = state.x.clone();
        let mut iterations = report.iterations + feedback.iterations;
        let mut termination = if feedback.converged {
            Termination::Approximate
        } else {
            Termination::IterationCap
        };
        // Refinement: at z = 0 (the learned optimum) the polish restores the task and descends
        // the cost nearby; at another z (a sample) it restores the task only, keeping the
        // sample's place on the solution set.
        let mut note = None;
        let q = if self.refine_steps > 0 && problem.replayable() {
            let (q, steps, refined) = if z.iter().all(|&v| v == 0.0) {
                let polisher = state
                    .polisher
                    .get_or_insert_with(|| polish::Polisher::new(problem));
                let polished = if self.restore_first {
                    polisher.polish_restoring_first(problem, y, &learned, self.refine_steps)
                } else {
                    polisher.polish(problem, y, &learned, self.refine_steps)
                };
                if !polished.cost_descended {
                    note = Some("the cost has no gradient here: refinement restored the task only");
                } else if polished.rescued {
                    note = Some(
                        "the refinement stalled against the limits; damped least squares finished it",
                    );
                }
                (polished.q, polished.steps, polished.termination)
            } else {
                let restored = refine::restore_raw(problem, y, &learned, self.refine_steps);
                (restored.q, restored.steps, restored.termination)
            };
            iterations += steps;
            if refined != Termination::Converged {
                termination = Termination::IterationCap;
            }
            q
        } else {
            learned.clone()
        };
        // A target out of reach: the answer is held inside the joint box (clamped, then
        // restored towards the target without leaving it), as every solver's answer to such a
        // target is; for a reachable target a limit the network's answer breaks is reported as
        // it is (`limits`). The problem's cheap verdict is always asked; its full decision only
        // where deciding costs no simulator calls.
        let mut q = q;
        if problem.replayable() && problem.limits().margin(&q) < -Tolerance::CLASSICAL.limits {
            let out_of_reach = match problem.kinematics().reachability(y, None) {
                Reachability::Unreachable => true,
                Reachability::Reachable => false,
                Reachability::Unknown => {
                    self.decide_reachability && {
                        let residual = problem.miss(y, &problem.position(&q)).distance;
                        residual > REACHABILITY_CHECK_SHARE * problem.workspace_radius()
                            && problem.reachability(y, Some(&q)) == Reachability::Unreachable
                    }
                }
            };
            if out_of_reach {
                let restored = refine::restore_raw(problem, y, &q, OUT_OF_REACH_STEPS);
                iterations += restored.steps;
                q = restored.q;
                termination = Termination::Unreachable;
            }
        }
        let seed = (self.refine_steps > 0).then_some(learned.as_slice());
        // The feedback rounds replayed the kept answer: when it is the answer, that position
        // judges it (one simulator call fewer).
        let known = feedback.reached.filter(|_| q == learned);
        let solution = Solution::assess_replayed(
            problem,
            name,
            y,
            seed,
            (q, known),
            iterations,
            micros_since(start),
            termination,
            self.decide_reachability,
        );
        match note {
            Some(note) => solution.with_note(note),
            None => solution,
        }
    }

    /// Raw preimage x = G⁻¹([ỹ; z]) de-normalised into `state` (no replay, no refinement).
    fn preimage_into(
        &self,
        state: &mut SolverState,
        y: &[f64],
        z: &[f64],
    ) -> Result<InverseReport> {
        self.problem().check_target(y)?;
        let file = self.model.file();
        let norm = &file.normalisation;
        let (m, k) = (self.task_dim(), self.latent_dim());
        ensure_len("latent z", z, k)?;
        ensure_finite("latent z", z)?;
        if state.target.len() != m + k || state.x.len() != m + k {
            return Err(LoinkError::Dimension {
                what: "solver state (made for another model)".into(),
                expected: m + k,
                got: state.target.len(),
            });
        }
        let (task, latent) = state.target.split_at_mut(m);
        for (((t, &yi), &shift), &scale) in
            task.iter_mut().zip(y).zip(&norm.y_shift).zip(&norm.y_scale)
        {
            *t = (yi - shift) / scale;
        }
        latent.copy_from_slice(z);
        // A cold inverse at z = 0 starts from the section head's guess of its answer, when the
        // model has one (a warm state keeps its own start: the previous answer along a path).
        if let Some(head) = self.model.section_head() {
            if !state.net.is_warm() && z.iter().all(|&v| v == 0.0) {
                let task = &state.target[..m];
                if head.predict_into(task, &mut state.section, &mut state.guess) {
                    self.model
                        .net()
                        .seed_warm_starts(&state.guess, &mut state.net);
                }
            }
        }
        let mut x = std::mem::take(&mut state.x);
        let report =
            self.model
                .net()
                .inverse_into(&state.target, &mut state.net, &self.options, &mut x);
        for (i, xi) in x.iter_mut().enumerate() {
            *xi = *xi * norm.x_scale[i] + norm.x_shift[i];
        }
        state.x = x;
        let report = report?;
        state.last = Some(report);
        Ok(report)
    }

    /// The raw learned preimage G⁻¹([ỹ; z]) (joint space) and its inverse report, without
    /// replay — for plotting the learned solution set.
    pub fn preimage(
        &self,
        state: &mut SolverState,
        y: &[f64],
        z: &[f64],
    ) -> Result<(Vec<f64>, InverseReport)> {
        let report = self.preimage_into(state, y, z)?;
        Ok((state.x.clone(), report))
    }

    /// `count` diverse solutions at z ~ N(0, σ²I) (normalised latent units), drawn from
    /// ChaCha8 seeded by `seed`: the same call gives the same solutions on every platform.
    pub fn sample(&self, y: &[f64], sigma: f64, count: usize, seed: u64) -> Result<Vec<Solution>> {
        if !(sigma.is_finite() && sigma >= 0.0) {
            return Err(LoinkError::OutOfRange {
                what: "sigma".into(),
                detail: format!("{sigma} (must be finite and ≥ 0)"),
            });
        }
        if count > MAX_SAMPLES {
            return Err(LoinkError::OutOfRange {
                what: "sample count".into(),
                detail: format!("{count} (at most {MAX_SAMPLES})"),
            });
        }
        let normal = Normal::new(0.0, sigma).map_err(|e| LoinkError::OutOfRange {
            what: "sigma".into(),
            detail: e.to_string(),
        })?;
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut state = self.new_state();
        let mut z = vec![0.0; self.latent_dim()];
        Ok((0..count)
            .map(|_| {
                z.iter_mut().for_each(|v| *v = normal.sample(&mut rng));
                self.solve_latent(&mut state, y, &z)
            })
            .collect())
    }

    /// [ỹ; z] = G(x̃) for a joint vector x (checked).
    fn forward(&self, x: &[f64]) -> Result<Vec<f64>> {
        self.problem().check_q(x)?;
        let norm = &self.model.file().normalisation;
        let xn: Vec<f64> = x
            .iter()
            .enumerate()
            .map(|(i, &xi)| (xi - norm.x_shift[i]) / norm.x_scale[i])
            .collect();
        ensure_finite("normalised joint vector", &xn)?;
        // Finite but absurd joints (|x| ~ 1e308) overflow inside G: an error, not inf on the page.
        let out = self.model.net().forward(&xn)?;
        ensure_finite("G(x)", &out)?;
        Ok(out)
    }

    /// z = G₂(x̃), the latent coordinate of joint vector x.
    pub fn latent(&self, x: &[f64]) -> Result<Vec<f64>> {
        let out = self.forward(x)?;
        Ok(out[self.task_dim()..].to_vec())
    }

    /// The task G₁ predicts for x, de-normalised (compare with p(x) to see the fit).
    pub fn predicted_task(&self, x: &[f64]) -> Result<Vec<f64>> {
        let out = self.forward(x)?;
        let norm = &self.model.file().normalisation;
        Ok((0..self.task_dim())
            .map(|i| out[i] * norm.y_scale[i] + norm.y_shift[i])
            .collect())
    }

    /// M(ỹ) = L Lᵀ + εI for a normalised task ỹ (k × k, k the latent dimension).
    fn metric_normalised(&self, y_tilde: &[f64]) -> Result<Array2<f64>> {
        let k = self.latent_dim();
        let entries = self.model.metric_head().forward(y_tilde)?;
        let mut l = Array2::zeros((k, k));
        let mut it = entries.iter();
        for i in 0..k {
            for j in 0..=i {
                let v = it.next().copied().unwrap_or(0.0);
                l[[i, j]] = if i == j { softplus(v) } else { v };
            }
        }
        let eps = self.model.file().hyper.metric_eps;
        Ok(crate::nn::linalg::matmul(l.view(), l.t()) + Array2::<f64>::eye(k) * eps)
    }

    /// b(ỹ) for a normalised task (normalised cost units).
    fn value_normalised(&self, y_tilde: &[f64]) -> Result<f64> {
        let out = self.model.value_head().forward(y_tilde)?;
        out.first().copied().ok_or_else(|| LoinkError::Dimension {
            what: "value head output".into(),
            expected: 1,
            got: 0,
        })
    }

    /// ĉ(x) = G₂ᵀ M(G₁) G₂ + b(G₁), de-normalised to the cost's units.
    pub fn surrogate_cost(&self, x: &[f64]) -> Result<f64> {
        let out = self.forward(x)?;
        let m = self.task_dim();
        let (y_tilde, z) = out.split_at(m);
        let metric = self.metric_normalised(y_tilde)?;
        let quad: f64 = (0..z.len())
            .map(|i| z[i] * (0..z.len()).map(|j| metric[[i, j]] * z[j]).sum::<f64>())
            .sum();
        let c = quad + self.value_normalised(y_tilde)?;
        let norm = &self.model.file().normalisation;
        Ok(c * norm.cost_scale + norm.cost_shift)
    }

    /// The learned optimal cost J\*(y) ≈ b(ỹ), de-normalised.
    pub fn value(&self, y: &[f64]) -> Result<f64> {
        let y_tilde = self.normalise_task(y)?;
        let norm = &self.model.file().normalisation;
        Ok(self.value_normalised(&y_tilde)? * norm.cost_scale + norm.cost_shift)
    }

    /// M(ỹ) for a target y (normalised cost per normalised latent²).
    pub fn metric(&self, y: &[f64]) -> Result<Array2<f64>> {
        let y_tilde = self.normalise_task(y)?;
        self.metric_normalised(&y_tilde)
    }

    fn normalise_task(&self, y: &[f64]) -> Result<Vec<f64>> {
        self.problem().check_target(y)?;
        let norm = &self.model.file().normalisation;
        Ok((0..self.task_dim())
            .map(|i| (y[i] - norm.y_shift[i]) / norm.y_scale[i])
            .collect())
    }
}
