//! Validation of a parsed [`ModelFile`] into a [`ValidatedModel`] whose inference objects
//! (arm, cost, [`BiLipNet`], heads) are ready to run. Every check names the field it failed on.
//!
//! Checked: the model kind, the problem spec and the cost spec; `hyper` (0 < μ < ν finite, depth, task and latent
//! dimensions against the problem, hidden sizes, ε > 0); normalisation lengths, finiteness and
//! positive scales; every matrix's shape (ragged rows too) and finiteness; ‖RᵀR − I‖ for every
//! orthogonal layer; the monotone certificate S Sᵀ ⪯ I − ½(V + Vᵀ) (by a Cholesky factorisation
//! of I − ½(V + Vᵀ) − S Sᵀ + tol·I); that the layers imply the claimed μ and ν; the heads'
//! activation and shapes.

use ndarray::{Array1, Array2};

use super::error::ArtifactError;
use super::kind::KIND_LOINK;
use super::schema::{
    BiLipNetWeights, DenseWeights, Hyper, MlpWeights, ModelFile, MonotoneWeights, Normalisation,
    OrthogonalWeights,
};
use crate::cost::CostSpec;
use crate::nn::linalg::{cholesky_positive_definite, orthonormality_defect};
use crate::nn::monotone::MAX_HIDDEN_TOTAL;
use crate::nn::section::{MAX_SECTION_LAYERS, SECTION_ACTIVATION};
use crate::nn::{BiLipNet, Dense, Mlp, MonotoneLayer, OrthogonalLayer, SectionHead};
use crate::problem::{Problem, ProblemSpec};

/// Largest accepted max |RᵀR − I| of an orthogonal layer (room for weights computed in f32).
pub const ORTHOGONALITY_TOLERANCE: f64 = 1e-5;
/// Slack tol in S Sᵀ ⪯ I − ½(V + Vᵀ) + tol·I (room for weights computed in f32).
pub const CERTIFICATE_TOLERANCE: f64 = 1e-5;
/// Relative slack when checking that Π μ_l ≥ μ and Π ν_l ≤ ν.
pub const BOUND_TOLERANCE: f64 = 1e-6;
/// Deepest network accepted.
pub const MAX_DEPTH: usize = 64;
/// Widest head layer accepted.
pub const MAX_HEAD_WIDTH: usize = 1024;

/// A model file that passed every check, with its inference objects built.
#[derive(Debug, Clone, PartialEq)]
pub struct ValidatedModel {
    file: ModelFile,
    problem: Problem,
    net: BiLipNet,
    metric_head: Mlp,
    value_head: Mlp,
    section_head: Option<SectionHead>,
}

impl ValidatedModel {
    /// The file as loaded.
    pub fn file(&self) -> &ModelFile {
        &self.file
    }
    /// The problem and its cost.
    pub fn problem(&self) -> &Problem {
        &self.problem
    }
    /// G.
    pub fn net(&self) -> &BiLipNet {
        &self.net
    }
    /// The M(ỹ) head.
    pub fn metric_head(&self) -> &Mlp {
        &self.metric_head
    }
    /// The b(ỹ) head.
    pub fn value_head(&self) -> &Mlp {
        &self.value_head
    }
    /// The section head σ(ỹ) ≈ G⁻¹([ỹ; 0]), when the file has one.
    pub fn section_head(&self) -> Option<&SectionHead> {
        self.section_head.as_ref()
    }
    /// Gives the file back.
    pub fn into_file(self) -> ModelFile {
        self.file
    }
}

type Checked<T> = Result<T, ArtifactError>;

fn shape(path: &str, detail: String) -> ArtifactError {
    ArtifactError::Shape {
        path: path.to_string(),
        detail,
    }
}

fn range(path: &str, detail: String) -> ArtifactError {
    ArtifactError::OutOfRange {
        path: path.to_string(),
        detail,
    }
}

fn finite_scalar(path: &str, value: f64) -> Checked<f64> {
    if value.is_finite() {
        Ok(value)
    } else {
        Err(ArtifactError::NonFinite {
            path: path.to_string(),
            index: "value".into(),
            value,
        })
    }
}

/// Every figure of a file's `metrics` is finite (else the error names it).
pub(crate) fn finite_metrics(
    metrics: &std::collections::BTreeMap<String, f64>,
) -> Result<(), ArtifactError> {
    match metrics.iter().find(|(_, v)| !v.is_finite()) {
        Some((name, &v)) => Err(ArtifactError::NonFinite {
            path: format!("metrics.{name}"),
            index: "value".into(),
            value: v,
        }),
        None => Ok(()),
    }
}

/// A checked vector of `expected` finite entries.
pub(crate) fn vector(path: &str, values: &[f64], expected: usize) -> Checked<Array1<f64>> {
    if values.len() != expected {
        return Err(shape(
            path,
            format!("has {} entries, expected {expected}", values.len()),
        ));
    }
    if let Some((i, &v)) = values.iter().enumerate().find(|(_, v)| !v.is_finite()) {
        return Err(ArtifactError::NonFinite {
            path: path.to_string(),
            index: format!("[{i}]"),
            value: v,
        });
    }
    Ok(Array1::from(values.to_vec()))
}

/// A checked `rows × cols` matrix of finite entries from nested rows.
pub(crate) fn matrix(
    path: &str,
    values: &[Vec<f64>],
    rows: usize,
    cols: usize,
) -> Checked<Array2<f64>> {
    if values.len() != rows {
        return Err(shape(
            path,
            format!("has {} rows, expected {rows}", values.len()),
        ));
    }
    let mut flat = Vec::with_capacity(rows * cols);
    for (i, row) in values.iter().enumerate() {
        if row.len() != cols {
            return Err(shape(
                path,
                format!("row {i} has {} entries, expected {cols}", row.len()),
            ));
        }
        if let Some((j, &v)) = row.iter().enumerate().find(|(_, v)| !v.is_finite()) {
            return Err(ArtifactError::NonFinite {
                path: path.to_string(),
                index: format!("[{i}][{j}]"),
                value: v,
            });
        }
        flat.extend_from_slice(row);
    }
    Array2::from_shape_vec((rows, cols), flat).map_err(|e| shape(path, e.to_string()))
}

/// Validates everything and builds the inference objects.
pub fn validate(file: ModelFile) -> Checked<ValidatedModel> {
    if file.kind != KIND_LOINK {
        return Err(ArtifactError::Kind(file.kind.clone()));
    }
    let problem = problem_of(&file.problem, &file.cost)?;
    let n = problem.dof();
    check_hyper(&file.hyper, n, problem.task_dim())?;
    check_normalisation(&file.normalisation, n, file.hyper.task_dim)?;
    let net = check_bilipnet(&file.bilipnet, &file.hyper, n)?;
    let k = file.hyper.latent_dim;
    let metric_head = check_head(
        "metric_head",
        &file.metric_head,
        &file.hyper,
        metric_outputs(k),
    )?;
    let value_head = check_head("value_head", &file.value_head, &file.hyper, 1)?;
    let section_head = file
        .section_head
        .as_ref()
        .map(|head| check_section_head(head, file.hyper.task_dim, n))
        .transpose()?;
    finite_metrics(&file.metrics)?;
    Ok(ValidatedModel {
        file,
        problem,
        net,
        metric_head,
        value_head,
        section_head,
    })
}

/// Outputs of the metric head: the lower triangle of L, k(k + 1)/2. For k = 0 (M is 0 × 0) the
/// head keeps one output that the inference crate ignores, so every file has the same head shapes.
pub fn metric_outputs(k: usize) -> usize {
    (k * (k + 1) / 2).max(1)
}

fn check_hyper(hyper: &Hyper, n: usize, task_dim: usize) -> Checked<()> {
    let mu = finite_scalar("hyper.mu", hyper.mu)?;
    let nu = finite_scalar("hyper.nu", hyper.nu)?;
    if !(mu > 0.0 && mu < nu) {
        return Err(range(
            "hyper",
            format!("need 0 < mu < nu, got mu = {mu}, nu = {nu}"),
        ));
    }
    if hyper.depth == 0 || hyper.depth > MAX_DEPTH {
        return Err(range(
            "hyper.depth",
            format!("{} (allowed 1..={MAX_DEPTH})", hyper.depth),
        ));
    }
    if hyper.task_dim != task_dim {
        return Err(range(
            "hyper.task_dim",
            format!("{} but the problem's task has {task_dim}", hyper.task_dim),
        ));
    }
    // latent_dim = 0 (no redundancy, e.g. planar2 on one elbow chart) is allowed: G is then
    // a bijection onto the task and M is 0 × 0.
    if hyper.task_dim + hyper.latent_dim != n {
        return Err(range(
            "hyper.latent_dim",
            format!(
                "{} but the problem has {n} joints and task dimension {}",
                hyper.latent_dim, hyper.task_dim
            ),
        ));
    }
    check_hidden("hyper.hidden", &hyper.hidden)?;
    if hyper.head_hidden.len() > 16
        || hyper
            .head_hidden
            .iter()
            .any(|&h| h == 0 || h > MAX_HEAD_WIDTH)
    {
        return Err(range(
            "hyper.head_hidden",
            format!(
                "{:?} (at most 16 layers of 1..={MAX_HEAD_WIDTH})",
                hyper.head_hidden
            ),
        ));
    }
    let eps = finite_scalar("hyper.metric_eps", hyper.metric_eps)?;
    if eps <= 0.0 {
        return Err(range("hyper.metric_eps", format!("{eps} (must be > 0)")));
    }
    Ok(())
}

fn check_hidden(path: &str, hidden: &[usize]) -> Checked<()> {
    let total = hidden.iter().try_fold(0usize, |acc, &h| acc.checked_add(h));
    match total {
        Some(total) if !hidden.is_empty() && !hidden.contains(&0) && total <= MAX_HIDDEN_TOTAL => {
            Ok(())
        }
        _ => Err(range(
            path,
            format!("{hidden:?} (non-empty, positive blocks, total ≤ {MAX_HIDDEN_TOTAL})"),
        )),
    }
}

fn check_normalisation(norm: &Normalisation, n: usize, m: usize) -> Checked<()> {
    vector("normalisation.x_shift", &norm.x_shift, n)?;
    vector("normalisation.y_shift", &norm.y_shift, m)?;
    finite_scalar("normalisation.cost_shift", norm.cost_shift)?;
    for (path, scales, len) in [
        ("normalisation.x_scale", &norm.x_scale, n),
        ("normalisation.y_scale", &norm.y_scale, m),
    ] {
        let v = vector(path, scales, len)?;
        if let Some((i, s)) = v.iter().enumerate().find(|(_, &s)| s <= 0.0) {
            return Err(range(
                &format!("{path}[{i}]"),
                format!("{s} (scales must be > 0)"),
            ));
        }
    }
    let scale = finite_scalar("normalisation.cost_scale", norm.cost_scale)?;
    if scale <= 0.0 {
        return Err(range(
            "normalisation.cost_scale",
            format!("{scale} (must be > 0)"),
        ));
    }
    Ok(())
}

fn check_bilipnet(weights: &BiLipNetWeights, hyper: &Hyper, n: usize) -> Checked<BiLipNet> {
    let d = hyper.depth;
    if weights.orthogonal.len() != d + 1 {
        return Err(shape(
            "bilipnet.orthogonal",
            format!(
                "has {} layers, expected depth + 1 = {}",
                weights.orthogonal.len(),
                d + 1
            ),
        ));
    }
    if weights.monotone.len() != d {
        return Err(shape(
            "bilipnet.monotone",
            format!(
                "has {} layers, expected depth = {d}",
                weights.monotone.len()
            ),
        ));
    }
    let orthogonal = weights
        .orthogonal
        .iter()
        .enumerate()
        .map(|(k, o)| check_orthogonal(&format!("bilipnet.orthogonal[{k}]"), o, n))
        .collect::<Checked<Vec<_>>>()?;
    let monotone = weights
        .monotone
        .iter()
        .enumerate()
        .map(|(k, m)| check_monotone(&format!("bilipnet.monotone[{k}]"), m, hyper, n))
        .collect::<Checked<Vec<_>>>()?;
    let net = BiLipNet::new(orthogonal, monotone).map_err(|e| shape("bilipnet", e.to_string()))?;
    let slack = 1.0 + BOUND_TOLERANCE;
    if net.mu() * slack < hyper.mu || net.nu() > hyper.nu * slack {
        return Err(ArtifactError::Inconsistent {
            path: "bilipnet.monotone".into(),
            detail: format!(
                "layers give μ = Π μ_l = {}, ν = Π ν_l = {}, but hyper claims μ = {}, ν = {}",
                net.mu(),
                net.nu(),
                hyper.mu,
                hyper.nu
            ),
        });
    }
    Ok(net)
}

fn check_orthogonal(path: &str, o: &OrthogonalWeights, n: usize) -> Checked<OrthogonalLayer> {
    let r = matrix(&format!("{path}.r"), &o.r, n, n)?;
    let b = vector(&format!("{path}.b"), &o.b, n)?;
    let deviation = orthonormality_defect(&r);
    if deviation.is_nan() || deviation > ORTHOGONALITY_TOLERANCE {
        return Err(ArtifactError::NotOrthogonal {
            path: format!("{path}.r"),
            deviation,
            tolerance: ORTHOGONALITY_TOLERANCE,
        });
    }
    OrthogonalLayer::new(r, b).map_err(|e| shape(path, e.to_string()))
}

fn check_monotone(
    path: &str,
    m: &MonotoneWeights,
    hyper: &Hyper,
    n: usize,
) -> Checked<MonotoneLayer> {
    let mu = finite_scalar(&format!("{path}.mu"), m.mu)?;
    let gamma = finite_scalar(&format!("{path}.gamma"), m.gamma)?;
    if !(mu > 0.0 && gamma > 0.0) {
        return Err(range(
            path,
            format!("need mu > 0 and gamma > 0, got mu = {mu}, gamma = {gamma}"),
        ));
    }
    check_hidden(&format!("{path}.hidden"), &m.hidden)?;
    if m.hidden != hyper.hidden {
        return Err(ArtifactError::Inconsistent {
            path: format!("{path}.hidden"),
            detail: format!(
                "{:?} differs from hyper.hidden {:?}",
                m.hidden, hyper.hidden
            ),
        });
    }
    let total: usize = m.hidden.iter().sum();
    let s = matrix(&format!("{path}.s"), &m.s, total, n)?;
    if m.v.len() + 1 != m.hidden.len() {
        return Err(shape(
            &format!("{path}.v"),
            format!("has {} blocks, expected {}", m.v.len(), m.hidden.len() - 1),
        ));
    }
    let v =
        m.v.iter()
            .enumerate()
            .map(|(k, vk)| matrix(&format!("{path}.v[{k}]"), vk, m.hidden[k + 1], m.hidden[k]))
            .collect::<Checked<Vec<_>>>()?;
    let b_hidden = vector(&format!("{path}.b_hidden"), &m.b_hidden, total)?;
    let b_out = vector(&format!("{path}.b_out"), &m.b_out, n)?;
    let layer = MonotoneLayer::new(mu, gamma, m.hidden.clone(), s, v, b_hidden, b_out)
        .map_err(|e| shape(path, e.to_string()))?;
    check_certificate(path, &layer)?;
    Ok(layer)
}

/// S Sᵀ ⪯ I − ½(V + Vᵀ) + tol·I ⇔ I − ½(V + Vᵀ) − S Sᵀ + tol·I ≻ 0 (Cholesky succeeds).
fn check_certificate(path: &str, layer: &MonotoneLayer) -> Checked<()> {
    let v = layer.v_full();
    let s = layer.s();
    let total = layer.hidden_total();
    let mut m = Array2::<f64>::eye(total) * (1.0 + CERTIFICATE_TOLERANCE);
    m = m - (&v + &v.t()) * 0.5 - crate::nn::linalg::matmul(s.view(), s.t());
    cholesky_positive_definite(&m).map_err(|(pivot, value)| ArtifactError::Certificate {
        path: path.to_string(),
        detail: format!(
            "I − ½(V + Vᵀ) − S Sᵀ + {CERTIFICATE_TOLERANCE:e}·I is not positive definite: Cholesky pivot {pivot} is {value:e}"
        ),
    })
}

fn check_head(path: &str, head: &MlpWeights, hyper: &Hyper, outputs: usize) -> Checked<Mlp> {
    if head.activation != "tanh" {
        return Err(ArtifactError::Activation {
            path: format!("{path}.activation"),
            found: head.activation.clone(),
        });
    }
    let mut sizes = vec![hyper.task_dim];
    sizes.extend_from_slice(&hyper.head_hidden);
    sizes.push(outputs);
    if head.layers.len() + 1 != sizes.len() {
        return Err(shape(
            &format!("{path}.layers"),
            format!(
                "has {} layers, expected {} (hyper.head_hidden {:?} plus the output)",
                head.layers.len(),
                sizes.len() - 1,
                hyper.head_hidden
            ),
        ));
    }
    let layers = head
        .layers
        .iter()
        .zip(sizes.windows(2))
        .enumerate()
        .map(|(k, (layer, io))| check_dense(&format!("{path}.layers[{k}]"), layer, io[0], io[1]))
        .collect::<Checked<Vec<_>>>()?;
    Mlp::new(layers).map_err(|e| shape(path, e.to_string()))
}

/// The section head: `relu`, ỹ (m) → x̃ (n), 1 to [`MAX_SECTION_LAYERS`] hidden layers of at
/// most [`MAX_HEAD_WIDTH`] units.
fn check_section_head(head: &MlpWeights, m: usize, n: usize) -> Checked<SectionHead> {
    let path = "section_head";
    if head.activation != SECTION_ACTIVATION {
        return Err(ArtifactError::Activation {
            path: format!("{path}.activation"),
            found: head.activation.clone(),
        });
    }
    let hidden = head.layers.len().saturating_sub(1);
    if !(1..=MAX_SECTION_LAYERS).contains(&hidden) {
        return Err(shape(
            &format!("{path}.layers"),
            format!(
                "has {} layers, expected 2 to {} (1 to {MAX_SECTION_LAYERS} hidden and the output)",
                head.layers.len(),
                MAX_SECTION_LAYERS + 1
            ),
        ));
    }
    let mut inputs = m;
    let mut layers = Vec::with_capacity(head.layers.len());
    for (k, layer) in head.layers.iter().enumerate() {
        let outputs = if k == hidden { n } else { layer.b.len() };
        if outputs == 0 || outputs > MAX_HEAD_WIDTH {
            return Err(shape(
                &format!("{path}.layers[{k}].b"),
                format!("has {outputs} entries (1 to {MAX_HEAD_WIDTH})"),
            ));
        }
        layers.push(check_dense(
            &format!("{path}.layers[{k}]"),
            layer,
            inputs,
            outputs,
        )?);
        inputs = outputs;
    }
    SectionHead::new(layers).map_err(|e| shape(path, e.to_string()))
}

fn check_dense(path: &str, layer: &DenseWeights, inputs: usize, outputs: usize) -> Checked<Dense> {
    let w = matrix(&format!("{path}.w"), &layer.w, outputs, inputs)?;
    let b = vector(&format!("{path}.b"), &layer.b, outputs)?;
    Dense::new(w, b).map_err(|e| shape(path, e.to_string()))
}
/// The problem a model file names: its problem spec built, with its cost (every kind's
/// validation starts here).
pub fn problem_of(spec: &ProblemSpec, cost: &CostSpec) -> Result<Problem, ArtifactError> {
    let kinematics = spec
        .build()
        .map_err(|e| ArtifactError::Problem(e.to_string()))?;
    Problem::new(kinematics, cost.clone()).map_err(|e| ArtifactError::Cost(e.to_string()))
}
