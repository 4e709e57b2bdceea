//! The centre-of-mass cost term of a planar arm: weight · com_x(q)², the horizontal offset of
//! the links' centre of mass from the base (com_x = Σ_k a_k cos s_k).

use crate::cost::CostTerm;

/// weight · com_x², with the arm's coefficients a_k.
#[derive(Debug, Clone)]
pub struct ComX {
    /// The term's weight.
    pub weight: f64,
    /// a_k of the arm.
    pub coeffs: Vec<f64>,
}

impl CostTerm for ComX {
    fn accumulate(&self, q: &[f64], total: &mut f64, grad: Option<&mut [f64]>) {
        // com_x = Σ a_k cos s_k; ∂com_x/∂q_i = −Σ_{k≥i} a_k sin s_k = −(T − Σ_{k<i} a_k sin s_k)
        // with T = Σ_k a_k sin s_k: two passes, no allocation (this runs in the reference sweep).
        let (mut s, mut com_x, mut sine_total) = (0.0, 0.0, 0.0);
        for (qi, a) in q.iter().zip(&self.coeffs) {
            s += qi;
            com_x += a * s.cos();
            sine_total += a * s.sin();
        }
        *total += self.weight * com_x * com_x;
        if let Some(g) = grad {
            let (mut s, mut prefix) = (0.0, 0.0);
            for ((gi, qi), a) in g.iter_mut().zip(q).zip(&self.coeffs) {
                *gi += 2.0 * self.weight * com_x * -(sine_total - prefix);
                s += qi;
                prefix += a * s.sin();
            }
        }
    }
}
