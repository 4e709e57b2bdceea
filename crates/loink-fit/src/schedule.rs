//! One-cycle learning-rate schedule (as PyTorch's `OneCycleLR` with cosine annealing): warm up
//! from lr_max/25 to lr_max over the first 30 % of steps, then anneal to lr_max/10⁴.

/// A one-cycle schedule over `total` steps.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct OneCycle {
    /// Peak learning rate.
    pub max_lr: f64,
    /// Total number of steps.
    pub total: usize,
    /// Share of steps spent warming up.
    pub warmup: f64,
}

impl OneCycle {
    /// Peak `max_lr` over `total` steps with 30 % warm-up.
    pub fn new(max_lr: f64, total: usize) -> Self {
        Self {
            max_lr,
            total: total.max(1),
            warmup: 0.3,
        }
    }

    /// The learning rate at `step` (0-based).
    pub fn at(&self, step: usize) -> f64 {
        let start = self.max_lr / 25.0;
        let end = self.max_lr / 1e4;
        let peak = ((self.total as f64 * self.warmup) as usize).max(1);
        let cosine = |from: f64, to: f64, t: f64| {
            to + (from - to) * 0.5 * (1.0 + (std::f64::consts::PI * t).cos())
        };
        if step < peak {
            cosine(start, self.max_lr, step as f64 / peak as f64)
        } else {
            let rest = (self.total - peak).max(1) as f64;
            cosine(self.max_lr, end, ((step - peak) as f64 / rest).min(1.0))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rises_to_the_peak_then_falls() {
        let s = OneCycle::new(1e-2, 1000);
        assert!((s.at(0) - 4e-4).abs() < 1e-12);
        assert!((s.at(300) - 1e-2).abs() < 1e-12);
        assert!(s.at(150) > s.at(0) && s.at(150) < s.at(300));
        assert!(s.at(999) < 2e-5 && s.at(650) < s.at(300));
    }
}
