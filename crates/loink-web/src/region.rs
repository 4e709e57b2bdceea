//! The reachable region of an arm inside its joint limits, as a coarse raster: sampled once
//! per model with a seeded RNG (so every page shows the same region) and cached.

use loink::robot::{PlanarArm, Robot};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Cells per side of the raster.
pub const CELLS: usize = 256;

/// A `CELLS × CELLS` raster over `[-half, half]²`, row 0 at the top (largest y).
#[derive(Debug, Clone, PartialEq)]
pub struct Region {
    half: f64,
    reachable: Vec<bool>,
}

impl Region {
    /// Samples `samples` configurations uniformly inside the limits and marks the cells their
    /// end effectors land in, then closes one-cell holes (a point between two hit cells is
    /// reachable too: the region is connected at this resolution).
    pub fn sample(arm: &PlanarArm, samples: usize) -> Region {
        let half = arm.reach() * 1.05;
        let mut hits = vec![false; CELLS * CELLS];
        let mut rng = ChaCha8Rng::seed_from_u64(0x5eed);
        let limits = arm.limits();
        let mut q = vec![0.0; arm.dof()];
        for _ in 0..samples {
            for (i, qi) in q.iter_mut().enumerate() {
                *qi = rng.random_range(limits.lower()[i]..=limits.upper()[i]);
            }
            let [x, y] = arm.position(&q);
            if let Some(k) = Self::index(half, x, y) {
                hits[k] = true;
            }
        }
        let mut reachable = hits.clone();
        for r in 1..CELLS - 1 {
            for c in 1..CELLS - 1 {
                let k = r * CELLS + c;
                let pair = (hits[k - 1] && hits[k + 1]) || (hits[k - CELLS] && hits[k + CELLS]);
                reachable[k] |= pair;
            }
        }
        Region { half, reachable }
    }

    fn index(half: f64, x: f64, y: f64) -> Option<usize> {
        let cx = ((x + half) / (2.0 * half) * CELLS as f64).floor();
        let cy = ((half - y) / (2.0 * half) * CELLS as f64).floor();
        if cx >= 0.0 && cy >= 0.0 && cx < CELLS as f64 && cy < CELLS as f64 {
            Some(cy as usize * CELLS + cx as usize)
        } else {
            None
        }
    }

    /// Half the side of the covered square (m).
    pub fn half(&self) -> f64 {
        self.half
    }

    /// Whether the cell containing (x, y) was reached by a sample.
    pub fn contains(&self, x: f64, y: f64) -> bool {
        Self::index(self.half, x, y).is_some_and(|k| self.reachable[k])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn planar3_region_holds_reachable_points_and_not_far_ones() {
        let arm = PlanarArm::preset("planar3").unwrap();
        let region = Region::sample(&arm, 40_000);
        let mid = arm.position(&arm.limits().centres());
        assert!(region.contains(mid[0], mid[1]));
        assert!(!region.contains(1.25, 0.0));
        assert!(!region.contains(-1.1, -0.3) || arm.reach() > 1.2);
    }
}
