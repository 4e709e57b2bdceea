//! The climber's cost at one stance of its useful domain: the value alone (what a line search
//! asks) and the value with its exact gradient (the adhesion's through the statics in dual
//! numbers; what every polish step and DLS iteration asks), and the forward map beside them as a
//! unit.
//!
//! `cargo bench -p loink --bench climber_cost`.

use criterion::{black_box, Criterion};
use loink::problem::Problem;

fn main() {
    let mut criterion = Criterion::default().configure_from_args();
    let problem = Problem::preset("climber").expect("the climber preset");
    // A stance from the held-out targets' answers (wall at 136°, span 0.51 m).
    let q = [2.5466, -0.2628, -1.4910, 0.3598, -2.0026];
    let (mut y, mut grad) = (vec![0.0; problem.task_dim()], vec![0.0; problem.dof()]);
    let mut group = criterion.benchmark_group("climber");
    group.bench_function("forward", |b| {
        b.iter(|| problem.position_into(black_box(&q), &mut y))
    });
    group.bench_function("cost value", |b| {
        b.iter(|| problem.cost().value(black_box(&q)))
    });
    group.bench_function("cost value and gradient", |b| {
        b.iter(|| {
            problem
                .cost()
                .value_and_gradient_into(black_box(&q), &mut grad)
        })
    });
    group.finish();
    criterion.final_summary();
}
