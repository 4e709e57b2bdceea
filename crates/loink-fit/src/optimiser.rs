//! The optimiser step: global gradient-norm clipping (as PyTorch's `clip_grad_norm_`, the
//! prototype used norm 10; burn's own clipping is per tensor) followed by burn's Adam.

use burn::module::{Module, ModuleVisitor, Param};
use burn::optim::{AdamConfig, GradientsParams, ModuleOptimizer};
use burn::tensor::Tensor;

/// Adam with the defaults (β = 0.9, 0.999).
pub fn adam() -> ModuleOptimizer {
    AdamConfig::new().with_epsilon(1e-8).init()
}

struct SquaredNorm<'a> {
    grads: &'a GradientsParams,
    total: f64,
}

impl ModuleVisitor for SquaredNorm<'_> {
    fn visit_float<const D: usize>(&mut self, param: &Param<Tensor<D>>) {
        if let Some(g) = self.grads.get::<D>(param.id) {
            let s: f32 = g.square().sum().into_scalar();
            self.total += f64::from(s);
        }
    }
}

struct Scale<'a> {
    grads: &'a mut GradientsParams,
    factor: f64,
}

impl ModuleVisitor for Scale<'_> {
    fn visit_float<const D: usize>(&mut self, param: &Param<Tensor<D>>) {
        if let Some(g) = self.grads.remove::<D>(param.id) {
            self.grads.register(param.id, g.mul_scalar(self.factor));
        }
    }
}

/// Scales all gradients so their global L2 norm is at most `max_norm`; returns the norm before.
pub fn clip_global_norm<M: Module>(module: &M, grads: &mut GradientsParams, max_norm: f64) -> f64 {
    let mut norm = SquaredNorm { grads, total: 0.0 };
    module.visit(&mut norm);
    let total = norm.total.sqrt();
    if total > max_norm {
        module.visit(&mut Scale {
            grads,
            factor: max_norm / (total + 1e-6),
        });
    }
    total
}
