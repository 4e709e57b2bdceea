//! The page's in-browser trainer (web/train-worker.js runs it in a Web Worker, so the page's
//! frames never wait for it): [`Trainer`] wraps a [`loink_fit::session::Session`] and runs it
//! in slices of wall time, the one-cycle rate read at the share of the time budget spent (or of
//! the fixed step count). Built by scripts/build-web.sh into pkg/train/, fetched only when a
//! reader trains.

mod chart;
mod svg_text;

use chart::{CheckPoint, LossPoint};
use loink_fit::session::{Measure, Session, SessionSettings};
use serde::Serialize;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// Milliseconds on the worker's clock.
fn now_ms() -> f64 {
    js_sys::Date::now()
}

fn to_js<T: Serialize>(value: &T) -> Result<JsValue, JsError> {
    value
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .map_err(|e| JsError::new(&e.to_string()))
}

/// Where a run stands after a slice.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Progress {
    /// Steps taken.
    step: usize,
    /// Training time spent (s; slices only, a pause does not count).
    seconds: f64,
    /// Share of the run done (0–1).
    share: f64,
    /// The budget is spent.
    done: bool,
    /// Weighted loss, mean over the slice's steps (normalised units; NaN before a step).
    loss: f64,
    /// Its task term.
    task_loss: f64,
    /// Its cost term.
    cost_loss: f64,
    /// The line the page shows.
    summary: String,
}

/// One measurement on the held-out targets, with when it was taken.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Measured {
    step: usize,
    seconds: f64,
    #[serde(flatten)]
    measure: Measure,
    /// The line the page shows.
    summary: String,
}

/// A gap (J − J\*)/J\* as the page prints it.
fn percent(gap: f64) -> String {
    if gap.is_finite() {
        format!("{:.3} %", 100.0 * gap.max(0.0))
    } else {
        "∞ (infeasible)".into()
    }
}

/// A training run in the worker.
#[wasm_bindgen]
pub struct Trainer {
    session: Session,
    spent_ms: f64,
    losses: Vec<LossPoint>,
    checks: Vec<CheckPoint>,
}

#[wasm_bindgen]
impl Trainer {
    /// A run of `settings` (the `train({…})` object: problem, width, depth, mu, cost, seed,
    /// seconds or steps, samples, batch, lr); an unknown key or a value out of range is refused
    /// with its name.
    #[wasm_bindgen(constructor)]
    pub fn new(settings: JsValue) -> Result<Trainer, JsError> {
        if !settings.is_object() {
            return Err(JsError::new(
                "training settings: an object such as {problem: 'planar3', seconds: 60}",
            ));
        }
        let names: Vec<String> = js_sys::Object::keys(settings.unchecked_ref::<js_sys::Object>())
            .iter()
            .filter_map(|k| k.as_string())
            .collect();
        SessionSettings::check_keys(names.iter().map(String::as_str))
            .map_err(|e| JsError::new(&e.to_string()))?;
        let settings: SessionSettings = serde_wasm_bindgen::from_value(settings)
            .map_err(|e| JsError::new(&format!("training settings: {e}")))?;
        let session = Session::new(settings).map_err(|e| JsError::new(&e.to_string()))?;
        Ok(Trainer {
            session,
            spent_ms: 0.0,
            losses: Vec::new(),
            checks: Vec::new(),
        })
    }

    fn share(&self) -> f64 {
        match self.session.settings().steps {
            Some(steps) => self.session.steps() as f64 / steps as f64,
            None => self.spent_ms / (1000.0 * self.session.settings().seconds),
        }
    }

    /// Trains for about `slice_ms` of wall time (at least one step unless the run is done).
    pub fn run(&mut self, slice_ms: f64) -> Result<JsValue, JsError> {
        let start = now_ms();
        let (mut task, mut cost, mut count) = (0.0, 0.0, 0usize);
        while self.share() < 1.0 {
            let elapsed = now_ms() - start;
            if count > 0 && elapsed >= slice_ms {
                break;
            }
            let share = match self.session.settings().steps {
                Some(_) => self.share(),
                None => (self.spent_ms + elapsed) / (1000.0 * self.session.settings().seconds),
            };
            let (t, c) = self
                .session
                .step(share)
                .map_err(|e| JsError::new(&e.to_string()))?;
            task += t;
            cost += c;
            count += 1;
            if self.session.settings().steps.is_none()
                && self.spent_ms + (now_ms() - start) >= 1000.0 * self.session.settings().seconds
            {
                break;
            }
        }
        self.spent_ms += now_ms() - start;
        let mean = |v: f64| {
            if count > 0 {
                v / count as f64
            } else {
                f64::NAN
            }
        };
        if count > 0 {
            self.losses.push(LossPoint {
                step: self.session.steps(),
                task: mean(task),
                cost: mean(cost),
            });
        }
        let settings = self.session.settings();
        let of = match settings.steps {
            Some(steps) => format!("step {} of {steps}", self.session.steps()),
            None => format!(
                "step {} · {:.1} s of {} s",
                self.session.steps(),
                self.spent_ms / 1000.0,
                settings.seconds
            ),
        };
        let summary = format!("{of} · loss {:.2e}", mean(10.0 * task + cost));
        to_js(&Progress {
            summary,
            step: self.session.steps(),
            seconds: self.spent_ms / 1000.0,
            share: self.share().min(1.0),
            done: self.share() >= 1.0,
            loss: mean(10.0 * task + cost),
            task_loss: mean(task),
            cost_loss: mean(cost),
        })
    }

    /// The current weights on the held-out targets: `{step, seconds, eeMedianM, eeP95M,
    /// optimumDistanceRad, gapMedian, within1pct, targets}` (the gap of LOInK + 3 polish steps against J\*).
    pub fn measure(&mut self) -> Result<JsValue, JsError> {
        let measure = self
            .session
            .measure()
            .map_err(|e| JsError::new(&e.to_string()))?;
        self.checks.push(CheckPoint {
            seconds: self.spent_ms / 1000.0,
            ee_median_m: measure.ee_median_m,
            optimum_distance_rad: measure.optimum_distance_rad,
            gap_median: measure.gap_median,
        });
        let summary = format!(
            "held-out targets: one-shot error {:.1} mm, z = 0's posture {:.0} mrad from q*, gap after polish {}, within 1 % of J* on {:.0} %",
            measure.ee_median_m * 1e3,
            measure.optimum_distance_rad * 1e3,
            percent(measure.gap_median),
            measure.within_1pct * 100.0
        );
        to_js(&Measured {
            summary,
            step: self.session.steps(),
            seconds: self.spent_ms / 1000.0,
            measure,
        })
    }

    /// The current weights as a model file's text (`loink eval --model` reads it).
    #[wasm_bindgen(js_name = modelJson)]
    pub fn model_json(&self) -> Result<String, JsError> {
        self.session
            .model_json(self.spent_ms / 1000.0)
            .map_err(|e| JsError::new(&e.to_string()))
    }

    /// The live chart (loss terms by step; the held-out error and gap by time) as SVG text of
    /// `width × height` px.
    #[wasm_bindgen(js_name = chartSvg)]
    pub fn chart_svg(&self, width: u32, height: u32) -> String {
        chart::svg(&self.losses, &self.checks, width, height)
    }

    /// The settings as run (defaults filled in).
    pub fn settings(&self) -> Result<JsValue, JsError> {
        to_js(self.session.settings())
    }
}
