//! The kinds of model file, by the `kind` word each file carries: the one place the words are
//! defined. [`crate::model::LearnedModel`] loads a file of any kind with one dispatch on
//! [`ModelKind`].

use super::error::ArtifactError;

/// The model kind of a LOInK network (and of every version-1 file, which has no `kind`).
pub const KIND_LOINK: &str = "loink";
/// The model kind of a charts file: several LOInK networks on regions of the joint box.
pub const KIND_CHARTS: &str = "charts";
/// The model kind of the IKFlow-style conditional normalising flow baseline.
pub const KIND_FLOW: &str = "flow";
/// The model kind of a direct regressor trained on squared error.
pub const KIND_MSE: &str = "mse";
/// The model kind of a mixture density network.
pub const KIND_MDN: &str = "mdn";

/// What a model file holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ModelKind {
    /// One LOInK network (`loink`).
    Loink,
    /// Several LOInK charts (`charts`).
    Charts,
    /// The flow baseline (`flow`).
    Flow,
    /// A squared-error regressor (`mse`).
    Mse,
    /// A mixture density network (`mdn`).
    Mdn,
}

impl ModelKind {
    /// Every kind, in the order messages list them.
    pub const ALL: [ModelKind; 5] = [
        ModelKind::Loink,
        ModelKind::Charts,
        ModelKind::Flow,
        ModelKind::Mse,
        ModelKind::Mdn,
    ];

    /// The word a file's `kind` holds.
    pub fn word(self) -> &'static str {
        match self {
            ModelKind::Loink => KIND_LOINK,
            ModelKind::Charts => KIND_CHARTS,
            ModelKind::Flow => KIND_FLOW,
            ModelKind::Mse => KIND_MSE,
            ModelKind::Mdn => KIND_MDN,
        }
    }

    /// The kind a file's `kind` names (absent: `loink`, as in version-1 files).
    pub fn from_word(word: Option<&str>) -> Result<ModelKind, ArtifactError> {
        Ok(match word.unwrap_or(KIND_LOINK) {
            KIND_LOINK => ModelKind::Loink,
            KIND_CHARTS => ModelKind::Charts,
            KIND_FLOW => ModelKind::Flow,
            KIND_MSE => ModelKind::Mse,
            KIND_MDN => ModelKind::Mdn,
            other => return Err(ArtifactError::Kind(other.to_string())),
        })
    }

    /// Whether the file is LOInK's (one chart or several).
    pub fn is_loink(self) -> bool {
        matches!(self, ModelKind::Loink | ModelKind::Charts)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_word_names_its_kind() {
        for kind in ModelKind::ALL {
            assert_eq!(ModelKind::from_word(Some(kind.word())).unwrap(), kind);
        }
        assert_eq!(ModelKind::from_word(None).unwrap(), ModelKind::Loink);
        assert!(matches!(
            ModelKind::from_word(Some("gan")),
            Err(ArtifactError::Kind(k)) if k == "gan"
        ));
    }
}
