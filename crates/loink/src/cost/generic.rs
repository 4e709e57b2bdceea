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
        Term::JointLimit => Arc::new(ScaledSquares {
            weight,
            offset: limits.centres(),
            scale: (0..n).map(|i| limits.half_width(i)).collect(),
        }),
        Term::Effort => Arc::new(ScaledSquares {
            weight,
            offset: vec![0.0; n],
            scale: vec![1.0; n],
        }),
        Term::Actuation => Arc::new(ScaledSquares {
            weight,
            offset: limits.lower().to_vec(),
            scale: (0..n)
                .map(|i| limits.upper()[i] - limits.lower()[i])
                .collect(),
        }),
        Term::Data => Arc::new(DataTerm { weight }),
        _ => return None,
    })
}

/// weight · Σ ((q_i − a_i)/s_i)²: joint centring (a the range's centre, s its half-width),
/// effort (a = 0, s = 1) and actuation (a the lower limit, s the range).
#[derive(Debug, Clone)]
struct ScaledSquares {
    weight: f64,
    offset: Vec<f64>,
    scale: Vec<f64>,
}

impl CostTerm for ScaledSquares {
    fn accumulate(&self, q: &[f64], total: &mut f64, mut grad: Option<&mut [f64]>) {
        for (i, &qi) in q.iter().enumerate() {
            let u = (qi - self.offset[i]) / self.scale[i];
            *total += self.weight * u * u;
            if let Some(g) = grad.as_deref_mut() {
                g[i] += 2.0 * self.weight * u / self.scale[i];
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
