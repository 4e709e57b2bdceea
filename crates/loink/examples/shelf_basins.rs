//! How close to the optimum a start must be for LOInK's finish to land within 1 % of J\* under
//! the shelf: the reference's optima perturbed by joint noise of σ, then the same polish LOInK
//! refines with, for 3 and 30 steps; and how far LOInK's one-shot answers are from the optima.
//!
//! `cargo run --release -p loink --example shelf_basins -- reference.csv loink.csv`
//! (the answers `bash bench/shelf.sh` writes to bench/results/shelf/).

use loink::problem::Problem;
use loink::solvers::polish;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rand_distr::{Distribution, Normal};

#[path = "common/csv_rows.rs"]
mod csv_rows;
use csv_rows::rows;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [reference, oneshot] = &args[..] else {
        return Err("usage: shelf_basins reference.csv loink.csv".into());
    };
    let p = Problem::preset("panda-shelf")?;
    let reference = rows(reference)?;
    let oneshot = rows(oneshot)?;
    let n = p.dof();
    let within = |y: &[f64], q: &[f64], j_star: f64| {
        p.miss(y, &p.position(q)).distance <= 1e-6 && p.cost().value(q) <= 1.01 * j_star + 1e-9
    };
    // LOInK's one-shot answers against the optima.
    let mut distances: Vec<f64> = reference
        .iter()
        .zip(&oneshot)
        .map(|(r, o)| {
            (0..n)
                .map(|i| (r[3 + i] - o[3 + i]).abs())
                .fold(0.0, f64::max)
        })
        .collect();
    distances.sort_by(f64::total_cmp);
    let at = |f: f64| distances[((distances.len() - 1) as f64 * f) as usize];
    println!(
        "one-shot max |q - q*| (rad): median {:.3}, 25 % {:.3}, 75 % {:.3}, 90 % {:.3}",
        at(0.5),
        at(0.25),
        at(0.75),
        at(0.9)
    );
    println!("sigma (rad) | polish steps | within 1 % of J*");
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    for sigma in [0.0f64, 0.01, 0.03, 0.05, 0.1, 0.2] {
        let noise = Normal::new(0.0, sigma.max(1e-12))?;
        for steps in [3, 30] {
            let mut hits = 0;
            let mut count = 0;
            for r in &reference {
                let (y, q_star, j_star) = (&r[..3], &r[3..3 + n], r[3 + n + 1]);
                if !j_star.is_finite() {
                    continue;
                }
                count += 1;
                let mut q0: Vec<f64> = q_star.iter().map(|v| v + noise.sample(&mut rng)).collect();
                p.limits().clamp(&mut q0);
                let done = polish::polish(&p, y, &q0, steps);
                if within(y, &done.q, j_star) {
                    hits += 1;
                }
            }
            println!(
                "{sigma} | {steps} | {:.1} %",
                100.0 * hits as f64 / count as f64
            );
        }
    }
    Ok(())
}
