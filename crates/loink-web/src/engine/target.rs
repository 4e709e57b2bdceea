//! Which target a view shows: a link that names none opens at the problem's default target,
//! and a target carried over from another problem's view that this one cannot reach is
//! replaced by that default (said in the status line), never solved as it is.

use loink::problem::Reachability;

use super::checks::coordinates;
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
        let default = || task.to_columns(&self.problem.default_target());
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
}
