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
//! - [`schedule`]: one-cycle learning rate, and [`optimiser`]: global gradient-norm clipping
//!   and Adam (both run by [`crate::fit`], the epoch loop every trainer shares).
//! - [`progress`], [`summary`]: the progress bar and the closing table.
//! - [`export`]: the artifact.
//! - [`workload`]: LOInK's part of the one epoch loop ([`crate::fit`]).
//! - [`surface`]: optimal-surface resampling (`--surface`): data where the solver reads G.
//! - [`data_surface`]: its model-free counterpart (`--data-surface`): the data rows nearest z = 0
//!   weighted again.
//! - [`optima`]: anchors at the reference optimum (`--optima`), pinned to the latent origin.
//!
//! Determinism: data, split, initialisation and batch order all come from one ChaCha8 stream
//! seeded by `--seed`; burn's ndarray backend is deterministic on one machine, and the file holds
//! no wall-clock time (it is printed on stdout only), so the same command gives the same bytes.

pub mod args;
// The network, its loss, optimiser, data and export live in loink-fit (shared with the page's
// in-browser trainer); re-exported here under their old paths.
pub use loink_fit::{cayley, data, export, loss, model, optimiser, schedule};
pub mod charts;
pub mod data_file;
pub mod data_surface;
pub mod error;
pub mod optima;
pub mod optimality;
pub mod progress;
pub mod regions;
pub mod summary;
pub mod surface;
pub mod tube;
pub mod workload;

use std::time::Instant;

use loink::problem::{JointLimits, Problem};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

pub use args::{ModelKind, TrainArgs, Widths};
use data::NormalisedSet;
pub use error::TrainError;
use loss::LossWeights;
pub use loss::TaskLoss;
use model::LoinkNet;
use summary::Row;
use workload::LoinkWorkload;

use crate::fit;

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
    if rows.is_some() && (args.region_lower.is_some() || args.region_upper.is_some()) {
        return Err(TrainError::Argument(
            "--region-lower/--region-upper narrow where configurations are drawn: a data file's rows are given".into(),
        ));
    }
    let region = args.region(&problem)?;
    let trained = fit(args, &problem, &region, None, rows.as_ref())?;
    let json = export::to_json(&trained.file);
    summary::write_file(args.out(), &json)?;
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
    let anchors_raw = match args.optima {
        0 => None,
        count => Some(optima::draw(&problem, region, count, args.seed)?),
    };
    let all = draw_rows(args, &problem, region, rows, anchors_raw.as_ref(), &mut rng)?;
    let (train_idx, val_idx) = data::split(all.len(), args.val_frac, &mut rng);
    let train_raw = all.subset(&train_idx);
    let norm = data::normalisation_in(region, &problem.task().scales(), &train_raw);
    let train = NormalisedSet::new(&train_raw, &norm);
    let val = NormalisedSet::new(&all.subset(&val_idx), &norm);

    let anchors = anchors_raw.map(|a| NormalisedSet::new(&a, &norm));
    let plain = model::cpu_device();
    let device = plain.clone().autodiff();
    let net = LoinkNet::new(&arch, &mut rng, &device);
    let mut workload = LoinkWorkload {
        args,
        problem: &problem,
        region,
        arch: &arch,
        norm: &norm,
        about: &about,
        train,
        val,
        device,
        plain: plain.clone(),
        weights,
        surface_start: (args.epochs as f64 * args.surface_from).round() as usize,
        epoch_set: None,
        surface_rows: (0, f64::NAN),
        last_val: (f64::NAN, f64::NAN),
        anchors,
    };
    let fitted = fit::fit(
        net,
        workload.train.len(),
        fit::Settings {
            chart,
            ..args.fit_settings()
        },
        &mut workload,
        &mut rng,
    )?;
    let seconds = start.elapsed().as_secs_f64();
    let mut rows = figure_rows(args, &fitted, &workload, &plain, all.len());
    let net = fitted.best;
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
    let file = checked_file(args, &problem, &mut rows, export);
    let title = match chart {
        Some((k, count)) => format!("loink train {} — chart {}/{count}", problem.name(), k + 1),
        None => format!("loink train {} — summary", problem.name()),
    };
    summary::print_closing(&title, &rows, seconds);
    Ok(Trained { net, file, seconds })
}

/// Every configuration the run trains and validates on: a data file's `rows`, or draws from
/// `region` (with --tube, a share of them near the `anchors`).
fn draw_rows(
    args: &TrainArgs,
    problem: &Problem,
    region: &JointLimits,
    rows: Option<&data::Samples>,
    anchors: Option<&data::Samples>,
    rng: &mut ChaCha8Rng,
) -> Result<data::Samples, TrainError> {
    Ok(match (rows, args.tube) {
        (Some(rows), _) => rows.clone(),
        (None, None) => data::sample_in(problem, region, args.sampler, args.samples, rng),
        (None, Some(sigma)) => {
            let near = (args.samples as f64 * args.tube_share.clamp(0.0, 1.0)).round() as usize;
            let mut all = data::sample_in(problem, region, args.sampler, args.samples - near, rng);
            let anchors = anchors.ok_or_else(|| {
                TrainError::Argument("--tube draws around the anchors: give --optima N".into())
            })?;
            all.append(tube::around(problem, region, anchors, sigma, near, rng)?);
            all
        }
    })
}

/// The run's figures: the fit on both sets, the losses, the configurations drawn, the best
/// epoch and, with --surface, the optimal surface's last epoch.
fn figure_rows(
    args: &TrainArgs,
    fitted: &fit::Fitted<LoinkNet>,
    workload: &LoinkWorkload,
    plain: &burn::tensor::Device,
    samples: usize,
) -> Vec<Row> {
    let norm = workload.norm;
    let train_set = loss::evaluate(&fitted.best, &workload.train, plain, 8192);
    let val_set = loss::evaluate(&fitted.best, &workload.val, plain, 8192);
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
        Row::new(
            "first_loss",
            fitted.first_loss,
            "mean training loss, epoch 1",
        ),
        Row::new(
            "last_loss",
            fitted.last_loss,
            "mean training loss, last epoch",
        ),
        Row::new("best_val_loss", fitted.best_val, "normalised, weighted"),
        Row::new(
            "samples",
            samples as f64,
            "configurations drawn (or data rows read)",
        ),
    ];
    rows.extend(fitted.epoch_rows());
    if args.surface > 0 {
        rows.extend([
            Row::new(
                "surface_points",
                workload.surface_rows.0 as f64,
                "optimal-surface points in the last epoch",
            ),
            Row::new(
                "surface_residual_m",
                workload.surface_rows.1,
                "m, their median unrefined residual",
            ),
        ]);
    }
    rows
}

/// The model file `export` writes with `rows` as its metrics; with --check-targets, the
/// inference crate's optimality check first, its figures added to `rows`.
fn checked_file(
    args: &TrainArgs,
    problem: &Problem,
    rows: &mut Vec<Row>,
    export: impl Fn(&[Row]) -> loink::artifact::ModelFile,
) -> loink::artifact::ModelFile {
    let file = export(rows);
    if args.check_targets > 0 && !problem.replayable() {
        println!("optimality check skipped: a data-only model has nothing to replay its answers");
        return file;
    }
    if args.check_targets == 0 {
        return file;
    }
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
            export(rows)
        }
        Err(e) => {
            println!("optimality check skipped: the inference crate rejected the model: {e}");
            file
        }
    }
}
