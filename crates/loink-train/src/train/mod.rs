//! `loink train`: fits a LOInK model (BiLipNet G plus surrogate-cost heads) with burn and writes
//! the model artifact.
//!
//! - [`args`]: the flags ([`TrainArgs`]), the problem and architecture they describe.
//! - [`charts`]: `--charts`, a multi-chart model: one network per region of the box.
//! - [`data`]: configurations in the limits (or a chart's region), labelled by FK and cost;
//!   normalisation; split.
//! - [`cayley`]: the Cayley transform, differentiable (burn) and in f64 (export).
//! - [`model`]: the network on free parameters.
//! - [`loss`]: the weighted task + cost loss.
//! - [`schedule`]: one-cycle learning rate.
//! - [`optimiser`]: global gradient-norm clipping and Adam.
//! - [`progress`], [`summary`]: the progress bar and the closing table.
//! - [`export`]: the artifact.
//! - [`surface`]: optimal-surface resampling (`--surface`): data where the solver reads G.
//! - [`data_surface`]: its model-free counterpart (`--data-surface`): the data rows nearest z = 0
//!   weighted again.
//!
//! Determinism: data, split, initialisation and batch order all come from one ChaCha8 stream
//! seeded by `--seed`; burn's ndarray backend is deterministic on one machine, and the file holds
//! no wall-clock time (it is printed on stdout only), so the same command gives the same bytes.

pub mod args;
pub mod cayley;
pub mod charts;
pub mod data;
pub mod data_file;
pub mod data_surface;
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
use loink::problem::{JointLimits, Problem};
use rand::seq::SliceRandom;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

pub use args::{ModelKind, TrainArgs, Widths};
use data::NormalisedSet;
pub use loss::TaskLoss;
use loss::{Batch, LossWeights};
use model::LoinkNet;
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

/// What a training run produced.
pub struct Trained {
    /// The best network (validation loss), on the plain CPU device.
    pub net: LoinkNet,
    /// The artifact written.
    pub file: loink::artifact::ModelFile,
    /// Wall time of the training loop (seconds; printed, not stored).
    pub seconds: f64,
}

/// Runs `loink train` (one LOInK network; `--charts` runs [`charts::run`]).
pub fn run(args: &TrainArgs) -> Result<Trained, TrainError> {
    let (problem, rows) = match &args.data {
        Some(path) => {
            let (problem, rows) = data_file::source(args, path)?;
            (problem, Some(rows))
        }
        None => (args.problem()?, None),
    };
    let trained = fit(args, &problem, problem.limits(), None, rows.as_ref())?;
    let json = export::to_json(&trained.file);
    std::fs::write(&args.out, &json).map_err(|source| TrainError::Io {
        path: args.out.clone(),
        source,
    })?;
    println!("wrote {} ({} bytes)", args.out.display(), json.len());
    Ok(trained)
}

/// Trains one network on configurations drawn from `region` (the joint limits, or one chart's
/// sub-box of them) for the whole `problem` — or on `rows` from a data file, when given;
/// `chart` = (index, count) names the chart in the progress lines and the summary. Nothing is
/// written.
pub fn fit(
    args: &TrainArgs,
    problem: &Problem,
    region: &JointLimits,
    chart: Option<(usize, usize)>,
    rows: Option<&data::Samples>,
) -> Result<Trained, TrainError> {
    let start = Instant::now();
    let problem = problem.clone();
    let arch = args.architecture(&problem)?;
    let about = args.about();
    let weights = LossWeights {
        task: args.task_weight,
        cost: args.cost_weight,
        task_loss: args.task_loss,
    };

    let mut rng = ChaCha8Rng::seed_from_u64(args.seed);
    let all = match rows {
        Some(rows) => rows.clone(),
        None => data::sample_in(&problem, region, args.sampler, args.samples, &mut rng),
    };
    let (train_idx, val_idx) = data::split(all.len(), args.val_frac, &mut rng);
    let train_raw = all.subset(&train_idx);
    let norm = data::normalisation_in(region, &train_raw);
    let train = NormalisedSet::new(&train_raw, &norm);
    let val = NormalisedSet::new(&all.subset(&val_idx), &norm);

    let plain = model::cpu_device();
    let device = plain.clone().autodiff();
    let mut net = LoinkNet::new(&arch, &mut rng, &device);
    let mut optim = optimiser::adam();
    let steps_per_epoch = train.len().div_ceil(args.batch);
    let schedule = schedule::OneCycle::new(args.lr, args.epochs * steps_per_epoch);
    let progress = progress::Progress::new(args.epochs, steps_per_epoch, chart);

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
            let drawn = surface::draw(
                &net.valid(),
                ctx,
                region,
                args.surface,
                args.surface_pool,
                &mut rng,
            )
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
        let near_surface = args.data_surface > 0 && epoch >= surface_start;
        if near_surface {
            let picked = data_surface::nearest_rows(&net.valid(), &train, args.data_surface);
            let near = data_surface::rows(&train, &picked);
            epoch_set =
                std::borrow::Cow::Owned(surface::mix_rows(&train, &near, &mut order, &mut rng));
        }
        let surfaced = surfaced || near_surface;
        let mut sum = 0.0;
        for (k, chunk) in order.chunks(args.batch).enumerate() {
            // Rows from `train.len()` on are this epoch's surface points (`surface::mix`,
            // `data_surface::mix`); an epoch without them needs no weights.
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
        Row::new(
            "samples",
            all.len() as f64,
            "configurations drawn (or data rows read)",
        ),
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
    if args.check_targets > 0 && !problem.replayable() {
        println!("optimality check skipped: a data-only model has nothing to replay its answers");
    } else if args.check_targets > 0 {
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
    let title = match chart {
        Some((k, count)) => format!("loink train {} — chart {}/{count}", problem.name(), k + 1),
        None => format!("loink train {} — summary", problem.name()),
    };
    summary::print_table(&title, &rows);
    println!(
        "train_seconds {seconds:.1} (wall time; not stored in the file, so it stays reproducible)"
    );
    Ok(Trained { net, file, seconds })
}
