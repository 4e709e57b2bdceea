//! The flags of `loink train` ([`TrainArgs`]) and what they build: the problem (a preset with
//! its joint limits replaced when asked), the card, and the checked architecture.

use std::path::PathBuf;

use loink::artifact::About;
use loink::cost::CostSpec;
use loink::problem::{JointLimits, Problem};

use super::data::Sampler;
use super::loss::TaskLoss;
use super::model::Architecture;
use super::TrainError;

/// What `loink train` fits (`--kind`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ModelKind {
    /// The LOInK model (BiLipNet G plus surrogate-cost heads).
    Loink,
    /// Direct regression y → q with squared error (the averaging baseline).
    Mse,
    /// Mixture density network y → Σ_k π_k N(μ_k, σ_k²) (the multimodal baseline).
    Mdn,
    /// Conditional normalising flow for x given y (the IKFlow-style baseline, model kind
    /// `flow`): `--depth` coupling blocks, `--hidden` the conditioners' widths.
    Flow,
}

impl ModelKind {
    /// The word `--kind` takes.
    pub fn word(self) -> &'static str {
        match self {
            ModelKind::Loink => "loink",
            ModelKind::Mse => "mse",
            ModelKind::Mdn => "mdn",
            ModelKind::Flow => "flow",
        }
    }
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
    /// `--kind flow`: standard deviation of the Gaussian noise added to the normalised joints
    /// of every training batch (IKFlow's regulariser).
    #[arg(long, default_value_t = 1e-3)]
    pub noise: f64,
    /// Mixture components K of `--kind mdn`.
    #[arg(long, default_value_t = 2)]
    pub components: usize,
    #[arg(
        long,
        visible_alias = "robot",
        default_value = "",
        help = crate::cli::preset_help(
            " With --data it names only the simulator that replays the model's answers (eval, the page): the trainer reads nothing of it; without it such a model is data-only."
        )
    )]
    pub problem: String,
    #[command(flatten)]
    pub robot_file: crate::robot_file::RobotFileArgs,
    /// Train from this data file alone: `x1,…,xn,y1,…,ym,J` rows (as `loink data` writes); bad
    /// rows are reported by line number and left out.
    #[arg(long)]
    pub data: Option<PathBuf>,
    /// Cost, e.g. "limits=1,com=4" (default: the problem's own — the planar arms'
    /// limits=1,com=4, the soft arm's actuation=1).
    #[arg(long)]
    pub cost: Option<String>,
    /// Lower joint limits replacing the preset's, comma-separated radians — e.g. planar2's
    /// elbow-up chart `--lower=-3.141592653589793,0` (no redundancy: one chart per model).
    #[arg(long, allow_hyphen_values = true)]
    pub lower: Option<String>,
    /// Upper joint limits replacing the preset's, comma-separated radians.
    #[arg(long, allow_hyphen_values = true)]
    pub upper: Option<String>,
    /// A task that turns the hand: narrow the problem's domain to the configurations whose hand
    /// z axis lies within DEG degrees of straight down (60: the tabletop set of docs/pose.md).
    /// The model file's problem records it; data, anchors, surface points and the closing
    /// check are drawn inside it.
    #[arg(long, value_name = "DEG")]
    pub cone: Option<f64>,
    /// A pose task: take the orientation's chart about the problem's reference turned DEG
    /// degrees about the tool axis (a chart of several: its rotation vector's cut at π lies
    /// away from the orientations it covers).
    #[arg(long, value_name = "DEG", allow_hyphen_values = true)]
    pub turn: Option<f64>,
    /// A pose task: narrow the domain to the orientations within DEG degrees of the chart's
    /// reference (the part of the task this chart covers).
    #[arg(long, value_name = "DEG")]
    pub cover: Option<f64>,
    /// Lower corner of the sub-box of the joint limits the training configurations are drawn
    /// from (comma-separated radians; the limits' own where not given). The problem, its limits
    /// and its cost stay the preset's: only where G learns is narrowed — e.g. to the box that
    /// holds the optimal configurations, so the network's capacity goes where z = 0 is read.
    #[arg(long, allow_hyphen_values = true)]
    pub region_lower: Option<String>,
    /// Upper corner of that sub-box.
    #[arg(long, allow_hyphen_values = true)]
    pub region_upper: Option<String>,
    /// A multi-chart model (kind `charts`): one LOInK chart per sign pattern of these joints
    /// (1-based, comma-separated: `2,3` gives 4 charts), each trained on its sub-box of the
    /// limits with the other flags; a joint whose range does not hold 0 is split at its middle.
    #[arg(long, value_delimiter = ',')]
    pub charts: Vec<usize>,
    /// A multi-chart model cut at given values: `J:c1[:c2…]` cuts joint J (1-based) at each
    /// value (comma-separated for several joints, e.g. `5:-1.5708:1.5708` gives three charts);
    /// with `--charts`, one chart per combination.
    #[arg(long, value_delimiter = ',', allow_hyphen_values = true, value_parser = super::regions::Cut::parse)]
    pub split: Vec<super::regions::Cut>,
    /// A multi-chart model of regions named whole (repeated, comma-separated): `J:lo:hi;J:lo:hi`
    /// per region, each joint's interval (an empty bound is the box's), the box's range for the
    /// joints it does not name; one chart per region (instead of `--charts`/`--split`).
    #[arg(long, value_delimiter = ',', allow_hyphen_values = true, value_parser = super::regions::RegionSpec::parse)]
    pub region: Vec<super::regions::RegionSpec>,
    /// Charts trained at once (each on one core; default: the machine's cores). The file does
    /// not depend on it.
    #[arg(long)]
    pub jobs: Option<usize>,
    /// A worker of a multi-chart run: train chart K alone and write it to `--chart-out`.
    #[arg(long, hide = true)]
    pub only_chart: Option<usize>,
    /// Where a worker writes its chart.
    #[arg(long, hide = true)]
    pub chart_out: Option<std::path::PathBuf>,
    /// A pose task's multi-chart model (kind `charts`): one chart per orientation reference
    /// turned these degrees about the tool axis (comma-separated; with `--charts`, one per turn
    /// and region), each trained on the orientations within `--cover` of its reference.
    #[arg(long, value_delimiter = ',', allow_hyphen_values = true)]
    pub turns: Vec<f64>,
    /// Overall lower Lipschitz bound μ of G.
    #[arg(long, default_value_t = 0.05)]
    pub mu: f64,
    /// Overall upper Lipschitz bound ν of G.
    #[arg(long, default_value_t = 20.0)]
    pub nu: f64,
    /// Number of monotone layers d (`--kind flow`: coupling blocks).
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
    /// of the epochs only, once the learning rate anneals; the same rule for every kind).
    #[arg(long, default_value_t = 8)]
    pub patience: usize,
    /// Optimal-surface points per epoch (0 = off): after the warm-up, every epoch inverts the
    /// current network at this many fresh targets and trains on the preimages x₀ = G⁻¹([ỹ; 0])
    /// in place of as many uniform samples (see `train::surface`).
    #[arg(long, default_value_t = 0)]
    pub surface: usize,
    /// Data-surface rows per epoch (0 = off; the model-free counterpart of `--surface`): after
    /// the warm-up, every epoch also trains once more on the N training rows the current network
    /// maps nearest its optimal surface z = 0, their task error weighted by
    /// `--surface-task-weight` (see `train::data_surface`). No forward-map call.
    #[arg(long, default_value_t = 0)]
    pub data_surface: usize,
    /// Targets inverted per surface point kept: with K > 1 an epoch inverts K·N targets and
    /// keeps the N preimages with the largest residuals (see `train::surface`).
    #[arg(long, default_value_t = 1)]
    pub surface_pool: usize,
    /// Weight of a surface point's task error against a uniform sample's 1 (`--surface`,
    /// `--data-surface`): the unrefined answer is read on the surface alone, the uniform samples
    /// are there for the cost heads and for σ > 0, so W > 1 spends more of G₁'s capacity where
    /// the page reads it.
    #[arg(long, default_value_t = 1.0)]
    pub surface_task_weight: f64,
    /// Share of the epochs before surface points join (the network must first be a rough fit).
    #[arg(long, default_value_t = 0.25)]
    pub surface_from: f64,
    /// Anchors at the optimum (0 = off): before training, the reference optimum x* of N targets
    /// (images of uniform configurations; the search runs on every core), and every batch also
    /// trains on as many anchors, pinning G₂(x̃*) to the latent origin (see `train::optima`)
    #[arg(long, default_value_t = 0)]
    pub optima: usize,
    /// Draw training configurations around the anchors' optima (`--optima`): each an optimum
    /// moved by Gaussian noise of S rad per joint, inside the box and the domain (see
    /// `train::tube`); `--tube-share` of them, the rest uniform.
    #[arg(long, value_name = "S")]
    pub tube: Option<f64>,
    /// The share of the configurations `--tube` draws near the optima.
    #[arg(long, default_value_t = 0.5)]
    pub tube_share: f64,
    /// Weight of an anchor's ‖G₂(x̃*)‖² against the task and cost terms (`--optima`)
    #[arg(long, default_value_t = 1.0)]
    pub optima_weight: f64,
    /// Weight of an anchor's task error against a uniform sample's 1 (`--optima`): anchors are
    /// points of the optimal surface, where the unrefined answer is read.
    #[arg(long, default_value_t = 1.0)]
    pub optima_task_weight: f64,
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
    #[arg(long, required_unless_present = "recipe")]
    pub out: Option<PathBuf>,
    /// The model's catalog name, stored in its card (default: the output file's stem).
    #[arg(long)]
    pub name: Option<String>,
    /// One line on what the model is, stored in its card (the page's model menu shows it).
    #[arg(long, default_value = "")]
    pub description: String,
    /// What of the paper a view of this model reproduces, stored in its card (the page's
    /// model card shows it).
    #[arg(long, default_value = "")]
    pub reproduces: String,
    /// What of the paper it does not reproduce, stored in its card.
    #[arg(long, default_value = "")]
    pub does_not: String,
    /// Train by a recipe file (`recipes/NAME.toml`: the trainer, the problem, the data and
    /// every option; see docs/cli.md); change one of its entries with `--set KEY=VALUE`. No other
    /// flag goes with it.
    #[arg(long, value_name = "FILE")]
    pub recipe: Option<PathBuf>,
    /// With --recipe: replaces (or adds) one entry of the recipe, e.g. `--set epochs=2`. Repeat
    /// for more.
    #[arg(long = "set", value_name = "KEY=VALUE", requires = "recipe")]
    pub set: Vec<String>,
    /// The command line that ran this training, stored in the card (the binary fills it in).
    #[arg(skip)]
    pub command: String,
    /// The flags after the binary's name that give these arguments (a recipe's expanded), for
    /// the worker processes of a multi-chart run (the binary fills it in).
    #[arg(skip)]
    pub argv: Vec<String>,
    /// The recipe this training ran (its path as given and its SHA-256), stored in the card
    /// (the binary fills it in).
    #[arg(skip)]
    pub recipe_card: Option<(String, String)>,
}

/// The trainers that read an option beyond the ones every trainer reads (the problem, its cost
/// and limits, the card, the seed, the epoch loop's settings, `--samples`, `--sampler`,
/// `--hidden`): `None` for such a common option. An option given to a trainer that does not
/// read it is refused rather than silently ignored.
pub fn trainers_of(option: &str) -> Option<&'static [ModelKind]> {
    use ModelKind::{Flow, Loink, Mdn};
    Some(match option {
        "mu"
        | "nu"
        | "head_hidden"
        | "metric_eps"
        | "surface"
        | "data_surface"
        | "surface_pool"
        | "surface_task_weight"
        | "surface_from"
        | "optima"
        | "optima_weight"
        | "optima_task_weight"
        | "tube"
        | "tube_share"
        | "task_weight"
        | "task_loss"
        | "cost_weight"
        | "check_targets"
        | "check_refine"
        | "region_lower"
        | "region_upper"
        | "charts"
        | "split"
        | "region"
        | "jobs"
        | "only_chart"
        | "chart_out"
        | "turns" => &[Loink],
        "data" | "depth" => &[Loink, Flow],
        "noise" => &[Flow],
        "components" => &[Mdn],
        _ => return None,
    })
}

/// The flag of an argument id (`surface_task_weight` → `--surface-task-weight`).
pub fn flag(option: &str) -> String {
    match option {
        "problem" => "--problem".into(),
        other => format!("--{}", other.replace('_', "-")),
    }
}

/// Refuses, in one line, an option given on the command line (`given`: argument ids) that the
/// chosen trainer does not read, or one that another given option makes meaningless.
pub fn check_given(kind: ModelKind, given: &[&str]) -> Result<(), TrainError> {
    for option in given {
        if let Some(trainers) = trainers_of(option) {
            if !trainers.contains(&kind) {
                let names: Vec<&str> = trainers.iter().map(|k| k.word()).collect();
                return Err(TrainError::Argument(format!(
                    "{} does not apply to --kind {} (it is read by --kind {})",
                    flag(option),
                    kind.word(),
                    names.join(", ")
                )));
            }
        }
    }
    if given.contains(&"data") {
        if let Some(option) = ["samples", "sampler"].iter().find(|o| given.contains(o)) {
            return Err(TrainError::Argument(format!(
                "{} draws configurations from the problem: with --data the rows are the file's",
                flag(option)
            )));
        }
    }
    Ok(())
}

impl TrainArgs {
    /// The preset problem with the cost of `--cost`, its joint limits replaced by `--lower` /
    /// `--upper` when given.
    pub fn problem(&self) -> Result<Problem, TrainError> {
        if !self.names_a_problem() {
            return Err(TrainError::Argument(
                "name the problem with --problem (or --robot, or --urdf), or train from --data"
                    .into(),
            ));
        }
        let preset = self.robot_file.problem(&self.problem)?;
        let cost = match &self.cost {
            Some(text) => CostSpec::parse(text)?,
            None => preset.cost().spec().clone(),
        };
        if self.lower.is_none()
            && self.upper.is_none()
            && self.cone.is_none()
            && self.turn.is_none()
            && self.cover.is_none()
        {
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
        if let Some(cone) = self.cone {
            match spec.chain.as_mut() {
                Some(chain) if preset.task().has_angle() => chain.cone = Some(cone),
                _ => {
                    return Err(TrainError::Argument(format!(
                        "--cone narrows a task that turns the hand: '{}' does not turn it",
                        preset.name()
                    )))
                }
            }
        }
        if self.turn.is_some() || self.cover.is_some() {
            let reference = match preset.task().measure() {
                loink::problem::Measure::Pose { reference } => reference,
                _ => {
                    return Err(TrainError::Argument(format!(
                        "--turn and --cover take a pose task's chart: '{}' has no orientation",
                        preset.name()
                    )))
                }
            };
            let chain = spec.chain.as_mut().ok_or_else(|| {
                TrainError::Argument("--turn and --cover need a serial chain".into())
            })?;
            if let Some(turn) = self.turn {
                let turned = loink::so3::mul(&reference, &loink::so3::rot_z(turn.to_radians()));
                let q = loink::so3::Quaternion::from_matrix(&turned);
                chain.chart = Some([q.w, q.x, q.y, q.z]);
            }
            chain.cover = self.cover;
        }
        Ok(Problem::from_spec(&spec, cost)?)
    }

    /// The box training configurations are drawn from: `problem`'s limits, narrowed by
    /// `--region-lower` / `--region-upper` (which must lie inside them).
    pub fn region(&self, problem: &Problem) -> Result<JointLimits, TrainError> {
        let limits = problem.limits();
        if self.region_lower.is_none() && self.region_upper.is_none() {
            return Ok(limits.clone());
        }
        let corner = |text: &Option<String>, fallback: &[f64]| -> Result<Vec<f64>, TrainError> {
            let Some(text) = text else {
                return Ok(fallback.to_vec());
            };
            let values = text
                .split(',')
                .map(|p| p.trim().parse::<f64>())
                .collect::<Result<Vec<_>, _>>()
                .map_err(|e| TrainError::Argument(format!("region corner '{text}': {e}")))?;
            if values.len() != fallback.len() {
                return Err(TrainError::Argument(format!(
                    "region corner '{text}' has {} values, the problem {} joints",
                    values.len(),
                    fallback.len()
                )));
            }
            Ok(values)
        };
        let lower = corner(&self.region_lower, limits.lower())?;
        let upper = corner(&self.region_upper, limits.upper())?;
        for i in 0..lower.len() {
            let inside = lower[i] >= limits.lower()[i] && upper[i] <= limits.upper()[i];
            if !(inside && lower[i] < upper[i]) {
                return Err(TrainError::Argument(format!(
                    "the region of joint {} is [{}, {}]: it must be a non-empty part of the limits [{}, {}]",
                    i + 1,
                    lower[i],
                    upper[i],
                    limits.lower()[i],
                    limits.upper()[i]
                )));
            }
        }
        Ok(JointLimits::new(lower, upper)?)
    }

    /// The output model file (`--out`; empty with a recipe, which makes its own command).
    pub fn out(&self) -> &std::path::Path {
        self.out.as_deref().unwrap_or(std::path::Path::new(""))
    }

    /// Whether the flags name a problem (a preset or a URDF).
    pub fn names_a_problem(&self) -> bool {
        !self.problem.is_empty() || self.robot_file.urdf.is_some()
    }

    /// The settings of the epoch loop every trainer shares.
    pub fn fit_settings(&self) -> crate::fit::Settings {
        crate::fit::Settings {
            epochs: self.epochs,
            batch: self.batch,
            lr: self.lr,
            clip: self.clip,
            patience: self.patience,
            chart: None,
        }
    }

    /// Charts trained at once: `--jobs`, else the machine's cores (at least 1).
    pub fn jobs(&self) -> usize {
        self.jobs
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, usize::from))
            .max(1)
    }

    /// The card the written file carries.
    pub fn about(&self) -> About {
        About {
            name: self.name.clone().unwrap_or_else(|| {
                self.out()
                    .file_stem()
                    .map(|s| s.to_string_lossy().trim_end_matches(".f32").to_string())
                    .unwrap_or_default()
            }),
            description: self.description.clone(),
            command: self.command.clone(),
            reproduces: self.reproduces.clone(),
            does_not: self.does_not.clone(),
            recipe: self
                .recipe_card
                .as_ref()
                .map_or(String::new(), |(path, _)| path.clone()),
            recipe_sha256: self
                .recipe_card
                .as_ref()
                .map_or(String::new(), |(_, sha)| sha.clone()),
            ..About::default()
        }
    }

    /// The network's architecture from the flags, every flag checked (typed error otherwise).
    pub fn architecture(&self, problem: &Problem) -> Result<Architecture, TrainError> {
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
        if self.optima > 1_000_000 {
            return bad("optima must be at most 1000000");
        }
        if !(self.optima_weight > 0.0 && self.optima_weight <= 1e3) {
            return bad("optima-weight must be in (0, 1000]");
        }
        if self.optima > 0 && self.data.is_some() {
            return bad(
                "--optima searches the problem's optimum: a data file's problem has none to search",
            );
        }
        if !(1..=16).contains(&self.surface_pool) {
            return bad("surface-pool must be in 1..=16");
        }
        if !(self.surface_task_weight > 0.0 && self.surface_task_weight <= 1e3) {
            return bad("surface-task-weight must be in (0, 1000]");
        }
        if !(self.optima_task_weight > 0.0 && self.optima_task_weight <= 1e3) {
            return bad("optima-task-weight must be in (0, 1000]");
        }
        if self.surface == 0 && self.data_surface == 0 && self.surface_task_weight != 1.0 {
            return bad(
                "surface-task-weight weighs surface points: it needs --surface or --data-surface",
            );
        }
        if self.optima == 0 && (self.optima_weight != 1.0 || self.optima_task_weight != 1.0) {
            return bad(
                "optima-weight and optima-task-weight weigh the anchors: they need --optima",
            );
        }
        if self.surface > 0 && self.data_surface > 0 {
            return bad("--surface and --data-surface are two ways to the same rows: pick one");
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
