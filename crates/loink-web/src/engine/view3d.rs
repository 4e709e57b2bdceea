//! The 3-D view's own settings: the orbit the arm panel is seen from; the target moved along
//! the view's depth, and turned (a task that turns the hand).

use super::Engine;
use crate::orbit::{Projection, DEFAULT_PITCH, DEFAULT_YAW};

impl Engine {
    /// The arm panel's orbit, `[yaw, pitch]` in degrees.
    pub fn view(&self) -> [f64; 2] {
        self.settings
            .view3d
            .view
            .unwrap_or([DEFAULT_YAW, DEFAULT_PITCH])
    }

    /// Turns the view by a drag of (dx, dy) CSS pixels; nothing is solved.
    pub fn orbit(&mut self, dx: f64, dy: f64) -> Result<(), String> {
        if !(dx.is_finite() && dy.is_finite()) {
            return Err("an orbit drag must be finite".into());
        }
        let [yaw, pitch] = self.view();
        self.settings.view3d.view = Some(Projection::orbited(yaw, pitch, dx, dy));
        self.revision = self.revision.wrapping_add(1);
        Ok(())
    }

    /// Back to the view a fresh page shows.
    pub fn reset_view(&mut self) {
        self.settings.view3d.view = None;
        self.revision = self.revision.wrapping_add(1);
    }
}

impl Engine {
    /// Turns the target by `degrees` about the world's unit `axis` (its position kept) and
    /// solves; refused, changing nothing, for a task that does not turn the hand, a turn that
    /// is not finite, or one that leaves the task's chart (an axis pointing straight up).
    pub fn turn_target(&mut self, axis: [f64; 3], degrees: f64) -> Result<(), String> {
        if !(degrees.is_finite() && axis.iter().all(|a| a.is_finite())) {
            return Err("a turn must be finite".into());
        }
        let length = loink::so3::norm(axis);
        if length < 1e-12 {
            return Err("a turn needs an axis".into());
        }
        let task = self.problem.task();
        if !task.has_angle() {
            return Err(format!(
                "the {} target is a point: it has no orientation to turn",
                self.problem.name()
            ));
        }
        let unit = axis.map(|a| a / length);
        let turned = task
            .turned(&self.target, unit, degrees.to_radians())
            .ok_or("that turn points the tool straight up, where the axis chart ends")?;
        let columns = task.to_columns(&turned);
        self.move_target(&columns)
    }

    /// The target's own axes in the world (x, y, z), for a task that turns the hand.
    pub fn target_axes(&self) -> Option<[[f64; 3]; 3]> {
        let r = self.problem.task().frame(&self.target)?;
        Some(std::array::from_fn(|i| [r[i], r[3 + i], r[6 + i]]))
    }
}
