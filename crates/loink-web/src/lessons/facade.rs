//! The `#[wasm_bindgen]` [`LessonPage`] (`Lesson` in JavaScript) that `web/lessons.js`
//! drives: it owns the open lesson's models, its canvases and a copy of the page settings,
//! computes and draws the lesson through its table entry ([`super::LESSONS`]) and hands
//! `getState().lesson` and the formatted readouts to JavaScript. JavaScript forwards
//! pointer events and control changes and persists [`LessonPage::settings`] into the URL hash.

use std::collections::BTreeMap;

use serde::Serialize;
use wasm_bindgen::prelude::*;
use web_sys::HtmlCanvasElement;

use super::layout::{Control, Panel};
use super::lesson::{Behaviour, View};
use super::models::{self, Loaded};
use super::{EdgeKind, LessonKind, PathKind, RuleKind};
use crate::draw::Surface;
use crate::settings::{self, Settings};
use crate::view::Viewport;

fn js_err(text: impl std::fmt::Display) -> JsError {
    JsError::new(&text.to_string())
}

fn to_js<T: Serialize>(value: &T) -> Result<JsValue, JsError> {
    value
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .map_err(|e| js_err(format!("could not hand the lesson to JavaScript: {e}")))
}

/// Everything JavaScript needs to build the lesson's section.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Info {
    name: &'static str,
    title: &'static str,
    /// The playground view with the lesson's model (a URL hash).
    playground: &'static str,
    text: &'static str,
    try_this: &'static str,
    panels: &'static [Panel],
    controls: Vec<Control>,
    models: Vec<models::ModelFile>,
}

/// One open lesson: models, canvases, settings and the computed view.
#[wasm_bindgen(js_name = Lesson)]
pub struct LessonPage {
    kind: LessonKind,
    settings: Settings,
    models: Loaded,
    surfaces: BTreeMap<String, Surface>,
    views: BTreeMap<String, Viewport>,
    view: Option<Box<dyn View>>,
}

/// Whether the raw hash names `key` (so a lesson default does not override a link's value).
fn names_key(hash: &str, key: &str) -> bool {
    hash.trim_start_matches('#')
        .split('&')
        .any(|p| p.split_once('=').map_or(p, |(k, _)| k) == key)
}

impl LessonPage {
    fn behaviour(&self) -> &'static Behaviour {
        self.kind.behaviour()
    }

    fn compute(&mut self) {
        self.view = Some((self.behaviour().compute)(&self.models, &self.settings));
    }

    fn redraw(&mut self) -> Result<(), String> {
        let Some(view) = &self.view else {
            return Ok(());
        };
        for (name, surface) in &self.surfaces {
            if let Some(m) = view.draw(name, surface)? {
                self.views.insert(name.clone(), m);
            }
        }
        Ok(())
    }
}

#[wasm_bindgen(js_class = Lesson)]
impl LessonPage {
    /// The lesson a URL hash opens, or `undefined` when it names none. Keys the link leaves
    /// out get the lesson's teaching defaults.
    #[wasm_bindgen(js_name = fromHash)]
    pub fn from_hash(hash: &str) -> Option<LessonPage> {
        let mut parsed = settings::parse_hash(hash).settings;
        let kind = parsed.lesson.name?;
        (kind.behaviour().defaults)(&mut parsed, &|key| !names_key(hash, key));
        let mut lesson = LessonPage {
            kind,
            settings: parsed,
            models: Loaded::default(),
            surfaces: BTreeMap::new(),
            views: BTreeMap::new(),
            view: None,
        };
        lesson.compute();
        Some(lesson)
    }

    /// Title, text, try-this, panels, controls and model files of the lesson.
    pub fn info(&self) -> Result<JsValue, JsError> {
        let b = self.behaviour();
        to_js(&Info {
            name: self.kind.entry().word,
            title: self.kind.entry().title,
            playground: self.kind.entry().playground,
            text: b.text,
            try_this: b.try_this,
            panels: b.panels,
            controls: (b.controls)(&self.settings),
            models: b.models.to_vec(),
        })
    }

    /// Loads the model file of `role` from its text (validated; changes nothing on error).
    #[wasm_bindgen(js_name = loadModel)]
    pub fn load_model(&mut self, role: &str, json: &str) -> Result<(), JsError> {
        let b = self.behaviour();
        self.models
            .load(b.models, role, json, b.problem)
            .map_err(js_err)?;
        self.compute();
        self.redraw().map_err(js_err)
    }

    /// Records that a model file could not be fetched (shown on the page).
    #[wasm_bindgen(js_name = modelMissing)]
    pub fn model_missing(&mut self, role: &str, why: &str) {
        self.models.mark_missing(self.behaviour().models, role, why);
    }

    /// Attaches the canvas of panel `name`.
    #[wasm_bindgen(js_name = attachCanvas)]
    pub fn attach_canvas(&mut self, name: &str, canvas: HtmlCanvasElement) -> Result<(), JsError> {
        let known = self.behaviour().panels.iter().any(|p| p.name == name);
        if !known {
            return Err(js_err(format!(
                "lesson {} has no panel '{name}'",
                self.kind.entry().word
            )));
        }
        self.surfaces
            .insert(name.to_string(), Surface::new(canvas).map_err(js_err)?);
        Ok(())
    }

    /// Sizes panel `name` (CSS px at `dpr`) and redraws.
    pub fn resize(
        &mut self,
        name: &str,
        css_width: f64,
        css_height: f64,
        dpr: f64,
    ) -> Result<(), JsError> {
        let surface = self
            .surfaces
            .get_mut(name)
            .ok_or_else(|| js_err(format!("panel '{name}' is not attached")))?;
        if surface.resize(css_width, css_height, dpr) {
            self.redraw().map_err(js_err)?;
        }
        Ok(())
    }

    /// The page settings with the lesson's (persist them with `loinkPlayground.set`).
    pub fn settings(&self) -> Result<JsValue, JsError> {
        to_js(&self.settings)
    }

    /// Follows the playground's target (m, every coordinate of the lesson's task: the
    /// climber's clearance and the Panda's height too); recomputes and redraws when it moved.
    #[wasm_bindgen(js_name = setTarget)]
    pub fn set_target(&mut self, target: Vec<f64>) -> Result<(), JsError> {
        crate::engine::check_target(&target, self.behaviour().target_dim).map_err(js_err)?;
        if self.settings.target == target && self.view.is_some() {
            return Ok(());
        }
        self.settings.target = target;
        self.compute();
        self.redraw().map_err(js_err)
    }

    /// A pointer event at CSS pixel (px, py) on panel `name`. Returns the world target
    /// `[x, y]` to hand to the playground (arm panels), or an empty array when the lesson
    /// handled it itself (the latent plane).
    pub fn pointer(&mut self, name: &str, px: f64, py: f64) -> Result<Vec<f64>, JsError> {
        if !(px.is_finite() && py.is_finite()) {
            return Err(js_err("pointer position is not finite"));
        }
        let surface = self
            .surfaces
            .get(name)
            .ok_or_else(|| js_err(format!("panel '{name}' is not attached")))?;
        let view = self
            .views
            .get(name)
            .ok_or_else(|| js_err(format!("panel '{name}' takes no pointer input")))?;
        let d = surface.dpr();
        let world = view.to_world(px * d, py * d);
        if (self.behaviour().pointer)(name, world, &mut self.settings.lesson) {
            self.settings.lesson = self.settings.lesson.clone().clamped();
            self.compute();
            self.redraw().map_err(js_err)?;
            return Ok(Vec::new());
        }
        Ok(world.to_vec())
    }

    /// Arrow keys on panel `name`: (dx, dy) steps (Shift: ten). A panel of the lesson's own
    /// state (the latent plane) moves it and returns an empty array; an arm panel returns the
    /// target moved by 1 cm a step, kept on the panel, to hand to the playground.
    pub fn nudge(&mut self, name: &str, dx: f64, dy: f64) -> Result<Vec<f64>, JsError> {
        if !(dx.is_finite() && dy.is_finite()) {
            return Err(js_err("nudge steps must be finite"));
        }
        let (dx, dy) = (dx.clamp(-100.0, 100.0), dy.clamp(-100.0, 100.0));
        let view = self
            .views
            .get(name)
            .ok_or_else(|| js_err(format!("panel '{name}' takes no keyboard input")))?;
        if (self.behaviour().nudge)(name, dx, dy, &mut self.settings.lesson) {
            self.compute();
            self.redraw().map_err(js_err)?;
            return Ok(Vec::new());
        }
        let [x0, x1, y0, y1] = view.world;
        let t = &self.settings.target;
        let (x, y) = (
            t.first().copied().unwrap_or(0.0),
            t.get(1).copied().unwrap_or(0.0),
        );
        Ok(vec![
            (x + 0.01 * dx).clamp(x0, x1),
            (y + 0.01 * dy).clamp(y0, y1),
        ])
    }

    /// World point → CSS pixel on panel `name` (for tests that point at a place).
    #[wasm_bindgen(js_name = worldToCanvas)]
    pub fn world_to_canvas(&self, name: &str, x: f64, y: f64) -> Result<Vec<f64>, JsError> {
        let surface = self
            .surfaces
            .get(name)
            .ok_or_else(|| js_err("no such panel"))?;
        let view = self
            .views
            .get(name)
            .ok_or_else(|| js_err("panel has no map"))?;
        let [px, py] = view.to_pixel(x, y);
        Ok(vec![px / surface.dpr(), py / surface.dpr()])
    }

    /// Sets control `name` from its element's text value; recomputes and redraws. Bad values
    /// are refused with a readable error and change nothing.
    #[wasm_bindgen(js_name = setControl)]
    pub fn set_control(&mut self, name: &str, value: &str) -> Result<(), JsError> {
        let mut next = self.settings.clone();
        let number = || -> Result<f64, JsError> {
            crate::decimal::parse_decimal(value)
                .filter(|v| v.is_finite())
                .ok_or_else(|| js_err(format!("{name}: '{value}' is not a number")))
        };
        match name {
            "path" => {
                next.lesson.path = PathKind::parse(value).ok_or_else(|| js_err("unknown path"))?
            }
            "sigma" => next.sigma = number()?.clamp(0.0, settings::SIGMA_MAX),
            "seed" => next.seed = (number()?.max(0.0) as u64).min(settings::SEED_MAX),
            "rule" => {
                next.lesson.rule = RuleKind::parse(value)
                    .ok_or_else(|| js_err(format!("unknown rule '{value}'")))?
            }
            "edge" => {
                next.lesson.edge = EdgeKind::parse(value)
                    .ok_or_else(|| js_err(format!("unknown edge '{value}'")))?
            }
            "noise" => next.lesson.noise = number()?,
            "deadband" => next.lesson.deadband = number()?,
            "shelf" => next.lesson.shelf = number()?,
            "z" => next.lesson.z = [0.0, 0.0],
            _ => {
                return Err(js_err(format!(
                    "lesson {} has no control '{name}'",
                    self.kind.entry().word
                )))
            }
        }
        next.lesson = next.lesson.clamped();
        self.settings = next;
        self.compute();
        self.redraw().map_err(js_err)
    }

    /// `getState().lesson`: the lesson's measured values.
    pub fn state(&self) -> Result<JsValue, JsError> {
        let missing: Vec<String> = self
            .models
            .missing
            .iter()
            .map(|(role, why)| format!("{role}: {why}"))
            .collect();
        let value = match &self.view {
            Some(v) => v.state_json(),
            None => Ok(serde_json::Value::Null),
        }
        .map_err(js_err)?;
        let mut value = value;
        if let serde_json::Value::Object(map) = &mut value {
            map.insert("missing_models".into(), serde_json::json!(missing));
        }
        to_js(&value)
    }

    /// The readouts as `[[label, text], …]`, formatted here.
    pub fn readouts(&self) -> Result<JsValue, JsError> {
        let mut rows = self.view.as_ref().map_or_else(Vec::new, |v| v.readouts());
        for (role, why) in &self.models.missing {
            rows.push([format!("model '{role}'"), format!("not available ({why})")]);
        }
        to_js(&rows)
    }
}
