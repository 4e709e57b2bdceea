//! The 3-D view's own settings: the orbit the arm panel is seen from, and the target moved
//! along the view's depth.

use super::Engine;
use crate::orbit::{Projection, DEFAULT_PITCH, DEFAULT_YAW};

impl Engine {
    /// The arm panel's orbit, `[yaw, pitch]` in degrees.
    pub fn view(&self) -> [f64; 2] {
        self.settings.view.unwrap_or([DEFAULT_YAW, DEFAULT_PITCH])
    }

    /// Turns the view by a drag of (dx, dy) CSS pixels; nothing is solved.
    pub fn orbit(&mut self, dx: f64, dy: f64) -> Result<(), String> {
        if !(dx.is_finite() && dy.is_finite()) {
            return Err("an orbit drag must be finite".into());
        }
        let [yaw, pitch] = self.view();
        self.settings.view = Some(Projection::orbited(yaw, pitch, dx, dy));
        self.revision = self.revision.wrapping_add(1);
        Ok(())
    }

    /// Back to the view a fresh page shows.
    pub fn reset_view(&mut self) {
        self.settings.view = None;
        self.revision = self.revision.wrapping_add(1);
    }
}
