//! The 3-D view's pointer, wheel and key input on `canvas#arm`: a drag that starts on the
//! target moves it in the screen plane, on an inset sets two coordinates, on empty space turns
//! the view; shift-drag and the wheel move the target in depth; two fingers orbit (on a target
//! that turns: two fingers twist it, three orbit). The arm panel's common input
//! (`playground_input.rs`) asks the `*_in_space` methods first; `playground3d_off.rs` is this
//! module in a bundle without the 3-D view, where every view is drawn in a plane.

use wasm_bindgen::prelude::*;

use crate::draw::arm3d::{self, Layout, Part, RING_RADIUS};
use crate::grab::{Grab, GrabMode};
use crate::playground::{js_err, Playground};

/// How close (CSS px) to the target's mark a press grabs the target rather than the view.
const GRAB_RADIUS: f64 = 24.0;
/// Half the width of the ring's grip (CSS px).
const RING_BAND: f64 = 9.0;
/// One key turn of the target (degrees): `q`/`e` about its own z, shift + arrows a tilt.
const TURN_STEP: f64 = 5.0;
/// One wheel notch or depth key step (m).
const DEPTH_STEP: f64 = 0.01;

fn finite(px: f64, py: f64) -> Result<(), JsError> {
    if px.is_finite() && py.is_finite() {
        Ok(())
    } else {
        Err(js_err("pointer position is not finite"))
    }
}

#[wasm_bindgen]
impl Playground {
    /// A press on `canvas#arm` at CSS pixel (px, py) with `shift` held and `fingers` touch
    /// points down (0 for a mouse): decides what the drag moves and returns it — `"target"`,
    /// `"orbit"`, `"depth"`, `"ring"` or `"twist"` (a view drawn in a plane: always
    /// `"target"`). Follow with
    /// [`Self::drag`] for each move and [`Self::release`] at the end.
    pub fn grab(&mut self, px: f64, py: f64, shift: bool, fingers: u32) -> Result<String, JsError> {
        finite(px, py)?;
        let Some(layout) = self.panels.arm_layout(&self.engine) else {
            self.grab = None;
            return Ok("target".into());
        };
        let d = self.dpr();
        let part = layout.part_at(px * d, py * d);
        let at = layout.main.to_pixel(self.target3());
        let offset = [at[0] / d - px, at[1] / d - py];
        let from_target = offset[0].hypot(offset[1]);
        let near_target = from_target <= GRAB_RADIUS;
        let on_ring =
            self.engine.target_axes().is_some() && (from_target - RING_RADIUS).abs() <= RING_BAND;
        let turning = self.engine.target_axes().is_some();
        let mode = match part {
            Part::Top | Part::Side => GrabMode::Target(part),
            // On a target that turns, two fingers twist it (about the first finger, whose drag
            // began before) and three orbit; on any other, two orbit.
            _ if fingers == 2 && turning => {
                GrabMode::Twist(self.grab.map_or([at[0] / d, at[1] / d], |g| g.last))
            }
            _ if fingers >= 2 => GrabMode::Orbit,
            _ if on_ring && !shift => GrabMode::Ring,
            _ if shift => GrabMode::Depth,
            _ if fingers == 1 || near_target => GrabMode::Target(Part::Main),
            _ => GrabMode::Orbit,
        };
        self.grab = Some(Grab {
            mode,
            last: [px, py],
            offset: if mode == GrabMode::Target(Part::Main) && near_target {
                offset
            } else {
                [0.0, 0.0]
            },
        });
        Ok(match mode {
            GrabMode::Target(_) => "target",
            GrabMode::Ring => "ring",
            GrabMode::Twist(_) => "twist",
            GrabMode::Orbit => "orbit",
            GrabMode::Depth => "depth",
        }
        .into())
    }

    /// The pointer of a drag begun with [`Self::grab`] is at CSS pixel (px, py): moves what the
    /// drag moves; returns the state (panels: `drawFrame()`).
    pub fn drag(&mut self, px: f64, py: f64) -> Result<JsValue, JsError> {
        finite(px, py)?;
        let Some(grab) = self.grab else {
            return self.pointer(px, py);
        };
        let [dx, dy] = [px - grab.last[0], py - grab.last[1]];
        self.grab = Some(Grab {
            last: [px, py],
            ..grab
        });
        match grab.mode {
            GrabMode::Target(_) => self.pointer(px + grab.offset[0], py + grab.offset[1]),
            GrabMode::Orbit => {
                self.engine.orbit(dx, dy).map_err(js_err)?;
                self.dirty = true;
                self.state()
            }
            GrabMode::Depth => {
                let layout = self.layout()?;
                // Up the screen is toward the viewer, at the view's own scale.
                self.push(-dy * self.dpr() / layout.main.scale, &layout)
            }
            GrabMode::Ring => {
                let layout = self.layout()?;
                let d = self.dpr();
                let at = layout.main.to_pixel(self.target3());
                self.turn_about([at[0] / d, at[1] / d], grab.last, [px, py])
            }
            GrabMode::Twist(pivot) => self.turn_about(pivot, grab.last, [px, py]),
        }
    }

    /// Turns the target `steps` key steps of 5° about its own axis `axis` (`"x"`, `"y"` or
    /// `"z"`: `q`/`e` turn about z, shift + arrows tilt about x and y); returns the state.
    /// Refused, changing nothing, on a view whose target does not turn.
    #[wasm_bindgen(js_name = turnTarget)]
    pub fn turn_target(&mut self, axis: &str, steps: f64) -> Result<JsValue, JsError> {
        let index = match axis {
            "x" => 0,
            "y" => 1,
            "z" => 2,
            other => return Err(js_err(format!("no axis '{other}' (x, y or z)"))),
        };
        if !steps.is_finite() {
            return Err(js_err("turn steps must be finite"));
        }
        let axes = self.engine.target_axes().ok_or_else(|| {
            js_err(format!(
                "the {} target is a point: it has no orientation to turn",
                self.engine.problem().name()
            ))
        })?;
        self.engine
            .turn_target(axes[index], TURN_STEP * steps.clamp(-36.0, 36.0))
            .map_err(js_err)?;
        self.dirty = true;
        self.state()
    }

    /// Ends a drag.
    pub fn release(&mut self) {
        self.grab = None;
    }

    /// Turns the 3-D view by a drag of (dx, dy) CSS pixels; returns the state.
    pub fn orbit(&mut self, dx: f64, dy: f64) -> Result<JsValue, JsError> {
        self.layout()?;
        self.engine.orbit(dx, dy).map_err(js_err)?;
        self.dirty = true;
        self.state()
    }

    /// Back to the view a fresh page shows; returns the state.
    #[wasm_bindgen(js_name = resetView)]
    pub fn reset_view(&mut self) -> Result<JsValue, JsError> {
        self.layout()?;
        self.engine.reset_view();
        self.dirty = true;
        self.state()
    }

    /// Moves the target `steps` centimetres toward the viewer (negative: away), as the wheel
    /// does; returns the state.
    pub fn depth(&mut self, steps: f64) -> Result<JsValue, JsError> {
        if !steps.is_finite() {
            return Err(js_err("depth steps must be finite"));
        }
        let layout = self.layout()?;
        self.push(DEPTH_STEP * steps.clamp(-100.0, 100.0), &layout)
    }
}

impl Playground {
    /// The 3-D layout, or an error saying this view is drawn in a plane.
    pub(crate) fn layout(&self) -> Result<Layout, JsError> {
        self.panels
            .arm_layout(&self.engine)
            .ok_or_else(|| js_err("this view is drawn in a plane: it has no 3-D view to turn"))
    }

    /// Device pixels per CSS pixel of `canvas#arm`.
    pub(crate) fn dpr(&self) -> f64 {
        self.panels.surface("arm").map_or(1.0, |s| s.dpr())
    }

    /// The target as a 3-D point (a shorter one padded with zeros).
    pub(crate) fn target3(&self) -> [f64; 3] {
        let t = &self.engine.settings().target;
        std::array::from_fn(|i| t.get(i).copied().unwrap_or(0.0))
    }

    /// Turns the target about the viewing axis by the angle a pointer swept about `centre`
    /// going from `from` to `to` (CSS px): counter-clockwise as seen (screen y runs down) turns
    /// about the axis toward the viewer.
    fn turn_about(
        &mut self,
        centre: [f64; 2],
        from: [f64; 2],
        to: [f64; 2],
    ) -> Result<JsValue, JsError> {
        let layout = self.layout()?;
        let angle = |p: [f64; 2]| (centre[1] - p[1]).atan2(p[0] - centre[0]);
        let turn = (angle(to) - angle(from) + std::f64::consts::PI)
            .rem_euclid(std::f64::consts::TAU)
            - std::f64::consts::PI;
        let toward = layout.main.basis()[2];
        self.engine
            .turn_target(toward, turn.to_degrees())
            .map_err(js_err)?;
        self.dirty = true;
        self.state()
    }

    /// Moves the target `metres` toward the viewer.
    fn push(&mut self, metres: f64, layout: &Layout) -> Result<JsValue, JsError> {
        let toward = layout.main.basis()[2];
        let t = self.target3();
        let moved = self.placed(std::array::from_fn(|i| t[i] + metres * toward[i]));
        self.move_to(&moved)
    }

    /// Where a pointer at CSS pixel (px, py) puts the target in the 3-D view (the drag's part,
    /// or the part under the pointer without a drag).
    pub(crate) fn target_under(&self, layout: &Layout, px: f64, py: f64) -> [f64; 3] {
        let d = self.dpr();
        let part = match self.grab.map(|g| g.mode) {
            Some(GrabMode::Target(part)) => part,
            _ => layout.part_at(px * d, py * d),
        };
        arm3d::target_at(layout, part, px * d, py * d, self.target3())
    }

    /// The 3-D view's world point → CSS pixel on `canvas#arm`.
    fn to_css(&self, layout: &Layout, p: [f64; 3]) -> Vec<f64> {
        let d = self.dpr();
        let [px, py] = layout.main.to_pixel(p);
        vec![px / d, py / d]
    }

    /// The current target (its columns) with its position moved to `position` (a pose keeps
    /// its orientation, an axis its direction).
    fn placed(&self, position: [f64; 3]) -> Vec<f64> {
        let mut target = position.to_vec();
        target.extend(self.engine.settings().target.iter().skip(3));
        target
    }

    /// A pointer at CSS pixel (px, py) on a 3-D view: the target moves in the plane through it
    /// that faces the viewer, or on an inset takes the inset's two coordinates (`None`: the
    /// view is drawn in a plane).
    pub(crate) fn pointer_in_space(
        &mut self,
        px: f64,
        py: f64,
    ) -> Option<Result<JsValue, JsError>> {
        let layout = self.panels.arm_layout(&self.engine)?;
        if let Err(e) = finite(px, py) {
            return Some(Err(e));
        }
        let target = self.placed(self.target_under(&layout, px, py));
        Some(self.move_to(&target))
    }

    /// Key steps of 1 cm along x, y and z on a 3-D view, kept inside the reach ball's box
    /// (`None`: the view is drawn in a plane).
    pub(crate) fn nudge_in_space(
        &mut self,
        steps: [f64; 3],
        target: &[f64],
    ) -> Option<Result<JsValue, JsError>> {
        let layout = self.panels.arm_layout(&self.engine)?;
        let mut target = target.to_vec();
        let (centre, radius) = layout.ball;
        for (i, step) in steps.into_iter().enumerate() {
            if let Some(t) = target.get_mut(i) {
                *t = (*t + 0.01 * step.clamp(-100.0, 100.0))
                    .clamp(centre[i] - radius, centre[i] + radius);
            }
        }
        Some(self.move_to(&target))
    }

    /// CSS pixel → the point under it on the plane through the target that faces the viewer
    /// (`None`: the view is drawn in a plane).
    pub(crate) fn canvas_to_space(&self, px: f64, py: f64) -> Option<Vec<f64>> {
        let layout = self.panels.arm_layout(&self.engine)?;
        let d = self.dpr();
        Some(
            layout
                .main
                .to_world_on_plane(px * d, py * d, self.target3())
                .to_vec(),
        )
    }

    /// World point → CSS pixel through the view's orbit (`None`: the view is drawn in a plane;
    /// an error when `z` is missing or a coordinate is not finite).
    pub(crate) fn space_to_canvas(
        &self,
        x: f64,
        y: f64,
        z: Option<f64>,
    ) -> Option<Result<Vec<f64>, JsError>> {
        let layout = self.panels.arm_layout(&self.engine)?;
        let Some(z) = z else {
            return Some(Err(js_err("this view is in 3-D: give x, y and z")));
        };
        if !(x.is_finite() && y.is_finite() && z.is_finite()) {
            return Some(Err(js_err("a world point must be finite")));
        }
        Some(Ok(self.to_css(&layout, [x, y, z])))
    }
}
