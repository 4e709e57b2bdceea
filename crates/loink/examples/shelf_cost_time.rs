//! What the collision terms cost to evaluate: one value and gradient of `panda-shelf`'s full cost
//! against `panda`'s joint centring alone, on 10,000 uniform configurations, and the sizes of the
//! collision model (bodies, checked body pairs, sphere pairs).
//!
//! `cargo run --release -p loink --example shelf_cost_time`

use loink::problem::chain::collision::placed::Layout;
use loink::problem::chain::SerialChain;
use loink::problem::Problem;
use rand::{Rng, SeedableRng};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let shelf = Problem::preset("panda-shelf")?;
    let plain = Problem::preset("panda")?;
    let limits = shelf.limits();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
    let configurations: Vec<Vec<f64>> = (0..10_000)
        .map(|_| {
            (0..limits.len())
                .map(|i| rng.random_range(limits.lower()[i]..=limits.upper()[i]))
                .collect()
        })
        .collect();
    for (name, problem) in [("panda-shelf", &shelf), ("panda", &plain)] {
        let clock = std::time::Instant::now();
        let mut sum = 0.0;
        for q in &configurations {
            sum += problem.cost().value_and_gradient(q).0;
        }
        let each = clock.elapsed() / configurations.len() as u32;
        println!("{name}: {each:?} per value and gradient (sum of J {sum:.1})");
    }
    let chain = shelf
        .kinematics()
        .as_any()
        .downcast_ref::<SerialChain>()
        .ok_or("a chain")?;
    let spec = chain
        .chain()
        .collision
        .as_ref()
        .ok_or("a collision model")?;
    let layout = Layout::new(spec, chain.chain().joints.len());
    println!(
        "{} bodies, {} body pairs checked, {} sphere pairs",
        spec.bodies.len(),
        spec.pairs.len(),
        layout.self_pair_count()
    );
    Ok(())
}
