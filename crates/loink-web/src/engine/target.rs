//! The view's target: its columns and coordinates, the checks it passes, and which one a view
//! shows: a link that names none opens at the problem's default target,
//! and a target carried over from another problem's view that this one cannot reach is
//! replaced by that default (said in the status line), never solved as it is.

use loink::problem::Reachability;

use super::checks::{check_target, coordinates};
use super::Engine;

impl Engine {
    /// Marks `target` as carried over from another problem's view (the model menu changes the
    /// model and keeps the target): when the next settings bring it, a problem that cannot
    /// reach it shows its default target instead, and says so.
    pub fn carry_target(&mut self, target: Vec<f64>) {
        self.carried = Some(target);
    }

    /// The target (the task's columns) to show instead of `asked` (and why, when a reader should know), or None to
    /// keep it: none asked → the problem's default target; a bad one → a warning and the
    /// current target (the default where the current one does not fit this problem); one
    /// `carried` over from another problem's view that this problem cannot reach (or whose
    /// dimension it does not have) → the default target, said. A link's own target is solved
    /// as given.
    pub(super) fn target_for_view(
        &self,
        asked: &[f64],
        carried: bool,
    ) -> Option<(Vec<f64>, Option<String>)> {
        let task = self.problem.task();
        let default = || task.to_columns(&super::opening_target(self.entry, &self.problem));
        if asked.is_empty() {
            return Some((default(), None));
        }
        let fits = self.coordinates_of(asked);
        if carried
            && fits.as_ref().map_or(true, |t| {
                self.problem.reachability(t, None) == Reachability::Unreachable
            })
        {
            let target = default();
            let why = format!(
                "the target ({}) is out of reach of {}: moved to its default target ({})",
                coordinates(asked),
                self.problem.name(),
                coordinates(&target)
            );
            return Some((target, Some(why)));
        }
        fits.err().map(|why| {
            let kept = if self.coordinates_of(&self.settings.target).is_ok() {
                self.settings.target.clone()
            } else {
                default()
            };
            (kept, Some(why))
        })
    }

    /// A target the page accepts for this problem: the task's dimension, finite, within
    /// ±[`crate::settings::TARGET_LIMIT`] on every axis.
    pub fn check_target(&self, t: &[f64]) -> Result<(), String> {
        check_target(t, self.problem.task_dim())
    }

    /// The task coordinates of a target given in the task's columns (a pose's quaternion
    /// normalised), checked like [`Self::check_target`]; a wrong count, a zero quaternion or
    /// a bad number is refused with the reason.
    pub fn coordinates_of(&self, columns: &[f64]) -> Result<Vec<f64>, String> {
        let task = self.problem.task();
        let target = task
            .from_columns(columns)
            .map_err(|e| format!("target: {e}"))?;
        self.check_target(&target)?;
        Ok(target)
    }

    /// The target in the task's coordinates (`settings().target` holds it in its columns).
    pub fn target(&self) -> &[f64] {
        &self.target
    }

    /// Moves the target (the task's columns) and solves, panels included
    /// ([`Self::move_target`] then [`Self::prepare_panels`]). A non-finite or absurd target is
    /// refused with a readable error and changes nothing.
    pub fn set_target(&mut self, target: &[f64]) -> Result<(), String> {
        self.move_target(target)?;
        self.prepare_panels();
        Ok(())
    }

    /// Moves the target and runs the solver only: the solution (residual, status, margin) is
    /// this target's, while the reference optimum — hence J* and the gap — and the panel data
    /// wait for [`Self::prepare_panels`] ([`Self::optimum_pending`] says so; the gap reads NaN
    /// meanwhile, never a previous target's). Refuses a bad target like [`Self::set_target`].
    pub fn move_target(&mut self, columns: &[f64]) -> Result<(), String> {
        let target = self.coordinates_of(columns)?;
        self.settings.target = self.problem.task().to_columns(&target);
        self.target = target;
        self.solve_target();
        Ok(())
    }
}
