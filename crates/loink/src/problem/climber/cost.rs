//! The climber's cost terms (docs/climber.md §3), in units of body weight:
//! - adhesion: (1/β) ln(e^{β a_U/W} + e^{β a_L/W}), a smooth maximum of the magnet pull the two
//!   pairs need (β = 20; over-estimates the peak by at most W ln 2/β);
//! - ankles: Σ_i (u_i + u_i⁴), u_i = (1 − cos ψ_i)/(1 − cos ψ_max): the passive ankles centred,
//!   1 at their limit and steep beyond;
//! - tilt: (1 − ŝ_u)/(1 − cos α_ref) ≈ (α/α_ref)², α_ref = 0.5 rad: the body kept near parallel to
//!   the wall (and off it).
//!
//! Their gradients are central differences of the closed form (step 1e-6 rad; five joints, a few
//! hundred flops per evaluation): the statics' derivative by hand would be long and fragile. A
//! difference moves one leg (or the body angle) and keeps the rest of the stance; the ankles and
//! the tilt do not depend on the body angle at all.

use crate::cost::CostTerm;

use super::body::{Leg, Stance, ANKLE_MAX};
use super::statics::{forces, WEIGHT};

/// β of the smooth maximum (on a/W).
pub const SHARPNESS: f64 = 20.0;
/// α_ref (rad).
pub const TILT_REF: f64 = 0.5;

/// Which of the three terms.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Part {
    /// The magnet pull, smooth maximum over the pairs.
    Adhesion,
    /// The passive ankles' centring.
    Ankles,
    /// The body's tilt against the wall.
    Tilt,
}

/// One weighted part of the climber's cost.
#[derive(Debug, Clone, Copy)]
pub struct ClimberTerm {
    /// The part.
    pub part: Part,
    /// Its weight.
    pub weight: f64,
}

/// The part's value at x (unweighted).
pub fn value(part: Part, x: &[f64]) -> f64 {
    value_at(part, &Stance::new(x))
}

/// The part's value at a stance (unweighted).
fn value_at(part: Part, stance: &Stance) -> f64 {
    match part {
        Part::Adhesion => {
            let a = forces(stance).adhesion;
            let (hi, lo) = if a[0] >= a[1] {
                (a[0], a[1])
            } else {
                (a[1], a[0])
            };
            hi / WEIGHT + (-(SHARPNESS * (hi - lo) / WEIGHT)).exp().ln_1p() / SHARPNESS
        }
        Part::Ankles => {
            let scale = 1.0 - ANKLE_MAX.cos();
            [&stance.front, &stance.rear]
                .iter()
                .map(|leg| {
                    let u = (1.0 - stance.ankle_cos(leg)) / scale;
                    u + u.powi(4)
                })
                .sum()
        }
        Part::Tilt => (1.0 - stance.along[0]) / (1.0 - TILT_REF.cos()),
    }
}

/// The stance at x with x_i moved by `step`, re-placing only what x_i moves.
fn moved(stance: &Stance, x: &[f64], i: usize, step: f64) -> Stance {
    let mut at = [x[0], x[1], x[2], x[3], x[4]];
    at[i] += step;
    match i {
        0 => stance.turned_to(at[0]),
        1 | 2 => stance.with_legs(Leg::new(1.0, at[1], at[2]), stance.rear),
        _ => stance.with_legs(stance.front, Leg::new(-1.0, at[3], at[4])),
    }
}

impl CostTerm for ClimberTerm {
    fn accumulate(&self, q: &[f64], total: &mut f64, grad: Option<&mut [f64]>) {
        if q.len() != 5 {
            *total = f64::NAN;
            return;
        }
        let stance = Stance::new(q);
        *total += self.weight * value_at(self.part, &stance);
        if let Some(grad) = grad {
            const STEP: f64 = 1e-6;
            // Only the adhesion sees the body angle (through gravity in the body frame).
            let first = if self.part == Part::Adhesion { 0 } else { 1 };
            for (i, g) in grad.iter_mut().enumerate().take(5).skip(first) {
                let up = value_at(self.part, &moved(&stance, q, i, STEP));
                let down = value_at(self.part, &moved(&stance, q, i, -STEP));
                *g += self.weight * (up - down) / (2.0 * STEP);
            }
        }
    }
}
