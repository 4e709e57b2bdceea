//! Helpers shared by the surrogate tests.

use loink::surrogate::Loink;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Targets reached by seeded random configurations inside the limits (so all reachable).
pub fn reachable_targets(loink: &Loink, count: usize, seed: u64) -> Vec<Vec<f64>> {
    let arm = &loink.problem().planar().unwrap();
    let limits = arm.limits();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    (0..count)
        .map(|_| {
            let q: Vec<f64> = (0..limits.len())
                .map(|i| rng.random_range(limits.lower()[i]..limits.upper()[i]))
                .collect();
            arm.position(&q).to_vec()
        })
        .collect()
}
