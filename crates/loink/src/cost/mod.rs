//! Costs J(q) to minimise over the solution set {q : f(q) = y}: a weighted sum of terms, each
//! with its value and gradient.
//!
//! Terms any problem has (they need only the joint box; `generic.rs`):
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
use crate::problem::Kinematics;

mod generic;
mod term;

pub use term::{Term, TermInfo, TermSpec, TERMS};

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
                TermSpec::new(Term::JointLimit, 1.0),
                TermSpec::new(Term::CentreOfMass, 4.0),
            ],
        }
    }

    /// The joint centring Σ ((q_i − c_i)/h_i)² alone: the serial chains' cost (docs/panda.md;
    /// TRAC-IK's "nominal pose midway between the limits").
    pub fn joint_centring() -> Self {
        Self {
            terms: vec![TermSpec::new(Term::JointLimit, 1.0)],
        }
    }

    /// Joint centring kept clear of the robot itself and of its scene: `limits=1,self=10,scene=10`
    /// (docs/collision.md: contact costs ten times a joint at its limit).
    pub fn with_collisions() -> Self {
        Self {
            terms: vec![
                TermSpec::new(Term::JointLimit, 1.0),
                TermSpec::new(Term::SelfCollision, 10.0),
                TermSpec::new(Term::SceneCollision, 10.0),
            ],
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
            let term = Term::from_word(name.trim()).ok_or_else(|| {
                LoinkError::InvalidCost(format!(
                    "unknown term '{}' (known: {})",
                    name.trim(),
                    Term::words().join(", ")
                ))
            })?;
            terms.push(TermSpec::new(term, weight));
        }
        let spec = Self { terms };
        spec.validate()?;
        Ok(spec)
    }

    /// The cost as a formula a reader can check, e.g. `J = Σ((qᵢ − cᵢ)/hᵢ)² + 4·com_x²`
    /// (cᵢ and hᵢ the centre and half-width of joint i's range; lᵢ, uᵢ its limits).
    pub fn formula(&self) -> String {
        format!("J = {}", self.weighted_sum("·", |info| info.formula))
    }

    /// The cost in words, e.g. "joint centring + 4 × the centre of mass's horizontal offset²".
    pub fn words(&self) -> String {
        self.weighted_sum(" × ", |info| info.words)
    }

    /// Each term's `part` of its facts, its weight before it joined by `times` (none for a
    /// weight of 1), the terms joined by " + ".
    fn weighted_sum(&self, times: &str, part: fn(&term::TermInfo) -> &'static str) -> String {
        self.terms
            .iter()
            .map(|t| {
                let body = part(&t.term.info());
                if t.weight == 1.0 {
                    body.to_string()
                } else {
                    format!("{}{times}{body}", t.weight)
                }
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

    /// The longest cost step (rad) a Newton model of this term holds for, when its curvature
    /// changes over shorter moves (a hinge that switches on within a few centimetres): the
    /// polish then limits its cost steps to it and measures the curvature afresh each step.
    /// `None` (the default): a smooth term, no limit.
    fn max_step(&self) -> Option<f64> {
        None
    }
}

/// A cost bound to a problem: evaluates J(q) and ∇J(q).
#[derive(Debug, Clone)]
pub struct CostModel {
    spec: CostSpec,
    dof: usize,
    terms: Vec<Arc<dyn CostTerm>>,
    max_step: Option<f64>,
}

impl PartialEq for CostModel {
    fn eq(&self, other: &Self) -> bool {
        self.spec == other.spec && self.dof == other.dof
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
                .map(|t| match generic::build(t, kinematics.limits()) {
                    Some(term) => Ok(term),
                    None => kind_term(kinematics, t),
                })
                .collect::<Result<Vec<_>>>()?,
        };
        let max_step = terms.iter().filter_map(|t| t.max_step()).reduce(f64::min);
        Ok(Self {
            spec,
            dof: kinematics.limits().len(),
            terms,
            max_step,
        })
    }

    /// The longest cost step (rad) the polish should take (`None`: no limit): the shortest any
    /// term asks for ([`CostTerm::max_step`]).
    pub fn max_step(&self) -> Option<f64> {
        self.max_step
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
