//! The page's checks: which targets it accepts, and which answers have their cost compared
//! with the optimum.

use loink::report::{Solution, Status};

use crate::settings::TARGET_LIMIT;

/// A learned estimate this close to the target (task units: m) has its cost compared with J\*;
/// one that misses by more could undercut the optimum by not reaching the target.
pub const GAP_RESIDUAL: f64 = 1e-4;

/// Whether a solution's cost may be compared with J\*: it converged, or it is a learned
/// estimate within [`GAP_RESIDUAL`] of the target inside the limits.
pub fn comparable(s: &Solution) -> bool {
    match s.status() {
        Status::Converged => true,
        Status::Approximate => s.residual() <= GAP_RESIDUAL,
        _ => false,
    }
}

/// The gap to the optimum in percent on the one scale of [`loink::gap::Gap::scaled`]:
/// (J − J*)/J*, or J − J* over the floor where J* is near 0 (so a zero optimum never divides by
/// nothing, and "within 1 %" is one threshold).
pub fn gap_percent(cost: f64, optimum: f64) -> f64 {
    100.0 * loink::gap::Gap::of(cost, optimum).scaled()
}

/// A target the page accepts: `dim` finite coordinates, each within ±[`TARGET_LIMIT`].
pub fn check_target(t: &[f64], dim: usize) -> Result<(), String> {
    let shown = coordinates(t);
    if t.len() != dim {
        return Err(format!(
            "target ({shown}) has {} coordinates, the task has {dim}",
            t.len()
        ));
    }
    if !t.iter().all(|v| v.is_finite()) {
        return Err(format!("target ({shown}) is not a finite point"));
    }
    if t.iter().any(|v| v.abs() > TARGET_LIMIT) {
        return Err(format!(
            "target ({shown}) is more than {TARGET_LIMIT} from the base"
        ));
    }
    Ok(())
}

/// "0.6, 0.3": a target's coordinates as a message quotes them.
pub(super) fn coordinates(t: &[f64]) -> String {
    t.iter()
        .map(|v| v.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}
