//! # loink-web — the browser playground's Rust side
//!
//! A thin `wasm-bindgen` facade over `loink` (no math of its own) plus plotters drawing:
//!
//! - [`playground::Playground`]: the JS-facing type (one call per pointer move, JSON-like state).
//! - [`engine`]: the browser-free state machine (settings, models, the registry's solver,
//!   solutions); [`panels`]: the canvases and their caches.
//! - [`settings`]: every control as one typed value and its URL-hash form; [`decimal`]: its numbers.
//! - [`catalog`]: the fixed list of models (names from a URL are looked up, never fetched).
//! - [`lessons`]: the course-page lessons (`#lesson=averaging`, …) and their wasm facade.
//! - [`learned`]: the loaded LOInK model as the panels use it; [`model_json`]: its file decoded
//!   by the browser's `JSON.parse` (serde_json natively).
//! - [`gap`]: the optimality-gap map; `bench` (feature `bench`): the browser benchmark.
//! - [`draw`]: one module per panel; [`view`]: pixel ↔ world; [`clock`]: µs timer on both targets.
//! - `orbit` and `playground3d` (feature `chain`): the 3-D view's camera and its pointer input.
//!
//! Errors cross to JS as `JsError`s with readable text. A panic hook that logs to the console
//! is installed at start as a last line of defence only; no JS-facing path unwraps.

#[cfg(feature = "bench")]
pub mod bench;
pub mod catalog;
pub mod clock;
pub mod decimal;
pub mod draw;
pub mod engine;
pub mod gap;
#[cfg(feature = "view3d")]
pub mod grab;
#[cfg(not(feature = "view3d"))]
#[path = "grab_off.rs"]
pub mod grab;
pub mod keyed;
pub mod kinds;
pub mod learned;
pub mod lesson_table;
#[cfg(feature = "lessons")]
pub mod lessons;
pub mod model_card;
pub mod model_json;
#[cfg(feature = "view3d")]
pub mod orbit;
pub mod panels;
pub mod playground;
#[cfg(feature = "view3d")]
pub mod playground3d;
#[cfg(not(feature = "view3d"))]
#[path = "playground3d_off.rs"]
pub mod playground3d;
pub mod playground_drawn;
pub mod playground_input;
pub mod settings;
pub mod state;
pub mod view;
#[cfg(feature = "view3d")]
pub mod view_keys;
#[cfg(not(feature = "view3d"))]
#[path = "view_keys_off.rs"]
pub mod view_keys;
pub mod way_in;

use wasm_bindgen::prelude::*;

/// Installs the panic hook when the module starts.
#[wasm_bindgen(start)]
pub fn start() {
    std::panic::set_hook(Box::new(|info| {
        web_sys::console::error_1(
            &format!("loink-web: internal error (a bug, please report): {info}").into(),
        );
    }));
}
