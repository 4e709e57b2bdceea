//! The climber's cost terms (docs/climber.md §3), in units of body weight:
//! - adhesion: (1/β) ln(e^{β a_U/W} + e^{β a_L/W}), a smooth maximum of the magnet pull the two
//!   pairs need (β = 20; over-estimates the peak by at most W ln 2/β);
//! - ankles: Σ_i (u_i + u_i⁴), u_i = (1 − cos ψ_i)/(1 − cos ψ_max): the passive ankles centred,
//!   1 at their limit and steep beyond;
//! - tilt: (1 − ŝ_u)/(1 − cos α_ref) ≈ (α/α_ref)², α_ref = 0.5 rad: the body kept near parallel to
//!   the wall (and off it).
//!
//! The ankles' and the tilt's gradients are analytic (they depend on the legs through ŝ and e2
//! only). The adhesion's is exact too: the same closed form evaluated once in forward-mode dual
//! numbers (num-dual's `DualSVec64<5>`, one tangent per joint) instead of by hand through the
//! statics, which would be long and fragile.

use num_dual::DualSVec64;

use crate::cost::CostTerm;

use super::body::{Real, Stance, ANKLE_MAX};
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

/// Weighted parts of the climber's cost, evaluated together: one stance (and, with a gradient,
/// one pass in dual numbers) serves every part. Each part's value and gradient are added in the
/// parts' order, so the sum has the same bits as the parts one term each.
#[derive(Debug, Clone)]
pub struct ClimberTerm {
    /// (part, weight), in the cost's order.
    pub parts: Vec<(Part, f64)>,
}

/// The part's value at x (unweighted).
pub fn value(part: Part, x: &[f64]) -> f64 {
    value_at(part, &Stance::new(x))
}

/// The part's value at a stance (unweighted).
fn value_at(part: Part, stance: &Stance) -> f64 {
    match part {
        Part::Adhesion => adhesion(stance),
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

/// The adhesion term at a stance: the smooth maximum of the pairs' magnet pull, over W.
fn adhesion<R: Real>(stance: &Stance<R>) -> R {
    let a = forces(stance).adhesion;
    let (hi, lo) = if a[0] >= a[1] {
        (a[0], a[1])
    } else {
        (a[1], a[0])
    };
    hi / WEIGHT + (-((hi - lo) * SHARPNESS / WEIGHT)).exp().ln_1p() / SHARPNESS
}

/// The stance at x in dual numbers, one tangent per joint.
fn seeded_stance(x: &[f64]) -> Stance<DualSVec64<5>> {
    let seeded: [DualSVec64<5>; 5] =
        std::array::from_fn(|i| DualSVec64::from_re(x[i]).derivative(i));
    Stance::new(&seeded)
}

/// A dual number's tangent (zero where it carries none).
fn tangent(v: &DualSVec64<5>) -> [f64; 5] {
    let mut out = [0.0; 5];
    if let Some(eps) = &v.eps.0 {
        out.copy_from_slice(eps.as_slice());
    }
    out
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

impl CostTerm for ClimberTerm {
    fn accumulate(&self, q: &[f64], total: &mut f64, grad: Option<&mut [f64]>) {
        if q.len() != 5 {
            *total = f64::NAN;
            return;
        }
        let Some(grad) = grad else {
            let stance = Stance::new(q);
            for &(part, weight) in &self.parts {
                *total += weight * value_at(part, &stance);
            }
            return;
        };
        // The other parts take the plain stance: a dual division multiplies by the reciprocal,
        // so the dual stance's real parts may differ from it in the last bit.
        let stance = Stance::new(q);
        let dual = self
            .parts
            .iter()
            .any(|&(part, _)| part == Part::Adhesion)
            .then(|| seeded_stance(q));
        for &(part, weight) in &self.parts {
            let (value, gradient) = match (part, &dual) {
                (Part::Adhesion, Some(dual)) => {
                    let a = adhesion(dual);
                    (a.re, tangent(&a))
                }
                _ => (value_at(part, &stance), shape_gradient(part, &stance)),
            };
            *total += weight * value;
            for (g, d) in grad.iter_mut().zip(gradient) {
                *g += weight * d;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const STANCES: [[f64; 5]; 4] = [
        [1.9, -0.7, -1.5, 0.6, -1.7],
        [2.3, -0.4, -1.5, 0.3, -1.9],
        [1.2, 0.2, -1.9, -0.6, -1.1],
        [3.0, -1.0, -0.8, 0.9, -2.2],
    ];

    fn term(parts: &[(Part, f64)]) -> ClimberTerm {
        ClimberTerm {
            parts: parts.to_vec(),
        }
    }

    fn evaluate(term: &ClimberTerm, x: &[f64], with_gradient: bool) -> (f64, [f64; 5]) {
        let (mut total, mut grad) = (0.0, [0.0; 5]);
        term.accumulate(x, &mut total, with_gradient.then_some(&mut grad[..]));
        (total, grad)
    }

    /// Every part's gradient (the adhesion's through the statics in dual numbers, the others
    /// by hand) equals central differences of its value on stances across the box.
    #[test]
    fn gradients_match_differences() {
        for x in STANCES {
            for part in [Part::Adhesion, Part::Ankles, Part::Tilt] {
                let analytic = evaluate(&term(&[(part, 1.0)]), &x, true).1;
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

    /// The parts evaluated together give the bits of the parts one term each, added in order:
    /// the value alone, and the value with the gradient (whose adhesion is the dual pass's real
    /// part, equal to the plain value to rounding) and the gradient itself.
    #[test]
    fn parts_together_are_the_parts_one_by_one() {
        let parts = [
            (Part::Adhesion, 1.0),
            (Part::Ankles, 0.03),
            (Part::Tilt, 0.05),
        ];
        let together = term(&parts);
        for x in STANCES {
            let (mut total, mut grad) = (0.0, [0.0; 5]);
            for part in parts {
                term(&[part]).accumulate(&x, &mut total, Some(&mut grad));
            }
            let alone_value = parts
                .iter()
                .fold(0.0, |t, &p| t + evaluate(&term(&[p]), &x, false).0);
            assert_eq!(
                evaluate(&together, &x, false).0.to_bits(),
                alone_value.to_bits()
            );
            let (value, gradient) = evaluate(&together, &x, true);
            assert_eq!(value.to_bits(), total.to_bits(), "at {x:?}");
            assert_eq!(
                gradient.map(f64::to_bits),
                grad.map(f64::to_bits),
                "at {x:?}"
            );
            assert!(
                (value - alone_value).abs() <= 1e-15 * alone_value.abs(),
                "at {x:?}"
            );
        }
    }
}
