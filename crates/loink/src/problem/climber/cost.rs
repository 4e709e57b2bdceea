//! The climber's cost terms (docs/climber.md §3), in units of body weight:
//! - adhesion: (1/β) ln(e^{β a_U/W} + e^{β a_L/W}), a smooth maximum of the magnet pull the two
//!   pairs need (β = 20; over-estimates the peak by at most W ln 2/β);
//! - ankles: Σ_i (u_i + u_i⁴), u_i = (1 − cos ψ_i)/(1 − cos ψ_max): the passive ankles centred,
//!   1 at their limit and steep beyond;
//! - tilt: (1 − ŝ_u)/(1 − cos α_ref) ≈ (α/α_ref)², α_ref = 0.5 rad: the body kept near parallel to
//!   the wall (and off it).
//!
//! The ankles' and the tilt's gradients are analytic (they depend on the legs through ŝ and e2
//! only). The adhesion's is central differences of the closed form (step 1e-6 rad; a few hundred
//! flops per evaluation): the statics' derivative by hand would be long and fragile. A difference
//! moves one leg (or the body angle) and keeps the rest of the stance.

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

/// ∂/∂x of the ankles' or the tilt's term (neither depends on θ_b). With D = A_U − A_L, d = ‖D‖:
/// ∂ŝ = (∂D − ŝ (ŝ·∂D))/d, ∂n̂ = (−∂ŝ_v, ∂ŝ_u), and a leg's ∂e2 is e2 turned a quarter, for its
/// own femur and tibia only.
fn shape_gradient(part: Part, stance: &Stance) -> [f64; 5] {
    let (front, rear) = (
        stance.front.ankle_derivatives(),
        stance.rear.ankle_derivatives(),
    );
    // ∂D/∂x_i for x_1…x_4.
    let moves = [
        front.0,
        front.1,
        [-rear.0[0], -rear.0[1]],
        [-rear.1[0], -rear.1[1]],
    ];
    let s = stance.along;
    let mut grad = [0.0; 5];
    for (i, dd) in moves.iter().enumerate() {
        let along = s[0] * dd[0] + s[1] * dd[1];
        let ds = [
            (dd[0] - s[0] * along) / stance.span,
            (dd[1] - s[1] * along) / stance.span,
        ];
        grad[i + 1] = match part {
            Part::Tilt => -ds[0] / (1.0 - TILT_REF.cos()),
            _ => {
                let dn = [-ds[1], ds[0]];
                let scale = 1.0 - ANKLE_MAX.cos();
                [(&stance.front, i < 2), (&stance.rear, i >= 2)]
                    .iter()
                    .map(|&(leg, own)| {
                        let e2 = leg.e2;
                        let mut dcos = -(dn[0] * e2[0] + dn[1] * e2[1]);
                        if own {
                            let de2 = leg.turned().1;
                            dcos -= stance.normal[0] * de2[0] + stance.normal[1] * de2[1];
                        }
                        let u = (1.0 - stance.ankle_cos(leg)) / scale;
                        (1.0 + 4.0 * u.powi(3)) * -dcos / scale
                    })
                    .sum()
            }
        };
    }
    grad
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
        let Some(grad) = grad else {
            return;
        };
        if self.part != Part::Adhesion {
            for (g, d) in grad.iter_mut().zip(shape_gradient(self.part, &stance)) {
                *g += self.weight * d;
            }
            return;
        }
        const STEP: f64 = 1e-6;
        for (i, g) in grad.iter_mut().enumerate().take(5) {
            let up = value_at(self.part, &moved(&stance, q, i, STEP));
            let down = value_at(self.part, &moved(&stance, q, i, -STEP));
            *g += self.weight * (up - down) / (2.0 * STEP);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The analytic gradients of the ankles and the tilt equal central differences of their
    /// values on stances across the box.
    #[test]
    fn shape_gradients_match_differences() {
        let stances = [
            [1.9, -0.7, -1.5, 0.6, -1.7],
            [2.3, -0.4, -1.5, 0.3, -1.9],
            [1.2, 0.2, -1.9, -0.6, -1.1],
            [3.0, -1.0, -0.8, 0.9, -2.2],
        ];
        for x in stances {
            for part in [Part::Ankles, Part::Tilt] {
                let analytic = shape_gradient(part, &Stance::new(&x));
                for i in 0..5 {
                    let (mut up, mut down) = (x, x);
                    up[i] += 1e-6;
                    down[i] -= 1e-6;
                    let fd = (value(part, &up) - value(part, &down)) / 2e-6;
                    assert!(
                        (analytic[i] - fd).abs() <= 1e-6 * (1.0 + fd.abs()),
                        "{part:?} at {x:?}, joint {i}: analytic {} against {fd}",
                        analytic[i]
                    );
                }
            }
        }
    }
}
