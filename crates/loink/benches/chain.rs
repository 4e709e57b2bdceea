//! The serial chains' kernels on the presets (`panda`, `tiago`): forward kinematics, the
//! analytic Jacobian, one DLS solve from mid-range (with the chain's own options: null-space
//! pull, random restarts) and the reference search, on one fixed uniform-q target.
//!
//! `cargo bench -p loink --bench chain`.

use criterion::{black_box, Criterion};
use loink::problem::Problem;
use loink::solvers::{dls, reference};
use rand::SeedableRng;

fn main() {
    let mut criterion = Criterion::default().configure_from_args();
    for name in ["panda", "tiago"] {
        let problem = Problem::preset(name).expect("a preset");
        let kinematics = problem.kinematics();
        let (n, m) = (problem.dof(), problem.task_dim());
        let q: Vec<f64> = problem
            .limits()
            .centres()
            .iter()
            .enumerate()
            .map(|(i, c)| c + 0.1 * i as f64)
            .collect();
        let target = problem
            .random_targets(1, &mut rand_chacha::ChaCha8Rng::seed_from_u64(1))
            .remove(0);
        let (mut y, mut jac) = (vec![0.0; m], vec![0.0; m * n]);
        let options = dls::DlsOptions::for_problem(&problem);
        let mid = problem.limits().centres();
        let mut group = criterion.benchmark_group(format!("chain/{name}"));
        group.bench_function("forward", |b| {
            b.iter(|| kinematics.forward_into(black_box(&q), &mut y))
        });
        group.bench_function("jacobian", |b| {
            b.iter(|| kinematics.jacobian_into(black_box(&q), &mut y, &mut jac))
        });
        group.bench_function("dls", |b| {
            b.iter(|| dls::solve_restarting(&problem, black_box(&target), &mid, &options))
        });
        group.sample_size(10);
        group.bench_function("reference", |b| {
            b.iter(|| reference::solve(&problem, black_box(&target)))
        });
        group.finish();
    }
    criterion.final_summary();
}
