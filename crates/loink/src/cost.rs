//! Costs J(q) to minimise over the solution set {q : p(q) = y}.
//!
//! Terms (each with value and gradient):
//! - joint-limit: Σ_i ((q_i − c_i)/h_i)², c_i and h_i the centre and half-width of joint i's range;
//! - centre-of-mass: com_x(q)², the horizontal offset of the centre of mass from the base;
//! - effort: Σ_i q_i².
//!
//! The `planar3` cost of `design/planar3.md` is joint-limit + 4 · centre-of-mass.

use serde::{Deserialize, Serialize};

use crate::error::{LoinkError, Result};
use crate::robot::{PlanarArm, Robot};

/// One weighted term of a cost; in files `{"term": "joint_limit", "weight": 1.0}`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(tag = "term", rename_all = "snake_case", from = "TaggedTerm")]
pub enum CostTerm {
    /// weight · Σ ((q_i − c_i)/h_i)².
    JointLimit { weight: f64 },
    /// weight · com_x².
    CentreOfMass { weight: f64 },
    /// weight · Σ q_i².
    Effort { weight: f64 },
}

/// The file form of a [`CostTerm`], read as a flat struct: serde decodes an internally tagged
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
}

impl From<TaggedTerm> for CostTerm {
    fn from(t: TaggedTerm) -> Self {
        let weight = t.weight;
        match t.term {
            TermKind::JointLimit => CostTerm::JointLimit { weight },
            TermKind::CentreOfMass => CostTerm::CentreOfMass { weight },
            TermKind::Effort => CostTerm::Effort { weight },
        }
    }
}

impl CostTerm {
    fn weight(&self) -> f64 {
        match *self {
            CostTerm::JointLimit { weight }
            | CostTerm::CentreOfMass { weight }
            | CostTerm::Effort { weight } => weight,
        }
    }
}

/// A weighted sum of cost terms, serialisable into model artifacts.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CostSpec {
    /// The terms, summed.
    pub terms: Vec<CostTerm>,
}

impl CostSpec {
    /// The cost of `design/planar3.md`: joint-limit + 4 · com_x².
    pub fn planar3() -> Self {
        Self {
            terms: vec![
                CostTerm::JointLimit { weight: 1.0 },
                CostTerm::CentreOfMass { weight: 4.0 },
            ],
        }
    }

    /// Parses `"limits=1,com=4,effort=0.1"` (names: `limits`, `com`, `effort`; weights finite, ≥ 0).
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
                "limits" => CostTerm::JointLimit { weight },
                "com" => CostTerm::CentreOfMass { weight },
                "effort" => CostTerm::Effort { weight },
                other => {
                    return Err(LoinkError::InvalidCost(format!(
                        "unknown term '{other}' (known: limits, com, effort)"
                    )))
                }
            });
        }
        if terms.is_empty() {
            return Err(LoinkError::InvalidCost("no terms".into()));
        }
        Ok(Self { terms })
    }

    /// Checks that every weight is finite and non-negative.
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

/// A cost bound to an arm: evaluates J(q) and ∇J(q).
#[derive(Debug, Clone, PartialEq)]
pub struct CostModel {
    spec: CostSpec,
    centre: Vec<f64>,
    half_width: Vec<f64>,
    com_coeffs: Vec<f64>,
}

impl CostModel {
    /// Binds `spec` to `arm` (its limits give c and h, its links the centre-of-mass coefficients).
    pub fn new(spec: CostSpec, arm: &PlanarArm) -> Result<Self> {
        spec.validate()?;
        let limits = arm.limits();
        Ok(Self {
            spec,
            centre: limits.centres(),
            half_width: (0..arm.dof()).map(|i| limits.half_width(i)).collect(),
            com_coeffs: arm.com_coeffs().to_vec(),
        })
    }

    /// The spec this model evaluates.
    pub fn spec(&self) -> &CostSpec {
        &self.spec
    }

    /// Number of joints the cost expects.
    pub fn dof(&self) -> usize {
        self.centre.len()
    }

    /// J(q). q must have [`Self::dof`] entries (extra entries are ignored, missing ones skipped).
    pub fn value(&self, q: &[f64]) -> f64 {
        self.evaluate(q, None)
    }

    /// J(q) and ∇J(q).
    pub fn value_and_gradient(&self, q: &[f64]) -> (f64, Vec<f64>) {
        let mut grad = vec![0.0; self.dof()];
        let value = self.evaluate(q, Some(&mut grad));
        (value, grad)
    }

    fn evaluate(&self, q: &[f64], mut grad: Option<&mut Vec<f64>>) -> f64 {
        let n = self.dof().min(q.len());
        let mut total = 0.0;
        for term in &self.spec.terms {
            match *term {
                CostTerm::JointLimit { weight } => {
                    for i in 0..n {
                        let u = (q[i] - self.centre[i]) / self.half_width[i];
                        total += weight * u * u;
                        if let Some(g) = grad.as_deref_mut() {
                            g[i] += 2.0 * weight * u / self.half_width[i];
                        }
                    }
                }
                CostTerm::CentreOfMass { weight } => {
                    // com_x = Σ a_k cos s_k; ∂com_x/∂q_i = −Σ_{k≥i} a_k sin s_k = −(T − Σ_{k<i} a_k sin s_k)
                    // with T = Σ_k a_k sin s_k: two passes, no allocation (this runs in the reference sweep).
                    let (mut s, mut com_x, mut sine_total) = (0.0, 0.0, 0.0);
                    for (qi, a) in q.iter().zip(&self.com_coeffs).take(n) {
                        s += qi;
                        com_x += a * s.cos();
                        sine_total += a * s.sin();
                    }
                    total += weight * com_x * com_x;
                    if let Some(g) = grad.as_deref_mut() {
                        let (mut s, mut prefix) = (0.0, 0.0);
                        for ((gi, qi), a) in g.iter_mut().zip(q).zip(&self.com_coeffs).take(n) {
                            *gi += 2.0 * weight * com_x * -(sine_total - prefix);
                            s += qi;
                            prefix += a * s.sin();
                        }
                    }
                }
                CostTerm::Effort { weight } => {
                    for i in 0..n {
                        total += weight * q[i] * q[i];
                        if let Some(g) = grad.as_deref_mut() {
                            g[i] += 2.0 * weight * q[i];
                        }
                    }
                }
            }
        }
        total
    }
}
