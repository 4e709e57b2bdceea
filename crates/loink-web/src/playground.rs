//! The `#[wasm_bindgen]` surface: a [`Playground`] that owns the [`Engine`] and the four
//! panel canvases. JavaScript forwards events and shows what comes back; every call returns
//! `Result<_, JsError>` with readable text and never panics on bad input.

use std::collections::BTreeMap;

use loink::robot::{PlanarArm, Robot};
use serde::Serialize;
use wasm_bindgen::prelude::*;
use web_sys::HtmlCanvasElement;

use crate::catalog;
use crate::clock::now_micros;
use crate::draw::{self, Surface};
use crate::engine::Engine;
use crate::gap::GapMap;
use crate::region::Region;
use crate::settings::{self, Settings, SolverKind};

/// Configurations of the reachable-region lattice (85 angles a joint on three links, 28 on
/// four): 150,000 left planar4's shading striped; this costs ~10–15 ms more of the first resize.
const REGION_SAMPLES: usize = 600_000;

/// The four panels, by canvas id.
pub const PANELS: [&str; 4] = ["arm", "landscape", "latent", "gapmap"];

fn js_err(text: impl std::fmt::Display) -> JsError {
    JsError::new(&text.to_string())
}

fn to_js<T: Serialize>(value: &T) -> Result<JsValue, JsError> {
    value
        .serialize(
            &serde_wasm_bindgen::Serializer::json_compatible().serialize_missing_as_null(true),
        )
        .map_err(|e| js_err(format!("could not hand the state to JavaScript: {e}")))
}

/// NaN/∞ survive to JS as numbers (json_compatible would turn them into null).
fn to_js_numbers<T: Serialize>(value: &T) -> Result<JsValue, JsError> {
    serde_wasm_bindgen::to_value(value)
        .map_err(|e| js_err(format!("could not hand the state to JavaScript: {e}")))
}

#[derive(Default)]
struct Panels {
    surfaces: BTreeMap<&'static str, Surface>,
    /// Off-screen surface the gap map's cells are painted into before scaling.
    gap_cells: Option<Surface>,
    /// The gap-map panel without its target marker (redrawn when the map or size changes).
    gap_panel: Option<GapPanel>,
}

/// What the cached gap-map panel shows.
#[derive(Debug, Clone, PartialEq)]
struct GapPanelKey {
    model: &'static str,
    /// The map's progress (bits), None without a map.
    progress: Option<u64>,
    size: (u32, u32),
    /// The message shown without a map.
    no_map: String,
}

/// The gap-map panel drawn without its marker, and its plot's pixel ↔ world map.
struct GapPanel {
    key: GapPanelKey,
    image: Surface,
    view: Option<crate::view::Viewport>,
}

/// The reachable region of one arm (models of the same robot share it) and its image.
struct RegionCache {
    robot: &'static str,
    region: Region,
    image: HtmlCanvasElement,
}

/// One model's playground: engine, canvases and caches.
#[wasm_bindgen]
pub struct Playground {
    engine: Engine,
    panels: Panels,
    region: Option<RegionCache>,
    gap_maps: BTreeMap<&'static str, GapMap>,
    last_frame_start: f64,
    /// A solve since the last drawn frame: [`Playground::draw_frame`] has panels to redraw.
    dirty: bool,
}

/// A model menu entry for JS.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ModelInfo {
    name: &'static str,
    label: &'static str,
    shipped: bool,
    file: String,
}

/// A solver menu entry for JS: whether it runs on the current model and why not.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SolverInfo {
    name: &'static str,
    label: &'static str,
    available: bool,
    reason: String,
}

fn solver_label(kind: SolverKind) -> &'static str {
    match kind {
        SolverKind::Loink => "LOInK (learned, z = 0)",
        SolverKind::LoinkRefine => "LOInK + refinement",
        SolverKind::Dls => "DLS + null-space descent",
        SolverKind::Analytic => "analytic (two links)",
        SolverKind::Reference => "reference optimum (sweep)",
    }
}

#[wasm_bindgen]
impl Playground {
    /// A playground showing the default view (planar3, classical solvers until a model loads).
    #[wasm_bindgen(constructor)]
    pub fn new() -> Result<Playground, JsError> {
        Ok(Playground {
            engine: Engine::new().map_err(js_err)?,
            panels: Panels::default(),
            region: None,
            gap_maps: BTreeMap::new(),
            last_frame_start: 0.0,
            dirty: false,
        })
    }

    /// The fixed model catalog: `[{name, label, shipped, file}]`; JS fetches only these files.
    #[wasm_bindgen(js_name = knownModels)]
    pub fn known_models() -> Result<JsValue, JsError> {
        let list: Vec<ModelInfo> = catalog::MODELS
            .iter()
            .map(|m| ModelInfo {
                name: m.name,
                label: m.label,
                shipped: m.shipped,
                file: format!("web/models/{}.json", m.name),
            })
            .collect();
        to_js(&list)
    }

    /// The solver menu for the current model.
    pub fn solvers(&self) -> Result<JsValue, JsError> {
        let list: Vec<SolverInfo> = SolverKind::ALL
            .into_iter()
            .map(|k| {
                let why = self.engine.solver_available(k);
                SolverInfo {
                    name: k.as_str(),
                    label: solver_label(k),
                    available: why.is_ok(),
                    reason: why.err().unwrap_or_default(),
                }
            })
            .collect();
        to_js(&list)
    }

    /// Parses a URL hash into `{settings, warnings}` (never fails: bad entries become warnings).
    #[wasm_bindgen(js_name = parseHash)]
    pub fn parse_hash(hash: &str) -> Result<JsValue, JsError> {
        to_js(&settings::parse_hash(hash))
    }

    /// Loads a trained model from its file text. `name` must be in the catalog. The panels
    /// are not redrawn here: they are marked for the next [`Self::draw_frame`] (a model load is
    /// nearly always followed by [`Self::apply`], which draws; drawing twice slowed the start).
    #[wasm_bindgen(js_name = loadModel)]
    pub fn load_model(&mut self, name: &str, json: &js_sys::JsString) -> Result<(), JsError> {
        self.engine
            .load_model_with(name, || crate::model_json::decode_js(json))
            .map_err(js_err)?;
        self.gap_maps.remove(name);
        self.dirty = true;
        Ok(())
    }

    /// Names of the loaded learned models.
    #[wasm_bindgen(js_name = loadedModels)]
    pub fn loaded_models(&self) -> Vec<String> {
        self.engine.loaded().into_iter().map(String::from).collect()
    }

    /// Does the part of `model`'s first full frame that needs no weights: samples its arm's
    /// reachable region and renders its image (~25 ms), so a later frame only solves and
    /// draws. The page calls it between its first, arm-only frame and the full one. An unknown
    /// name does nothing (the apply that follows reports it).
    pub fn prepare(&mut self, model: &str) -> Result<(), JsError> {
        let Some(entry) = catalog::lookup(model) else {
            return Ok(());
        };
        let problem = loink::problem::Problem::preset(entry.robot)
            .map_err(|e| js_err(format!("model '{model}': {e}")))?;
        ensure_region_of(&mut self.region, entry.robot, &problem.arm).map_err(js_err)
    }

    /// Attaches the canvas of panel `name` (`arm`, `landscape`, `latent`, `gapmap`).
    #[wasm_bindgen(js_name = attachCanvas)]
    pub fn attach_canvas(&mut self, name: &str, canvas: HtmlCanvasElement) -> Result<(), JsError> {
        let key = PANELS.into_iter().find(|p| *p == name).ok_or_else(|| {
            js_err(format!(
                "unknown panel '{name}' (known: {})",
                PANELS.join(", ")
            ))
        })?;
        self.panels
            .surfaces
            .insert(key, Surface::new(canvas).map_err(js_err)?);
        Ok(())
    }

    /// Sizes panel `name` for `css_width × css_height` CSS px at `dpr` without drawing
    /// (the start-up path: [`Self::apply_first`] and the next [`Self::draw_frame`] draw each
    /// panel once). Returns whether the size changed; a changed panel is marked for the next
    /// [`Self::draw_frame`].
    #[wasm_bindgen(js_name = setSize)]
    pub fn set_size(
        &mut self,
        name: &str,
        css_width: f64,
        css_height: f64,
        dpr: f64,
    ) -> Result<bool, JsError> {
        let changed = self.size_panel(name, css_width, css_height, dpr)?;
        self.dirty |= changed;
        Ok(changed)
    }

    /// Sizes panel `name` for `css_width × css_height` CSS px at `dpr` and redraws it at once
    /// (a resized canvas is blank until drawn; drawing now, in the resize observer, avoids a
    /// blank frame).
    pub fn resize(
        &mut self,
        name: &str,
        css_width: f64,
        css_height: f64,
        dpr: f64,
    ) -> Result<(), JsError> {
        if self.size_panel(name, css_width, css_height, dpr)? {
            match name {
                "arm" => self.draw_arm(),
                "landscape" => self.draw_landscape(),
                "latent" => self.draw_latent(),
                _ => self.draw_gapmap(),
            }
            .map_err(js_err)?;
        }
        Ok(())
    }

    /// Applies settings (an object like `parseHash(...).settings`), solves and redraws.
    /// Returns the warnings about entries that could not be honoured.
    pub fn apply(&mut self, settings: JsValue) -> Result<Vec<String>, JsError> {
        let next = settings_from_js(settings)?;
        let start = now_micros();
        let warnings = self.engine.apply(next);
        self.finish_frame(start)?;
        Ok(warnings)
    }

    /// [`Self::apply`] for the page's first frame: solves and draws the arm panel at once, as
    /// a pointer move does ([`Self::set_target`]); the per-target work (the reference pass
    /// behind the optimum ghost and the gap, the samples, the learned curve), the reachable
    /// region unless [`Self::prepare`] sampled it, and the other panels follow with the next
    /// [`Self::draw_frame`] (`optimumPending` until then). The page is interactive one paint
    /// earlier.
    #[wasm_bindgen(js_name = applyFirst)]
    pub fn apply_first(&mut self, settings: JsValue) -> Result<Vec<String>, JsError> {
        let next = settings_from_js(settings)?;
        let start = now_micros();
        let warnings = self.engine.apply_deferred(next);
        self.draw_arm_with_region_if_sampled().map_err(js_err)?;
        self.dirty = true;
        self.engine.set_frame_ms((now_micros() - start) * 1e-3);
        self.last_frame_start = start;
        Ok(warnings)
    }

    /// The current settings (all controls).
    pub fn settings(&self) -> Result<JsValue, JsError> {
        to_js(self.engine.settings())
    }

    /// The current settings as a URL hash (`#model=…&solver=…`).
    pub fn hash(&self) -> String {
        settings::format_hash(self.engine.settings())
    }

    /// Sets the target in metres and solves; returns the state (this target's solution; the
    /// gap follows with the next [`Self::draw_frame`], `optimumPending` says so). `x` and `y`
    /// must be JS numbers: null, undefined, strings, booleans, BigInt and objects are refused
    /// by type (no coercion of null to 0), NaN, ±∞ and absurd magnitudes by value; a refused
    /// target changes nothing. Panels are not redrawn here: call `drawFrame()` once per
    /// animation frame.
    #[wasm_bindgen(js_name = setTarget)]
    pub fn set_target(&mut self, x: JsValue, y: JsValue) -> Result<JsValue, JsError> {
        let target = [coordinate("x", &x)?, coordinate("y", &y)?];
        self.move_to(target)
    }

    /// Redraws the panels when a solve happened since the last call, after the per-target
    /// work they need (the reference pass that gives J* and the gap, samples, the learned
    /// curve). Returns whether it drew. The page calls it once per animation frame, so many
    /// `setTarget` calls in one frame cost one redraw.
    #[wasm_bindgen(js_name = drawFrame)]
    pub fn draw_frame(&mut self) -> Result<bool, JsError> {
        if !self.dirty {
            return Ok(false);
        }
        let start = now_micros();
        self.engine.prepare_panels();
        self.dirty = false;
        self.redraw().map_err(js_err)?;
        self.engine.set_frame_ms((now_micros() - start) * 1e-3);
        self.last_frame_start = start;
        Ok(true)
    }

    /// One pointer event on `canvas#arm` at CSS pixel (px, py) from its top-left corner:
    /// maps to the world, solves and returns the state (panels: `drawFrame()`).
    pub fn pointer(&mut self, px: f64, py: f64) -> Result<JsValue, JsError> {
        let world = self.canvas_to_world(px, py)?;
        self.move_to([world[0], world[1]])
    }

    /// Moves the target by (dx, dy) keyboard steps of 1 cm (arrow keys).
    pub fn nudge(&mut self, dx: f64, dy: f64) -> Result<JsValue, JsError> {
        if !(dx.is_finite() && dy.is_finite()) {
            return Err(js_err("nudge steps must be finite"));
        }
        let [x, y] = self.engine.settings().target;
        self.move_to([
            x + 0.01 * dx.clamp(-100.0, 100.0),
            y + 0.01 * dy.clamp(-100.0, 100.0),
        ])
    }

    /// Advances the moving target (play mode) by `dt_ms` of animation time.
    pub fn tick(&mut self, time_ms: f64) -> Result<JsValue, JsError> {
        if !time_ms.is_finite() {
            return Err(js_err("animation time must be finite"));
        }
        let reach = self.engine.problem().arm.reach();
        let t = time_ms * 1e-3;
        // A slow Lissajous loop through the right half of the workspace.
        let x = reach * (0.45 + 0.25 * (0.6 * t).sin());
        let y = reach * 0.45 * (0.4 * t).sin() + reach * 0.1 * (1.3 * t).cos();
        self.move_to([x, y])
    }

    /// CSS pixel on `canvas#arm` → world point `[x, y]` (m).
    #[wasm_bindgen(js_name = canvasToWorld)]
    pub fn canvas_to_world(&self, px: f64, py: f64) -> Result<Vec<f64>, JsError> {
        if !(px.is_finite() && py.is_finite()) {
            return Err(js_err("pointer position is not finite"));
        }
        let surface = self
            .panels
            .surfaces
            .get("arm")
            .ok_or_else(|| js_err("canvas#arm is not attached"))?;
        let view = draw::arm::viewport(surface, &self.engine.problem().arm);
        let d = surface.dpr();
        Ok(view.to_world(px * d, py * d).to_vec())
    }

    /// World point (m) → CSS pixel on `canvas#arm` (for tests and course pages that point at
    /// a place).
    #[wasm_bindgen(js_name = worldToCanvas)]
    pub fn world_to_canvas(&self, x: f64, y: f64) -> Result<Vec<f64>, JsError> {
        let surface = self
            .panels
            .surfaces
            .get("arm")
            .ok_or_else(|| js_err("canvas#arm is not attached"))?;
        let view = draw::arm::viewport(surface, &self.engine.problem().arm);
        let d = surface.dpr();
        let [px, py] = view.to_pixel(x, y);
        Ok(vec![px / d, py / d])
    }

    /// The state (`getState()`): model, solver, target, q, residual, cost, gap, margin, status…
    pub fn state(&self) -> Result<JsValue, JsError> {
        to_js_numbers(&self.engine.state())
    }

    /// The state as pretty JSON text, with the settings and the link (for "export state").
    #[wasm_bindgen(js_name = stateJson)]
    pub fn state_json(&self) -> Result<String, JsError> {
        #[derive(Serialize)]
        struct Export<'a> {
            state: crate::state::FrameState,
            settings: &'a Settings,
            hash: String,
        }
        // The browser's JSON.stringify writes it: serde_json's writer (and its float tables)
        // would be in the download for this one button. NaN and ±∞ become null either way.
        let value = to_js(&Export {
            state: self.engine.state(),
            settings: self.engine.settings(),
            hash: self.hash(),
        })?;
        js_sys::JSON::stringify_with_replacer_and_space(&value, &JsValue::NULL, &JsValue::from(2))
            .map(String::from)
            .map_err(|_| js_err("the state could not be written as JSON"))
    }

    /// Deferred work within `budget_ms`: the reference sweep on four-link arms, then the
    /// optimality-gap map. Returns whether work remains (call again next animation frame).
    pub fn idle(&mut self, budget_ms: f64) -> Result<bool, JsError> {
        let budget = if budget_ms.is_finite() {
            budget_ms.clamp(0.5, 50.0) * 1e3
        } else {
            4e3
        };
        if self.dirty {
            self.draw_frame()?;
            return Ok(true);
        }
        if self.engine.idle_pending() {
            if self.engine.idle(budget) {
                self.redraw().map_err(js_err)?;
            }
            return Ok(true);
        }
        let (more, changed) = self.step_gap_map(budget);
        if changed {
            self.draw_gapmap().map_err(js_err)?;
        }
        Ok(more)
    }

    /// The browser benchmark (`?bench=1`): once the idle work (gap map) is done, `frames`
    /// whole frames along the play-mode path (solve + every panel; median and p95 ms), then
    /// [`crate::bench::solve_bench`] for each
    /// solver available on the current model (median µs over `frames` targets, each solve
    /// repeated [`crate::bench::REPEATS`] times because the page clock is coarse). Restores the
    /// settings.
    pub fn bench(&mut self, frames: usize) -> Result<JsValue, JsError> {
        #[derive(Serialize)]
        #[serde(rename_all = "camelCase")]
        struct Report {
            model: String,
            frames: usize,
            frame_median_ms: f64,
            frame_p95_ms: f64,
            /// Mean ms of solve (with the self-motion pass), arm, landscape, latent, gap map.
            part_mean_ms: Vec<f64>,
            solves: Vec<crate::bench::SolveBench>,
        }
        let frames = frames.clamp(1, 100_000);
        // Time the steady state a user drags in: the idle work done, so every frame draws the
        // finished gap map (an unfinished one draws less).
        for _ in 0..100_000 {
            if !self.idle(50.0)? {
                break;
            }
        }
        let saved = self.engine.settings().clone();
        let reach = self.engine.problem().arm.reach();
        let mut times = Vec::with_capacity(frames);
        // Per part (ms): solve incl. the self-motion pass, then each panel.
        let mut parts: [Vec<f64>; 5] = Default::default();
        for k in 0..frames {
            let start = now_micros();
            self.engine
                .set_target(crate::bench::path_target(reach, k))
                .map_err(js_err)?;
            let mut t = now_micros();
            parts[0].push((t - start) * 1e-3);
            for (i, part) in parts.iter_mut().enumerate().skip(1) {
                match i {
                    1 => self.draw_arm(),
                    2 => self.draw_landscape(),
                    3 => self.draw_latent(),
                    _ => self.draw_gapmap(),
                }
                .map_err(js_err)?;
                let now = now_micros();
                part.push((now - t) * 1e-3);
                t = now;
            }
            times.push((now_micros() - start) * 1e-3);
        }
        let (frame_median_ms, frame_p95_ms) = crate::bench::median_p95(&mut times);
        let part_median_ms: Vec<f64> = parts.iter_mut().map(|p| crate::bench::mean(p)).collect();
        let mut solves = Vec::new();
        for next in crate::bench::bench_settings(&saved) {
            if self.engine.solver_available(next.solver).is_err() {
                continue;
            }
            self.engine.apply(next);
            solves.push(crate::bench::solve_bench(
                &mut self.engine,
                frames,
                crate::bench::REPEATS,
            ));
        }
        self.engine.apply(saved);
        self.redraw().map_err(js_err)?;
        to_js(&Report {
            model: self.engine.entry().name.to_string(),
            frames,
            frame_median_ms,
            frame_p95_ms,
            part_mean_ms: part_median_ms,
            solves,
        })
    }

    /// A fresh random seed from the browser's crypto source (the only unseeded randomness).
    #[wasm_bindgen(js_name = newSeed)]
    pub fn new_seed() -> Result<f64, JsError> {
        let mut bytes = [0u8; 8];
        getrandom::fill(&mut bytes).map_err(|e| js_err(format!("no random source: {e}")))?;
        Ok((u64::from_le_bytes(bytes) & settings::SEED_MAX) as f64)
    }
}

/// Settings from a JS object like `parseHash(...).settings`.
fn settings_from_js(settings: JsValue) -> Result<Settings, JsError> {
    serde_wasm_bindgen::from_value(settings)
        .map_err(|e| js_err(format!("settings are malformed: {e}")))
}

/// Samples `arm`'s reachable region and renders its image into `cache` unless the cache
/// already holds `robot`'s.
fn ensure_region_of(
    cache: &mut Option<RegionCache>,
    robot: &'static str,
    arm: &PlanarArm,
) -> Result<(), String> {
    if cache.as_ref().is_some_and(|c| c.robot == robot) {
        return Ok(());
    }
    let region = Region::sample(arm, REGION_SAMPLES);
    let (rgba, w, h) = draw::arm::region_image(&region);
    let image = Surface::offscreen(&rgba, w, h)?;
    *cache = Some(RegionCache {
        robot,
        region,
        image,
    });
    Ok(())
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

impl Playground {
    /// Sets the pixel size of panel `name`'s canvas; returns whether it changed.
    fn size_panel(
        &mut self,
        name: &str,
        css_width: f64,
        css_height: f64,
        dpr: f64,
    ) -> Result<bool, JsError> {
        let surface = self
            .panels
            .surfaces
            .get_mut(name)
            .ok_or_else(|| js_err(format!("panel '{name}' is not attached")))?;
        Ok(surface.resize(css_width, css_height, dpr))
    }

    /// Moves the target and solves (no redraw: the panels are marked for [`Self::draw_frame`]).
    fn move_to(&mut self, target: [f64; 2]) -> Result<JsValue, JsError> {
        self.engine.move_target(target).map_err(js_err)?;
        self.dirty = true;
        self.state()
    }

    fn finish_frame(&mut self, start: f64) -> Result<JsValue, JsError> {
        self.dirty = false;
        self.redraw().map_err(js_err)?;
        self.engine.set_frame_ms((now_micros() - start) * 1e-3);
        self.last_frame_start = start;
        self.state()
    }

    /// Steps the gap map of the current model; returns (work remains, something changed).
    fn step_gap_map(&mut self, budget_micros: f64) -> (bool, bool) {
        let name = self.engine.entry().name;
        if self.ensure_region().is_err() {
            return (false, false);
        }
        let Some(region) = self.region.as_ref().map(|c| c.region.clone()) else {
            return (false, false);
        };
        let problem = self.engine.problem().clone();
        let Some(model) = self.engine.model() else {
            return (false, false);
        };
        let map = self
            .gap_maps
            .entry(name)
            .or_insert_with(|| GapMap::new(name, &region));
        if map.done() {
            return (false, false);
        }
        let changed = map.step(&problem, model, &region, budget_micros);
        (!map.done(), changed)
    }

    fn ensure_region(&mut self) -> Result<(), String> {
        ensure_region_of(
            &mut self.region,
            self.engine.entry().robot,
            &self.engine.problem().arm,
        )
    }

    fn redraw(&mut self) -> Result<(), String> {
        self.draw_arm()?;
        self.draw_landscape()?;
        self.draw_latent()?;
        self.draw_gapmap()
    }

    fn draw_arm(&mut self) -> Result<(), String> {
        self.ensure_region()?;
        self.draw_arm_with_region_if_sampled()
    }

    /// The arm panel with the reachable region only when it is already sampled for this arm
    /// (the first frame: sampling it is ~25 ms the page need not wait for).
    fn draw_arm_with_region_if_sampled(&mut self) -> Result<(), String> {
        let Some(surface) = self.panels.surfaces.get("arm") else {
            return Ok(());
        };
        let robot = self.engine.entry().robot;
        let region = self
            .region
            .as_ref()
            .filter(|c| c.robot == robot)
            .map(|c| (&c.region, &c.image));
        let arm = &self.engine.problem().arm;
        let view = draw::arm::viewport(surface, arm);
        let e = &self.engine;
        let optimum = e.optimum().map(|o| o.q.as_slice());
        let scene = draw::arm::ArmScene {
            arm,
            solution: e.solution(),
            solver: e.settings().solver.as_str(),
            optimum,
            samples: e.samples(),
            target: e.settings().target,
            region,
        };
        draw::arm::draw(surface, &scene, &view)
    }

    fn draw_landscape(&mut self) -> Result<(), String> {
        let Some(surface) = self.panels.surfaces.get("landscape") else {
            return Ok(());
        };
        let e = &self.engine;
        let no_curve = self.no_model_reason();
        let scene = draw::landscape::LandscapeScene {
            motion: e.motion(),
            dof: e.problem().arm.dof(),
            solution: (e.solution().q(), e.solution().cost()),
            curve: e.curve(),
            no_curve: &no_curve,
        };
        draw::landscape::draw(surface, &scene)
    }

    fn draw_latent(&mut self) -> Result<(), String> {
        let Some(surface) = self.panels.surfaces.get("latent") else {
            return Ok(());
        };
        let no_map = self.no_model_reason();
        let scene = draw::latent::LatentScene {
            map: self.engine.latent_map(),
            no_map: &no_map,
        };
        draw::latent::draw(surface, &scene)
    }

    fn draw_gapmap(&mut self) -> Result<(), String> {
        if !self.panels.surfaces.contains_key("gapmap") {
            return Ok(());
        }
        if self.panels.gap_cells.is_none() {
            let cells = crate::gap::CELLS as u32;
            self.panels.gap_cells = Some(Surface::blank(cells, cells)?);
        }
        let (Some(surface), Some(cells)) = (
            self.panels.surfaces.get("gapmap"),
            self.panels.gap_cells.as_ref(),
        ) else {
            return Ok(());
        };
        let name = self.engine.entry().name;
        let map = self.gap_maps.get(name);
        let no_map = self.no_model_reason();
        let key = GapPanelKey {
            model: name,
            progress: map.map(|m| m.progress().to_bits()),
            size: surface.size(),
            no_map: if map.is_some() {
                String::new()
            } else {
                no_map.clone()
            },
        };
        let target = self.engine.settings().target;
        if let Some(cache) = self.panels.gap_panel.as_ref().filter(|c| c.key == key) {
            surface.copy_from(cache.image.canvas())?;
            if let Some(view) = &cache.view {
                draw::gapmap::draw_marker(surface, view, target)?;
            }
            return Ok(());
        }
        let scene = draw::gapmap::GapScene {
            map,
            no_map: &no_map,
            target,
            cells,
        };
        let view = draw::gapmap::draw_static(surface, &scene)?;
        let image = match self.panels.gap_panel.take() {
            Some(old) if old.key.size == key.size => old.image,
            _ => Surface::blank(key.size.0, key.size.1)?,
        };
        image.copy_from(surface.canvas())?;
        if let Some(view) = &view {
            draw::gapmap::draw_marker(surface, view, target)?;
        }
        self.panels.gap_panel = Some(GapPanel { key, image, view });
        Ok(())
    }

    fn no_model_reason(&self) -> String {
        let entry = self.engine.entry();
        if !entry.learnable {
            format!(
                "{} is not redundant: no learned model, classical solvers only",
                entry.name
            )
        } else if self.engine.model().is_none() && !entry.shipped {
            format!("no trained {} model ships with this build yet", entry.name)
        } else if self.engine.model().is_none() {
            format!("the {} model file is not loaded", entry.name)
        } else {
            "computing…".to_string()
        }
    }
}
