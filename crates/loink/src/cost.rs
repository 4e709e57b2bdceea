//! Costs J(q) to minimise over the solution set {q : f(q) = y}: a weighted sum of terms, each
//! with its value and gradient.
//!
//! Terms any problem has (they need only the joint box):
//! - joint-limit: Σ_i ((q_i − c_i)/h_i)², c_i and h_i the centre and half-width of joint i's range;
//! - effort: Σ_i q_i²;
//! - actuation: Σ_i ((q_i − lower_i)/(upper_i − lower_i))², each joint's travel from its lower
//!   bound as a share of its range (a soft arm's twist effort Σ (φ_j/φ_max)²).
//!
//! Terms only one kind of problem can evaluate are built by that kind
//! (`Kinematics::cost_term`): a planar arm's centre-of-mass term com_x(q)²; the climber's
//! adhesion, ankles and tilt (docs/climber.md). The `planar3` cost of `docs/planar3.md` is
//! joint-limit + 4 · centre-of-mass.

use std::fmt::Debug;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::error::{LoinkError, Result};
use crate::problem::{JointLimits, Kinematics};

/// One weighted term as a file stores it: `{"term": "joint_limit", "weight": 1.0}`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(tag = "term", rename_all = "snake_case", from = "TaggedTerm")]
pub enum TermSpec {
    /// weight · Σ ((q_i − c_i)/h_i)².
    JointLimit { weight: f64 },
    /// weight · com_x² (planar arms).
    CentreOfMass { weight: f64 },
    /// weight · Σ q_i².
    Effort { weight: f64 },
    /// weight · Σ ((q_i − lower_i)/(upper_i − lower_i))².
    Actuation { weight: f64 },
    /// weight · the magnet pull the climber's feet need, a smooth maximum over its leg pairs, in
    /// body weights (the climber; feature `climber`).
    #[cfg(feature = "climber")]
    Adhesion { weight: f64 },
    /// weight · Σ (u_i + u_i⁴) of the climber's passive ankles (u = 1 at their limit).
    #[cfg(feature = "climber")]
    Ankles { weight: f64 },
    /// weight · (1 − cos α)/(1 − cos α_ref): the climber's body tilt against its wall.
    #[cfg(feature = "climber")]
    Tilt { weight: f64 },
    /// The cost a data file gave for its rows, whatever made it: no formula, so it evaluates
    /// to NaN (a model trained from data alone records this; nothing can recompute it; the
    /// `data-only` feature).
    #[cfg(feature = "data-only")]
    Data { weight: f64 },
}

/// The file form of a [`TermSpec`], read as a flat struct: serde decodes an internally tagged
/// enum by buffering the object first, and that machinery was ~20 KB of the playground's wasm.
/// Same JSON either way (unknown keys ignored, `term` and `weight` required).
#[derive(Deserialize)]
struct TaggedTerm {
    term: TermKind,
    weight: f64,
}

#[derive(Deserialize)]
#[serde(rename_all = "snake_case")]
enum TermKind {
    JointLimit,
    CentreOfMass,
    Effort,
    Actuation,
    #[cfg(feature = "climber")]
    Adhesion,
    #[cfg(feature = "climber")]
    Ankles,
    #[cfg(feature = "climber")]
    Tilt,
    #[cfg(feature = "data-only")]
    Data,
}

impl From<TaggedTerm> for TermSpec {
    fn from(t: TaggedTerm) -> Self {
        let weight = t.weight;
        match t.term {
            TermKind::JointLimit => TermSpec::JointLimit { weight },
            TermKind::CentreOfMass => TermSpec::CentreOfMass { weight },
            TermKind::Effort => TermSpec::Effort { weight },
            TermKind::Actuation => TermSpec::Actuation { weight },
            #[cfg(feature = "climber")]
            TermKind::Adhesion => TermSpec::Adhesion { weight },
            #[cfg(feature = "climber")]
            TermKind::Ankles => TermSpec::Ankles { weight },
            #[cfg(feature = "climber")]
            TermKind::Tilt => TermSpec::Tilt { weight },
            #[cfg(feature = "data-only")]
            TermKind::Data => TermSpec::Data { weight },
        }
    }
}

/// The words of [`CostSpec::parse`] in this build, in [`TermSpec`] order.
#[allow(unused_mut)] // nothing to add without the optional kinds
fn term_words() -> Vec<&'static str> {
    let mut words = vec!["limits", "com", "effort", "actuation"];
    #[cfg(feature = "climber")]
    words.extend(["adhesion", "ankles", "tilt"]);
    #[cfg(feature = "data-only")]
    words.push("data");
    words
}

impl TermSpec {
    /// Its weight.
    pub fn weight(&self) -> f64 {
        match *self {
            TermSpec::JointLimit { weight }
            | TermSpec::CentreOfMass { weight }
            | TermSpec::Effort { weight }
            | TermSpec::Actuation { weight } => weight,
            #[cfg(feature = "climber")]
            TermSpec::Adhesion { weight }
            | TermSpec::Ankles { weight }
            | TermSpec::Tilt { weight } => weight,
            #[cfg(feature = "data-only")]
            TermSpec::Data { weight } => weight,
        }
    }
    /// Its word in [`CostSpec::parse`]'s syntax.
    pub fn word(&self) -> &'static str {
        match self {
            TermSpec::JointLimit { .. } => "limits",
            TermSpec::CentreOfMass { .. } => "com",
            TermSpec::Effort { .. } => "effort",
            TermSpec::Actuation { .. } => "actuation",
            #[cfg(feature = "climber")]
            TermSpec::Adhesion { .. } => "adhesion",
            #[cfg(feature = "climber")]
            TermSpec::Ankles { .. } => "ankles",
            #[cfg(feature = "climber")]
            TermSpec::Tilt { .. } => "tilt",
            #[cfg(feature = "data-only")]
            TermSpec::Data { .. } => "data",
        }
    }
}

/// A weighted sum of cost terms, serialisable into model files.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CostSpec {
    /// The terms, summed.
    pub terms: Vec<TermSpec>,
}

impl CostSpec {
    /// The cost of `docs/planar3.md`: joint-limit + 4 · com_x².
    pub fn planar3() -> Self {
        Self {
            terms: vec![
                TermSpec::JointLimit { weight: 1.0 },
                TermSpec::CentreOfMass { weight: 4.0 },
            ],
        }
    }

    /// The joint centring Σ ((q_i − c_i)/h_i)² alone: the serial chains' cost (docs/panda.md;
    /// TRAC-IK's "nominal pose midway between the limits").
    pub fn joint_centring() -> Self {
        Self {
            terms: vec![TermSpec::JointLimit { weight: 1.0 }],
        }
    }

    /// Parses `"limits=1,com=4,effort=0.1"` (words `limits`, `com`, `effort`, `actuation`;
    /// weights finite, ≥ 0).
    pub fn parse(text: &str) -> Result<Self> {
        let mut terms = Vec::new();
        for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (name, weight) = part
                .split_once('=')
                .ok_or_else(|| LoinkError::InvalidCost(format!("'{part}' is not NAME=WEIGHT")))?;
            let weight: f64 = weight.trim().parse().map_err(|_| {
                LoinkError::InvalidCost(format!("weight '{weight}' is not a number"))
            })?;
            if !(weight.is_finite() && weight >= 0.0) {
                return Err(LoinkError::InvalidCost(format!(
                    "weight {weight} must be finite and ≥ 0"
                )));
            }
            terms.push(match name.trim() {
                "limits" => TermSpec::JointLimit { weight },
                "com" => TermSpec::CentreOfMass { weight },
                "effort" => TermSpec::Effort { weight },
                "actuation" => TermSpec::Actuation { weight },
                #[cfg(feature = "climber")]
                "adhesion" => TermSpec::Adhesion { weight },
                #[cfg(feature = "climber")]
                "ankles" => TermSpec::Ankles { weight },
                #[cfg(feature = "climber")]
                "tilt" => TermSpec::Tilt { weight },
                #[cfg(feature = "data-only")]
                "data" => TermSpec::Data { weight },
                other => {
                    return Err(LoinkError::InvalidCost(format!(
                        "unknown term '{other}' (known: {})",
                        term_words().join(", ")
                    )))
                }
            });
        }
        let spec = Self { terms };
        spec.validate()?;
        Ok(spec)
    }

    /// The cost as a formula a reader can check, e.g. `J = Σ((qᵢ − cᵢ)/hᵢ)² + 4·com_x²`
    /// (cᵢ and hᵢ the centre and half-width of joint i's range; lᵢ, uᵢ its limits).
    pub fn formula(&self) -> String {
        let weighted = |w: f64, body: &str| {
            if w == 1.0 {
                body.to_string()
            } else {
                format!("{w}·{body}")
            }
        };
        let terms: Vec<String> = self
            .terms
            .iter()
            .map(|t| match *t {
                TermSpec::JointLimit { weight } => weighted(weight, "Σ((qᵢ − cᵢ)/hᵢ)²"),
                TermSpec::CentreOfMass { weight } => weighted(weight, "com_x²"),
                TermSpec::Effort { weight } => weighted(weight, "Σqᵢ²"),
                TermSpec::Actuation { weight } => weighted(weight, "Σ((qᵢ − lᵢ)/(uᵢ − lᵢ))²"),
                #[cfg(feature = "climber")]
                TermSpec::Adhesion { weight } => weighted(weight, "LSE_β(a_U, a_L)/W"),
                #[cfg(feature = "climber")]
                TermSpec::Ankles { weight } => weighted(weight, "Σ(uᵢ + uᵢ⁴)"),
                #[cfg(feature = "climber")]
                TermSpec::Tilt { weight } => weighted(weight, "(1 − cos α)/(1 − cos α_ref)"),
                #[cfg(feature = "data-only")]
                TermSpec::Data { weight } => weighted(weight, "J(data)"),
            })
            .collect();
        format!("J = {}", terms.join(" + "))
    }

    /// The cost in words, e.g. "joint centring + 4 × the centre of mass's horizontal offset²".
    pub fn words(&self) -> String {
        let weighted = |w: f64, body: &str| {
            if w == 1.0 {
                body.to_string()
            } else {
                format!("{w} × {body}")
            }
        };
        self.terms
            .iter()
            .map(|t| match *t {
                TermSpec::JointLimit { weight } => weighted(
                    weight,
                    "joint centring (each joint's distance from mid-range)²",
                ),
                TermSpec::CentreOfMass { weight } => {
                    weighted(weight, "the centre of mass's horizontal offset²")
                }
                TermSpec::Effort { weight } => weighted(weight, "effort Σqᵢ²"),
                TermSpec::Actuation { weight } => weighted(
                    weight,
                    "actuation (each joint's travel as a share of its range)²",
                ),
                #[cfg(feature = "climber")]
                TermSpec::Adhesion { weight } => weighted(
                    weight,
                    "the magnet pull the feet need (the larger pair's, smoothly, in body weights)",
                ),
                #[cfg(feature = "climber")]
                TermSpec::Ankles { weight } => {
                    weighted(weight, "the passive ankles' distance from square")
                }
                #[cfg(feature = "climber")]
                TermSpec::Tilt { weight } => weighted(weight, "the body's tilt against the wall"),
                #[cfg(feature = "data-only")]
                TermSpec::Data { weight } => weighted(weight, "the data file's own cost"),
            })
            .collect::<Vec<_>>()
            .join(" + ")
    }

    /// Checks that there is a term and every weight is finite and non-negative.
    pub fn validate(&self) -> Result<()> {
        if self.terms.is_empty() {
            return Err(LoinkError::InvalidCost("no terms".into()));
        }
        match self
            .terms
            .iter()
            .find(|t| !(t.weight().is_finite() && t.weight() >= 0.0))
        {
            Some(t) => Err(LoinkError::InvalidCost(format!(
                "weight {} must be finite and ≥ 0",
                t.weight()
            ))),
            None => Ok(()),
        }
    }
}

/// One term of a bound cost. Terms add themselves into running totals so that a sum of terms
/// is evaluated in one fixed order (the same bits whatever the term types).
pub trait CostTerm: Debug + Send + Sync {
    /// Adds the term's value at q into `total` and, when given, its gradient into `grad`.
    /// q and `grad` have n entries.
    fn accumulate(&self, q: &[f64], total: &mut f64, grad: Option<&mut [f64]>);
}

/// weight · Σ ((q_i − c_i)/h_i)².
#[derive(Debug, Clone)]
struct JointLimitTerm {
    weight: f64,
    centre: Vec<f64>,
    half_width: Vec<f64>,
}

impl CostTerm for JointLimitTerm {
    fn accumulate(&self, q: &[f64], total: &mut f64, mut grad: Option<&mut [f64]>) {
        for (i, &qi) in q.iter().enumerate() {
            let u = (qi - self.centre[i]) / self.half_width[i];
            *total += self.weight * u * u;
            if let Some(g) = grad.as_deref_mut() {
                g[i] += 2.0 * self.weight * u / self.half_width[i];
            }
        }
    }
}

/// weight · Σ q_i².
#[derive(Debug, Clone)]
struct EffortTerm {
    weight: f64,
}

impl CostTerm for EffortTerm {
    fn accumulate(&self, q: &[f64], total: &mut f64, mut grad: Option<&mut [f64]>) {
        for (i, &qi) in q.iter().enumerate() {
            *total += self.weight * qi * qi;
            if let Some(g) = grad.as_deref_mut() {
                g[i] += 2.0 * self.weight * qi;
            }
        }
    }
}

/// weight · Σ ((q_i − lower_i)/(upper_i − lower_i))².
#[derive(Debug, Clone)]
struct ActuationTerm {
    weight: f64,
    lower: Vec<f64>,
    range: Vec<f64>,
}

impl CostTerm for ActuationTerm {
    fn accumulate(&self, q: &[f64], total: &mut f64, mut grad: Option<&mut [f64]>) {
        for (i, &qi) in q.iter().enumerate() {
            let u = (qi - self.lower[i]) / self.range[i];
            *total += self.weight * u * u;
            if let Some(g) = grad.as_deref_mut() {
                g[i] += 2.0 * self.weight * u / self.range[i];
            }
        }
    }
}

/// A cost bound to a problem: evaluates J(q) and ∇J(q).
#[derive(Debug, Clone)]
pub struct CostModel {
    spec: CostSpec,
    dof: usize,
    terms: Vec<Arc<dyn CostTerm>>,
}

impl PartialEq for CostModel {
    fn eq(&self, other: &Self) -> bool {
        self.spec == other.spec && self.dof == other.dof
    }
}

fn generic_term(term: &TermSpec, limits: &JointLimits) -> Option<Arc<dyn CostTerm>> {
    let n = limits.len();
    Some(match *term {
        TermSpec::JointLimit { weight } => Arc::new(JointLimitTerm {
            weight,
            centre: limits.centres(),
            half_width: (0..n).map(|i| limits.half_width(i)).collect(),
        }),
        TermSpec::Effort { weight } => Arc::new(EffortTerm { weight }),
        TermSpec::Actuation { weight } => Arc::new(ActuationTerm {
            weight,
            lower: limits.lower().to_vec(),
            range: (0..n)
                .map(|i| limits.upper()[i] - limits.lower()[i])
                .collect(),
        }),
        #[cfg(feature = "data-only")]
        TermSpec::Data { weight } => Arc::new(DataTerm { weight }),
        TermSpec::CentreOfMass { .. } => return None,
        #[cfg(feature = "climber")]
        TermSpec::Adhesion { .. } | TermSpec::Ankles { .. } | TermSpec::Tilt { .. } => return None,
    })
}

/// The data file's own cost: unknown away from its rows (NaN value and gradient).
#[cfg(feature = "data-only")]
#[derive(Debug, Clone)]
struct DataTerm {
    weight: f64,
}

#[cfg(feature = "data-only")]
impl CostTerm for DataTerm {
    fn accumulate(&self, _q: &[f64], total: &mut f64, grad: Option<&mut [f64]>) {
        *total += self.weight * f64::NAN;
        if let Some(g) = grad {
            g.fill(f64::NAN);
        }
    }
}

impl CostModel {
    /// Binds `spec` to a problem's kind: the box gives the generic terms' constants, the kind
    /// builds its own terms; a term the kind cannot evaluate is an error.
    pub fn new(spec: CostSpec, kinematics: &dyn Kinematics) -> Result<Self> {
        spec.validate()?;
        let terms = match kinematics.cost_terms_together(&spec.terms) {
            Some(together) => vec![together],
            None => spec
                .terms
                .iter()
                .map(|t| match generic_term(t, kinematics.limits()) {
                    Some(term) => Ok(term),
                    None => kind_term(kinematics, t),
                })
                .collect::<Result<Vec<_>>>()?,
        };
        Ok(Self {
            spec,
            dof: kinematics.limits().len(),
            terms,
        })
    }

    /// The spec this model evaluates.
    pub fn spec(&self) -> &CostSpec {
        &self.spec
    }

    /// Number of joints the cost expects.
    pub fn dof(&self) -> usize {
        self.dof
    }

    /// J(q); NaN when q does not have [`Self::dof`] entries (never a silent partial sum).
    pub fn value(&self, q: &[f64]) -> f64 {
        if q.len() != self.dof {
            return f64::NAN;
        }
        let mut total = 0.0;
        for term in &self.terms {
            term.accumulate(q, &mut total, None);
        }
        total
    }

    /// J(q) and ∇J(q); NaN and an all-NaN gradient when q has the wrong length.
    pub fn value_and_gradient(&self, q: &[f64]) -> (f64, Vec<f64>) {
        let mut grad = vec![0.0; self.dof];
        let value = self.value_and_gradient_into(q, &mut grad);
        (value, grad)
    }

    /// J(q), with ∇J(q) written into `grad` (n entries; overwritten).
    pub fn value_and_gradient_into(&self, q: &[f64], grad: &mut [f64]) -> f64 {
        if q.len() != self.dof || grad.len() != self.dof {
            grad.iter_mut().for_each(|g| *g = f64::NAN);
            return f64::NAN;
        }
        grad.iter_mut().for_each(|g| *g = 0.0);
        let mut total = 0.0;
        for term in &self.terms {
            term.accumulate(q, &mut total, Some(grad));
        }
        total
    }
}

/// Builds a cost term that only this problem's kind can evaluate (an error naming the term and
/// the problem where it does not apply).
fn kind_term(kinematics: &dyn Kinematics, term: &TermSpec) -> Result<Arc<dyn CostTerm>> {
    kinematics.cost_term(term).ok_or_else(|| {
        LoinkError::InvalidCost(format!(
            "term '{}' does not apply to '{}' (a {} problem)",
            term.word(),
            kinematics.name(),
            kinematics.kind()
        ))
    })
}
