//! The terms any problem can evaluate: they need only its joint box.

use std::sync::Arc;

use super::{CostTerm, Term, TermSpec};
use crate::problem::limits::JointLimits;

/// The term `spec` names bound to `limits`, when the box alone defines it (`None`: a term only
/// a kind of problem can evaluate).
pub(super) fn build(spec: &TermSpec, limits: &JointLimits) -> Option<Arc<dyn CostTerm>> {
    let n = limits.len();
    let weight = spec.weight;
    Some(match spec.term {
        Term::JointLimit => Arc::new(JointLimitTerm {
            weight,
            centre: limits.centres(),
            half_width: (0..n).map(|i| limits.half_width(i)).collect(),
        }),
        Term::Effort => Arc::new(EffortTerm { weight }),
        Term::Actuation => Arc::new(ActuationTerm {
            weight,
            lower: limits.lower().to_vec(),
            range: (0..n)
                .map(|i| limits.upper()[i] - limits.lower()[i])
                .collect(),
        }),
        Term::Data => Arc::new(DataTerm { weight }),
        _ => return None,
    })
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

/// The data file's own cost: unknown away from its rows (NaN value and gradient).
#[derive(Debug, Clone)]
struct DataTerm {
    weight: f64,
}

impl CostTerm for DataTerm {
    fn accumulate(&self, _q: &[f64], total: &mut f64, grad: Option<&mut [f64]>) {
        *total += self.weight * f64::NAN;
        if let Some(g) = grad {
            g.fill(f64::NAN);
        }
    }
}
