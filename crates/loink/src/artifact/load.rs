//! Reading and writing model files: a size cap before parsing, serde_json's nesting limit
//! (128 levels; deeper input is a clean [`ArtifactError::TooDeep`], never a stack overflow), the
//! format name and version, then full validation ([`super::validate()`]).

use serde::Deserialize;

use super::charts::{validate_charts, ChartsFile, ValidatedCharts};
use super::error::ArtifactError;
use super::kind::{ModelKind, KIND_CHARTS, KIND_LOINK};
use super::schema::{ModelFile, FORMAT_NAME, FORMAT_VERSION, READABLE_VERSIONS};
use super::validate::{validate, ValidatedModel};

/// Largest model file accepted (8 MiB; a shipped planar model is well under 1 MiB).
pub const MAX_MODEL_BYTES: usize = 8 * 1024 * 1024;

/// The two fields read before the rest, so a future version fails with a version error
/// rather than a schema error. Public for decoders other than serde_json (the browser's
/// `JSON.parse` in the playground): decode this, [`FileHeader::check`] it, then the file.
#[derive(Debug, Clone, Deserialize)]
pub struct FileHeader {
    /// Must be [`FORMAT_NAME`].
    pub format: String,
    /// One of [`READABLE_VERSIONS`].
    pub version: u32,
    /// The model kind (`loink` when absent, as in version-1 files).
    #[serde(default)]
    pub kind: Option<String>,
}

impl FileHeader {
    /// Reads and checks the head of a model file's JSON, after the size cap: where every
    /// kind's parser (`loink`, `charts`, `flow`) starts.
    pub fn read(json: &str) -> Result<FileHeader, ArtifactError> {
        if json.len() > MAX_MODEL_BYTES {
            return Err(ArtifactError::TooLarge {
                bytes: json.len(),
                limit: MAX_MODEL_BYTES,
            });
        }
        let header: FileHeader = serde_json::from_str(json).map_err(|e| parse_error(e, json))?;
        header.check()?;
        Ok(header)
    }

    /// The format name and version this crate reads, or the error naming the mismatch.
    pub fn check(&self) -> Result<(), ArtifactError> {
        if self.format != FORMAT_NAME {
            return Err(ArtifactError::Format {
                found: self.format.clone(),
                expected: FORMAT_NAME.into(),
            });
        }
        if !READABLE_VERSIONS.contains(&self.version) {
            return Err(ArtifactError::Version {
                found: self.version,
                supported: FORMAT_VERSION,
            });
        }
        Ok(())
    }
}

/// The error for `json`: a syntax error at the very end of the text (a number or literal cut
/// short) is a truncation like an unexpected end of input.
pub fn parse_error(e: serde_json::Error, json: &str) -> ArtifactError {
    let text = e.to_string();
    let last_line = json.lines().count().max(1);
    let last_column = json.lines().last().map_or(0, |l| l.chars().count());
    let at_end = e.is_syntax() && e.line() >= last_line && e.column() >= last_column;
    if e.is_eof() || at_end {
        ArtifactError::Truncated(text)
    } else if text.contains("recursion limit") {
        ArtifactError::TooDeep(text)
    } else {
        ArtifactError::Parse(text)
    }
}

/// The kind of the model file `json` (size cap first; only the `kind` field is read, so a file
/// of any format names its kind before its own parser checks the rest).
pub fn model_kind_of(json: &str) -> Result<ModelKind, ArtifactError> {
    #[derive(Deserialize)]
    struct KindOnly {
        #[serde(default)]
        kind: Option<String>,
    }
    if json.len() > MAX_MODEL_BYTES {
        return Err(ArtifactError::TooLarge {
            bytes: json.len(),
            limit: MAX_MODEL_BYTES,
        });
    }
    let head: KindOnly = serde_json::from_str(json).map_err(|e| parse_error(e, json))?;
    ModelKind::from_word(head.kind.as_deref())
}

/// Parses a model file's JSON (size cap, header, schema) without validating its contents.
pub fn parse_model(json: &str) -> Result<ModelFile, ArtifactError> {
    let header = FileHeader::read(json)?;
    if let Some(kind) = header.kind.filter(|k| k != KIND_LOINK) {
        // Another kind's fields would read as a schema error; name the kind instead.
        return Err(ArtifactError::Kind(kind));
    }
    serde_json::from_str(json).map_err(|e| parse_error(e, json))
}

/// Parses and validates a model file.
pub fn load_model(json: &str) -> Result<ValidatedModel, ArtifactError> {
    validate(parse_model(json)?)
}

/// A validated model of either kind a file can hold.
#[derive(Debug, Clone, PartialEq)]
pub enum LoadedModel {
    /// One LOInK network (kind `loink`).
    Loink(Box<ValidatedModel>),
    /// Several LOInK charts (kind `charts`).
    Charts(Box<ValidatedCharts>),
}

/// Parses and validates a model file of kind `loink` or `charts` (dispatched on `kind`).
pub fn load_any(json: &str) -> Result<LoadedModel, ArtifactError> {
    let header = FileHeader::read(json)?;
    if header.kind.as_deref() == Some(KIND_CHARTS) {
        let file: ChartsFile = serde_json::from_str(json).map_err(|e| parse_error(e, json))?;
        return validate_charts(file).map(|c| LoadedModel::Charts(Box::new(c)));
    }
    load_model(json).map(|m| LoadedModel::Loink(Box::new(m)))
}

/// [`load_any`] from raw bytes (size cap first, then UTF-8).
pub fn load_any_bytes(bytes: &[u8]) -> Result<LoadedModel, ArtifactError> {
    load_any(text_of(bytes)?)
}

/// A model file's bytes as text: the size cap first, then UTF-8.
fn text_of(bytes: &[u8]) -> Result<&str, ArtifactError> {
    if bytes.len() > MAX_MODEL_BYTES {
        return Err(ArtifactError::TooLarge {
            bytes: bytes.len(),
            limit: MAX_MODEL_BYTES,
        });
    }
    std::str::from_utf8(bytes).map_err(|e| ArtifactError::NotUtf8(e.to_string()))
}

/// A charts file as pretty JSON (as [`save_model`]).
pub fn save_charts(file: &ChartsFile) -> String {
    serde_json::to_string_pretty(file).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"))
}

/// [`load_model`] from raw bytes (size cap first, then UTF-8).
pub fn load_model_bytes(bytes: &[u8]) -> Result<ValidatedModel, ArtifactError> {
    load_model(text_of(bytes)?)
}

/// The model as pretty JSON (matrices as nested rows, readable with `jq`). f64 values are
/// written in shortest round-trip form, so [`load_model`] gives back exactly the same numbers.
/// Serialising these types cannot fail; non-finite numbers are written as `null`, which
/// loading then rejects.
pub fn save_model(model: &ModelFile) -> String {
    serde_json::to_string_pretty(model).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_names_its_kind_before_its_schema_is_read() {
        assert_eq!(
            model_kind_of(r#"{"format": "x", "kind": "mdn", "rest": [1]}"#).unwrap(),
            ModelKind::Mdn
        );
        assert_eq!(model_kind_of("{}").unwrap(), ModelKind::Loink);
        assert!(matches!(
            model_kind_of(r#"{"kind": "flow""#),
            Err(ArtifactError::Truncated(_))
        ));
    }
}
