//! The pose tests' targets: configurations of the tabletop set (docs/pose.md).

use loink::problem::Problem;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// Up to `take` of `draws` configurations uniform in the box (seeded) whose hand points within
/// 60° of straight down (the tabletop set).
pub fn tabletop_configurations(
    problem: &Problem,
    seed: u64,
    draws: usize,
    take: usize,
) -> Vec<Vec<f64>> {
    let view = problem.capabilities().space().unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    problem
        .random_configurations(draws, &mut rng)
        .into_iter()
        .filter(|q| view.hand_frame(q).unwrap().1[8] <= -0.5)
        .take(take)
        .collect()
}
