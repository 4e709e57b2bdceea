//! What one frame hands back to JavaScript: the solve's own report plus what the page shows
//! next to it. Field names are the JS API's (`getState()`), so they are camelCase.

use loink::report::{Solution, Status};
use serde::Serialize;

/// The state after a frame (`window.loinkPlayground.getState()`).
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FrameState {
    /// Model name (catalog).
    pub model: String,
    /// Solver word (`loink`, `loink-refine`, `dls`, `analytic`, `reference`).
    pub solver: String,
    /// Target y (the task's coordinates; metres for the arms).
    pub target: Vec<f64>,
    /// Joint angles (rad); empty when the target was invalid.
    pub q: Vec<f64>,
    /// p(q) by forward-kinematics replay.
    pub reached: Vec<f64>,
    /// ‖p(q) − y‖ (m).
    pub residual: f64,
    /// J(q).
    pub cost: f64,
    /// J* of the reference optimum for this target (NaN when none is feasible).
    pub optimum: f64,
    /// (J − J*)/J* in percent (NaN when J* is unknown or the solve is not feasible).
    pub gap: f64,
    /// The reference optimum of this target is not computed yet (it runs with the next drawn
    /// frame): `optimum` and `gap` are NaN for that reason, not because none is feasible.
    pub optimum_pending: bool,
    /// Distance to the nearest joint limit (rad), negative when violated.
    pub margin: f64,
    /// `converged`, `capped`, `unreachable`, `limits` or `invalid`.
    pub status: String,
    /// Iterations the solver used.
    pub iterations: usize,
    /// Wall time of the solve (µs).
    pub solve_micros: f64,
    /// Wall time of the last drawn frame (ms): the deferred per-target work (reference pass,
    /// samples, learned curve) and all four panels; the solve itself is `solve_micros`.
    pub frame_ms: f64,
    /// Whether the target is outside what the arm can reach (the page says so in words).
    pub unreachable: bool,
    /// One sentence about the solution for the status line.
    pub message: String,
    /// Notes about settings that could not be honoured (bad link entries, missing model file).
    pub warnings: Vec<String>,
    /// Whether a trained model is loaded for this model name.
    pub learned: bool,
    /// The readouts as the page prints them (`data-readout` name → text), formatted here so
    /// JavaScript holds no number formatting either.
    pub readouts: Readouts,
}

/// Formatted readout texts, one per `data-readout` element.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Readouts {
    /// ‖p(q) − y‖ in m.
    pub residual: String,
    /// J(q).
    pub cost: String,
    /// Gap to J* in %.
    pub gap: String,
    /// Joint-limit margin in rad.
    pub margin: String,
    /// Status word.
    pub status: String,
    /// Iterations.
    pub iterations: String,
    /// Solve time in µs.
    #[serde(rename = "solve-us")]
    pub solve_us: String,
    /// Frame time in ms.
    #[serde(rename = "frame-ms")]
    pub frame_ms: String,
}

fn or_dash(v: f64, text: impl FnOnce(f64) -> String) -> String {
    if v.is_finite() {
        text(v)
    } else {
        "—".to_string()
    }
}

impl Readouts {
    /// Formats the readouts of a frame.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        residual: f64,
        cost: f64,
        gap: f64,
        margin: f64,
        status: &str,
        iterations: usize,
        solve_micros: f64,
        frame_ms: f64,
    ) -> Readouts {
        Readouts {
            residual: or_dash(residual, |v| format!("{v:.2e}")),
            cost: or_dash(cost, |v| format!("{v:.5}")),
            gap: or_dash(gap, |v| format!("{v:.3}")),
            margin: or_dash(margin, |v| format!("{v:.4}")),
            status: status.to_string(),
            iterations: iterations.to_string(),
            solve_us: or_dash(solve_micros, |v| format!("{v:.0}")),
            frame_ms: or_dash(frame_ms, |v| format!("{v:.2}")),
        }
    }
}

/// The sentence shown in the status line for a solution.
pub fn describe(solution: &Solution, gap: f64) -> String {
    let gap_text = if gap.is_finite() {
        format!(", {gap:.2}% above the optimum")
    } else {
        String::new()
    };
    match solution.status() {
        Status::Converged => format!(
            "Reached the target ({:.1e} m){gap_text}.",
            solution.residual()
        ),
        Status::Approximate => format!(
            "A learned estimate {:.1e} m from the target{gap_text}.",
            solution.residual()
        ),
        Status::Unverified => {
            "Nothing can replay this answer: it is the learned model's word alone.".to_string()
        }
        Status::Capped => format!(
            "Stopped at the iteration cap {:.1e} m from the target{gap_text}.",
            solution.residual()
        ),
        Status::Unreachable => format!(
            "Target unreachable: the closest pose is {:.3} m away.",
            solution.residual()
        ),
        Status::Limits => format!(
            "Reaches the target only by breaking a joint limit ({:.3} rad).",
            -solution.margin()
        ),
        Status::Invalid => "The target is not a valid point.".to_string(),
    }
}
