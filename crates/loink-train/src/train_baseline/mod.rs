//! `loink train --kind mse|mdn`: the direct-regression baselines of the averaging-trap lesson
//! (the averaging trap), trained with burn on the same data as LOInK and written as a
//! `loink-regressor` file ([`loink::regressor`]).
//!
//! Data: configurations drawn uniformly inside the joint limits ([`crate::train::data`]), so
//! on planar2 (limits ±π) every target appears with both its elbow-up and elbow-down
//! solution. The network maps ỹ to x̃ (x̃ = (x − mid-range)/half-width ∈ [−1, 1]):
//! - `mse`: loss mean ‖f(ỹ) − x̃‖², which by definition learns E[x | y] — the average of the
//!   two branches, generally not a solution at all;
//! - `mdn`: K Gaussian components; loss the negative log-likelihood
//!   −log Σ_k π_k N(x̃ | μ_k, diag σ_k²), so the model can put one component on each branch.
//!
//! The reported misses are measured after export, through the same inference code the
//! browser runs ([`loink::regressor::Regressor`]), on the held-out targets.

pub mod net;

use std::time::Instant;

use burn::tensor::{Device, Tensor};
use loink::regressor::{
    Regressor, RegressorFile, RegressorKind, REGRESSOR_FORMAT, REGRESSOR_VERSION,
};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::fit::{self, Workload};
use crate::train::progress::Progress;
use crate::train::summary::{self, Row};
use crate::train::{data, export, model, ModelKind, TrainArgs, TrainError};
use net::Tensors;

use loink::stats::quantile;

fn check(args: &TrainArgs) -> Result<(), TrainError> {
    let bad = |m: &str| Err(TrainError::Argument(m.to_string()));
    if args.hidden.is_empty() || args.hidden.iter().any(|&h| h == 0 || h > 1024) {
        return bad("hidden widths must be in 1..=1024");
    }
    if args.samples < 10 || args.batch == 0 || args.epochs == 0 {
        return bad("need samples >= 10, batch >= 1, epochs >= 1");
    }
    if !(args.val_frac > 0.0 && args.val_frac < 0.9) {
        return bad("val-frac must be in (0, 0.9)");
    }
    if !(args.lr > 0.0 && args.lr.is_finite() && args.clip > 0.0) {
        return bad("lr and clip must be positive");
    }
    if args.kind == ModelKind::Mdn
        && !(1..=loink::regressor::MAX_COMPONENTS).contains(&args.components)
    {
        return bad("components must be in 1..=32");
    }
    Ok(())
}

/// Runs `loink train --kind mse|mdn` and writes the regressor file.
pub fn run(args: &TrainArgs) -> Result<RegressorFile, TrainError> {
    check(args)?;
    let kind = match args.kind {
        ModelKind::Mse => RegressorKind::Mse,
        ModelKind::Mdn => RegressorKind::Mdn,
        ModelKind::Loink | ModelKind::Flow => {
            return Err(TrainError::Argument(
                "kinds loink and flow have their own trainers".into(),
            ))
        }
    };
    let components = if kind == RegressorKind::Mse {
        1
    } else {
        args.components
    };
    let start = Instant::now();
    let problem = args.problem()?;
    let (n, m) = (problem.dof(), problem.task_dim());

    let mut rng = ChaCha8Rng::seed_from_u64(args.seed);
    let all = data::sample(&problem, args.sampler, args.samples, &mut rng);
    let (train_idx, val_idx) = data::split(all.len(), args.val_frac, &mut rng);
    let train_raw = all.subset(&train_idx);
    let val_raw = all.subset(&val_idx);
    let norm = data::standardisation(&problem, &train_raw);
    let (train_y, train_x) = data::standardised(&train_raw, &norm);
    let (val_y, val_x) = data::standardised(&val_raw, &norm);

    let plain = model::cpu_device();
    let device = plain.clone().autodiff();
    let outputs = if kind == RegressorKind::Mse {
        n
    } else {
        components * (1 + 2 * n)
    };
    let network = net::new_mlp(&mut rng, m, &args.hidden, outputs, &device);
    let all_val: Vec<usize> = (0..val_raw.len()).collect();
    let mut workload = RegressionWorkload {
        kind,
        components,
        dims: [m, n],
        train: (train_y, train_x),
        val: Tensors::gather(&val_y, &val_x, [m, n], &all_val, &plain),
        device,
    };
    let fitted = fit::fit(
        network,
        train_raw.len(),
        args.fit_settings(),
        &mut workload,
        &mut rng,
    )?;
    let seconds = start.elapsed().as_secs_f64();

    let mut file = RegressorFile {
        format: REGRESSOR_FORMAT.into(),
        version: REGRESSOR_VERSION,
        kind,
        about: args.about(),
        problem: problem.spec(),
        cost: problem.cost().spec().clone(),
        components,
        normalisation: norm,
        network: export::mlp_weights(&fitted.best),
        metrics: Default::default(),
        data_seed: args.seed,
        git_revision: export::git_revision(),
    };
    // Misses through the inference crate's own code, on held-out targets.
    let regressor = Regressor::new(file.clone())
        .map_err(|e| TrainError::Argument(format!("exported file does not load: {e}")))?;
    let (mut answer, mut nearest) = (Vec::new(), Vec::new());
    for y in val_raw.y.chunks(problem.task_dim()).take(5000) {
        if let Ok(c) = regressor.predict(y) {
            answer.push(c[0].solution.residual());
            nearest.push(
                c.iter()
                    .map(|c| c.solution.residual())
                    .fold(f64::INFINITY, f64::min),
            );
        }
    }
    let mut rows = vec![
        Row {
            name: "best_val_loss",
            value: fitted.best_val,
            note: "normalised (mse: ‖x̃ − f‖²; mdn: NLL)",
        },
        Row {
            name: "samples",
            value: args.samples as f64,
            note: "configurations drawn",
        },
        Row {
            name: "components",
            value: components as f64,
            note: "mixture components K",
        },
        Row {
            name: "miss_p50_m",
            value: quantile(&answer, 0.5),
            note: "m, validation, ‖p(answer) − y‖",
        },
        Row {
            name: "miss_p95_m",
            value: quantile(&answer, 0.95),
            note: "m, validation, answer",
        },
        Row {
            name: "nearest_component_miss_p50_m",
            value: quantile(&nearest, 0.5),
            note: "m, validation, best of the K components",
        },
    ];
    rows.extend(fitted.epoch_rows());
    summary::print_closing(
        &format!(
            "loink train --kind {} {} — summary",
            kind.as_str(),
            problem.name()
        ),
        &rows,
        seconds,
    );
    file.metrics = summary::metrics(&rows);
    let json = serde_json::to_string(&file).expect("a regressor file always serialises");
    summary::write_file(args.out(), &json)?;
    Ok(file)
}

/// A regression baseline's part of the epoch loop: its loss (squared error, or the mixture's
/// negative log-likelihood) on a batch and on the held-out rows.
struct RegressionWorkload {
    kind: RegressorKind,
    components: usize,
    /// Task dimension m and joints n.
    dims: [usize; 2],
    /// Normalised training rows (ỹ, x̃).
    train: (Vec<f32>, Vec<f32>),
    /// The held-out rows, on the plain device.
    val: Tensors,
    device: Device,
}

impl RegressionWorkload {
    fn loss(&self, net: &model::Mlp, rows: &Tensors) -> Tensor<1> {
        match self.kind {
            RegressorKind::Mse => net::mse_loss(net, rows),
            RegressorKind::Mdn => net::mdn_loss(net, rows, self.components, self.dims[1]),
        }
    }
}

impl Workload<model::Mlp> for RegressionWorkload {
    fn batch_loss(
        &mut self,
        net: &model::Mlp,
        chunk: &[usize],
        _rng: &mut ChaCha8Rng,
    ) -> Tensor<1> {
        let batch = Tensors::gather(&self.train.0, &self.train.1, self.dims, chunk, &self.device);
        self.loss(net, &batch)
    }

    fn validate(&mut self, snapshot: &model::Mlp) -> f64 {
        let loss: f32 = self.loss(snapshot, &self.val).into_scalar();
        f64::from(loss)
    }

    fn report(&self, progress: &Progress, epoch: usize, train_loss: f64, val: f64, best: bool) {
        progress.epoch(epoch, train_loss, val, 0.0, best);
    }
}
