//! The arm panel's 3-D input in a bundle without the 3-D view (feature `view3d` off): every
//! view is drawn in a plane, so none of `playground3d.rs`'s paths applies and the common input
//! (`playground_input.rs`) handles every event.

use wasm_bindgen::prelude::*;

use crate::playground::Playground;

impl Playground {
    /// The view is drawn in a plane (and no drag in space is in progress).
    pub(crate) fn pointer_in_space(
        &mut self,
        _px: f64,
        _py: f64,
    ) -> Option<Result<JsValue, JsError>> {
        match self.grab {
            Some(grab) => match grab {},
            None => None,
        }
    }

    /// The view is drawn in a plane.
    pub(crate) fn nudge_in_space(
        &mut self,
        _steps: [f64; 3],
        _target: &[f64],
    ) -> Option<Result<JsValue, JsError>> {
        None
    }

    /// The view is drawn in a plane.
    pub(crate) fn canvas_to_space(&self, _px: f64, _py: f64) -> Option<Vec<f64>> {
        None
    }

    /// The view is drawn in a plane.
    pub(crate) fn space_to_canvas(
        &self,
        _x: f64,
        _y: f64,
        _z: Option<f64>,
    ) -> Option<Result<Vec<f64>, JsError>> {
        None
    }
}
