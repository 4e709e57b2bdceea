//! The one epoch loop every trainer runs — LOInK, its charts, the flow and the regression
//! baselines — so that the baselines LOInK is compared against are trained by the same rule.
//!
//! Each epoch: shuffle the training rows (one ChaCha8 stream, `--seed`), let the workload add
//! rows of its own (LOInK's surface resampling), then for each batch: the loss, a divergence
//! check (a non-finite loss stops the run with [`TrainError::Diverged`]), gradients clipped to a
//! global norm of `--clip`, one Adam step at the one-cycle learning rate; after the batches the
//! validation loss of the weights as they stand.
//!
//! **Stopping rule.** The weights kept are those of the epoch with the lowest validation loss.
//! The run stops early only in the annealing half of the one-cycle schedule (epoch ≥ epochs/2),
//! once `--patience` epochs have passed without a new best: near the schedule's peak the
//! validation loss is noisy, and a stop there keeps an unannealed model (measured on planar3:
//! stopped at epoch 35 of 80, 9 mm RMSE).

use burn::module::Module;
use burn::optim::GradientsParams;
use burn::tensor::Tensor;
use loink_fit::{optimiser, schedule};
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;

use crate::train::error::TrainError;
use crate::train::progress::Progress;
use crate::train::summary::Row;

/// The loop's settings (the flags every trainer shares).
#[derive(Debug, Clone, Copy)]
pub struct Settings {
    /// Epochs at most (`--epochs`).
    pub epochs: usize,
    /// Rows per batch (`--batch`).
    pub batch: usize,
    /// Peak learning rate of the one-cycle schedule (`--lr`).
    pub lr: f64,
    /// Global gradient-norm bound (`--clip`).
    pub clip: f64,
    /// Epochs without a new best before an early stop (`--patience`).
    pub patience: usize,
    /// (index, count) of the chart a multi-chart run trains (the progress lines name it).
    pub chart: Option<(usize, usize)>,
}

/// What a trainer puts into the loop: its loss on a batch and its validation.
pub trait Workload<M: Module> {
    /// Before an epoch's batches, after the training rows were shuffled into `order`: a
    /// workload that trains on rows of its own this epoch rewrites `order` (and returns true).
    fn begin_epoch(
        &mut self,
        _epoch: usize,
        _net: &M,
        _order: &mut Vec<usize>,
        _rng: &mut ChaCha8Rng,
        _progress: &Progress,
    ) -> Result<bool, TrainError> {
        Ok(false)
    }
    /// The loss of the rows `chunk` of this epoch's order, a scalar on the autodiff device.
    fn batch_loss(&mut self, net: &M, chunk: &[usize], rng: &mut ChaCha8Rng) -> Tensor<1>;
    /// The validation loss of `snapshot` (the lower, the better).
    fn validate(&mut self, snapshot: &M) -> f64;
    /// Reports an epoch's end (training loss, the validation just measured, a new best or not).
    fn report(&self, progress: &Progress, epoch: usize, train_loss: f64, val: f64, best: bool);
}

/// The loop's outcome: the kept weights and the figures of the run.
pub struct Fitted<M> {
    /// The weights of the epoch with the lowest validation loss.
    pub best: M,
    /// Its validation loss.
    pub best_val: f64,
    /// Its epoch (1-based).
    pub best_epoch: usize,
    /// Mean training loss of the first epoch.
    pub first_loss: f64,
    /// Mean training loss of the last epoch run.
    pub last_loss: f64,
    /// Epochs run.
    pub epochs_run: usize,
}

impl<M> Fitted<M> {
    /// The closing table's rows every trainer shows: the kept epoch and the epochs run.
    pub fn epoch_rows(&self) -> [Row; 2] {
        [
            Row::new(
                "best_epoch",
                self.best_epoch as f64,
                "epoch of the kept weights",
            ),
            Row::new(
                "epochs",
                self.epochs_run as f64,
                "epochs run (early stopping)",
            ),
        ]
    }
}

/// Trains `net` on `rows` training rows by `settings`, drawing the order from `rng`, with a
/// progress bar.
pub fn fit<M: Module, W: Workload<M>>(
    mut net: M,
    rows: usize,
    settings: Settings,
    workload: &mut W,
    rng: &mut ChaCha8Rng,
) -> Result<Fitted<M>, TrainError> {
    let mut optim = optimiser::adam();
    let steps_per_epoch = rows.div_ceil(settings.batch);
    let progress = &Progress::new(settings.epochs, steps_per_epoch, settings.chart);
    let schedule = schedule::OneCycle::new(settings.lr, settings.epochs * steps_per_epoch);
    let mut order: Vec<usize> = (0..rows).collect();
    let mut best = (f64::INFINITY, net.valid(), 0usize);
    let (mut first_loss, mut last_loss) = (f64::NAN, f64::NAN);
    let (mut step, mut epochs_run) = (0, 0);
    for epoch in 0..settings.epochs {
        order.shuffle(rng);
        let own_rows = workload.begin_epoch(epoch, &net, &mut order, rng, progress)?;
        let mut sum = 0.0;
        for (k, chunk) in order.chunks(settings.batch).enumerate() {
            let loss = workload.batch_loss(&net, chunk, rng);
            let value: f32 = loss.clone().into_scalar();
            if !value.is_finite() {
                progress.finish();
                return Err(TrainError::Diverged(f64::from(value), epoch + 1));
            }
            let mut grads = GradientsParams::from_grads(loss.backward(), &net);
            optimiser::clip_global_norm(&net, &mut grads, settings.clip);
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
        if own_rows {
            // The next epoch starts from the training rows alone again.
            order = (0..rows).collect();
        }
        let snapshot = net.valid();
        let val = workload.validate(&snapshot);
        let improved = val < best.0;
        workload.report(progress, epoch, train_loss, val, improved);
        if improved {
            best = (val, snapshot, epoch + 1);
        } else if epoch + 1 >= settings.epochs / 2 && epoch + 1 - best.2 >= settings.patience {
            break;
        }
    }
    progress.finish();
    Ok(Fitted {
        best: best.1,
        best_val: best.0,
        best_epoch: best.2,
        first_loss,
        last_loss,
        epochs_run,
    })
}
