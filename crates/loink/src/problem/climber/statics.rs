//! The climber's statics (docs/climber.md §3): the masses, the centre of mass, the ankle forces
//! that hold the body, shared between the pairs by equal joint stiffness, and the magnet pull
//! each pair needs.
//!
//! Symbols: F_i = T_i ŝ + N_i n̂ the force on the robot at ankle i (N > 0 pushes, N < 0 must be
//! held by the magnet); R_s = W sin γ, R_n = W cos γ; the internal shear f: T_U = R_s/2 + f,
//! T_L = R_s/2 − f, f\* = −Σ σ_j h_j τ⁰_j / Σ h_j² (min Σ τ_j², τ⁰ the joint torques at f = 0);
//! the adhesion a_i = √(T_i² + ε_T²)/μ − N_i.
//!
//! All of it is computed over [`Real`], so the same formulas give the adhesion's value and,
//! in dual numbers, its exact gradient.

use super::body::{cross, dot, sub, Leg, Real, Stance, PIVOT_U};

/// Gravity (m/s²).
pub const GRAVITY: f64 = 9.81;
/// Friction coefficient μ of a pad.
pub const FRICTION: f64 = 0.7;
/// ε_T (N): smooths √(T² + ε_T²) at T = 0.
pub const SHEAR_EPS: f64 = 1.0;
/// The magnet force one real foot has (N), for display.
pub const MAGNET: f64 = 147.0;

/// The base link's mass (kg) and its centre in B.
const BASE: (f64, [f64; 2]) = (1.44521, [-0.0002696, 0.0333181]);
/// Two coxae per pair (kg), at their joints (±0.125, 0.0527).
const COXAE: f64 = 2.0 * 0.05629;
const COXA_V: f64 = 0.0527;
/// Two femurs per pair (kg), their centre 0.0331 m along e1.
const FEMURS: (f64, f64) = (2.0 * 0.25695, 0.0331);
/// The front tibiae and their centre along e2: AL with its F/T sensor (0.57311 kg at 0.04813 m)
/// and AR (0.45311 kg at 0.0363 m), combined exactly (docs/climber.md rounds it to 0.0429071).
const TIBIAE_FRONT: (f64, f64) = (
    0.57311 + 0.45311,
    (0.57311 * 0.04813 + 0.45311 * 0.0363) / (0.57311 + 0.45311),
);
/// The rear tibiae (kg) and their centre along e2.
const TIBIAE_REAR: (f64, f64) = (0.90622, 0.0363);
/// Two feet per pair (kg), at the ankle.
const FEET: f64 = 2.0 * 0.38710;

/// The robot's mass M (kg): 6.17901.
pub const MASS: f64 =
    BASE.0 + 2.0 * COXAE + 2.0 * FEMURS.0 + TIBIAE_FRONT.0 + TIBIAE_REAR.0 + 2.0 * FEET;
/// Its weight W = M g (N).
pub const WEIGHT: f64 = MASS * GRAVITY;

/// The masses of one pair distal of its hip: (mass, centre) of femurs, tibiae, feet.
fn distal<R: Real>(leg: &Leg<R>) -> [(f64, [R; 2]); 3] {
    let tibiae = if leg.side > 0.0 {
        TIBIAE_FRONT
    } else {
        TIBIAE_REAR
    };
    let along = |p: [R; 2], e: [R; 2], t: f64| [p[0] + e[0] * t, p[1] + e[1] * t];
    [
        (FEMURS.0, along(leg.pivot, leg.e1, FEMURS.1)),
        (tibiae.0, along(leg.knee, leg.e2, tibiae.1)),
        (FEET, leg.ankle),
    ]
}

/// The centre of mass in B.
pub fn centre_of_mass<R: Real>(stance: &Stance<R>) -> [R; 2] {
    let mut moment = [R::from(BASE.0 * BASE.1[0]), R::from(BASE.0 * BASE.1[1])];
    for side in [1.0, -1.0] {
        moment[0] += COXAE * side * PIVOT_U;
        moment[1] += COXAE * COXA_V;
    }
    for leg in [&stance.front, &stance.rear] {
        for (m, p) in distal(leg) {
            moment[0] += p[0] * m;
            moment[1] += p[1] * m;
        }
    }
    [moment[0] / MASS, moment[1] / MASS]
}

/// The forces at the ankles and the magnet pull they need.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Forces<R = f64> {
    /// T_U, T_L: along the wall (N).
    pub shear: [R; 2],
    /// N_U, N_L: across the wall (N; negative held by the magnet).
    pub normal: [R; 2],
    /// a_U, a_L: the magnet pull each pair needs (N; negative: friction alone holds it).
    pub adhesion: [R; 2],
}

/// How the robot's controller shares the load between the feet: the part equilibrium leaves
/// open is the internal shear f along the wall.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rule {
    /// Equally stiff joints (a position-controlled robot): f minimises Σ τ_j² (the problem's
    /// rule, which makes the shear follow the legs' geometry).
    EqualStiffness,
    /// Minimum-norm contact forces (Magneto's own controller, weighted): with both contacts on
    /// one line the shear splits equally, f = 0, and only the centre of mass moves the loads.
    MinimumNorm,
}

/// The forces of `stance` under the equal-joint-stiffness rule.
pub fn forces<R: Real>(stance: &Stance<R>) -> Forces<R> {
    forces_by(stance, Rule::EqualStiffness)
}

/// The forces of `stance` under `rule`.
pub fn forces_by<R: Real>(stance: &Stance<R>, rule: Rule) -> Forces<R> {
    let wall = stance.wall();
    let (rs, rn) = (wall[1] * WEIGHT, wall[0] * WEIGHT);
    let com = centre_of_mass(stance);
    let from_rear = sub(com, stance.rear.ankle);
    let (sc, nc) = (dot(stance.along, from_rear), dot(stance.normal, from_rear));
    let n_front = (rn * sc - rs * nc) / stance.span;
    let normal = [n_front, rn - n_front];
    // Gravity in B: R(θ_b)ᵀ (0, −g).
    let g = stance.to_body([R::zero(), R::from(-GRAVITY)]);
    // τ_j = h_j T_i + o_j N_i + Σ_distal m_k (p_k − J_j) × g: at f = 0 (T_i = R_s/2), and the
    // sums of f*'s formula.
    let (mut num, mut den) = (R::zero(), R::zero());
    for (k, leg) in [&stance.front, &stance.rear].into_iter().enumerate() {
        let masses = distal(leg);
        for (joint, carried) in [(leg.pivot, &masses[..]), (leg.knee, &masses[1..])] {
            let h = dot(stance.normal, sub(joint, leg.ankle));
            let o = dot(stance.along, sub(leg.ankle, joint));
            let weight: R = carried
                .iter()
                .map(|&(m, p)| cross(sub(p, joint), g) * m)
                .sum();
            let tau0 = h * rs / 2.0 + o * normal[k] + weight;
            num += h * leg.side * tau0;
            den += h * h;
        }
    }
    let f = match rule {
        Rule::EqualStiffness => -num / den,
        Rule::MinimumNorm => R::zero(),
    };
    let shear = [rs / 2.0 + f, rs / 2.0 - f];
    let adhesion =
        [0, 1].map(|i| (shear[i] * shear[i] + SHEAR_EPS * SHEAR_EPS).sqrt() / FRICTION - normal[i]);
    Forces {
        shear,
        normal,
        adhesion,
    }
}
