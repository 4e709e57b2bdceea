//! What the arm panel's last frame drew where, for tests and for pages that embed the view:
//! the boxes drawn over `canvas#arm` (legends, the loads bars, the 3-D view's insets) and the
//! robot's joints as drawn, in CSS pixels of the canvas.

use serde::Serialize;
use wasm_bindgen::prelude::*;

use crate::playground::{to_js, Playground};

/// One box drawn over the arm panel (CSS pixels of the canvas).
#[derive(Serialize)]
struct OverlayBox {
    kind: &'static str,
    x: f64,
    y: f64,
    w: f64,
    h: f64,
}

#[wasm_bindgen]
impl Playground {
    /// The boxes the last frame drew over `canvas#arm`: `[{kind, x, y, w, h}]`, `kind` one of
    /// `legend`, `bars`, `inset` (the page adds its own `hint`).
    #[wasm_bindgen(js_name = drawnOverlays)]
    pub fn drawn_overlays(&self) -> Result<JsValue, JsError> {
        let d = self.panels.surface("arm").map_or(1.0, |s| s.dpr());
        let boxes: Vec<OverlayBox> = self
            .panels
            .arm_drawn()
            .overlays
            .iter()
            .map(|o| {
                let [l, t, r, b] = o.rect;
                OverlayBox {
                    kind: o.kind.as_str(),
                    x: l / d,
                    y: t / d,
                    w: (r - l) / d,
                    h: (b - t) / d,
                }
            })
            .collect();
        to_js(&boxes)
    }

    /// The robot as the last frame drew it on `canvas#arm`: its joints and the corners of its
    /// links, `[[x, y], …]` in CSS pixels of the canvas.
    #[wasm_bindgen(js_name = robotPoints)]
    pub fn robot_points(&self) -> Result<JsValue, JsError> {
        let d = self.panels.surface("arm").map_or(1.0, |s| s.dpr());
        let points: Vec<[f64; 2]> = self
            .panels
            .arm_drawn()
            .robot
            .iter()
            .map(|p| [p[0] / d, p[1] / d])
            .collect();
        to_js(&points)
    }
}
