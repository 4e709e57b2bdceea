//! Decoding a model file's JSON text into a [`ModelFile`].
//!
//! In the browser the text goes through the engine's own `JSON.parse` and then
//! serde-wasm-bindgen: serde_json's parser, number lexer and their tables would otherwise be
//! about 29 KB of the gzipped download (measured with `scripts/build-web.sh`), and its code
//! would be compiled lazily on the critical path of the first frame. Natively (tests, the
//! benches) serde_json decodes as `loink::artifact::parse_model` does. Both paths check the
//! size cap first and the header (format, version) before the schema; validation is shared
//! ([`loink::surrogate::Loink::from_file`]).

use loink::artifact::{ArtifactError, ModelFile, ModelKind};
use serde::de::DeserializeOwned;

/// A decoded model file of a kind this bundle runs, not yet validated (made once per model
/// load, and consumed by validation at once: boxing the larger variant would buy nothing).
#[derive(Debug, Clone)]
#[allow(clippy::large_enum_variant)]
pub enum Decoded {
    /// One LOInK network (kind `loink`).
    Loink(ModelFile),
    /// Several charts (kind `charts`; the full bundle only).
    #[cfg(feature = "multi-chart")]
    Charts(Box<loink::artifact::ChartsFile>),
    /// A problem's baseline flow (kind `flow`; the full bundle only).
    #[cfg(feature = "flow")]
    Flow(Box<loink::flow::FlowFile>),
}

/// A model file's text, ready to be read as one kind's file.
trait Source {
    /// The file as `T`.
    fn read<T: DeserializeOwned>(self) -> Result<T, ArtifactError>;
}

/// The file of kind `kind` in `source`: the page's one dispatch on a model file's kind.
fn decode_kind(kind: Option<&str>, source: impl Source) -> Result<Decoded, ArtifactError> {
    match ModelKind::from_word(kind)? {
        ModelKind::Loink => source.read().map(Decoded::Loink),
        #[cfg(feature = "multi-chart")]
        ModelKind::Charts => source.read().map(|f| Decoded::Charts(Box::new(f))),
        #[cfg(feature = "flow")]
        ModelKind::Flow => source.read().map(|f| Decoded::Flow(Box::new(f))),
        // A baseline regressor is a lesson's, read by the lesson itself.
        other @ (ModelKind::Mse | ModelKind::Mdn) => Err(ArtifactError::Kind(other.word().into())),
        #[allow(unreachable_patterns)] // the full bundle reads every kind of the page
        other => Err(ArtifactError::Inconsistent {
            path: "kind".into(),
            detail: format!(
                "a {} model runs in the page's full bundle (pkg/lessons/), not this one",
                other.word()
            ),
        }),
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
    let header: FileHeader = serde_wasm_bindgen::from_value(value.clone())
        .map_err(|e| ArtifactError::Parse(e.to_string()))?;
    header.check()?;
    decode_kind(header.kind.as_deref(), JsSource(value))
}

/// A parsed JS object holding a model file.
#[cfg(target_arch = "wasm32")]
struct JsSource(wasm_bindgen::JsValue);

#[cfg(target_arch = "wasm32")]
impl Source for JsSource {
    fn read<T: DeserializeOwned>(self) -> Result<T, ArtifactError> {
        serde_wasm_bindgen::from_value(self.0).map_err(|e| ArtifactError::Parse(e.to_string()))
    }
}

/// Decodes `json` into a model file (not yet validated).
#[cfg(not(target_arch = "wasm32"))]
pub fn decode(json: &str) -> Result<Decoded, ArtifactError> {
    let header = loink::artifact::FileHeader::read(json)?;
    decode_kind(header.kind.as_deref(), TextSource(json))
}

/// A model file's JSON text (serde_json, natively).
#[cfg(not(target_arch = "wasm32"))]
struct TextSource<'a>(&'a str);

#[cfg(not(target_arch = "wasm32"))]
impl Source for TextSource<'_> {
    fn read<T: DeserializeOwned>(self) -> Result<T, ArtifactError> {
        serde_json::from_str(self.0).map_err(|e| loink::artifact::load::parse_error(e, self.0))
    }
}

/// [`decode`] for a JS string (the `Playground` binding; natively only reachable from
/// wasm-bindgen's own stubs).
#[cfg(not(target_arch = "wasm32"))]
pub fn decode_js(json: &js_sys::JsString) -> Result<Decoded, ArtifactError> {
    decode(&String::from(json))
}
