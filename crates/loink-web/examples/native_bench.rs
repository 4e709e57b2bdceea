//! The native half of the wasm-vs-native ratio: the same [`loink_web::bench::solve_bench`] the
//! browser's `?bench=1` mode runs, on the same path targets, printed as JSON lines.
//!
//! `cargo run --release -p loink-web --example native_bench [-- FRAMES [MODEL_DIR]]`
//! (defaults: 1000 frames, `web/models`). The models are the browser bench's list,
//! `tests/e2e/bench-models.json`; those without a shipped file are timed with the classical
//! solvers only.

use loink_web::bench::{bench_settings, solve_bench};
use loink_web::catalog::MODELS;
use loink_web::engine::Engine;
use loink_web::settings::Settings;

fn main() {
    let mut args = std::env::args().skip(1);
    let frames: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(1000);
    let dir = args.next().unwrap_or_else(|| "web/models".to_string());
    let mut engine = match Engine::new() {
        Ok(e) => e,
        Err(e) => {
            eprintln!("native_bench: {e}");
            std::process::exit(1);
        }
    };
    let list = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/e2e/bench-models.json"
    );
    let names: Vec<String> = match std::fs::read_to_string(list)
        .map_err(|e| e.to_string())
        .and_then(|t| serde_json::from_str(&t).map_err(|e| e.to_string()))
    {
        Ok(names) => names,
        Err(e) => {
            eprintln!("native_bench: {list}: {e}");
            std::process::exit(1);
        }
    };
    for entry in names
        .iter()
        .filter_map(|n| MODELS.iter().find(|m| m.name == n))
    {
        if let Ok(text) = std::fs::read_to_string(format!("{dir}/{}.json", entry.name)) {
            if let Err(e) = engine.load_model(entry.name, &text) {
                eprintln!("native_bench: {e}");
            }
        }
        let base = Settings {
            model: entry.name.to_string(),
            ..Settings::default()
        };
        for settings in bench_settings(&base) {
            if !engine.apply(settings).is_empty() {
                continue; // not available for this model (e.g. no trained file)
            }
            let result = solve_bench(&mut engine, frames, loink_web::bench::REPEATS);
            match serde_json::to_string(&result) {
                Ok(line) => println!("{line}"),
                Err(e) => eprintln!("native_bench: {e}"),
            }
        }
    }
}
