//! The climber's side-view geometry (docs/climber.md §3): the two lumped leg pairs, their
//! ankles, the wall through both pads, the task and the derived posture words.
//!
//! Symbols: x = (θ_b, q_fU, q_tU, q_fL, q_tL); e1 = (σ cos q_f, sin q_f), e2 = (σ cos(q_f + q_t),
//! sin(q_f + q_t)) with σ = +1 for the front pair U and −1 for the rear pair L; knee
//! K = P + l_f e1, ankle A = K + l_t e2 (body frame B: u front, v away from the belly); the wall
//! direction ŝ = (A_U − A_L)/d, d the foot span, its normal n̂ = (−ŝ_v, ŝ_u) (pointing from the
//! wall to the body); the task y = (R(θ_b)(A_U − A_L), h) with h = −n̂·A_L + pad the body's
//! clearance.
//!
//! The legs, the stance frame and the statics built on them are written over [`Real`]: plain
//! `f64` for every value, and a forward-mode dual number for the adhesion's exact gradient
//! ([`super::cost`]), so the value and its derivative come from one formula.

use num_dual::DualNum;

/// A number the geometry and the statics are computed in: `f64`, or a dual number carrying the
/// derivatives with respect to x (num-dual's `DualSVec64<5>`).
pub trait Real: DualNum<Primitive = f64> + Copy {}

impl<T: DualNum<Primitive = f64> + Copy> Real for T {}

/// Femur length l_f (m).
pub const FEMUR: f64 = 0.15;
/// Tibia length l_t (m).
pub const TIBIA: f64 = 0.132;
/// The magnet pad's distance from the ankle, along −n̂ (m).
pub const PAD: f64 = 0.031;
/// The femur pivots' height in B (0.0527 coxa + 0.0393 femur offset, m).
pub const PIVOT_V: f64 = 0.092;
/// The femur pivots' distance fore/aft of the body origin (m).
pub const PIVOT_U: f64 = 0.125;
/// The passive ankle's range ψ_max (rad): the URDF's 0.523599, not π/6 (the reference values of
/// docs/climber.md use the URDF's number).
#[allow(clippy::approx_constant)]
pub const ANKLE_MAX: f64 = 0.523599;
/// The body's ends in B, (±0.15, 0) m (the mesh is not public: an assumption).
pub const BODY_END: f64 = 0.15;

/// One leg pair's joints and points in B.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Leg<R = f64> {
    /// σ: +1 front (U), −1 rear (L).
    pub side: f64,
    /// The femur pivot P.
    pub pivot: [R; 2],
    /// e1, the femur's direction.
    pub e1: [R; 2],
    /// e2, the tibia's direction.
    pub e2: [R; 2],
    /// The knee K.
    pub knee: [R; 2],
    /// The ankle A.
    pub ankle: [R; 2],
}

impl<R: Real> Leg<R> {
    /// The leg of side σ at femur angle `femur` and tibia angle `tibia`.
    pub fn new(side: f64, femur: R, tibia: R) -> Self {
        let pivot = [R::from(side * PIVOT_U), R::from(PIVOT_V)];
        let (sin_f, cos_f) = femur.sin_cos();
        let (sin_k, cos_k) = (femur + tibia).sin_cos();
        let e1 = [cos_f * side, sin_f];
        let e2 = [cos_k * side, sin_k];
        let knee = [pivot[0] + e1[0] * FEMUR, pivot[1] + e1[1] * FEMUR];
        let ankle = [knee[0] + e2[0] * TIBIA, knee[1] + e2[1] * TIBIA];
        Self {
            side,
            pivot,
            e1,
            e2,
            knee,
            ankle,
        }
    }
}

impl Leg {
    /// ∂e1/∂q_f and ∂e2/∂(q_f + q_t).
    pub fn turned(&self) -> ([f64; 2], [f64; 2]) {
        // d/dφ (σ cos φ, sin φ) = (−σ sin φ, cos φ) = (−σ e_v, σ e_u), as σ² = 1.
        let turn = |e: [f64; 2]| [-self.side * e[1], self.side * e[0]];
        (turn(self.e1), turn(self.e2))
    }

    /// ∂A/∂q_f and ∂A/∂q_t.
    pub fn ankle_derivatives(&self) -> ([f64; 2], [f64; 2]) {
        let (d1, d2) = self.turned();
        let by_tibia = [TIBIA * d2[0], TIBIA * d2[1]];
        (
            [FEMUR * d1[0] + by_tibia[0], FEMUR * d1[1] + by_tibia[1]],
            by_tibia,
        )
    }
}

/// The whole posture at x: both legs, the wall frame and the task.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Stance<R = f64> {
    /// θ_b, the body's world angle.
    pub theta: R,
    /// (cos θ_b, sin θ_b).
    pub heading: [R; 2],
    /// The front pair U.
    pub front: Leg<R>,
    /// The rear pair L.
    pub rear: Leg<R>,
    /// d, the foot span (m).
    pub span: R,
    /// ŝ in B.
    pub along: [R; 2],
    /// n̂ in B.
    pub normal: [R; 2],
}

impl<R: Real> Stance<R> {
    /// The stance at x = (θ_b, q_fU, q_tU, q_fL, q_tL).
    pub fn new(x: &[R]) -> Self {
        Self::from_legs(x[0], Leg::new(1.0, x[1], x[2]), Leg::new(-1.0, x[3], x[4]))
    }

    /// The stance of body angle `theta` on two legs already placed.
    pub fn from_legs(theta: R, front: Leg<R>, rear: Leg<R>) -> Self {
        Self::place(theta, [theta.cos(), theta.sin()], front, rear)
    }

    fn place(theta: R, heading: [R; 2], front: Leg<R>, rear: Leg<R>) -> Self {
        let d = sub(front.ankle, rear.ankle);
        // Spans are centimetres to a metre: no overflow for hypot to guard against.
        let span = (d[0] * d[0] + d[1] * d[1]).sqrt();
        let along = [d[0] / span, d[1] / span];
        Self {
            theta,
            heading,
            front,
            rear,
            span,
            along,
            normal: [-along[1], along[0]],
        }
    }

    /// R(θ_b) v: a body-frame vector in the world.
    pub fn to_world(&self, v: [R; 2]) -> [R; 2] {
        let [c, s] = self.heading;
        [c * v[0] - s * v[1], s * v[0] + c * v[1]]
    }

    /// R(θ_b)ᵀ v: a world vector in the body frame.
    pub fn to_body(&self, v: [R; 2]) -> [R; 2] {
        let [c, s] = self.heading;
        [c * v[0] + s * v[1], -s * v[0] + c * v[1]]
    }

    /// The wall direction ŝ in the world: (cos γ, sin γ), γ the inclination.
    pub fn wall(&self) -> [R; 2] {
        self.to_world(self.along)
    }
}

impl Stance {
    /// y = (R(θ_b)(A_U − A_L), h).
    pub fn task(&self) -> [f64; 3] {
        let d = sub(self.front.ankle, self.rear.ankle);
        let w = self.to_world(d);
        [w[0], w[1], self.clearance()]
    }

    /// h = −n̂·A_L + pad: the body origin's height above the wall.
    pub fn clearance(&self) -> f64 {
        -dot(self.normal, self.rear.ankle) + PAD
    }

    /// cos ψ of a leg's passive ankle: −n̂·e2 (1 with the pad square to the tibia).
    pub fn ankle_cos(&self, leg: &Leg) -> f64 {
        -dot(self.normal, leg.e2)
    }

    /// The height above the wall of a body-frame point.
    pub fn height(&self, p: [f64; 2]) -> f64 {
        dot(self.normal, sub(p, self.rear.ankle)) + PAD
    }

    /// The task's Jacobian, column-major (`jac[i·3 + r] = ∂y_r/∂x_i`).
    pub fn task_jacobian(&self, jac: &mut [f64]) {
        let d = sub(self.front.ankle, self.rear.ankle);
        let [c, s] = self.heading;
        // ∂/∂θ_b of R(θ)d is R(θ + π/2)d; h does not depend on θ_b.
        jac[0] = -s * d[0] - c * d[1];
        jac[1] = c * d[0] - s * d[1];
        jac[2] = 0.0;
        // h = −(A_U × A_L)/d + pad.
        let ankles = cross(self.front.ankle, self.rear.ankle);
        let (front, rear) = (
            self.front.ankle_derivatives(),
            self.rear.ankle_derivatives(),
        );
        let columns = [
            (1, front.0, 1.0),
            (2, front.1, 1.0),
            (3, rear.0, -1.0),
            (4, rear.1, -1.0),
        ];
        for (i, da, sign) in columns {
            let dd = [sign * da[0], sign * da[1]];
            let w = self.to_world(dd);
            let dcross = if sign > 0.0 {
                cross(da, self.rear.ankle)
            } else {
                cross(self.front.ankle, da)
            };
            let dspan = dot(self.along, dd);
            jac[i * 3] = w[0];
            jac[i * 3 + 1] = w[1];
            jac[i * 3 + 2] = -(dcross * self.span - ankles * dspan) / (self.span * self.span);
        }
    }
}

/// a − b.
pub fn sub<R: Real>(a: [R; 2], b: [R; 2]) -> [R; 2] {
    [a[0] - b[0], a[1] - b[1]]
}

/// a · b.
pub fn dot<R: Real>(a: [R; 2], b: [R; 2]) -> R {
    a[0] * b[0] + a[1] * b[1]
}

/// a × b = a_u b_v − a_v b_u.
pub fn cross<R: Real>(a: [R; 2], b: [R; 2]) -> R {
    a[0] * b[1] - a[1] * b[0]
}
