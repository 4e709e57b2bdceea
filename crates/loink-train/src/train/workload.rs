//! LOInK's part of the epoch loop ([`crate::fit`]): the weighted task + cost loss on a batch,
//! the optimal-surface resampling (`--surface`, `--data-surface`) that adds rows of its own to
//! an epoch, and the validation loss.

use burn::module::Module;
use burn::tensor::{Device, Tensor};
use loink::artifact::{About, Normalisation};
use loink::problem::{JointLimits, Problem};
use rand::Rng;
use rand_chacha::ChaCha8Rng;

use super::data::NormalisedSet;
use super::loss::{self, Batch, LossWeights};
use super::model::{Architecture, LoinkNet};
use super::progress::Progress;
use super::{data_surface, export, surface, TrainArgs, TrainError};
use crate::fit::Workload;

/// LOInK's workload: the sets, the loss weights and what the resampling last drew.
pub struct LoinkWorkload<'a> {
    /// The flags.
    pub args: &'a TrainArgs,
    /// The problem trained on.
    pub problem: &'a Problem,
    /// Where configurations are drawn (the limits, or one chart's box).
    pub region: &'a JointLimits,
    /// The network's architecture (the surface draw exports the network).
    pub arch: &'a Architecture,
    /// The normalisation of the training set.
    pub norm: &'a Normalisation,
    /// The model's card.
    pub about: &'a About,
    /// Training rows.
    pub train: NormalisedSet,
    /// Validation rows.
    pub val: NormalisedSet,
    /// The autodiff device batches go to.
    pub device: Device,
    /// The plain device validation runs on.
    pub plain: Device,
    /// Task and cost weights.
    pub weights: LossWeights,
    /// The first epoch that resamples (`--surface-from` of `--epochs`).
    pub surface_start: usize,
    /// This epoch's rows when it resamples (training rows first, then its own).
    pub epoch_set: Option<NormalisedSet>,
    /// Surface points of the last resampling epoch and their median unrefined residual (m).
    pub surface_rows: (usize, f64),
    /// The last validation's task and cost MSE (normalised).
    pub last_val: (f64, f64),
    /// Anchors at the optimum (`--optima`), normalised; every batch trains on as many.
    pub anchors: Option<NormalisedSet>,
}

impl Workload<LoinkNet> for LoinkWorkload<'_> {
    fn begin_epoch(
        &mut self,
        epoch: usize,
        net: &LoinkNet,
        order: &mut Vec<usize>,
        rng: &mut ChaCha8Rng,
        progress: &Progress,
    ) -> Result<bool, TrainError> {
        let args = self.args;
        self.epoch_set = None;
        if args.surface > 0 && epoch >= self.surface_start {
            let ctx = export::ExportContext {
                problem: self.problem,
                arch: self.arch,
                normalisation: self.norm,
                metrics: Default::default(),
                seed: args.seed,
                about: self.about,
            };
            let drawn = surface::draw(
                &net.valid(),
                ctx,
                self.region,
                args.surface,
                args.surface_pool,
                rng,
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
            self.surface_rows = (drawn.samples.len(), drawn.residual_median_m);
            self.epoch_set = Some(surface::mix(&self.train, &drawn, self.norm, order, rng));
        }
        if args.data_surface > 0 && epoch >= self.surface_start {
            let picked = data_surface::nearest_rows(&net.valid(), &self.train, args.data_surface);
            let near = data_surface::rows(&self.train, &picked);
            self.epoch_set = Some(surface::mix_rows(&self.train, &near, order, rng));
        }
        Ok(self.epoch_set.is_some())
    }

    fn batch_loss(&mut self, net: &LoinkNet, chunk: &[usize], rng: &mut ChaCha8Rng) -> Tensor<1> {
        // Rows from `train.len()` on are this epoch's surface points; an epoch without them
        // needs no weights.
        let (set, weight) = match &self.epoch_set {
            Some(set) => (set, self.args.surface_task_weight),
            None => (&self.train, 1.0),
        };
        let batch = Batch::gather_weighted(set, chunk, &self.device, self.train.len(), weight);
        let total = loss::loss(net, &batch, self.weights).total;
        match &self.anchors {
            None => total,
            Some(anchors) => {
                let picked: Vec<usize> = (0..chunk.len())
                    .map(|_| rng.random_range(0..anchors.len()))
                    .collect();
                // Anchors are points of the optimal surface: their task error has its own
                // weight (`--optima-task-weight`).
                let batch = Batch::gather_weighted(
                    anchors,
                    &picked,
                    &self.device,
                    0,
                    self.args.optima_task_weight,
                );
                total + loss::anchor_loss(net, &batch, self.weights, self.args.optima_weight)
            }
        }
    }

    fn validate(&mut self, snapshot: &LoinkNet) -> f64 {
        let set = loss::evaluate(snapshot, &self.val, &self.plain, 8192);
        self.last_val = (set.task_mse, set.cost_mse);
        self.weights.total(&set)
    }

    fn report(&self, progress: &Progress, epoch: usize, train_loss: f64, _val: f64, best: bool) {
        progress.epoch(epoch, train_loss, self.last_val.0, self.last_val.1, best);
    }
}
