//! The `self` and `scene` cost terms: w · Σ ((m − d)/m)³ over the sphere distances d below the
//! margin m (the module docs of [`super`]), with the gradient through the chain: a sphere's
//! centre p on segment s moves with every joint i < s by a_i × (p − o_i) (a rotation) or a_i (a
//! translation), so ∂J/∂q_i = a_i · (Σ p × f − o_i × Σ f) over the spheres beyond joint i, f the
//! force ∂J/∂p on each.

use super::placed::{Layout, Placed};
use super::scene::Object;
use super::CollisionSpec;
use crate::cost::CostTerm;
use crate::problem::chain::frame::{cross, Frame};
use crate::problem::chain::SerialChain;

/// The longest cost step (rad) the polish takes on a collision term: at half a metre from the
/// joint it moves a sphere 5 cm, a few margins, over which the hinge switches on or off.
pub const MAX_STEP: f64 = 0.1;

/// Which distances a term hinges on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Which {
    /// The robot's own checked pairs.
    SelfPairs,
    /// Each sphere against each scene object.
    Scene,
}

/// One collision term bound to a chain.
#[derive(Debug, Clone)]
pub struct CollisionTerm {
    /// The chain, its collision spec and its flattened layout with it.
    chain: SerialChain,
    which: Which,
    weight: f64,
    margin: f64,
}

impl CollisionTerm {
    /// The term `which` with weight `weight` on `chain` (`None`: the chain has no collision
    /// model).
    pub fn new(chain: &SerialChain, which: Which, weight: f64) -> Option<Self> {
        let spec = chain.chain().collision.as_ref()?;
        let margin = match which {
            Which::SelfPairs => spec.self_margin,
            Which::Scene => spec.scene_margin,
        };
        Some(Self {
            chain: chain.clone(),
            which,
            weight,
            margin,
        })
    }

    /// The chain's flattened collision model and its spec (both present: checked in `new`).
    fn model(&self) -> Option<(&Layout, &CollisionSpec)> {
        Some((
            self.chain.collision_layout()?,
            self.chain.chain().collision.as_ref()?,
        ))
    }

    /// The hinge's value and its derivative in d.
    #[inline]
    fn hinge(&self, d: f64) -> Option<(f64, f64)> {
        (d < self.margin).then(|| {
            let u = (self.margin - d) / self.margin;
            (
                self.weight * u * u * u,
                -3.0 * self.weight * u * u / self.margin,
            )
        })
    }
}

impl CostTerm for CollisionTerm {
    fn max_step(&self) -> Option<f64> {
        Some(MAX_STEP)
    }

    fn accumulate(&self, q: &[f64], total: &mut f64, grad: Option<&mut [f64]>) {
        let Some((layout, spec)) = self.model() else {
            return;
        };
        let mut frames = Vec::with_capacity(layout.segments);
        let mut axes = Vec::with_capacity(layout.segments);
        self.chain.segments_into(q, &mut frames, &mut axes);
        let placed: Placed = layout.place(&frames);
        let want_grad = grad.is_some();
        let mut forces = if want_grad {
            vec![[0.0; 3]; layout.spheres.len()]
        } else {
            Vec::new()
        };
        let mut sum = 0.0;
        match self.which {
            Which::SelfPairs => {
                for pair in layout.near_self_pairs(&placed, self.margin) {
                    let (d, dir) = placed.pair_distance(layout, pair);
                    if let Some((value, slope)) = self.hinge(d) {
                        sum += value;
                        if want_grad {
                            for k in 0..3 {
                                forces[pair[0] as usize][k] += slope * dir[k];
                                forces[pair[1] as usize][k] -= slope * dir[k];
                            }
                        }
                    }
                }
            }
            Which::Scene => {
                let objects: Vec<Object> = spec.scene.objects().collect();
                for pair in layout.near_scene_pairs(&placed, &objects, self.margin) {
                    let (d, normal) = placed.scene_distance(layout, &objects, pair);
                    if let Some((value, slope)) = self.hinge(d) {
                        sum += value;
                        if want_grad {
                            for k in 0..3 {
                                forces[pair.0 as usize][k] += slope * normal[k];
                            }
                        }
                    }
                }
            }
        }
        *total += sum;
        let Some(grad) = grad else { return };
        // Per segment: Σ f and Σ p × f of its spheres.
        let mut force = vec![[0.0; 3]; layout.segments];
        let mut moment = vec![[0.0; 3]; layout.segments];
        for (i, s) in layout.spheres.iter().enumerate() {
            let f = forces[i];
            let m = cross(placed.centres[i], f);
            for k in 0..3 {
                force[s.segment][k] += f[k];
                moment[s.segment][k] += m[k];
            }
        }
        let (mut f_beyond, mut m_beyond) = ([0.0; 3], [0.0; 3]);
        for i in (0..axes.len()).rev() {
            for k in 0..3 {
                f_beyond[k] += force[i + 1][k];
                m_beyond[k] += moment[i + 1][k];
            }
            let joint = &axes[i];
            let g = if joint.rotates {
                let lever = cross(joint.origin, f_beyond);
                dot(
                    joint.axis,
                    [
                        m_beyond[0] - lever[0],
                        m_beyond[1] - lever[1],
                        m_beyond[2] - lever[2],
                    ],
                )
            } else {
                dot(joint.axis, f_beyond)
            };
            grad[joint.variable] += joint.multiplier * g;
        }
    }
}

#[inline]
fn dot(a: [f64; 3], b: [f64; 3]) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

/// A movable joint at q, in the base frame: what the gradient needs of it.
#[derive(Debug, Clone, Copy)]
pub struct JointAxis {
    /// The unit axis a_i.
    pub axis: [f64; 3],
    /// The joint's origin o_i.
    pub origin: [f64; 3],
    /// Whether it rotates (else it slides).
    pub rotates: bool,
    /// The variable that drives it, and by what factor.
    pub variable: usize,
    /// The factor on that variable.
    pub multiplier: f64,
}

/// The segment frames of a chain at q paired with the frames' spheres: used by readouts that
/// place the spheres without a cost (the clearance).
pub fn segment_frames(chain: &SerialChain, q: &[f64]) -> Vec<Frame> {
    let mut frames = Vec::new();
    let mut axes = Vec::new();
    chain.segments_into(q, &mut frames, &mut axes);
    frames
}
