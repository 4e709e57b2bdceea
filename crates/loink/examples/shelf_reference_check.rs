//! How the collision reference's starts compare with IPOPT's best of 16 on the same targets:
//! for each set of starts, the targets where their best polished answer stays more than 1 %
//! above IPOPT's (whose answers are replayed under this cost), and the time per target.
//!
//! `cargo run --release -p loink --example shelf_reference_check -- T.csv ipopt-best-16.csv`
//! (targets of `loink targets --problem panda-shelf`; IPOPT's answers from
//! `bench/ipopt_chain.py --robot panda-shelf --methods best-16`).

use loink::problem::chain::collision::seeds;
use loink::problem::chain::SerialChain;
use loink::problem::Problem;
use loink::solvers::polish;
use loink::solvers::reference::multistart::{starts, STEPS, STIFF_STEPS};

#[path = "common/csv_rows.rs"]
mod csv_rows;
use csv_rows::rows;

type Starts<'a> = Box<dyn Fn(&[f64]) -> Vec<Vec<f64>> + 'a>;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [targets, ipopt] = &args[..] else {
        return Err("usage: shelf_reference_check T.csv ipopt-best-16.csv".into());
    };
    let p = Problem::preset("panda-shelf")?;
    let chain = p
        .kinematics()
        .as_any()
        .downcast_ref::<SerialChain>()
        .ok_or("a chain")?;
    let targets: Vec<Vec<f64>> = rows(targets)?
        .into_iter()
        .map(|r| r[..3].to_vec())
        .collect();
    let ipopt: Vec<f64> = rows(ipopt)?
        .iter()
        .map(|r| p.cost().value(&r[3..9]))
        .collect();
    let pool = seeds::clear_pool(chain);
    let variants: Vec<(&str, usize, Starts)> = vec![
        (
            "32 spread starts",
            STEPS,
            Box::new(|_: &[f64]| starts(&p, 32)),
        ),
        (
            "16 clear neighbours + 16 spread",
            STEPS,
            Box::new(|y: &[f64]| {
                let mut s = seeds::nearest(&pool, y, 16);
                s.extend(starts(&p, 16));
                s
            }),
        ),
        (
            "16 clear neighbours + 16 spread",
            STIFF_STEPS,
            Box::new(|y: &[f64]| {
                let mut s = seeds::nearest(&pool, y, 16);
                s.extend(starts(&p, 16));
                s
            }),
        ),
        (
            "64 spread starts",
            STIFF_STEPS,
            Box::new(|_: &[f64]| starts(&p, 64)),
        ),
        (
            "48 clear neighbours + 16 spread",
            STIFF_STEPS,
            Box::new(|y: &[f64]| {
                let mut s = seeds::nearest(&pool, y, 48);
                s.extend(starts(&p, 16));
                s
            }),
        ),
    ];
    println!("starts | polish steps | above IPOPT best-16 by > 1 % | ms per target");
    for (name, steps, make) in &variants {
        let clock = std::time::Instant::now();
        let mut above = 0;
        for (y, j_ipopt) in targets.iter().zip(&ipopt) {
            let mut best = f64::INFINITY;
            for start in make(y) {
                let r = polish::polish(&p, y, &start, *steps);
                let miss = p.miss(y, &p.position(&r.q)).distance;
                if miss <= 1e-6 {
                    best = best.min(p.cost().value(&r.q));
                }
            }
            if best > 1.01 * j_ipopt {
                above += 1;
            }
        }
        let ms = clock.elapsed().as_secs_f64() * 1e3 / targets.len() as f64;
        println!("{name} | {steps} | {above} of {} | {ms:.0}", targets.len());
    }
    Ok(())
}
