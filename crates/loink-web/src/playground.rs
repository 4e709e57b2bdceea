//! The `#[wasm_bindgen]` surface: a [`Playground`] that owns the [`Engine`] and the four
//! panel canvases. JavaScript forwards events and shows what comes back; every call returns
//! `Result<_, JsError>` with readable text and never panics on bad input.

use serde::Serialize;
use wasm_bindgen::prelude::*;
use web_sys::HtmlCanvasElement;

use crate::catalog;
use crate::clock::now_micros;
use crate::engine::Engine;
use crate::panels::Panels;
use crate::settings::{self, Settings, SolverKind};

pub(crate) fn js_err(text: impl std::fmt::Display) -> JsError {
    JsError::new(&text.to_string())
}

pub(crate) fn to_js<T: Serialize>(value: &T) -> Result<JsValue, JsError> {
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

/// Time spent before the first frame timing the first solve by repetition (µs).
const FIRST_TIMING_MICROS: f64 = 3_000.0;

/// One arrow-key step of the latent probe (normalised latent units).
pub const PROBE_STEP: f64 = 0.05;

/// One model's playground: the engine and the panels.
#[wasm_bindgen]
pub struct Playground {
    pub(crate) engine: Engine,
    pub(crate) panels: Panels,
    /// A solve since the last drawn frame: [`Playground::draw_frame`] has panels to redraw.
    pub(crate) dirty: bool,
    /// A drag on the 3-D arm panel in progress.
    pub(crate) grab: Option<crate::grab::Grab>,
}

/// A model menu entry for JS.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ModelInfo {
    name: &'static str,
    label: &'static str,
    problem: &'static str,
    problem_title: &'static str,
    file: &'static str,
    bytes: u64,
    default: bool,
    /// `loink`, `charts`, or `flow` (its problem's baseline solver: fetched with the problem's
    /// models, not a menu entry).
    kind: &'static str,
    /// It runs in the page's full bundle (pkg/lessons/), not the slim one.
    full_bundle: bool,
    /// The solver its view opens with (a solver's word; empty: the one already chosen).
    opening_solver: &'static str,
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

#[wasm_bindgen]
impl Playground {
    /// A playground showing the default view (the catalog's default model; classical solvers
    /// until its file loads).
    #[wasm_bindgen(constructor)]
    pub fn new() -> Result<Playground, JsError> {
        Ok(Playground {
            engine: Engine::new().map_err(js_err)?,
            panels: Panels::default(),
            dirty: false,
            grab: None,
        })
    }

    /// The page's panels, by their canvas ids (`arm`, `landscape`, `latent`, `gapmap`): the one
    /// list JavaScript attaches, sizes and exports.
    pub fn panels() -> Vec<String> {
        crate::panels::PANELS
            .iter()
            .map(|p| p.to_string())
            .collect()
    }

    /// The fixed model catalog, in menu order: `[{name, label, problem, problemTitle, file,
    /// bytes, default, kind, fullBundle, openingSolver}]`; JS fetches only these files, and loads the full
    /// bundle for a `fullBundle` model.
    #[wasm_bindgen(js_name = knownModels)]
    pub fn known_models() -> Result<JsValue, JsError> {
        let list: Vec<ModelInfo> = catalog::MODELS
            .iter()
            .map(|m| ModelInfo {
                name: m.name,
                label: m.description,
                problem: m.problem,
                problem_title: m.problem_title,
                file: m.file,
                bytes: m.bytes,
                default: m.default,
                kind: m.kind,
                full_bundle: m.full_bundle,
                opening_solver: m.opening_solver,
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
                    label: k.label(),
                    available: why.is_ok(),
                    reason: why.err().unwrap_or_default(),
                }
            })
            .collect();
        to_js(&list)
    }

    /// The page's way in: `[{kind: 'experiment'|'lesson', title, line, hash}]`, the experiments
    /// (one per problem, with its default model) and every lesson.
    pub fn experiments() -> Result<JsValue, JsError> {
        to_js(&crate::way_in::entries())
    }

    /// The controls a link can hide (`NAME_hide=1`), in the page's order.
    pub fn hideable() -> Vec<String> {
        settings::HIDEABLE.iter().map(|s| s.to_string()).collect()
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
        self.panels.forget_gap_map(name);
        self.dirty = true;
        Ok(())
    }

    /// Loads a planar arm's model file text (one trained in the page, or any such file) into
    /// its problem's slot of trained models (`trained-planar3`, …) and returns that name, for
    /// the page to apply as the model. A file of another problem or kind is refused, and nothing
    /// changes.
    #[wasm_bindgen(js_name = useModel)]
    pub fn use_model(&mut self, json: &js_sys::JsString) -> Result<String, JsError> {
        let name = self
            .engine
            .load_trained(|| crate::model_json::decode_js(json))
            .map_err(js_err)?;
        self.panels.forget_gap_map(name);
        self.dirty = true;
        Ok(name.to_string())
    }

    /// The slots of trained models loaded in this page (`useModel`), for the model menu:
    /// `[{name, problem, label}]`.
    #[wasm_bindgen(js_name = trainedModels)]
    pub fn trained_models(&self) -> Result<JsValue, JsError> {
        let loaded = self.engine.loaded();
        let list: Vec<[&str; 3]> = catalog::TRAINED
            .iter()
            .filter(|m| loaded.contains(&m.name))
            .map(|m| [m.name, m.problem, m.description])
            .collect();
        to_js(&list)
    }

    /// Names of the loaded learned models.
    #[wasm_bindgen(js_name = loadedModels)]
    pub fn loaded_models(&self) -> Vec<String> {
        self.engine.loaded().into_iter().map(String::from).collect()
    }

    /// Does the part of the current view's first full frame that needs no solve: samples its
    /// problem's reachable region and renders its image (~25 ms), so a later frame only solves
    /// and draws. The page calls it between its first, arm-only frame and the full one.
    pub fn prepare(&mut self) -> Result<(), JsError> {
        self.panels
            .ensure_region(self.engine.problem())
            .map_err(js_err)
    }

    /// Attaches the canvas of panel `name` (`arm`, `landscape`, `latent`, `gapmap`).
    #[wasm_bindgen(js_name = attachCanvas)]
    pub fn attach_canvas(&mut self, name: &str, canvas: HtmlCanvasElement) -> Result<(), JsError> {
        self.panels.attach(name, canvas).map_err(js_err)
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
        let changed = self
            .panels
            .size(name, css_width, css_height, dpr)
            .map_err(js_err)?;
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
        if self
            .panels
            .size(name, css_width, css_height, dpr)
            .map_err(js_err)?
        {
            self.panels.draw(name, &self.engine).map_err(js_err)?;
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
        // The first solve ran in code the browser had not compiled yet (milliseconds): the
        // first readout a visitor sees is the solve timed by repetition instead.
        self.engine.time_solve(FIRST_TIMING_MICROS);
        self.panels
            .draw_arm_with_region_if_sampled(&self.engine)
            .map_err(js_err)?;
        self.dirty = true;
        self.engine.set_frame_ms((now_micros() - start) * 1e-3);
        Ok(warnings)
    }

    /// The current settings (all controls).
    pub fn settings(&self) -> Result<JsValue, JsError> {
        to_js(self.engine.settings())
    }

    /// The model card of the view's model (`{title, rows: [[label, text]], reproduces,
    /// notReproduced, command}`), or null while no learned model is loaded for it.
    #[wasm_bindgen(js_name = modelCard)]
    pub fn model_card(&self) -> Result<JsValue, JsError> {
        match crate::model_card::card(&self.engine) {
            Some(card) => to_js(&card),
            None => Ok(JsValue::NULL),
        }
    }

    /// Panel `name` (arm, landscape, latent, gapmap) as an SVG document drawn by the same code
    /// as the canvas, at the panel's size or at `width × height` CSS px, with `link` (the
    /// view's URL) in its metadata.
    #[wasm_bindgen(js_name = exportSvg)]
    pub fn export_svg(
        &mut self,
        name: &str,
        link: &str,
        width: Option<f64>,
        height: Option<f64>,
    ) -> Result<String, JsError> {
        if !settings::FIGURES.contains(&name) {
            return Err(JsError::new(&format!(
                "'{name}' is not a panel ({})",
                settings::FIGURES.join(", ")
            )));
        }
        let size = match (width, height) {
            (None, None) => None,
            (Some(w), Some(h)) if w.is_finite() && h.is_finite() && w > 0.0 && h > 0.0 => {
                Some((w, h))
            }
            _ => {
                return Err(JsError::new(
                    "a figure size is two positive numbers (CSS px), or none",
                ))
            }
        };
        self.panels
            .export_svg(name, &self.engine, link, size)
            .map_err(js_err)
    }

    /// The current settings as a URL hash (`#model=…&solver=…`).
    pub fn hash(&self) -> String {
        settings::format_hash(self.engine.settings())
    }

    /// `settings` (an object like `settings()`) as a URL hash, without applying them: the link
    /// a model of the other bundle reopens the page at.
    #[wasm_bindgen(js_name = hashOf)]
    pub fn hash_of(settings: JsValue) -> Result<String, JsError> {
        Ok(settings::format_hash(&settings_from_js(settings)?))
    }

    /// Says that the next settings' target, when it is `target`, was carried over from another
    /// problem's view (the page reopened on the other bundle): judged as the model menu's would
    /// be, so a problem that cannot reach it shows its own default target instead.
    #[wasm_bindgen(js_name = carryTarget)]
    pub fn carry_target(&mut self, target: Vec<f64>) {
        self.engine.carry_target(target);
    }

    /// The current view's hash for an embed: the same settings, `embed=1` when `embed`, and
    /// `NAME_hide=1` for each of `hide` (names not in [`Self::hideable`] are refused).
    #[wasm_bindgen(js_name = embedHash)]
    pub fn embed_hash(&self, embed: bool, hide: Vec<String>) -> Result<String, JsError> {
        let mut next = self.engine.settings().clone();
        if let Some(bad) = hide
            .iter()
            .find(|h| !settings::HIDEABLE.contains(&h.as_str()))
        {
            return Err(JsError::new(&format!(
                "'{bad}' is not a control a link can hide (known: {})",
                settings::HIDEABLE.join(", ")
            )));
        }
        next.embed = embed;
        next.hide = settings::HIDEABLE
            .iter()
            .filter(|h| hide.iter().any(|x| x == *h))
            .map(|h| h.to_string())
            .collect();
        Ok(settings::format_hash(&next))
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
        self.panels.redraw(&self.engine).map_err(js_err)?;
        self.engine.set_frame_ms((now_micros() - start) * 1e-3);
        Ok(true)
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
                self.panels.redraw(&self.engine).map_err(js_err)?;
            }
            return Ok(true);
        }
        let (more, changed) = self.panels.step_gap_map(&self.engine, budget);
        if changed {
            self.panels.draw_gapmap(&self.engine).map_err(js_err)?;
        }
        Ok(more)
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

impl Playground {
    /// Moves the target (the task's columns) and solves (no redraw: the panels are marked
    /// for [`Self::draw_frame`]).
    pub(crate) fn move_to(&mut self, target: &[f64]) -> Result<JsValue, JsError> {
        self.engine.move_target(target).map_err(js_err)?;
        self.dirty = true;
        self.state()
    }

    fn finish_frame(&mut self, start: f64) -> Result<JsValue, JsError> {
        self.dirty = false;
        self.panels.redraw(&self.engine).map_err(js_err)?;
        self.engine.set_frame_ms((now_micros() - start) * 1e-3);
        self.state()
    }
}
