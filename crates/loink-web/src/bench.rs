//! The solve benchmark shared by the browser (`?bench=1`) and the native example, so the
//! wasm/native ratio compares the same code on the same targets. Built only with the `bench`
//! feature (`tests/e2e/bench.mjs` builds its own bundle): the shipped page does not carry it.
//!
//! Targets follow a fixed Lissajous path through the workspace (the play-mode path), one per
//! frame, each solve warm-started from the previous frame as when a pointer drags. The browser
//! clock is coarse (≈100 µs without cross-origin isolation), so each frame's solve is repeated
//! `repeats` times from the same starting state and the mean taken; the median is over frames.

use serde::Serialize;

use crate::clock::now_micros;
use crate::engine::{play_target, Engine};
use crate::settings::{Settings, SolverKind};

/// Solves per frame, timed together: without cross-origin isolation the page clock ticks in
/// 100 µs steps, so 100 repeats of a ~20 µs solve resolve it to 1 µs. The native example uses
/// the same count so both sides run the same warm-started loop.
pub const REPEATS: usize = 100;

/// Target of frame `k` on the play-mode path of `engine`'s problem (frames 16 ms apart).
pub fn path_target(engine: &Engine, k: usize) -> Vec<f64> {
    play_target(engine.problem(), k as f64 * 0.016)
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
    let mut times = Vec::with_capacity(frames);
    let mut converged = 0;
    for k in 0..frames {
        let target = path_target(engine, k);
        let start = now_micros();
        let ok = engine.time_solver(&target, repeats);
        times.push((now_micros() - start) / repeats as f64);
        converged += usize::from(ok);
    }
    let (median_micros, p95_micros) = loink::stats::median_p95(&times);
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

#[cfg(target_arch = "wasm32")]
mod browser {
    use serde::Serialize;
    use wasm_bindgen::prelude::*;

    use crate::clock::now_micros;
    use crate::playground::{js_err, to_js, Playground};

    #[wasm_bindgen]
    impl Playground {
        /// The browser benchmark (`?bench=1`): once the idle work (gap map) is done, `frames`
        /// whole frames along the play-mode path (solve + every panel; median and p95 ms), then
        /// [`super::solve_bench`] for each solver available on the current model (median µs
        /// over `frames` targets, each solve repeated [`super::REPEATS`] times because the page
        /// clock is coarse). Restores the settings.
        pub fn bench(&mut self, frames: usize) -> Result<JsValue, JsError> {
            #[derive(Serialize)]
            #[serde(rename_all = "camelCase")]
            struct Report {
                model: String,
                frames: usize,
                frame_median_ms: f64,
                frame_p95_ms: f64,
                /// Mean ms of solve (with the self-motion pass), arm, landscape, latent, gap map.
                part_mean_ms: Vec<f64>,
                solves: Vec<super::SolveBench>,
            }
            let frames = frames.clamp(1, 100_000);
            // Time the steady state a user drags in: the idle work done, so every frame draws
            // the finished gap map (an unfinished one draws less).
            for _ in 0..100_000 {
                if !self.idle(50.0)? {
                    break;
                }
            }
            let saved = self.engine.settings().clone();
            let mut times = Vec::with_capacity(frames);
            // Per part (ms): solve incl. the self-motion pass, then each panel.
            let mut parts: [Vec<f64>; 5] = Default::default();
            for k in 0..frames {
                let start = now_micros();
                let target = super::path_target(&self.engine, k);
                self.engine.set_target(&target).map_err(js_err)?;
                let mut t = now_micros();
                parts[0].push((t - start) * 1e-3);
                for (i, part) in parts.iter_mut().enumerate().skip(1) {
                    let name = crate::panels::PANELS[i - 1];
                    self.panels.draw(name, &self.engine).map_err(js_err)?;
                    let now = now_micros();
                    part.push((now - t) * 1e-3);
                    t = now;
                }
                times.push((now_micros() - start) * 1e-3);
            }
            let (frame_median_ms, frame_p95_ms) = loink::stats::median_p95(&times);
            let part_mean_ms: Vec<f64> = parts.iter().map(|p| loink::stats::mean(p)).collect();
            let mut solves = Vec::new();
            for next in super::bench_settings(&saved) {
                if self.engine.solver_available(next.solver).is_err() {
                    continue;
                }
                self.engine.apply(next);
                solves.push(super::solve_bench(&mut self.engine, frames, super::REPEATS));
            }
            self.engine.apply(saved);
            self.panels.redraw(&self.engine).map_err(js_err)?;
            to_js(&Report {
                model: self.engine.entry().name.to_string(),
                frames,
                frame_median_ms,
                frame_p95_ms,
                part_mean_ms,
                solves,
            })
        }
    }
}
