//! Where the reference starts on a chain that must keep clear: a fixed pool of clear
//! configurations (uniform in the box, inside the chain's domain, clear by the spheres; the same
//! pool every run), and for a target the pool's members whose tips lie nearest it. A spread
//! start lands in the obstacle once its task is restored, and the polish must climb out of the
//! stiff hinge; a clear neighbour starts on the right side of it.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::problem::capability::Domain;
use crate::problem::chain::SerialChain;
use crate::problem::Kinematics;

/// Configurations in the pool.
pub const POOL: usize = 4096;
/// The pool's seed.
const POOL_SEED: u64 = 0x5eed_c1ea;
/// Draws per member before the pool is left short (a domain almost nothing reaches).
const MAX_DRAWS_PER_MEMBER: usize = 2000;

/// The pool: clear configurations inside `chain`'s domain, each with its tip position.
pub fn clear_pool(chain: &SerialChain) -> Vec<(Vec<f64>, [f64; 3])> {
    let limits = &chain.basics().limits;
    let mut rng = ChaCha8Rng::seed_from_u64(POOL_SEED);
    let mut pool = Vec::with_capacity(POOL);
    let mut draws = 0;
    while pool.len() < POOL && draws < POOL * MAX_DRAWS_PER_MEMBER {
        draws += 1;
        let q: Vec<f64> = (0..limits.len())
            .map(|i| rng.random_range(limits.lower()[i]..=limits.upper()[i]))
            .collect();
        let clear = chain.clearance(&q).is_none_or(|c| c.is_clear());
        if clear && Domain::contains(chain, &q) {
            let tip = chain.points(&q).pop().unwrap_or([0.0; 3]);
            pool.push((q, tip));
        }
    }
    pool
}

/// The `k` members of `pool` whose tips lie nearest `y` (nearest first).
pub fn nearest(pool: &[(Vec<f64>, [f64; 3])], y: &[f64], k: usize) -> Vec<Vec<f64>> {
    if y.len() < 3 {
        return Vec::new();
    }
    let distance = |tip: &[f64; 3]| (0..3).map(|i| (tip[i] - y[i]).powi(2)).sum::<f64>();
    let mut order: Vec<usize> = (0..pool.len()).collect();
    order.sort_by(|&a, &b| {
        distance(&pool[a].1)
            .total_cmp(&distance(&pool[b].1))
            .then(a.cmp(&b))
    });
    order
        .into_iter()
        .take(k)
        .map(|i| pool[i].0.clone())
        .collect()
}
