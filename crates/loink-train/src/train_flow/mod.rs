//! `loink train --kind flow`: the IKFlow-style baseline, a conditional normalising flow for x
//! given y (`loink::flow`), trained by maximum likelihood with burn on the same rows as LOInK —
//! a data file (`--data`) or uniform draws of a preset — and written as a model file of kind
//! `flow`.
//!
//! - `--depth B` coupling blocks, each with a seeded random permutation; `--hidden` the
//!   conditioners' widths; `--noise ε` Gaussian noise added to x̃ in every batch (IKFlow's
//!   regulariser: the rows lie on a thin set only where the data are exact);
//! - the epoch loop LOInK runs ([`crate::fit`]: Adam, the one-cycle schedule, global clipping,
//!   its one stopping rule) on the held-out negative log-likelihood, the best epoch kept;
//! - the reported `heldout_nll` is measured after export, through the inference the page and
//!   `loink eval` run, on every held-out row (nats per row, normalised units: comparable between
//!   flows of one data file, not across normalisations).

mod net;

use std::time::Instant;

use burn::tensor::{Tensor, TensorData};
use loink::artifact::ModelKind;
use loink::artifact::{FORMAT_NAME, FORMAT_VERSION};
use loink::flow::{BlockWeights, Flow, FlowFile, FlowSolver};
use loink::stats::quantile;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rand_distr::{Distribution, Normal};

use crate::fit::{self, Fitted, Workload};
use crate::train::progress::Progress;
use crate::train::summary::{self, Row};
use crate::train::{data, data_file, export, model};
use crate::train::{TrainArgs, TrainError};
use net::{FlowNet, Layout};

/// Soft clamp c of the log-scales (exp(s) within e^{±2}).
pub const CLAMP: f64 = 2.0;
/// Held-out rows replayed for the closing accuracy figures.
pub const CHECK_ROWS: usize = 2_000;

/// What `loink train --kind flow` produced.
pub struct TrainedFlow {
    /// The file written.
    pub file: FlowFile,
    /// Wall time of the training loop (seconds; printed, not stored).
    pub seconds: f64,
}

fn check(args: &TrainArgs) -> Result<(), TrainError> {
    let bad = |m: &str| Err(TrainError::Argument(m.to_string()));
    if args.depth == 0 || args.depth > loink::flow::MAX_BLOCKS {
        return bad("depth (coupling blocks) must be in 1..=32");
    }
    if args.hidden.is_empty() || args.hidden.iter().any(|&h| h == 0 || h > 1024) {
        return bad("hidden widths must be in 1..=1024");
    }
    if args.batch == 0 || args.epochs == 0 {
        return bad("need batch >= 1, epochs >= 1");
    }
    if !(args.val_frac > 0.0 && args.val_frac < 0.9) {
        return bad("val-frac must be in (0, 0.9)");
    }
    if !(args.lr > 0.0 && args.lr.is_finite() && args.clip > 0.0) {
        return bad("lr and clip must be positive");
    }
    if !(args.noise.is_finite() && (0.0..=0.5).contains(&args.noise)) {
        return bad("noise must be in [0, 0.5]");
    }
    if !args.charts.is_empty() || args.surface > 0 {
        return bad("--charts and --surface are LOInK's: a flow trains on the rows as they are");
    }
    Ok(())
}

fn gather(
    values: &[f32],
    width: usize,
    indices: &[usize],
    device: &burn::tensor::Device,
) -> Tensor<2> {
    let mut out = Vec::with_capacity(width * indices.len());
    for &i in indices {
        out.extend_from_slice(&values[width * i..width * (i + 1)]);
    }
    Tensor::from_data(TensorData::new(out, [indices.len(), width]), device)
}

/// Runs `loink train --kind flow` and writes the flow file.
pub fn run(args: &TrainArgs) -> Result<TrainedFlow, TrainError> {
    check(args)?;
    let start = Instant::now();
    let mut rng = ChaCha8Rng::seed_from_u64(args.seed);
    let (problem, all) = match &args.data {
        Some(path) => data_file::source(args, path)?,
        None => {
            if args.samples < 10 {
                return Err(TrainError::Argument("need samples >= 10".into()));
            }
            let problem = args.problem()?;
            let rows = data::sample(&problem, args.sampler, args.samples, &mut rng);
            (problem, rows)
        }
    };
    let (n, m) = (problem.dof(), problem.task_dim());
    if n < 2 {
        return Err(TrainError::Argument(
            "a coupling flow needs at least 2 joints".into(),
        ));
    }
    let (train_idx, val_idx) = data::split(all.len(), args.val_frac, &mut rng);
    let train_rows = all.subset(&train_idx);
    let val_rows = all.subset(&val_idx);
    let norm = data::standardisation(&problem, &train_rows);
    let (train_y, train_x) = data::standardised(&train_rows, &norm);
    let (val_y, val_x) = data::standardised(&val_rows, &norm);

    let plain = model::cpu_device();
    let device = plain.clone().autodiff();
    let layout = Layout::new(n, m, args.depth, CLAMP, &mut rng);
    let flow = net::new_flow(&mut rng, &layout, &args.hidden, &device);
    let all_val: Vec<usize> = (0..val_rows.len()).collect();
    let mut workload = FlowWorkload {
        layout: &layout,
        dims: (n, m),
        train: (train_y, train_x),
        val: (
            gather(&val_x, n, &all_val, &plain),
            gather(&val_y, m, &all_val, &plain),
        ),
        noise: (args.noise > 0.0)
            .then(|| Normal::new(0.0, args.noise).expect("a finite, positive noise")),
        device,
        epochs: args.epochs,
    };
    let fitted = fit::fit(
        flow,
        train_rows.len(),
        args.fit_settings(),
        &mut workload,
        &mut rng,
    )?;
    let seconds = start.elapsed().as_secs_f64();

    let mut file = FlowFile {
        format: FORMAT_NAME.into(),
        version: FORMAT_VERSION,
        kind: ModelKind::Flow.word().into(),
        about: args.about(),
        problem: problem.spec(),
        cost: problem.cost().spec().clone(),
        normalisation: norm,
        clamp: CLAMP,
        blocks: layout
            .permutations
            .iter()
            .zip(&fitted.best.blocks)
            .map(|(p, b)| BlockWeights {
                permutation: p.clone(),
                net: export::mlp_weights(&b.net),
            })
            .collect(),
        metrics: Default::default(),
        data_seed: args.seed,
        git_revision: export::git_revision(),
    };
    let rows = closing_rows(&file, &val_rows, &fitted, all.len())?;
    summary::print_closing(
        &format!("loink train --kind flow {} — summary", problem.name()),
        &rows,
        seconds,
    );
    file.metrics = summary::metrics(&rows);
    let json = serde_json::to_string(&file).expect("a flow file always serialises");
    summary::write_file(args.out(), &json)?;
    Ok(TrainedFlow { file, seconds })
}

/// The closing figures, measured through `loink::flow` on the exported file: the held-out NLL
/// on every held-out row and, when the problem replays, the z = 0 sample's miss.
fn closing_rows(
    file: &FlowFile,
    val_rows: &data::Samples,
    fitted: &Fitted<FlowNet>,
    rows_read: usize,
) -> Result<Vec<Row>, TrainError> {
    let flow = Flow::new(file.clone())
        .map_err(|e| TrainError::Argument(format!("exported flow does not load: {e}")))?;
    let (n, m) = (val_rows.dof, val_rows.task_dim);
    let mut nll = Vec::with_capacity(val_rows.len());
    for (x, y) in val_rows.x.chunks(n).zip(val_rows.y.chunks(m)) {
        if let Ok(v) = flow.negative_log_likelihood(y, x) {
            nll.push(v);
        }
    }
    let heldout = nll.iter().sum::<f64>() / nll.len().max(1) as f64;
    let mut misses = Vec::new();
    if flow.problem().replayable() {
        let mut solver = FlowSolver::new(flow.clone(), 1, 0.0, 0)
            .map_err(|e| TrainError::Argument(e.to_string()))?;
        for y in val_rows.y.chunks(m).take(CHECK_ROWS) {
            misses.push(solver.solve(y).residual());
        }
    }
    let mut rows = vec![
        Row::new(
            "heldout_nll",
            heldout,
            "nats per held-out row (normalised units), through loink::flow",
        ),
        Row::new(
            "best_val_nll",
            fitted.best_val,
            "nats, burn (f32), the kept epoch",
        ),
        Row::new(
            "first_epoch_train_nll",
            fitted.first_loss,
            "nats, with input noise",
        ),
        Row::new(
            "last_epoch_train_nll",
            fitted.last_loss,
            "nats, with input noise",
        ),
        Row::new(
            "rows",
            rows_read as f64,
            "usable rows read (train + held out)",
        ),
        Row::new("blocks", flow.depth() as f64, "affine coupling blocks"),
        Row::new(
            "z0_miss_p50_m",
            quantile(&misses, 0.5),
            "m, held-out targets, the z = 0 sample",
        ),
        Row::new(
            "z0_miss_p95_m",
            quantile(&misses, 0.95),
            "m, held-out targets, the z = 0 sample",
        ),
    ];
    rows.extend(fitted.epoch_rows());
    Ok(rows)
}

/// The flow's part of the epoch loop: the negative log-likelihood of a batch (x̃ jittered by
/// `--noise`) and of the held-out rows.
struct FlowWorkload<'a> {
    layout: &'a Layout,
    /// (n, m).
    dims: (usize, usize),
    /// Normalised training rows (ỹ, x̃).
    train: (Vec<f32>, Vec<f32>),
    /// The held-out rows as tensors (x̃, ỹ) on the plain device.
    val: (Tensor<2>, Tensor<2>),
    /// IKFlow's input noise, when `--noise` > 0.
    noise: Option<Normal<f64>>,
    device: burn::tensor::Device,
    epochs: usize,
}

impl Workload<FlowNet> for FlowWorkload<'_> {
    fn batch_loss(&mut self, flow: &FlowNet, chunk: &[usize], rng: &mut ChaCha8Rng) -> Tensor<1> {
        let (n, m) = self.dims;
        let mut xs = Vec::with_capacity(n * chunk.len());
        for &i in chunk {
            for v in &self.train.1[n * i..n * (i + 1)] {
                let jitter = self.noise.map_or(0.0, |d| d.sample(rng) as f32);
                xs.push(v + jitter);
            }
        }
        let x = Tensor::from_data(TensorData::new(xs, [chunk.len(), n]), &self.device);
        let y = gather(&self.train.0, m, chunk, &self.device);
        flow.nll(self.layout, x, y)
    }

    fn validate(&mut self, snapshot: &FlowNet) -> f64 {
        let nll: f32 = snapshot
            .nll(self.layout, self.val.0.clone(), self.val.1.clone())
            .into_scalar();
        f64::from(nll)
    }

    fn report(&self, progress: &Progress, epoch: usize, train_loss: f64, val: f64, best: bool) {
        progress.note(&format!(
            "epoch {:>3}/{}  train nll {train_loss:.4}  held-out nll {val:.4}{}",
            epoch + 1,
            self.epochs,
            if best { "  *" } else { "" }
        ));
    }
}
