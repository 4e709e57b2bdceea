//! Decoding a model file's JSON text into a [`ModelFile`].
//!
//! In the browser the text goes through the engine's own `JSON.parse` and then
//! serde-wasm-bindgen: serde_json's parser, number lexer and their tables would otherwise be
//! about 29 KB of the gzipped download (measured with `scripts/build-web.sh`), and its code
//! would be compiled lazily on the critical path of the first frame. Natively (tests, the
//! benches) serde_json decodes as `loink::artifact::parse_model` does. Both paths check the
//! size cap first and the header (format, version) before the schema; validation is shared
//! ([`loink::surrogate::Loink::from_file`]).

#[cfg(feature = "multi-chart")]
use loink::artifact::ChartsFile;
use loink::artifact::{ArtifactError, ModelFile, KIND_CHARTS};

/// A decoded model file of either kind, not yet validated (made once per model load, and
/// consumed by validation at once: boxing the larger variant would buy nothing).
#[derive(Debug, Clone)]
#[allow(clippy::large_enum_variant)]
pub enum Decoded {
    /// One LOInK network (kind `loink`).
    Loink(ModelFile),
    /// Several charts (kind `charts`; the full bundle only).
    #[cfg(feature = "multi-chart")]
    Charts(Box<ChartsFile>),
    /// A problem's baseline flow (kind `flow`; the full bundle only).
    #[cfg(feature = "flow")]
    Flow(Box<loink::flow::FlowFile>),
}

/// The refusal of a flow file by a bundle built without the model-free problems.
#[cfg(not(feature = "flow"))]
fn flow_elsewhere() -> ArtifactError {
    ArtifactError::Inconsistent {
        path: "kind".into(),
        detail: "a flow runs in the page's full bundle (pkg/lessons/), not this one".into(),
    }
}

/// The model kind of a flow file.
const KIND_FLOW: &str = "flow";

/// The refusal of a charts file by a bundle built without multi-chart support.
#[cfg(not(feature = "multi-chart"))]
fn charts_elsewhere() -> ArtifactError {
    ArtifactError::Inconsistent {
        path: "kind".into(),
        detail: "a multi-chart model runs in the page's full bundle (pkg/lessons/), not this one"
            .into(),
    }
}

#[cfg(target_arch = "wasm32")]
#[wasm_bindgen::prelude::wasm_bindgen]
extern "C" {
    /// `JSON.parse` on a JS string (js-sys's binding takes a `&str`, which copies the text
    /// into wasm memory and back out).
    #[wasm_bindgen(js_namespace = JSON, js_name = parse, catch)]
    fn json_parse(text: &js_sys::JsString) -> Result<wasm_bindgen::JsValue, wasm_bindgen::JsValue>;
}

/// Decodes `json` into a model file (not yet validated).
#[cfg(target_arch = "wasm32")]
pub fn decode(json: &str) -> Result<Decoded, ArtifactError> {
    decode_js(&js_sys::JsString::from(json))
}

/// Decodes a JS string holding a model file without copying it into wasm memory (the page
/// hands the fetched text straight over). Its length is counted in UTF-16 units for the cap
/// (never more than the UTF-8 bytes).
#[cfg(target_arch = "wasm32")]
pub fn decode_js(json: &js_sys::JsString) -> Result<Decoded, ArtifactError> {
    use loink::artifact::{FileHeader, MAX_MODEL_BYTES};
    use wasm_bindgen::JsCast;

    if !json.is_string() {
        return Err(ArtifactError::Parse(
            "the model file's text is not a string".into(),
        ));
    }
    let length = json.length() as usize;
    if length > MAX_MODEL_BYTES {
        return Err(ArtifactError::TooLarge {
            bytes: length,
            limit: MAX_MODEL_BYTES,
        });
    }
    let value = json_parse(json).map_err(|e| {
        let message = e
            .dyn_ref::<js_sys::Error>()
            .map(|e| String::from(e.message()))
            .unwrap_or_else(|| "not JSON".to_string());
        ArtifactError::Parse(message)
    })?;
    if !value.is_object() || js_sys::Array::is_array(&value) {
        return Err(ArtifactError::Parse(
            "the top level is not a JSON object".into(),
        ));
    }
    let schema_error = |e: serde_wasm_bindgen::Error| ArtifactError::Parse(e.to_string());
    let header: FileHeader = serde_wasm_bindgen::from_value(value.clone()).map_err(schema_error)?;
    header.check()?;
    if header.kind.as_deref() == Some(KIND_CHARTS) {
        #[cfg(feature = "multi-chart")]
        return serde_wasm_bindgen::from_value(value)
            .map(|f| Decoded::Charts(Box::new(f)))
            .map_err(schema_error);
        #[cfg(not(feature = "multi-chart"))]
        return Err(charts_elsewhere());
    }
    if header.kind.as_deref() == Some(KIND_FLOW) {
        #[cfg(feature = "flow")]
        return serde_wasm_bindgen::from_value(value)
            .map(|f| Decoded::Flow(Box::new(f)))
            .map_err(schema_error);
        #[cfg(not(feature = "flow"))]
        return Err(flow_elsewhere());
    }
    serde_wasm_bindgen::from_value(value)
        .map(Decoded::Loink)
        .map_err(schema_error)
}

/// Decodes `json` into a model file (not yet validated).
#[cfg(not(target_arch = "wasm32"))]
pub fn decode(json: &str) -> Result<Decoded, ArtifactError> {
    let header = loink::artifact::FileHeader::read(json)?;
    if header.kind.as_deref() == Some(KIND_CHARTS) {
        #[cfg(feature = "multi-chart")]
        return serde_json::from_str(json)
            .map(|f| Decoded::Charts(Box::new(f)))
            .map_err(|e| ArtifactError::Parse(e.to_string()));
        #[cfg(not(feature = "multi-chart"))]
        return Err(charts_elsewhere());
    }
    if header.kind.as_deref() == Some(KIND_FLOW) {
        #[cfg(feature = "flow")]
        return serde_json::from_str(json)
            .map(|f| Decoded::Flow(Box::new(f)))
            .map_err(|e| ArtifactError::Parse(e.to_string()));
        #[cfg(not(feature = "flow"))]
        return Err(flow_elsewhere());
    }
    loink::artifact::parse_model(json).map(Decoded::Loink)
}

/// [`decode`] for a JS string (the `Playground` binding; natively only reachable from
/// wasm-bindgen's own stubs).
#[cfg(not(target_arch = "wasm32"))]
pub fn decode_js(json: &js_sys::JsString) -> Result<Decoded, ArtifactError> {
    decode(&String::from(json))
}
