//! The one-shot inverse of the shipped Panda and climber models, part by part: the section head
//! σ(ỹ), the forward pass that seeds every monotone layer from it, the whole cold inverse
//! G⁻¹([ỹ; 0]) from that start (head and seeding included), the same inverse started from y
//! (no head), and the solver's whole answer (normalisation, inverse, replay through the robot,
//! the verdict). Targets: the problem's 200 random targets of seed 1 (`Problem::random_targets`:
//! images of uniform configurations inside the kind's useful domain), cycled.
//!
//! `cargo bench -p loink --bench one_shot`.

use criterion::{black_box, Criterion};
use loink::surrogate::Loink;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

const TARGETS: usize = 200;

fn main() {
    let mut criterion = Criterion::default().configure_from_args();
    for name in ["panda", "climber"] {
        let path = format!(
            "{}/../../web/models/{name}.json",
            env!("CARGO_MANIFEST_DIR")
        );
        let text = std::fs::read_to_string(&path).expect("a shipped model file");
        let solver = Loink::from_json(&text).expect("the shipped model loads");
        let problem = solver.problem().clone();
        let norm = solver.model().file().normalisation.clone();
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        // (y, [ỹ; 0]) per target.
        let targets: Vec<(Vec<f64>, Vec<f64>)> = problem
            .random_targets(TARGETS, &mut rng)
            .into_iter()
            .map(|y| {
                let mut input: Vec<f64> = y
                    .iter()
                    .zip(&norm.y_shift)
                    .zip(&norm.y_scale)
                    .map(|((v, shift), scale)| (v - shift) / scale)
                    .collect();
                input.resize(solver.task_dim() + solver.latent_dim(), 0.0);
                (y, input)
            })
            .collect();
        let net = solver.model().net();
        let head = solver
            .model()
            .section_head()
            .expect("the model has a section head");
        let m = solver.task_dim();
        let options = solver.options();
        let (mut work, mut guess) = (head.new_work(), vec![0.0; net.dim()]);
        let (mut state, mut x) = (net.new_state(), vec![0.0; net.dim()]);
        let mut group = criterion.benchmark_group(format!("one-shot {name}"));
        let mut i = 0;
        let mut next = || {
            i = (i + 1) % TARGETS;
            &targets[i]
        };
        group.bench_function("section head", |b| {
            b.iter(|| head.predict_into(black_box(&next().1[..m]), &mut work, &mut guess))
        });
        group.bench_function("seeding pass", |b| {
            b.iter(|| {
                state.reset();
                net.seed_warm_starts(black_box(&guess), &mut state)
            })
        });
        group.bench_function("inverse from the head (all of it)", |b| {
            b.iter(|| {
                let input = &next().1;
                state.reset();
                head.predict_into(&input[..m], &mut work, &mut guess);
                net.seed_warm_starts(&guess, &mut state);
                net.inverse_into(black_box(input), &mut state, &options, &mut x)
            })
        });
        group.bench_function("inverse from y", |b| {
            b.iter(|| {
                state.reset();
                net.inverse_into(black_box(&next().1), &mut state, &options, &mut x)
            })
        });
        let mut solver_state = solver.new_state();
        group.bench_function("whole answer", |b| {
            b.iter(|| {
                solver_state.reset();
                solver.solve(&mut solver_state, black_box(&next().0))
            })
        });
        group.finish();
    }
    criterion.final_summary();
}
