//! A training run taken a slice at a time: what the page's worker runs (crate `loink-web-train`)
//! and what its native tests run, with `loink train`'s numerics — the same network, loss, Adam
//! with global clipping and one-cycle rate, data drawn and normalised the same way.
//!
//! The one difference is the schedule's clock. `loink train` runs a number of epochs; a run in
//! the page has a time budget, so the one-cycle rate is read at the share of the budget spent
//! ([`Session::step`] takes that share). With `steps` set instead, the share is the step's and
//! the run is deterministic: the same settings give the same model file, bit for bit.
//!
//! The planar arms only (planar2 on its elbow chart q₂ ∈ [0, π], as `recipes/planar2.toml`).

use std::collections::BTreeMap;

use burn::module::Module;
use burn::optim::{GradientsParams, ModuleOptimizer};
use burn::tensor::Device;
use loink::artifact::{About, ModelFile, Normalisation};
use loink::problem::Problem;
use loink::solvers::reference;
use loink::stats::{median_p95, quantile_sorted};
use loink::surrogate::Loink;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::Serialize;

use crate::data::{self, NormalisedSet, Sampler};
use crate::export::{self, ExportContext};
use crate::loss::{self, Batch, LossWeights, TaskLoss};
use crate::model::{cpu_device, Architecture, LoinkNet};
pub use crate::settings::{SessionError, SessionSettings, PROBLEMS};
use crate::{optimiser, schedule::OneCycle};

/// Held-out targets of [`Session::measure`].
pub const CHECK_TARGETS: usize = 64;

/// Polish steps after the inverse in [`Session::measure`] (the page's default solver).
pub const CHECK_REFINE: usize = 3;

/// What [`Session::measure`] found on the held-out targets.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Measure {
    /// Median end-effector error of the one-shot inverse (m).
    pub ee_median_m: f64,
    /// 95th percentile of it (m).
    pub ee_p95_m: f64,
    /// Median gap (J − J\*)/J\* of LOInK + polish ([`CHECK_REFINE`]); an infeasible answer is +∞.
    pub gap_median: f64,
    /// Median distance ‖x₀ − q\*‖ (rad) of the latent origin's preimage x₀ = G⁻¹([y; 0]) (the
    /// one-shot inverse) from the reference optimum q\*: how far G is from putting the cheapest
    /// posture at z = 0.
    pub optimum_distance_rad: f64,
    /// Share of the targets feasible and within 1 % of J\*.
    pub within_1pct: f64,
    /// Targets.
    pub targets: usize,
}

/// A training run in progress.
pub struct Session {
    settings: SessionSettings,
    problem: Problem,
    arch: Architecture,
    norm: Normalisation,
    train: NormalisedSet,
    weights: LossWeights,
    device: Device,
    /// The network (taken out while Adam steps it).
    net: Option<LoinkNet>,
    optim: ModuleOptimizer,
    schedule: OneCycle,
    rng: ChaCha8Rng,
    order: Vec<usize>,
    cursor: usize,
    steps: usize,
    samples: usize,
    /// Held-out targets with their reference optimum (q\*, J\*).
    checks: Vec<(Vec<f64>, Vec<f64>, f64)>,
    /// The last [`Session::measure`] and the step it measured.
    last_measure: Option<(usize, Measure)>,
}

/// Steps the one-cycle curve is laid over (its shape is read at a share of them).
const SCHEDULE_RESOLUTION: usize = 100_000;

impl Session {
    /// Draws the data and initialises the network (all from `settings.seed`), and solves the
    /// held-out targets' reference optima once.
    pub fn new(settings: SessionSettings) -> Result<Session, SessionError> {
        let problem = settings.problem()?;
        let arch = settings.architecture(&problem);
        let mut rng = ChaCha8Rng::seed_from_u64(settings.seed);
        let region = problem.limits().clone();
        let all = data::sample_in(
            &problem,
            &region,
            Sampler::Uniform,
            settings.samples,
            &mut rng,
        );
        let (train_idx, _) = data::split(all.len(), 0.1, &mut rng);
        let train_raw = all.subset(&train_idx);
        let norm = data::normalisation_in(&region, &problem.task().scales(), &train_raw);
        let train = NormalisedSet::new(&train_raw, &norm);
        let device = cpu_device().autodiff();
        let net = LoinkNet::new(&arch, &mut rng, &device);
        // The check's own stream, as `loink train`'s closing check draws its targets.
        let mut check_rng = ChaCha8Rng::seed_from_u64(settings.seed ^ 0x005e_ed0f_c4ec);
        let checks = problem
            .random_targets(CHECK_TARGETS, &mut check_rng)
            .into_iter()
            .map(|y| {
                let best = reference::solve(&problem, &y);
                (y, best.q().to_vec(), best.cost())
            })
            .collect();
        let order: Vec<usize> = (0..train.len()).collect();
        Ok(Session {
            weights: LossWeights {
                task: 10.0,
                cost: 1.0,
                task_loss: TaskLoss::Squared,
            },
            schedule: OneCycle::new(settings.lr, SCHEDULE_RESOLUTION),
            samples: all.len(),
            settings,
            problem,
            arch,
            norm,
            train,
            device,
            net: Some(net),
            optim: optimiser::adam(),
            rng,
            order,
            cursor: usize::MAX,
            steps: 0,
            checks,
            last_measure: None,
        })
    }

    fn net(&self) -> &LoinkNet {
        self.net
            .as_ref()
            .expect("the network is back after every step")
    }

    /// The settings.
    pub fn settings(&self) -> &SessionSettings {
        &self.settings
    }

    /// The problem trained on.
    pub fn problem(&self) -> &Problem {
        &self.problem
    }

    /// Steps taken.
    pub fn steps(&self) -> usize {
        self.steps
    }

    /// One Adam step on the next batch, the rate read at `share` ∈ [0, 1] of the run; the
    /// batch's task and cost terms (normalised).
    pub fn step(&mut self, share: f64) -> Result<(f64, f64), SessionError> {
        let batch_rows = self.settings.batch.min(self.order.len());
        if self.cursor.saturating_add(batch_rows) > self.order.len() {
            self.order.shuffle(&mut self.rng);
            self.cursor = 0;
        }
        let chunk = &self.order[self.cursor..self.cursor + batch_rows];
        self.cursor += batch_rows;
        let batch = Batch::gather(&self.train, chunk, &self.device);
        let net = self
            .net
            .take()
            .expect("the network is back after every step");
        let terms = loss::loss(&net, &batch, self.weights);
        let total: f32 = terms.total.clone().into_scalar();
        self.steps += 1;
        if !total.is_finite() {
            self.net = Some(net);
            return Err(SessionError::Diverged { step: self.steps });
        }
        let task: f32 = terms.task.into_scalar();
        let cost: f32 = terms.cost.into_scalar();
        let mut grads = GradientsParams::from_grads(terms.total.backward(), &net);
        optimiser::clip_global_norm(&net, &mut grads, 10.0);
        let share = share.clamp(0.0, 1.0);
        let rate = self
            .schedule
            .at((share * SCHEDULE_RESOLUTION as f64) as usize);
        self.net = Some(self.optim.step(rate, net, grads));
        Ok((f64::from(task), f64::from(cost)))
    }

    /// The current weights as a model file: its card says it was trained in the browser, how,
    /// and by which call it is trained again; `seconds` is the time spent (the card's). Its
    /// metrics are the last [`Self::measure`] when it measured these very weights (the worker
    /// measures, then exports), measured afresh otherwise.
    pub fn model_file(&self, seconds: f64) -> Result<ModelFile, SessionError> {
        let metrics = BTreeMap::from([
            ("steps".to_string(), self.steps as f64),
            ("samples".to_string(), self.samples as f64),
        ]);
        let mut file = ModelFile {
            git_revision: "trained in the browser".into(),
            ..self.export(metrics, &self.about(seconds))
        };
        let measure = match self.last_measure {
            Some((step, measure)) if step == self.steps => measure,
            _ => self.measure_file(&file)?,
        };
        for (key, value) in [
            ("check_targets", measure.targets as f64),
            ("ee_error_median_m", measure.ee_median_m),
            ("ee_error_p95_m", measure.ee_p95_m),
            ("check_refine_steps", CHECK_REFINE as f64),
            ("within_1pct", measure.within_1pct),
            ("gap_median", measure.gap_median),
        ] {
            file.metrics.insert(key.into(), value);
        }
        Ok(file)
    }

    /// The model file as JSON text (what `loink eval --model` reads).
    pub fn model_json(&self, seconds: f64) -> Result<String, SessionError> {
        Ok(export::to_json(&self.model_file(seconds)?))
    }

    /// The current weights on the held-out targets: the one-shot inverse's error and the gap
    /// of LOInK + polish against the reference optimum.
    pub fn measure(&mut self) -> Result<Measure, SessionError> {
        let measure = self.measure_file(&self.export(BTreeMap::new(), &About::default()))?;
        self.last_measure = Some((self.steps, measure));
        Ok(measure)
    }

    /// The current weights exported as the inference crate reads them.
    fn export(&self, metrics: BTreeMap<String, f64>, about: &About) -> ModelFile {
        export::model_file(
            &self.net().valid(),
            ExportContext {
                problem: &self.problem,
                arch: &self.arch,
                normalisation: &self.norm,
                metrics,
                seed: self.settings.seed,
                about,
            },
        )
    }

    fn measure_file(&self, file: &ModelFile) -> Result<Measure, SessionError> {
        let plain =
            Loink::from_file(file.clone()).map_err(|e| SessionError::Export(e.to_string()))?;
        let refined = plain.clone().with_refinement(CHECK_REFINE);
        let mut ee = Vec::with_capacity(self.checks.len());
        let mut gaps = Vec::with_capacity(self.checks.len());
        let mut distances = Vec::with_capacity(self.checks.len());
        for (y, q_star, best) in &self.checks {
            let origin = plain.solve_cold(y);
            ee.push(origin.residual());
            let squared: f64 = origin
                .q()
                .iter()
                .zip(q_star)
                .map(|(a, b)| (a - b) * (a - b))
                .sum();
            distances.push(squared.sqrt());
            let answer = refined.solve_cold(y);
            let feasible = answer.residual() < 1e-6 && answer.margin() >= -1e-6;
            gaps.push(if feasible && best.is_finite() {
                loink::gap::Gap::of(answer.cost(), *best).scaled()
            } else {
                f64::INFINITY
            });
        }
        let (ee_median_m, ee_p95_m) = median_p95(&ee);
        let (optimum_distance_rad, _) = median_p95(&distances);
        let within = gaps.iter().filter(|&&g| g <= 0.01).count();
        gaps.sort_by(f64::total_cmp);
        Ok(Measure {
            ee_median_m,
            ee_p95_m,
            optimum_distance_rad,
            gap_median: quantile_sorted(&gaps, 0.5),
            within_1pct: within as f64 / gaps.len().max(1) as f64,
            targets: gaps.len(),
        })
    }

    fn about(&self, seconds: f64) -> About {
        let s = &self.settings;
        About {
            name: format!("trained-{}", s.problem),
            description: format!(
                "trained in the browser: [{}]×4, depth {}, μ {}, {} steps in {:.0} s, seed {}",
                s.width, s.depth, s.mu, self.steps, seconds, s.seed
            ),
            command: s.call(self.steps),
            reproduces: "LOInK trained from scratch in the page (the same loss, optimiser and data as `loink train`, its one-cycle rate run over the time budget)".into(),
            does_not: "a shipped model's longer training: this one had the budget it was given".into(),
            ..About::default()
        }
    }
}
