//! The play mode's moving target.

use loink::problem::Problem;

/// The play-mode target at time `t` (s): for a planar reach disc a slow Lissajous loop through the
/// right half of its workspace; for any other problem the image of a slow Lissajous loop through
/// its joint box (reachable by construction).
pub fn play_target(problem: &Problem, t: f64) -> Vec<f64> {
    if let Some(reach) = problem.capabilities().plane().and_then(|v| v.reach_disc()) {
        return vec![
            reach * (0.45 + 0.25 * (0.6 * t).sin()),
            reach * 0.45 * (0.4 * t).sin() + reach * 0.1 * (1.3 * t).cos(),
        ];
    }
    let limits = problem.limits();
    let q: Vec<f64> = (0..limits.len())
        .map(|i| {
            let phase = 0.7 * i as f64 + (0.3 + 0.17 * i as f64) * t;
            limits.centre(i) + 0.8 * limits.half_width(i) * phase.sin()
        })
        .collect();
    problem.position(&q)
}
