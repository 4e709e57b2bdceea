//! The bindings in a real browser (headless Chromium via ChromeDriver; `scripts/test-wasm.sh`):
//! the `Playground` JS surface on real canvases, errors as `JsError`s, hostile input refused.
#![cfg(target_arch = "wasm32")]

use loink_web::playground::Playground;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::*;
use web_sys::HtmlCanvasElement;

wasm_bindgen_test_configure!(run_in_browser);

fn canvas(id: &str) -> HtmlCanvasElement {
    let document = web_sys::window().unwrap().document().unwrap();
    let canvas: HtmlCanvasElement = document
        .create_element("canvas")
        .unwrap()
        .dyn_into()
        .unwrap();
    canvas.set_id(id);
    document.body().unwrap().append_child(&canvas).unwrap();
    canvas
}

fn field(value: &JsValue, name: &str) -> JsValue {
    js_sys::Reflect::get(value, &name.into()).unwrap()
}

fn playground() -> Playground {
    let mut pg = Playground::new().unwrap();
    for name in ["arm", "landscape", "latent", "gapmap"] {
        pg.attach_canvas(name, canvas(name)).unwrap();
        pg.resize(name, 480.0, 360.0, 2.0).unwrap();
    }
    pg
}

#[wasm_bindgen_test]
fn canvases_are_sized_for_the_pixel_ratio() {
    let _pg = playground();
    let document = web_sys::window().unwrap().document().unwrap();
    let arm: HtmlCanvasElement = document
        .get_element_by_id("arm")
        .unwrap()
        .dyn_into()
        .unwrap();
    assert_eq!((arm.width(), arm.height()), (960, 720));
}

#[wasm_bindgen_test]
fn a_pointer_move_solves_and_returns_the_state() {
    let mut pg = playground();
    let px = pg.world_to_canvas(0.4, 0.6, None).unwrap();
    let state = pg.pointer(px[0], px[1]).unwrap();
    assert_eq!(field(&state, "status").as_string().unwrap(), "converged");
    assert!(field(&state, "residual").as_f64().unwrap() <= 1e-9);
    let target = field(&state, "target");
    let x = js_sys::Reflect::get_u32(&target, 0)
        .unwrap()
        .as_f64()
        .unwrap();
    assert!((x - 0.4).abs() < 0.01, "{x}");
    let world = pg.canvas_to_world(px[0], px[1]).unwrap();
    assert!((world[0] - 0.4).abs() < 1e-9 && (world[1] - 0.6).abs() < 1e-9);
    assert!(pg.state_json().unwrap().contains("\"hash\""));
}

#[wasm_bindgen_test]
fn hostile_input_is_a_readable_js_error_and_changes_nothing() {
    let mut pg = playground();
    let before = pg.hash();
    for (x, y) in [(f64::NAN, 0.0), (f64::INFINITY, 1.0), (1e300, 0.0)] {
        assert!(pg.set_target(vec![x.into(), y.into()]).is_err());
    }
    // A planar view takes two coordinates: one or three are refused, saying how many.
    for count in [1, 3] {
        let err = pg
            .set_target(vec![JsValue::from(0.5); count])
            .expect_err("refused");
        let text = String::from(
            JsValue::from(err)
                .unchecked_into::<js_sys::Error>()
                .message(),
        );
        assert!(text.contains("takes this view's 2 coordinates"), "{text}");
    }
    // Non-numbers are refused by type, naming what came (null is not x = 0).
    for (bad, named) in [
        (JsValue::NULL, "got null"),
        (JsValue::UNDEFINED, "got undefined"),
        (JsValue::from_str("0.5"), "got the string \"0.5\""),
        (JsValue::TRUE, "got the boolean true"),
        (js_sys::BigInt::from(1u32).into(), "got a bigint"),
        (js_sys::Object::new().into(), "got an object"),
    ] {
        let err = pg.set_target(vec![bad, 0.5.into()]).expect_err("refused");
        let text = JsValue::from(err)
            .unchecked_into::<js_sys::Error>()
            .message();
        let text = String::from(text);
        assert!(
            text.contains("target x must be a number") && text.contains(named),
            "{text}"
        );
    }
    assert!(pg.pointer(f64::NAN, 3.0).is_err());
    assert!(pg.attach_canvas("nope", canvas("nope")).is_err());
    assert!(
        pg.resize("gapmap", f64::NAN, -5.0, f64::INFINITY).is_ok(),
        "clamped, not refused"
    );
    assert!(pg.load_model("planar3", &"{not json".into()).is_err());
    assert!(pg
        .load_model("https://example.invalid/x", &"{}".into())
        .is_err());
    assert!(pg.apply(JsValue::from_str("not settings")).is_err());
    assert_eq!(pg.hash(), before);
    // The next good input is answered.
    let state = pg.set_target(vec![0.5.into(), 0.5.into()]).unwrap();
    assert_eq!(field(&state, "status").as_string().unwrap(), "converged");
    // The gap follows with the drawn frame; until then it says it is pending.
    assert_eq!(field(&state, "optimumPending").as_bool(), Some(true));
    assert!(pg.draw_frame().unwrap());
    let drawn = pg.state().unwrap();
    assert_eq!(field(&drawn, "optimumPending").as_bool(), Some(false));
    assert!(field(&drawn, "gap").as_f64().unwrap().is_finite());
    assert!(!pg.draw_frame().unwrap(), "nothing left to draw");
}

#[wasm_bindgen_test]
fn a_hash_applies_and_round_trips() {
    let mut pg = playground();
    let parsed =
        Playground::parse_hash("#model=planar3-wide&solver=reference&target=0.3,0.6&seed=9")
            .unwrap();
    let warnings = pg.apply(field(&parsed, "settings")).unwrap();
    assert!(warnings.is_empty(), "{warnings:?}");
    // The link names no `feedback`: it gets the page's current default.
    assert_eq!(
        pg.hash(),
        "#model=planar3-wide&solver=reference&target=0.3,0.6&sigma=0&samples=8&seed=9&refine=3&feedback=2"
    );
    let state = pg.state().unwrap();
    assert_eq!(field(&state, "model").as_string().unwrap(), "planar3-wide");
}

#[wasm_bindgen_test]
fn idle_work_finishes() {
    let mut pg = playground();
    let mut rounds = 0;
    while pg.idle(20.0).unwrap() && rounds < 1000 {
        rounds += 1;
    }
    assert!(rounds < 1000);
}

fn js_error_text(err: wasm_bindgen::JsError) -> String {
    String::from(
        JsValue::from(err)
            .unchecked_into::<js_sys::Error>()
            .message(),
    )
}

/// Model files are decoded by the browser's JSON.parse here (serde_json natively): the shipped
/// file loads and solves, and hostile files are refused with the reason, changing nothing.
#[wasm_bindgen_test]
fn model_files_decode_through_the_browser_parser() {
    let mut pg = playground();
    let shipped = include_str!("../../../web/models/planar3.json");
    let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    let overflow = shipped.replacen("\"mu\":0.05", "\"mu\":1e999", 1);
    assert_ne!(overflow, shipped, "the fixture names mu");
    for (body, reason) in [
        ("", "does not parse"),
        (
            "{\"format\": \"loink-model\", \"version\": 1, \"robot\": {",
            "does not parse",
        ),
        ("<!doctype html><title>404</title>", "does not parse"),
        (deep.as_str(), "not a JSON object"),
        (&deep[..100_000], "does not parse"),
        ("[1, 2]", "not a JSON object"),
        (
            "{\"format\": \"loink-model\", \"version\": 99}",
            "version 99",
        ),
        ("{\"format\": \"onnx\", \"version\": 1}", "format is 'onnx'"),
        (
            "{\"format\": \"loink-model\", \"version\": 1}",
            "missing field",
        ),
        (overflow.as_str(), "hyper.mu"),
    ] {
        let text = js_error_text(pg.load_model("planar3", &body.into()).expect_err("refused"));
        assert!(text.contains(reason), "{reason}: {text}");
        assert!(
            pg.loaded_models().is_empty(),
            "{reason}: a refused file was kept"
        );
    }
    let not_text = JsValue::from(js_sys::Object::new()).unchecked_into::<js_sys::JsString>();
    let text = js_error_text(pg.load_model("planar3", &not_text).expect_err("refused"));
    assert!(text.contains("not a string"), "{text}");
    pg.load_model("planar3", &shipped.into()).unwrap();
    assert_eq!(pg.loaded_models(), vec!["planar3".to_string()]);
    let parsed =
        Playground::parse_hash("#model=planar3&solver=loink&target=0.6,0.3&feedback=0").unwrap();
    pg.apply(field(&parsed, "settings")).unwrap();
    let state = pg.state().unwrap();
    assert_eq!(field(&state, "solver").as_string().unwrap(), "loink");
    let residual = field(&state, "residual").as_f64().unwrap();
    assert!(residual < 0.02, "the shipped model misses by {residual} m");
    // One shot; two feedback rounds land the same model on the target.
    let fed =
        Playground::parse_hash("#model=planar3&solver=loink&target=0.6,0.3&feedback=2").unwrap();
    pg.apply(field(&fed, "settings")).unwrap();
    let state = pg.state().unwrap();
    let fed = field(&state, "residual").as_f64().unwrap();
    assert!(fed < residual / 10.0, "feedback: {residual} -> {fed} m");
    assert!(pg.hash().ends_with("&feedback=2"), "{}", pg.hash());
}
