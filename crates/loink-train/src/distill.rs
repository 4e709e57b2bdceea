//! `loink distill --model IN --out OUT`: fits the section head σ(ỹ) ≈ G⁻¹([ỹ; 0]) of a model
//! file ([`loink::nn::section`]) and writes the file with it, G and the cost heads unchanged.
//!
//! Data: targets y = f(q) of configurations drawn uniformly in the joint box (inside the
//! kind's useful domain, as `loink targets` draws them), each paired with its exact section
//! point x̃* = G⁻¹([ỹ; 0]) by the inference crate's own inverse. A ReLU network is fitted to
//! the pairs by mean squared error (burn, the epoch loop every trainer shares), and exported.
//!
//! Measured on held-out targets and printed (and stored in the file's metrics): the head's
//! RMSE in normalised joint units, and the mean Newton iterations and median time of the cold
//! inverse from y (no head) and from σ(ỹ). The inverse's answer does not depend on the head
//! beyond its stopping tolerance: the head only chooses where Newton starts.

use std::path::PathBuf;
use std::time::Instant;

use burn::tensor::activation::relu;
use burn::tensor::{Device, Tensor};
use clap::Args;
use loink::artifact::{load_model, MlpWeights, ModelFile};
use loink::nn::section::SECTION_ACTIVATION;
use loink::nn::InverseOptions;
use loink::stats::quantile;
use loink::surrogate::Loink;
use loink_train::fit::{self, Workload};
use loink_train::train::data::{self, Sampler};
use loink_train::train::progress::Progress;
use loink_train::train::summary::{self, Row};
use loink_train::train::{export, model, TrainError};
use loink_train::train_baseline::net::{new_mlp, Tensors};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;

use crate::cli::CliError;

/// Held-out targets the head is measured on.
const CHECK_TARGETS: usize = 2_000;
/// The head's hidden widths by default.
pub const DEFAULT_HIDDEN: [usize; 3] = [64, 64, 64];
/// Targets drawn by default.
pub const DEFAULT_SAMPLES: usize = 400_000;
/// Epochs by default.
pub const DEFAULT_EPOCHS: usize = 120;

/// Arguments of `loink distill`.
#[derive(Debug, Clone, Args)]
pub struct DistillArgs {
    /// The model file (kind `loink`) whose section is fitted.
    #[arg(long)]
    pub model: PathBuf,
    /// Where to write the file with its section head (may be the input).
    #[arg(long)]
    pub out: PathBuf,
    /// Hidden widths of the ReLU head, comma-separated.
    #[arg(long, value_delimiter = ',', default_value = "64,64,64")]
    pub hidden: Vec<usize>,
    /// Targets drawn for the fit.
    #[arg(long, default_value_t = DEFAULT_SAMPLES)]
    pub samples: usize,
    /// Epochs at most.
    #[arg(long, default_value_t = DEFAULT_EPOCHS)]
    pub epochs: usize,
    /// Rows per batch.
    #[arg(long, default_value_t = 256)]
    pub batch: usize,
    /// Peak learning rate of the one-cycle schedule.
    #[arg(long, default_value_t = 0.003)]
    pub lr: f64,
    /// Epochs without a new best before an early stop (in the schedule's second half).
    #[arg(long, default_value_t = 10)]
    pub patience: usize,
    /// Seed of the targets, the split and the initialisation (ChaCha8).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

impl DistillArgs {
    /// The flags' defaults for `model` → `out` (a recipe's run overrides what it names).
    pub fn defaults() -> Self {
        Self {
            model: PathBuf::new(),
            out: PathBuf::new(),
            hidden: DEFAULT_HIDDEN.to_vec(),
            samples: DEFAULT_SAMPLES,
            epochs: DEFAULT_EPOCHS,
            batch: 256,
            lr: 0.003,
            patience: 10,
            seed: 1,
        }
    }
}

fn check(args: &DistillArgs) -> Result<(), CliError> {
    let bad = |m: &str| Err(CliError::Input(m.to_string()));
    if args.hidden.is_empty()
        || args.hidden.len() > loink::nn::section::MAX_SECTION_LAYERS
        || args.hidden.iter().any(|&h| h == 0 || h > 1024)
    {
        return bad("--hidden: 1 to 4 widths, each in 1..=1024");
    }
    if args.samples < 100 || args.samples > 5_000_000 {
        return bad("--samples must be in 100..=5000000");
    }
    if args.batch == 0 || args.epochs == 0 {
        return bad("--batch and --epochs must be at least 1");
    }
    if !(args.lr > 0.0 && args.lr.is_finite()) {
        return bad("--lr must be positive and finite");
    }
    Ok(())
}

/// The exact section points x̃* = G⁻¹([ỹ; 0]) of normalised targets (row-major, m per row),
/// as f32 rows of ỹ and x̃* for burn.
fn section_points(solver: &Loink, y_tilde: &[f64]) -> Result<(Vec<f32>, Vec<f32>), CliError> {
    let (m, n) = (solver.task_dim(), solver.model().net().dim());
    let net = solver.model().net();
    let options = InverseOptions::default();
    let rows: Vec<Vec<f64>> = y_tilde
        .par_chunks(m)
        .map(|y| {
            let mut target = y.to_vec();
            target.resize(n, 0.0);
            net.inverse(&target, &options).map(|inverse| inverse.x)
        })
        .collect::<loink::error::Result<_>>()
        .map_err(|e| CliError::Input(format!("the model's inverse failed: {e}")))?;
    let ys = y_tilde.iter().map(|&v| v as f32).collect();
    let xs = rows.iter().flatten().map(|&v| v as f32).collect();
    Ok((ys, xs))
}

/// The ReLU network on a batch (B × m → B × n).
fn forward(net: &model::Mlp, mut x: Tensor<2>) -> Tensor<2> {
    let last = net.layers.len() - 1;
    for (i, layer) in net.layers.iter().enumerate() {
        x = x.matmul(layer.w.val().transpose()) + layer.b.val().unsqueeze::<2>();
        if i < last {
            x = relu(x);
        }
    }
    x
}

fn mse(net: &model::Mlp, batch: &Tensors) -> Tensor<1> {
    (forward(net, batch.y.clone()) - batch.x.clone())
        .square()
        .sum_dim(1)
        .mean()
}

/// The head's part of the epoch loop: squared error to the exact section points.
struct SectionWorkload {
    dims: [usize; 2],
    train: (Vec<f32>, Vec<f32>),
    val: Tensors,
    device: Device,
}

impl Workload<model::Mlp> for SectionWorkload {
    fn batch_loss(&mut self, net: &model::Mlp, chunk: &[usize], _: &mut ChaCha8Rng) -> Tensor<1> {
        let batch = Tensors::gather(&self.train.0, &self.train.1, self.dims, chunk, &self.device);
        mse(net, &batch)
    }
    fn validate(&mut self, snapshot: &model::Mlp) -> f64 {
        let loss: f32 = mse(snapshot, &self.val).into_scalar();
        f64::from(loss)
    }
    fn report(&self, progress: &Progress, epoch: usize, train_loss: f64, val: f64, best: bool) {
        progress.epoch(epoch, train_loss, val, 0.0, best);
    }
}

/// Cold inverses of `targets` (raw units): mean Newton iterations and median µs.
fn cold_inverses(solver: &Loink, targets: &[Vec<f64>]) -> (f64, f64) {
    let (mut iterations, mut micros) = (0usize, Vec::with_capacity(targets.len()));
    for y in targets {
        let mut state = solver.new_state();
        let start = Instant::now();
        let preimage = solver.preimage(&mut state, y, &vec![0.0; solver.latent_dim()]);
        micros.push(start.elapsed().as_secs_f64() * 1e6);
        if let Ok((_, report)) = preimage {
            iterations += report.iterations;
        }
    }
    (
        iterations as f64 / targets.len().max(1) as f64,
        quantile(&micros, 0.5),
    )
}

/// The fitted head's weights as the file stores them: the section activation, six significant
/// digits (the head only proposes a start: the page's model files' own precision costs it
/// nothing measurable and keeps the download small).
fn head_weights(head: &model::Mlp) -> MlpWeights {
    let mut weights = export::mlp_weights(head);
    weights.activation = SECTION_ACTIVATION.into();
    for layer in &mut weights.layers {
        for v in layer.w.iter_mut().flatten().chain(layer.b.iter_mut()) {
            *v = export::round_to_digits(*v, 6);
        }
    }
    weights
}

/// The RMS distance (normalised joints) between the head's guess σ(ỹ) and the exact section
/// point G⁻¹([ỹ; 0]) over `targets`.
fn head_rmse(headed: &Loink, targets: &[Vec<f64>]) -> f64 {
    let Some(head) = headed.model().section_head() else {
        return f64::NAN;
    };
    let norm = &headed.model().file().normalisation;
    let (m, n) = (headed.task_dim(), headed.model().net().dim());
    let mut squared = 0.0;
    for y in targets {
        let yt: Vec<f64> = (0..m)
            .map(|i| (y[i] - norm.y_shift[i]) / norm.y_scale[i])
            .collect();
        let mut target = yt.clone();
        target.resize(n, 0.0);
        if let (Ok(guess), Ok(exact)) = (
            head.predict(&yt),
            headed
                .model()
                .net()
                .inverse(&target, &InverseOptions::default()),
        ) {
            squared += guess
                .iter()
                .zip(&exact.x)
                .map(|(a, b)| (a - b).powi(2))
                .sum::<f64>();
        }
    }
    (squared / (targets.len() * n) as f64).sqrt()
}

/// The file's command with this distillation as its last step (replacing an earlier one).
fn chained_command(command: &str, args: &DistillArgs) -> String {
    let hidden: Vec<String> = args.hidden.iter().map(usize::to_string).collect();
    let step = format!(
        "loink distill --model {out} --out {out} --hidden {} --samples {} --epochs {} --seed {}",
        hidden.join(","),
        args.samples,
        args.epochs,
        args.seed,
        out = args.out.display()
    );
    let command = command.trim();
    match command.find(" && loink distill ") {
        Some(at) => format!("{} && {step}", &command[..at]),
        None if command.is_empty() => step,
        None => format!("{command} && {step}"),
    }
}

/// Runs `loink distill`.
pub fn run(args: &DistillArgs) -> Result<(), CliError> {
    check(args)?;
    let start = Instant::now();
    let text = std::fs::read_to_string(&args.model).map_err(|e| {
        CliError::Input(format!(
            "cannot read model file {}: {e}",
            args.model.display()
        ))
    })?;
    let model = load_model(&text)
        .map_err(|e| CliError::Input(format!("model file {}: {e}", args.model.display())))?;
    let mut file: ModelFile = model.file().clone();
    file.section_head = None;
    let plain = Loink::from_file(file.clone())
        .map_err(|e| CliError::Input(format!("model file {}: {e}", args.model.display())))?;
    let problem = plain.problem().clone();
    let (m, n) = (plain.task_dim(), plain.model().net().dim());
    let norm = file.normalisation.clone();

    let mut rng = ChaCha8Rng::seed_from_u64(args.seed);
    let drawn = data::sample(
        &problem,
        Sampler::Uniform,
        args.samples + CHECK_TARGETS,
        &mut rng,
    );
    let targets: Vec<Vec<f64>> = drawn.y.chunks(m).map(<[f64]>::to_vec).collect();
    let (fit_targets, check_targets) = targets.split_at(targets.len() - CHECK_TARGETS);
    let y_tilde: Vec<f64> = fit_targets
        .iter()
        .flat_map(|y| (0..m).map(|i| (y[i] - norm.y_shift[i]) / norm.y_scale[i]))
        .collect();
    println!(
        "loink distill: {} section points of {} (G⁻¹ of each target at z = 0)",
        fit_targets.len(),
        args.model.display()
    );
    let (ys, xs) = section_points(&plain, &y_tilde)?;
    let rows = fit_targets.len();
    let (train_idx, val_idx) = data::split(rows, 0.1, &mut rng);
    let pick = |idx: &[usize], v: &[f32], w: usize| -> Vec<f32> {
        idx.iter()
            .flat_map(|&i| v[w * i..w * (i + 1)].iter().copied())
            .collect()
    };
    let train = (pick(&train_idx, &ys, m), pick(&train_idx, &xs, n));
    let device_plain = model::cpu_device();
    let device = device_plain.clone().autodiff();
    let all_val: Vec<usize> = (0..val_idx.len()).collect();
    let val = Tensors::gather(
        &pick(&val_idx, &ys, m),
        &pick(&val_idx, &xs, n),
        [m, n],
        &all_val,
        &device_plain,
    );
    let network = new_mlp(&mut rng, m, &args.hidden, n, &device);
    let mut workload = SectionWorkload {
        dims: [m, n],
        train,
        val,
        device,
    };
    let settings = fit::Settings {
        epochs: args.epochs,
        batch: args.batch,
        lr: args.lr,
        clip: 10.0,
        patience: args.patience,
        chart: None,
    };
    let fitted =
        fit::fit(network, train_idx.len(), settings, &mut workload, &mut rng).map_err(|e| {
            CliError::from(TrainError::Argument(format!("the section head's fit: {e}")))
        })?;

    let weights = head_weights(&fitted.best);
    file.section_head = Some(weights);
    let headed = Loink::from_file(file.clone())
        .map_err(|e| CliError::Internal(format!("the distilled file does not load: {e}")))?;
    let (cold_iterations, cold_us) = cold_inverses(&plain, check_targets);
    let (head_iterations, head_us) = cold_inverses(&headed, check_targets);
    let rmse = head_rmse(&headed, check_targets);
    let rows = [
        Row::new("section_rmse", rmse, "normalised joints, held-out targets"),
        Row::new(
            "section_cold_iterations",
            cold_iterations,
            "Newton steps of a cold inverse from y (mean)",
        ),
        Row::new(
            "section_head_iterations",
            head_iterations,
            "Newton steps of a cold inverse from σ(ỹ) (mean)",
        ),
        Row::new(
            "section_cold_us",
            cold_us,
            "µs, cold inverse from y (median)",
        ),
        Row::new(
            "section_head_us",
            head_us,
            "µs, cold inverse from σ(ỹ) (median)",
        ),
        Row::new("section_best_epoch", fitted.best_epoch as f64, "epoch kept"),
    ];
    summary::print_closing(
        &format!("loink distill {} — summary", problem.name()),
        &rows,
        start.elapsed().as_secs_f64(),
    );
    // Timings vary by machine: the file keeps the machine-free figures only.
    for row in rows.iter().filter(|r| !r.name.ends_with("_us")) {
        file.metrics.insert(row.name.into(), row.value);
    }
    file.about.command = chained_command(&file.about.command, args);
    std::fs::write(&args.out, export::to_json(&file))
        .map_err(|e| CliError::Input(format!("cannot write {}: {e}", args.out.display())))?;
    println!("wrote {}", args.out.display());
    Ok(())
}
