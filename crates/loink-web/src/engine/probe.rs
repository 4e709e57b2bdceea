//! The reader's latent probe: a latent point z picked on the latent panel, and the pose
//! G⁻¹([y; z]) it gives for the current target, judged like any answer.

use loink::report::Solution;

use super::Engine;
use crate::learned::LoinkView;
use crate::settings::PROBE_LIMIT;

/// Gauss–Newton steps at most that put a probe's pose back on the target (the refining solver).
const PROBE_RESTORE_STEPS: usize = 8;

impl Engine {
    /// The pose at the latent probe for `target`, with the page's feedback rounds; with the
    /// refining solver, put back on the target by the task's restoration (its steps move q in
    /// the Jacobian's row space only: the hand returns to the target, the elbow stays where z
    /// put it). None without a probe or a model with that latent dimension.
    pub(super) fn probe_solution(&self, target: &[f64]) -> Option<Solution> {
        let z = &self.settings.probe;
        let model = self.models.get(self.entry.name)?;
        if z.is_empty() || z.len() != model.latent_dim() {
            return None;
        }
        let rounds = self.settings.feedback as usize;
        let raw = model.solve_latent(target, z, rounds);
        if self.settings.solver != crate::settings::SolverKind::LoinkRefine
            || self.settings.refine == 0
            || raw.q().is_empty()
        {
            return Some(raw);
        }
        let steps = (self.settings.refine as usize).max(PROBE_RESTORE_STEPS);
        let held = loink::solvers::refine::restore(&self.problem, target, raw.q(), steps);
        Some(
            if held.is_better_than(&raw) || held.residual() < raw.residual() {
                held
            } else {
                raw
            },
        )
    }

    /// Sets the latent probe to `z` (clamped to ±[`PROBE_LIMIT`]; empty clears it) and solves
    /// its pose; refuses a z of the wrong dimension or not finite.
    pub fn set_probe(&mut self, z: &[f64]) -> Result<(), String> {
        let latent = self
            .models
            .get(self.entry.name)
            .map_or(0, LoinkView::latent_dim);
        if !z.is_empty() && z.len() != latent {
            return Err(format!(
                "the {} model's latent space has {latent} coordinates, not {}",
                self.entry.name,
                z.len()
            ));
        }
        if !z.iter().all(|v| v.is_finite()) {
            return Err("a latent probe must be finite".into());
        }
        self.settings.probe = z
            .iter()
            .map(|v| v.clamp(-PROBE_LIMIT, PROBE_LIMIT))
            .collect();
        // A slice of a latent space of three or more coordinates passes through the probe:
        // moving it off the slice's plane (or clearing it) maps another slice.
        #[cfg(feature = "view3d")]
        if (self.latent_map.as_ref()).is_some_and(|m| !m.holds(&self.settings.probe)) {
            self.latent_map = None;
        }
        self.probe = self.probe_solution(&self.target.clone());
        self.revision = self.revision.wrapping_add(1);
        Ok(())
    }

    /// The latent panel's slice: the two axes it spans (0-based) and the latent point it passes
    /// through (the probe, or the origin without one).
    pub fn latent_slice(&self) -> ([usize; 2], Vec<f64>) {
        let axes = self.settings.view3d.axes().unwrap_or([0, 1]);
        (axes, self.settings.probe.clone())
    }

    /// The pose at the latent probe, if any.
    pub fn probe(&self) -> Option<&Solution> {
        self.probe.as_ref()
    }
}
