//! The playground's input: the target set from JavaScript or moved by the pointer, the keys
//! and the animation; the latent probe; the arm panel's pixel ↔ world mapping. Every call
//! checks what JavaScript passed and refuses bad input with a readable error, changing
//! nothing.

use wasm_bindgen::prelude::*;

use crate::playground::{js_err, Playground, PROBE_STEP};

#[wasm_bindgen]
impl Playground {
    /// Sets the target and solves; returns the state (this target's solution; the gap follows
    /// with the next [`Playground::draw_frame`], `optimumPending` says so). The coordinates are
    /// the task's columns ([`loink::problem::TaskSpace::columns`]): `x, y` on a planar view,
    /// `y1, y2, y3` on the climber's, `x, y, z` on a 3-D arm's, `x, y, z, qw, qx, qy, qz` on a
    /// full pose's (the quaternion w first, normalised on entry). Any other count is refused,
    /// saying how many the task has. Each coordinate must be a JS number: null, strings,
    /// booleans, BigInt and objects are refused by type (no coercion of null to 0), NaN, ±∞ and
    /// absurd magnitudes by value, a quaternion of length 0 or off 1 by more than 10 % by its
    /// reason; a refused target changes nothing. Panels are not redrawn here: call
    /// `drawFrame()` once per animation frame.
    #[wasm_bindgen(js_name = setTarget)]
    pub fn set_target(&mut self, coordinates: Vec<JsValue>) -> Result<JsValue, JsError> {
        let task = self.engine.problem().task();
        let columns = task.columns();
        if coordinates.len() != columns.len() {
            return Err(js_err(format!(
                "setTarget takes this view's {} coordinates ({}), {} given",
                columns.len(),
                columns.join(", "),
                coordinates.len()
            )));
        }
        let row = columns
            .iter()
            .zip(&coordinates)
            .map(|(name, value)| coordinate(name, value))
            .collect::<Result<Vec<f64>, JsError>>()?;
        self.move_to(&row)
    }

    /// Sets target coordinate `index` (a control beyond the two the pointer sets, such as the
    /// climber's body clearance) and solves; returns the state. Refused like [`Self::set_target`].
    #[cfg(feature = "target-controls")]
    #[wasm_bindgen(js_name = setTargetCoordinate)]
    pub fn set_target_coordinate(
        &mut self,
        index: usize,
        value: JsValue,
    ) -> Result<JsValue, JsError> {
        let value = coordinate("the target coordinate", &value)?;
        let mut target = self.engine.settings().target.clone();
        let Some(slot) = target.get_mut(index) else {
            return Err(js_err(format!(
                "this view's target has {} coordinates, not {}",
                target.len(),
                index + 1
            )));
        };
        *slot = value;
        self.move_to(&target)
    }

    /// One pointer event on `canvas#arm` at CSS pixel (px, py) from its top-left corner:
    /// maps to the world, solves and returns the state (panels: `drawFrame()`).
    /// The pointer sets the target's first two coordinates (the point in the sketch plane);
    /// any further ones (the climber's clearance) keep their values. On a 3-D view it moves
    /// the target in the plane through it that faces the viewer, or, on an inset, sets the
    /// inset's two coordinates.
    pub fn pointer(&mut self, px: f64, py: f64) -> Result<JsValue, JsError> {
        if let Some(moved) = self.pointer_in_space(px, py) {
            return moved;
        }
        let mut target = self.canvas_to_world(px, py)?;
        target.extend(self.engine.settings().target.iter().skip(2));
        self.move_to(&target)
    }

    /// Moves the target by (dx, dy) keyboard steps of 1 cm (arrow keys), never off the panel;
    /// on a 3-D view `dz` steps along z too (PageUp, PageDown), kept inside the reach ball's box.
    pub fn nudge(&mut self, dx: f64, dy: f64, dz: Option<f64>) -> Result<JsValue, JsError> {
        let dz = dz.unwrap_or(0.0);
        if !(dx.is_finite() && dy.is_finite() && dz.is_finite()) {
            return Err(js_err("nudge steps must be finite"));
        }
        let mut target = self.engine.settings().target.clone();
        if let Some(moved) = self.nudge_in_space([dx, dy, dz], &target) {
            return moved;
        }
        if target.len() >= 2 {
            target[0] += 0.01 * dx.clamp(-100.0, 100.0);
            target[1] += 0.01 * dy.clamp(-100.0, 100.0);
            // The keys keep the target on the panel (where a pointer could put it).
            if let Ok(view) = self.panels.arm_viewport(&self.engine) {
                let [x0, x1, y0, y1] = view.world;
                target[0] = target[0].clamp(x0, x1);
                target[1] = target[1].clamp(y0, y1);
            }
        }
        self.move_to(&target)
    }

    /// One pointer event on `canvas#latent` at CSS pixel (px, py): picks the latent probe z
    /// there (kept inside the plotted window) and solves its pose G⁻¹([y; z]); returns the
    /// state. Refused while the panel shows no latent map.
    #[wasm_bindgen(js_name = latentPointer)]
    pub fn latent_pointer(&mut self, px: f64, py: f64) -> Result<JsValue, JsError> {
        if !(px.is_finite() && py.is_finite()) {
            return Err(js_err("pointer position is not finite"));
        }
        let view = self
            .panels
            .latent_viewport()
            .ok_or_else(|| js_err("the latent panel shows no latent space here"))?;
        let d = self.panels.surface("latent").map_or(1.0, |s| s.dpr());
        let [zx, zy] = view.to_world(px * d, py * d);
        let [x0, x1, y0, y1] = view.world;
        let latent = self.engine.model().map_or(0, |m| m.latent_dim());
        #[cfg(not(feature = "view3d"))]
        let z = match latent {
            1 => vec![zx.clamp(x0, x1)],
            2 => vec![zx.clamp(x0, x1), zy.clamp(y0, y1)],
            _ => {
                return Err(js_err(
                    "only a one- or two-dimensional latent space is drawn",
                ))
            }
        };
        // The slice's two axes take the pointer; the others keep the probe's values.
        #[cfg(feature = "view3d")]
        let z = {
            let (axes, mut z) = self.engine.latent_slice();
            z.resize(latent, 0.0);
            match latent {
                0 => return Err(js_err("this model has no latent space to move in")),
                1 => z[0] = zx.clamp(x0, x1),
                _ => {
                    z[axes[0]] = zx.clamp(x0, x1);
                    z[axes[1]] = zy.clamp(y0, y1);
                }
            }
            z
        };
        self.engine.set_probe(&z).map_err(js_err)?;
        self.dirty = true;
        self.state()
    }

    /// Arrow keys on `canvas#latent`: moves the latent probe by (dx, dy) steps of 0.05 along
    /// the panel's two axes (starting from the origin when there is none), and by `dz` steps
    /// along the first axis off the panel's slice (PageUp, PageDown: a latent space of three
    /// or more coordinates); returns the state.
    #[wasm_bindgen(js_name = nudgeProbe)]
    pub fn nudge_probe(&mut self, dx: f64, dy: f64, dz: Option<f64>) -> Result<JsValue, JsError> {
        let dz = dz.unwrap_or(0.0);
        if !(dx.is_finite() && dy.is_finite() && dz.is_finite()) {
            return Err(js_err("nudge steps must be finite"));
        }
        let latent = self.engine.model().map_or(0, |m| m.latent_dim());
        if latent == 0 {
            return Err(js_err("this model has no latent space to move in"));
        }
        let (axes, mut z) = self.engine.latent_slice();
        z.resize(latent, 0.0);
        #[cfg(not(feature = "view3d"))]
        let moves = [(Some(axes[0]), dx), (Some(axes[1]), dy)];
        #[cfg(feature = "view3d")]
        let moves = [
            (Some(axes[0]), dx),
            (Some(axes[1]), dy),
            // The first axis off the slice: the one the panel's slice is taken at.
            ((0..latent).find(|i| !axes.contains(i)), dz),
        ];
        for (axis, step) in moves {
            if let Some(zi) = axis.and_then(|i| z.get_mut(i)) {
                *zi += PROBE_STEP * step.clamp(-100.0, 100.0);
            }
        }
        self.engine.set_probe(&z).map_err(js_err)?;
        self.dirty = true;
        self.state()
    }

    /// Removes the latent probe (Escape on `canvas#latent`); returns the state.
    #[wasm_bindgen(js_name = clearProbe)]
    pub fn clear_probe(&mut self) -> Result<JsValue, JsError> {
        self.engine.set_probe(&[]).map_err(js_err)?;
        self.dirty = true;
        self.state()
    }

    /// Advances the moving target (play mode) by `dt_ms` of animation time.
    pub fn tick(&mut self, time_ms: f64) -> Result<JsValue, JsError> {
        if !time_ms.is_finite() {
            return Err(js_err("animation time must be finite"));
        }
        let problem = self.engine.problem();
        let target = problem
            .task()
            .to_columns(&crate::engine::play_target(problem, time_ms * 1e-3));
        self.move_to(&target)
    }

    /// CSS pixel on `canvas#arm` → world point `[x, y]` (m); on a 3-D view `[x, y, z]`, the
    /// point under the pixel on the plane through the target that faces the viewer.
    #[wasm_bindgen(js_name = canvasToWorld)]
    pub fn canvas_to_world(&self, px: f64, py: f64) -> Result<Vec<f64>, JsError> {
        if !(px.is_finite() && py.is_finite()) {
            return Err(js_err("pointer position is not finite"));
        }
        if let Some(point) = self.canvas_to_space(px, py) {
            return Ok(point);
        }
        let view = self.panels.arm_viewport(&self.engine).map_err(js_err)?;
        let d = self.panels.surface("arm").map_or(1.0, |s| s.dpr());
        Ok(view.to_world(px * d, py * d).to_vec())
    }

    /// World point (m) → CSS pixel on `canvas#arm` (for tests and course pages that point at
    /// a place); a 3-D view needs `z` and maps through its current orbit.
    #[wasm_bindgen(js_name = worldToCanvas)]
    pub fn world_to_canvas(&self, x: f64, y: f64, z: Option<f64>) -> Result<Vec<f64>, JsError> {
        if let Some(pixel) = self.space_to_canvas(x, y, z) {
            return pixel;
        }
        let view = self.panels.arm_viewport(&self.engine).map_err(js_err)?;
        let d = self.panels.surface("arm").map_or(1.0, |s| s.dpr());
        let [px, py] = view.to_pixel(x, y);
        Ok(vec![px / d, py / d])
    }
}

/// A target coordinate from JS: a number (its value is checked later by
/// [`crate::engine::check_target`]), else a typed error naming what came instead.
fn coordinate(axis: &str, value: &JsValue) -> Result<f64, JsError> {
    if let Some(v) = value.as_f64() {
        return Ok(v);
    }
    let got = if value.is_null() {
        "null".to_string()
    } else if value.is_undefined() {
        "undefined".to_string()
    } else if let Some(text) = value.as_string() {
        let shown: String = text.chars().take(40).collect();
        let more = if text.chars().count() > 40 { "…" } else { "" };
        format!("the string {shown:?}{more}")
    } else if let Some(b) = value.as_bool() {
        format!("the boolean {b}")
    } else {
        // bigint, object, symbol, function.
        match value.js_typeof().as_string() {
            Some(t) if t.starts_with('o') => format!("an {t}"),
            Some(t) => format!("a {t}"),
            None => "a non-number".to_string(),
        }
    };
    Err(js_err(format!("target {axis} must be a number, got {got}")))
}
