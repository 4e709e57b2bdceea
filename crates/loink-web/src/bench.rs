//! The solve benchmark shared by the browser (`?bench=1`) and the native example, so the
//! wasm/native ratio compares the same code on the same targets.
//!
//! Targets follow a fixed Lissajous path through the workspace (the play-mode path), one per
//! frame, each solve warm-started from the previous frame as when a pointer drags. The browser
//! clock is coarse (≈100 µs without cross-origin isolation), so each frame's solve is repeated
//! `repeats` times from the same starting state and the mean taken; the median is over frames.

use serde::Serialize;

use crate::clock::now_micros;
use crate::engine::Engine;
use crate::settings::{Settings, SolverKind};

/// Solves per frame, timed together: without cross-origin isolation the page clock ticks in
/// 100 µs steps, so 100 repeats of a ~20 µs solve resolve it to 1 µs. The native example uses
/// the same count so both sides run the same warm-started loop.
pub const REPEATS: usize = 100;

/// Target of frame `k` (m), on the play-mode path of an arm of `reach`.
pub fn path_target(reach: f64, k: usize) -> [f64; 2] {
    let t = k as f64 * 0.016;
    [
        reach * (0.45 + 0.25 * (0.6 * t).sin()),
        reach * 0.45 * (0.4 * t).sin() + reach * 0.1 * (1.3 * t).cos(),
    ]
}

/// Result of [`solve_bench`].
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SolveBench {
    /// Solver word.
    pub solver: String,
    /// Task-feedback rounds of the learned solvers.
    pub feedback: u32,
    /// Model name.
    pub model: String,
    /// Frames timed.
    pub frames: usize,
    /// Repeats per frame.
    pub repeats: usize,
    /// Median solve time over frames (µs).
    pub median_micros: f64,
    /// 95th percentile (µs).
    pub p95_micros: f64,
    /// Frames whose solution converged.
    pub converged: usize,
}

/// Median and 95th percentile of `values` (NaN when empty).
pub fn median_p95(values: &mut [f64]) -> (f64, f64) {
    if values.is_empty() {
        return (f64::NAN, f64::NAN);
    }
    values.sort_by(f64::total_cmp);
    let at = |p: f64| values[((values.len() - 1) as f64 * p).round() as usize];
    (at(0.5), at(0.95))
}

/// Mean of `values` (NaN when empty); the coarse page clock averages out over many frames.
pub fn mean(values: &[f64]) -> f64 {
    values.iter().sum::<f64>() / values.len() as f64
}

/// The settings of each solve-benchmark row, from the page's `base`: every interactive solver
/// (not the reference sweep: it is the ground truth, and 100 repeats of it would take
/// minutes), and LOInK once more as the one-shot inverse when `base` has feedback rounds. The
/// browser's and the native bench both run this list.
pub fn bench_settings(base: &Settings) -> Vec<Settings> {
    let with = |solver: SolverKind, feedback: u32| Settings {
        solver,
        feedback,
        ..base.clone()
    };
    let mut rows = vec![with(SolverKind::Loink, base.feedback)];
    if base.feedback > 0 {
        rows.push(with(SolverKind::Loink, 0));
    }
    rows.extend([
        with(SolverKind::LoinkRefine, base.feedback),
        with(SolverKind::Dls, base.feedback),
        with(SolverKind::Analytic, base.feedback),
    ]);
    rows
}

/// Times the current solver of `engine` over `frames` path targets.
pub fn solve_bench(engine: &mut Engine, frames: usize, repeats: usize) -> SolveBench {
    let repeats = repeats.max(1);
    let reach = engine.problem().arm.reach();
    let mut times = Vec::with_capacity(frames);
    let mut converged = 0;
    for k in 0..frames {
        let target = path_target(reach, k);
        let start = now_micros();
        let ok = engine.time_solver(&target, repeats);
        times.push((now_micros() - start) / repeats as f64);
        converged += usize::from(ok);
    }
    let (median_micros, p95_micros) = median_p95(&mut times);
    SolveBench {
        solver: engine.settings().solver.as_str().to_string(),
        feedback: engine.settings().feedback,
        model: engine.entry().name.to_string(),
        frames,
        repeats,
        median_micros,
        p95_micros,
        converged,
    }
}
