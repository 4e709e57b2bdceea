//! BiLipNet inverse benchmarks: cold and warm solve time and iterations, DYS against Newton,
//! over depth 2–4, hidden [16]×4 / [32]×4 / [64]×4 and distortion τ = ν/μ ∈ {2, 20, 400}
//! (μ = 1/√τ, ν = √τ; the planar3 prototype used μ = 0.05, ν = 20, τ = 400), width n = 3.
//!
//! `cargo bench -p loink --bench inverse` first prints a table measured here with
//! `std::time::Instant` (median µs per solve over 200 random targets cold, 400 steps of a smooth
//! target path warm; iterations per monotone layer), then runs the criterion groups for the
//! candidate shipped sizes. `cargo bench -p loink --bench inverse -- --table` prints the table
//! only. If `web/models/planar3.json` exists its surrogate solve is timed too.
//!
//! Networks are random (untrained): iteration counts of trained models differ (planar3.md
//! reports ~300 DYS iterations per layer on a trained prototype against ~50–100 here).

use std::time::{Duration, Instant};

use criterion::{black_box, BenchmarkId, Criterion};
use loink::nn::{BiLipNet, InverseMethod, InverseOptions};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

const N: usize = 3;
const COLD_TARGETS: usize = 200;
const PATH_STEPS: usize = 400;

struct Case {
    depth: usize,
    hidden: Vec<usize>,
    tau: f64,
    net: BiLipNet,
    cold: Vec<Vec<f64>>,
    path: Vec<Vec<f64>>,
}

impl Case {
    fn new(depth: usize, hidden: &[usize], tau: f64, seed: u64) -> Case {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let net = BiLipNet::random(N, depth, hidden, 1.0 / tau.sqrt(), tau.sqrt(), &mut rng)
            .expect("valid random network");
        let cold = (0..COLD_TARGETS)
            .map(|_| {
                let x: Vec<f64> = (0..N).map(|_| rng.random_range(-1.0..1.0)).collect();
                net.forward(&x).expect("finite")
            })
            .collect();
        // A smooth joint-space path (about 0.01 per frame), mapped through G.
        let path = (0..PATH_STEPS)
            .map(|i| {
                let t = i as f64 * 0.01;
                let x = [0.8 * t.cos(), 0.8 * (1.3 * t).sin(), 0.5 * (0.7 * t).cos()];
                net.forward(&x).expect("finite")
            })
            .collect();
        Case {
            depth,
            hidden: hidden.to_vec(),
            tau,
            net,
            cold,
            path,
        }
    }

    fn label(&self) -> String {
        format!(
            "d{}-h{}x{}-tau{}",
            self.depth,
            self.hidden[0],
            self.hidden.len(),
            self.tau
        )
    }
}

fn options(method: InverseMethod) -> InverseOptions {
    InverseOptions::default().with_method(method)
}

struct Measured {
    median_us: f64,
    mean_iterations: f64,
    max_iterations: usize,
    failures: usize,
}

fn median(v: Vec<f64>) -> f64 {
    loink::stats::median(&v)
}

fn measure(case: &Case, method: InverseMethod, warm: bool) -> Measured {
    let opts = InverseOptions {
        warm_start: warm,
        ..options(method)
    };
    let targets = if warm { &case.path } else { &case.cold };
    // DYS is ~100× slower: fewer targets keep the table quick.
    let keep = if method == InverseMethod::DavisYin {
        targets.len() / 4
    } else {
        targets.len()
    };
    let targets = &targets[..keep];
    let mut state = case.net.new_state();
    let mut x = vec![0.0; N];
    let (mut times, mut iterations, mut max_iterations, mut failures) = (Vec::new(), 0, 0, 0);
    for y in targets {
        if !warm {
            state.reset();
        }
        let start = Instant::now();
        let report = case
            .net
            .inverse_into(y, &mut state, &opts, &mut x)
            .expect("valid");
        times.push(start.elapsed().as_secs_f64() * 1e6);
        iterations += report.iterations;
        max_iterations = max_iterations.max(report.max_layer_iterations);
        failures += usize::from(!report.converged() || report.residual > 1e-9);
    }
    Measured {
        median_us: median(times),
        mean_iterations: iterations as f64 / (targets.len() * case.depth) as f64,
        max_iterations,
        failures,
    }
}

fn cases(full: bool) -> Vec<Case> {
    let hidden: Vec<Vec<usize>> = if full {
        vec![vec![16; 4], vec![32; 4], vec![64; 4]]
    } else {
        vec![vec![16; 4], vec![32; 4]]
    };
    let taus: &[f64] = if full {
        &[2.0, 20.0, 400.0]
    } else {
        &[20.0, 400.0]
    };
    let mut out = Vec::new();
    for depth in [2, 3, 4] {
        for h in &hidden {
            for &tau in taus {
                out.push(Case::new(depth, h, tau, 1000 + depth as u64));
            }
        }
    }
    out
}

fn forward_micros(case: &Case) -> f64 {
    let mut state = case.net.new_state();
    let mut out = vec![0.0; N];
    let times: Vec<f64> = case
        .cold
        .iter()
        .map(|x| {
            let start = Instant::now();
            for _ in 0..10 {
                case.net.forward_into(black_box(x), &mut state, &mut out);
            }
            start.elapsed().as_secs_f64() * 1e5
        })
        .collect();
    median(times)
}

fn print_table(cases: &[Case]) {
    println!("\nBiLipNet inverse, n = {N}, tolerance 1e-10 on ‖G(x) − y‖ (random networks)");
    println!("| depth | hidden | τ | τ_l | method | G(x) µs | cold µs (median) | cold it/layer (mean, max) | warm µs (median) | warm it/layer (mean, max) | not converged |");
    println!("|---|---|---|---|---|---|---|---|---|---|---|");
    for case in cases {
        let forward = forward_micros(case);
        for method in [InverseMethod::Newton, InverseMethod::DavisYin] {
            let cold = measure(case, method, false);
            let warm = measure(case, method, true);
            println!(
                "| {} | {:?} | {} | {:.2} | {} | {:.2} | {:.2} | {:.1}, {} | {:.2} | {:.1}, {} | {} |",
                case.depth,
                case.hidden,
                case.tau,
                case.tau.powf(1.0 / case.depth as f64),
                method.as_str(),
                forward,
                cold.median_us,
                cold.mean_iterations,
                cold.max_iterations,
                warm.median_us,
                warm.mean_iterations,
                warm.max_iterations,
                cold.failures + warm.failures
            );
        }
    }
}

fn trained_model() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../web/models/planar3.json");
    let Ok(text) = std::fs::read_to_string(path) else {
        println!("\n(no web/models/planar3.json yet: trained-model timing skipped)");
        return;
    };
    let solver = match loink::surrogate::Loink::from_json(&text) {
        Ok(s) => s,
        Err(e) => {
            println!("\nweb/models/planar3.json does not load: {e}");
            return;
        }
    };
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    let arm = &solver.problem().planar().unwrap();
    let lim = arm.limits();
    let targets: Vec<Vec<f64>> = (0..500)
        .map(|_| {
            let q: Vec<f64> = (0..lim.len())
                .map(|i| rng.random_range(lim.lower()[i]..lim.upper()[i]))
                .collect();
            arm.position(&q).to_vec()
        })
        .collect();
    for method in [InverseMethod::Newton, InverseMethod::DavisYin] {
        let s = solver.clone().with_options(options(method));
        let (mut cold, mut warm, mut iterations) = (Vec::new(), Vec::new(), 0);
        for y in &targets {
            let start = Instant::now();
            let sol = s.solve_cold(y);
            cold.push(start.elapsed().as_secs_f64() * 1e6);
            iterations += sol.iterations();
        }
        let mut state = s.new_state();
        for i in 0..500 {
            let t = i as f64 * 0.005;
            let y = [0.7 + 0.2 * t.cos(), 0.3 * t.sin()];
            let start = Instant::now();
            black_box(s.solve(&mut state, &y));
            warm.push(start.elapsed().as_secs_f64() * 1e6);
        }
        println!(
            "trained web/models/planar3.json, {}: cold solve {:.2} µs median ({:.1} iterations per target), warm {:.2} µs median (full Solution incl. FK replay)",
            method.as_str(),
            median(cold),
            iterations as f64 / targets.len() as f64,
            median(warm)
        );
    }
}

fn criterion_groups(c: &mut Criterion, cases: &[Case]) {
    for (mode, warm) in [("cold", false), ("warm", true)] {
        let mut group = c.benchmark_group(format!("inverse-{mode}"));
        for case in cases {
            for method in [InverseMethod::Newton, InverseMethod::DavisYin] {
                let opts = InverseOptions {
                    warm_start: warm,
                    ..options(method)
                };
                let targets = if warm { &case.path } else { &case.cold };
                let mut state = case.net.new_state();
                let mut x = vec![0.0; N];
                let mut i = 0;
                group.bench_function(BenchmarkId::new(method.as_str(), case.label()), |b| {
                    b.iter(|| {
                        let y = &targets[i % targets.len()];
                        i += 1;
                        if !warm {
                            state.reset();
                        }
                        black_box(case.net.inverse_into(y, &mut state, &opts, &mut x))
                    })
                });
            }
        }
        group.finish();
    }
}

fn main() {
    let table_only = std::env::args().any(|a| a == "--table");
    print_table(&cases(true));
    trained_model();
    if table_only {
        return;
    }
    let shortlist: Vec<Case> = [
        (2, 16, 20.0),
        (3, 16, 400.0),
        (3, 32, 400.0),
        (4, 16, 400.0),
    ]
    .iter()
    .map(|&(d, h, tau)| Case::new(d, &[h; 4], tau, 1000 + d as u64))
    .collect();
    let mut c = Criterion::default()
        .sample_size(20)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(1))
        .configure_from_args();
    criterion_groups(&mut c, &shortlist);
    c.final_summary();
}
