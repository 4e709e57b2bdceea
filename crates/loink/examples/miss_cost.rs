//! Cost of a LOInK miss (a target the unrefined inverse misses by more than the acceptance
//! tolerance): whole `Loink::solve` per miss, split by final status, and the reachability
//! sweep alone. `cargo run --release -p loink --example miss_cost -- web/models/planar4.json`
use loink::report::Status;
use loink::solvers::reference;
use loink::surrogate::Loink;
use std::time::Instant;

fn main() {
    let path = std::env::args().nth(1).expect("model path");
    let solver = Loink::from_json(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let problem = solver.problem().clone();
    let reach = problem.arm.reach();
    let mut state = solver.new_state();
    let mut s: u64 = 12345;
    let mut rnd = || {
        s = s
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (s >> 11) as f64 / (1u64 << 53) as f64
    };
    let mut by: std::collections::BTreeMap<&str, Vec<f64>> = Default::default();
    let mut sweep = Vec::new();
    for _ in 0..4000 {
        let r = 1.3 * reach * rnd().sqrt();
        let phi = std::f64::consts::TAU * rnd();
        let y = [r * phi.cos(), r * phi.sin()];
        let t = Instant::now();
        let sol = solver.solve(&mut state, &y);
        let us = t.elapsed().as_secs_f64() * 1e6;
        let inside = r <= reach && r >= problem.arm.inner_radius();
        let hit = sol.residual() <= solver.tolerance().residual
            && sol.margin() >= -solver.tolerance().limits;
        let key = match (sol.status(), inside, hit) {
            (_, _, true) => "hit",
            (Status::Unreachable, false, _) => "outside annulus",
            (Status::Unreachable, true, _) => "miss -> unreachable",
            (Status::Capped, ..) => "miss -> capped",
            (Status::Limits, ..) => "miss -> limits",
            _ => "other",
        };
        by.entry(key).or_default().push(us);
        if inside && !hit {
            let t = Instant::now();
            std::hint::black_box(reference::connected_pieces(&problem, &y, 64));
            sweep.push(t.elapsed().as_secs_f64() * 1e6);
        }
    }
    let med = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    for (k, v) in by.iter_mut() {
        println!(
            "{path}: {k:22} n={:5} median solve {:9.1} µs",
            v.len(),
            med(v)
        );
    }
    if !sweep.is_empty() {
        println!(
            "{path}: connected_pieces alone (misses inside the annulus) n={} median {:.1} µs",
            sweep.len(),
            med(&mut sweep)
        );
    }
}
