//! `loink train`: fits a LOInK model (BiLipNet G plus surrogate-cost heads) with burn and writes
//! the model artifact.
//!
//! - [`data`]: configurations in the limits, labelled by FK and cost; normalisation; split.
//! - [`cayley`]: the Cayley transform, differentiable (burn) and in f64 (export).
//! - [`model`]: the network on free parameters.
//! - [`loss`]: the weighted task + cost loss.
//! - [`schedule`]: one-cycle learning rate.
//! - [`optimiser`]: global gradient-norm clipping and Adam.
//! - [`progress`], [`summary`]: the progress bar and the closing table.
//! - [`export`]: the artifact.
//! - [`surface`]: optimal-surface resampling (`--surface`): data where the solver reads G.
//!
//! Determinism: data, split, initialisation and batch order all come from one ChaCha8 stream
//! seeded by `--seed`; burn's ndarray backend is deterministic on one machine, and the file holds
//! no wall-clock time (it is printed on stdout only), so the same command gives the same bytes.

pub mod cayley;
pub mod data;
pub mod export;
pub mod loss;
pub mod model;
pub mod optimality;
pub mod optimiser;
pub mod progress;
pub mod schedule;
pub mod summary;
pub mod surface;

use std::path::PathBuf;
use std::time::Instant;

use burn::module::Module;
use burn::optim::GradientsParams;
use loink::artifact::About;
use loink::cost::CostSpec;
use loink::problem::Problem;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use data::{NormalisedSet, Sampler};
use loss::{Batch, LossWeights, TaskLoss};
use model::{Architecture, LoinkNet};
use summary::Row;

/// Errors of `loink train`.
#[derive(Debug, thiserror::Error)]
pub enum TrainError {
    /// Robot or cost could not be built.
    #[error(transparent)]
    Loink(#[from] loink::LoinkError),
    /// A flag value is unusable.
    #[error("invalid argument: {0}")]
    Argument(String),
    /// Training produced a non-finite loss.
    #[error("training diverged: loss became {0} at epoch {1}")]
    Diverged(f64, usize),
    /// The engine rejected the network being trained (`--surface` inverts it every epoch).
    #[error("optimal-surface draw at epoch {epoch}: {reason}")]
    Surface {
        /// The epoch (1-based).
        epoch: usize,
        /// The engine's reason.
        reason: String,
    },
    /// The output file could not be written.
    #[error("cannot write {path}: {source}")]
    Io {
        /// The path.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
}

/// What `loink train` fits (`--kind`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ModelKind {
    /// The LOInK model (BiLipNet G plus surrogate-cost heads).
    Loink,
    /// Direct regression y → q with squared error (the averaging baseline).
    Mse,
    /// Mixture density network y → Σ_k π_k N(μ_k, σ_k²) (the multimodal baseline).
    Mdn,
}

/// A comma-separated list of widths (an alias, so clap takes it as one value, not many).
pub type Widths = Vec<usize>;

fn parse_list(text: &str) -> Result<Widths, String> {
    text.split(',')
        .map(|p| p.trim().parse::<usize>().map_err(|e| format!("'{p}': {e}")))
        .collect()
}

/// Flags of `loink train`.
#[derive(Debug, Clone, clap::Args)]
pub struct TrainArgs {
    /// What to fit: the LOInK model, or a direct-regression baseline (mse, mdn) written as a
    /// `loink-regressor` file (`--hidden` is then its MLP widths).
    #[arg(long, value_enum, default_value_t = ModelKind::Loink)]
    pub kind: ModelKind,
    /// Mixture components K of `--kind mdn`.
    #[arg(long, default_value_t = 2)]
    pub components: usize,
    /// Problem preset (planar2, planar3, planar3-wide, planar4).
    #[arg(long, visible_alias = "problem")]
    pub robot: String,
    /// Cost, e.g. "limits=1,com=4" (the default).
    #[arg(long, default_value = "limits=1,com=4")]
    pub cost: String,
    /// Lower joint limits replacing the preset's, comma-separated radians — e.g. planar2's
    /// elbow-up chart `--lower=-3.141592653589793,0` (no redundancy: one chart per model).
    #[arg(long, allow_hyphen_values = true)]
    pub lower: Option<String>,
    /// Upper joint limits replacing the preset's, comma-separated radians.
    #[arg(long, allow_hyphen_values = true)]
    pub upper: Option<String>,
    /// Overall lower Lipschitz bound μ of G.
    #[arg(long, default_value_t = 0.05)]
    pub mu: f64,
    /// Overall upper Lipschitz bound ν of G.
    #[arg(long, default_value_t = 20.0)]
    pub nu: f64,
    /// Number of monotone layers d.
    #[arg(long, default_value_t = 3)]
    pub depth: usize,
    /// Hidden block sizes of each monotone layer, comma-separated.
    #[arg(long, default_value = "32,32,32,32", value_parser = parse_list)]
    pub hidden: Widths,
    /// Hidden widths of the M and b heads, comma-separated.
    #[arg(long, default_value = "32,32", value_parser = parse_list)]
    pub head_hidden: Widths,
    /// ε in M = LLᵀ + εI.
    #[arg(long, default_value_t = 1e-3)]
    pub metric_eps: f64,
    /// Maximum number of epochs.
    #[arg(long, default_value_t = 40)]
    pub epochs: usize,
    /// Number of training configurations (before the validation split).
    #[arg(long, default_value_t = 200_000)]
    pub samples: usize,
    /// How configurations are drawn.
    #[arg(long, value_enum, default_value_t = Sampler::Uniform)]
    pub sampler: Sampler,
    /// Mini-batch size.
    #[arg(long, default_value_t = 256)]
    pub batch: usize,
    /// Peak learning rate of the one-cycle schedule.
    #[arg(long, default_value_t = 1e-2)]
    pub lr: f64,
    /// Share of samples held out for validation and early stopping.
    #[arg(long, default_value_t = 0.1)]
    pub val_frac: f64,
    /// Stop after this many epochs without a better validation loss (checked in the second half
    /// of the epochs only, once the learning rate anneals).
    #[arg(long, default_value_t = 8)]
    pub patience: usize,
    /// Optimal-surface points per epoch (0 = off): after the warm-up, every epoch inverts the
    /// current network at this many fresh targets and trains on the preimages x₀ = G⁻¹([ỹ; 0])
    /// in place of as many uniform samples (see `train::surface`).
    #[arg(long, default_value_t = 0)]
    pub surface: usize,
    /// Targets inverted per surface point kept: with K > 1 an epoch inverts K·N targets and
    /// keeps the N preimages with the largest residuals (see `train::surface`).
    #[arg(long, default_value_t = 1)]
    pub surface_pool: usize,
    /// Weight of a surface point's task error against a uniform sample's 1 (`--surface` only):
    /// the unrefined answer is read on the surface alone, the uniform samples are there for the
    /// cost heads and for σ > 0, so W > 1 spends more of G₁'s capacity where the page reads it.
    #[arg(long, default_value_t = 1.0)]
    pub surface_task_weight: f64,
    /// Share of the epochs before surface points join (the network must first be a rough fit).
    #[arg(long, default_value_t = 0.25)]
    pub surface_from: f64,
    /// Task weight w_task.
    #[arg(long, default_value_t = 10.0)]
    pub task_weight: f64,
    /// How the task error enters the loss: squared (the mean squared error) or norm (its
    /// smoothed norm, so the typical error weighs as much as the tails; see `train::loss`).
    #[arg(long, value_enum, default_value_t = TaskLoss::Squared)]
    pub task_loss: TaskLoss,
    /// Cost weight w_cost.
    #[arg(long, default_value_t = 1.0)]
    pub cost_weight: f64,
    /// Global gradient-norm clip.
    #[arg(long, default_value_t = 10.0)]
    pub clip: f64,
    /// Held-out targets of the closing optimality check against the reference optimum (0 skips).
    #[arg(long, default_value_t = 300)]
    pub check_targets: usize,
    /// Polish steps after the inverse in the closing check.
    #[arg(long, default_value_t = 3)]
    pub check_refine: usize,
    /// Seed of data, split, initialisation and batch order.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Output model file (JSON).
    #[arg(long)]
    pub out: PathBuf,
    /// The model's catalog name, stored in its card (default: the output file's stem).
    #[arg(long)]
    pub name: Option<String>,
    /// One line on what the model is, stored in its card (the page's model menu shows it).
    #[arg(long, default_value = "")]
    pub description: String,
    /// The command line that ran this training, stored in the card (the binary fills it in).
    #[arg(skip)]
    pub command: String,
}

impl TrainArgs {
    /// The preset problem with the cost of `--cost`, its joint limits replaced by `--lower` /
    /// `--upper` when given.
    pub fn problem(&self) -> Result<Problem, TrainError> {
        let cost = CostSpec::parse(&self.cost)?;
        let preset = Problem::preset(&self.robot)?;
        if self.lower.is_none() && self.upper.is_none() {
            return Ok(Problem::new(preset.kinematics_arc(), cost)?);
        }
        let parse = |text: &Option<String>, fallback: &[f64]| -> Result<Vec<f64>, TrainError> {
            match text {
                None => Ok(fallback.to_vec()),
                Some(t) => t
                    .split(',')
                    .map(|p| p.trim().parse::<f64>())
                    .collect::<Result<_, _>>()
                    .map_err(|e| TrainError::Argument(format!("joint limits '{t}': {e}"))),
            }
        };
        let mut spec = preset.spec();
        spec.lower = parse(&self.lower, preset.limits().lower())?;
        spec.upper = parse(&self.upper, preset.limits().upper())?;
        Ok(Problem::from_spec(&spec, cost)?)
    }

    /// The card the written file carries.
    pub fn about(&self) -> About {
        About {
            name: self.name.clone().unwrap_or_else(|| {
                self.out
                    .file_stem()
                    .map(|s| s.to_string_lossy().trim_end_matches(".f32").to_string())
                    .unwrap_or_default()
            }),
            description: self.description.clone(),
            command: self.command.clone(),
        }
    }

    fn architecture(&self, problem: &Problem) -> Result<Architecture, TrainError> {
        let bad = |m: &str| Err(TrainError::Argument(m.to_string()));
        if !(self.mu > 0.0 && self.nu > self.mu && self.nu.is_finite()) {
            return bad("need 0 < mu < nu < inf");
        }
        if self.depth == 0 || self.depth > 16 {
            return bad("depth must be in 1..=16");
        }
        if self.hidden.is_empty() || self.hidden.iter().any(|&h| h == 0 || h > 1024) {
            return bad("hidden blocks must be in 1..=1024");
        }
        if self.head_hidden.iter().any(|&h| h == 0 || h > 1024) {
            return bad("head widths must be in 1..=1024");
        }
        if !(self.metric_eps > 0.0 && self.metric_eps.is_finite()) {
            return bad("metric-eps must be positive");
        }
        if self.samples < 10 || self.batch == 0 || self.epochs == 0 {
            return bad("need samples >= 10, batch >= 1, epochs >= 1");
        }
        if !(self.val_frac > 0.0 && self.val_frac < 0.9) {
            return bad("val-frac must be in (0, 0.9)");
        }
        if !(0.0..=1.0).contains(&self.surface_from) {
            return bad("surface-from must be in [0, 1]");
        }
        if !(1..=16).contains(&self.surface_pool) {
            return bad("surface-pool must be in 1..=16");
        }
        if !(self.surface_task_weight > 0.0 && self.surface_task_weight <= 1e3) {
            return bad("surface-task-weight must be in (0, 1000]");
        }
        if self.surface == 0 && self.surface_task_weight != 1.0 {
            return bad("surface-task-weight weighs surface points: it needs --surface");
        }
        if self.surface > self.samples / 2 {
            return bad("surface must be at most half the samples");
        }
        if !(self.lr > 0.0 && self.lr.is_finite() && self.clip > 0.0) {
            return bad("lr and clip must be positive");
        }
        let (dof, task_dim) = (problem.dof(), problem.task_dim());
        if dof < task_dim {
            return bad("the problem needs at least as many joints as task dimensions");
        }
        Ok(Architecture {
            dof,
            task_dim,
            mu: self.mu,
            nu: self.nu,
            depth: self.depth,
            hidden: self.hidden.clone(),
            head_hidden: self.head_hidden.clone(),
            metric_eps: self.metric_eps,
        })
    }
}

/// What a training run produced.
pub struct Trained {
    /// The best network (validation loss), on the plain CPU device.
    pub net: LoinkNet,
    /// The artifact written.
    pub file: loink::artifact::ModelFile,
    /// Wall time of the training loop (seconds; printed, not stored).
    pub seconds: f64,
}

/// Runs `loink train`.
pub fn run(args: &TrainArgs) -> Result<Trained, TrainError> {
    let start = Instant::now();
    let problem = args.problem()?;
    let arch = args.architecture(&problem)?;
    let about = args.about();
    let weights = LossWeights {
        task: args.task_weight,
        cost: args.cost_weight,
        task_loss: args.task_loss,
    };

    let mut rng = ChaCha8Rng::seed_from_u64(args.seed);
    let all = data::sample(&problem, args.sampler, args.samples, &mut rng);
    let (train_idx, val_idx) = data::split(all.len(), args.val_frac, &mut rng);
    let train_raw = all.subset(&train_idx);
    let norm = data::normalisation(&problem, &train_raw);
    let train = NormalisedSet::new(&train_raw, &norm);
    let val = NormalisedSet::new(&all.subset(&val_idx), &norm);

    let plain = model::cpu_device();
    let device = plain.clone().autodiff();
    let mut net = LoinkNet::new(&arch, &mut rng, &device);
    let mut optim = optimiser::adam();
    let steps_per_epoch = train.len().div_ceil(args.batch);
    let schedule = schedule::OneCycle::new(args.lr, args.epochs * steps_per_epoch);
    let progress = progress::Progress::new(args.epochs, steps_per_epoch);

    let mut order: Vec<usize> = (0..train.len()).collect();
    let mut best = (f64::INFINITY, net.valid(), 0usize);
    let mut first_loss = f64::NAN;
    let mut last_loss = f64::NAN;
    let mut epochs_run = 0;
    let mut step = 0;
    let surface_start = (args.epochs as f64 * args.surface_from).round() as usize;
    let mut surface_rows = (0usize, f64::NAN);
    for epoch in 0..args.epochs {
        order.shuffle(&mut rng);
        let mut epoch_set = std::borrow::Cow::Borrowed(&train);
        let surfaced = args.surface > 0 && epoch >= surface_start;
        if surfaced {
            let ctx = export::ExportContext {
                problem: &problem,
                arch: &arch,
                normalisation: &norm,
                metrics: Default::default(),
                seed: args.seed,
                about: &about,
            };
            let drawn = surface::draw(&net.valid(), ctx, args.surface, args.surface_pool, &mut rng)
                .map_err(|reason| TrainError::Surface {
                    epoch: epoch + 1,
                    reason,
                })?;
            progress.note(&format!(
                "epoch {:>3}: {} surface points of {} targets, unrefined residual median {:.2} mm",
                epoch + 1,
                drawn.samples.len(),
                drawn.targets,
                drawn.residual_median_m * 1e3
            ));
            surface_rows = (drawn.samples.len(), drawn.residual_median_m);
            epoch_set =
                std::borrow::Cow::Owned(surface::mix(&train, &drawn, &norm, &mut order, &mut rng));
        }
        let mut sum = 0.0;
        for (k, chunk) in order.chunks(args.batch).enumerate() {
            // Rows from `train.len()` on are this epoch's surface points (`surface::mix`); an
            // epoch without them needs no weights.
            let weight = if surfaced {
                args.surface_task_weight
            } else {
                1.0
            };
            let batch = Batch::gather_weighted(&epoch_set, chunk, &device, train.len(), weight);
            let terms = loss::loss(&net, &batch, weights);
            let value: f32 = terms.total.clone().into_scalar();
            if !value.is_finite() {
                progress.finish();
                return Err(TrainError::Diverged(f64::from(value), epoch + 1));
            }
            let mut grads = GradientsParams::from_grads(terms.total.backward(), &net);
            optimiser::clip_global_norm(&net, &mut grads, args.clip);
            net = optim.step(schedule.at(step), net, grads);
            step += 1;
            sum += f64::from(value);
            progress.step(sum / (k + 1) as f64);
        }
        let train_loss = sum / steps_per_epoch as f64;
        if epoch == 0 {
            first_loss = train_loss;
        }
        last_loss = train_loss;
        epochs_run = epoch + 1;
        if surfaced {
            // The next epoch starts from all uniform samples again (runs without `--surface`
            // keep their order stream, so the shipped files still reproduce byte for byte).
            order = (0..train.len()).collect();
        }
        let snapshot = net.valid();
        let val_set = loss::evaluate(&snapshot, &val, &plain, 8192);
        let val_loss = weights.total(&val_set);
        let improved = val_loss < best.0;
        progress.epoch(
            epoch,
            train_loss,
            val_set.task_mse,
            val_set.cost_mse,
            improved,
        );
        if improved {
            best = (val_loss, snapshot, epoch + 1);
        } else if epoch + 1 >= args.epochs / 2 && epoch + 1 - best.2 >= args.patience {
            // Only in the annealing half: at the one-cycle peak the validation loss is noisy and
            // a stop there keeps an unannealed model (measured: stopped at epoch 35 of 80, 9 mm RMSE).
            break;
        }
    }
    progress.finish();
    let seconds = start.elapsed().as_secs_f64();
    let net = best.1;

    let train_set = loss::evaluate(&net, &train, &plain, 8192);
    let val_set = loss::evaluate(&net, &val, &plain, 8192);
    let (tt, tc) = (train_set.task_mse, train_set.cost_mse);
    let (vt, vc) = (val_set.task_mse, val_set.cost_mse);
    let mut rows = vec![
        Row::new(
            "task_rmse_m",
            vt.sqrt() * norm.y_scale[0],
            "m, validation, ‖G₁(x) − y‖",
        ),
        Row::new(
            "train_task_rmse_m",
            tt.sqrt() * norm.y_scale[0],
            "m, training set",
        ),
        Row::new(
            "cost_rmse",
            vc.sqrt() * norm.cost_scale,
            "cost units, validation, ĉ vs J",
        ),
        Row::new(
            "train_cost_rmse",
            tc.sqrt() * norm.cost_scale,
            "cost units, training set",
        ),
        Row::new("first_loss", first_loss, "mean training loss, epoch 1"),
        Row::new("last_loss", last_loss, "mean training loss, last epoch"),
        Row::new("best_val_loss", best.0, "normalised, weighted"),
        Row::new("best_epoch", best.2 as f64, "epoch of the kept weights"),
        Row::new("epochs", epochs_run as f64, "epochs run (early stopping)"),
        Row::new("samples", args.samples as f64, "configurations drawn"),
    ];
    if args.surface > 0 {
        rows.extend([
            Row::new(
                "surface_points",
                surface_rows.0 as f64,
                "optimal-surface points in the last epoch",
            ),
            Row::new(
                "surface_residual_m",
                surface_rows.1,
                "m, their median unrefined residual",
            ),
        ]);
    }
    let export = |rows: &[Row]| {
        export::model_file(
            &net,
            export::ExportContext {
                problem: &problem,
                arch: &arch,
                normalisation: &norm,
                metrics: summary::metrics(rows),
                seed: args.seed,
                about: &about,
            },
        )
    };
    let mut file = export(&rows);
    if args.check_targets > 0 {
        // A separate stream, so the check's targets never overlap the training data's draws.
        let check_seed = args.seed ^ 0x005e_ed0f_c4ec;
        match optimality::check(
            &export::to_json(&file),
            args.check_targets,
            args.check_refine,
            check_seed,
        ) {
            Ok(o) => {
                rows.extend(o.rows());
                file = export(&rows);
            }
            Err(e) => println!("optimality check skipped: the engine rejected the model: {e}"),
        }
    }
    summary::print_table(&format!("loink train {} — summary", args.robot), &rows);
    println!(
        "train_seconds {seconds:.1} (wall time; not stored in the file, so it stays reproducible)"
    );

    let json = export::to_json(&file);
    std::fs::write(&args.out, &json).map_err(|source| TrainError::Io {
        path: args.out.clone(),
        source,
    })?;
    println!("wrote {} ({} bytes)", args.out.display(), json.len());
    Ok(Trained { net, file, seconds })
}
