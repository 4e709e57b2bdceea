//! Model-file loading: parse (serde_json) + validate (shapes, orthogonality, the monotone
//! certificate by one Cholesky factorisation per layer) + building the inference objects, for the
//! shipped planar3 files (the page's default, planar3-h38w, first). The page pays this once per
//! model, on the path to its first frame.
//!
//! `cargo bench -p loink --bench load`. Files missing from `web/models/` are skipped.

use criterion::{black_box, Criterion};
use loink::artifact::{load_model, parse_model, validate};

const MODELS: [&str; 4] = ["planar3-h38w", "planar3-h38", "planar3-surface", "planar3"];

fn main() {
    let mut criterion = Criterion::default().configure_from_args();
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../../web/models");
    for name in MODELS {
        let Ok(text) = std::fs::read_to_string(format!("{root}/{name}.json")) else {
            eprintln!("load bench: web/models/{name}.json missing, skipped");
            continue;
        };
        let file = parse_model(&text).expect("a shipped file parses");
        let mut group = criterion.benchmark_group(format!("load/{name}"));
        group.bench_function("parse+validate", |b| {
            b.iter(|| load_model(black_box(&text)).expect("valid"))
        });
        group.bench_function("validate", |b| {
            b.iter(|| validate(black_box(file.clone())).expect("valid"))
        });
        group.finish();
    }
    criterion.final_summary();
}
