//! The fixed list of models the page knows. A model name from the URL is looked up here and
//! nowhere else: the page only ever fetches `web/models/<name>.json` for a name in this list,
//! never an arbitrary URL (issue 8, security of a static page).

use serde::Serialize;

/// One entry of the catalog.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct ModelEntry {
    /// Name used in the URL hash and the model file name (`web/models/<name>.json`).
    pub name: &'static str,
    /// The robot preset (`loink::robot::PRESET_NAMES`) the classical solvers use.
    pub robot: &'static str,
    /// Whether a trained LOInK file ships in `web/models/<name>.json` (the page fetches it).
    pub shipped: bool,
    /// Whether the robot is redundant, so a LOInK model can exist for it at all.
    pub learnable: bool,
    /// One line for the model menu.
    pub label: &'static str,
}

/// Every model the page offers, default first.
pub const MODELS: [ModelEntry; 10] = [
    ModelEntry {
        name: "planar3-h38w",
        robot: "planar3",
        shipped: true,
        learnable: true,
        label: "planar3 — 3 links, 1-D latent, [38]×4 trained on its own optimal surface, weighted (most accurate)",
    },
    ModelEntry {
        name: "planar3-h38",
        robot: "planar3",
        shipped: true,
        learnable: true,
        label: "planar3, [38]×4 on its optimal surface, unweighted (the default before planar3-h38w)",
    },
    ModelEntry {
        name: "planar3-surface",
        robot: "planar3",
        shipped: true,
        learnable: true,
        label: "planar3, [32]×4 trained on its own optimal surface (the default before planar3-h38)",
    },
    ModelEntry {
        name: "planar3",
        robot: "planar3",
        shipped: true,
        learnable: true,
        label: "planar3 — the benchmark model (40 epochs, uniform data; μ = 0.05)",
    },
    ModelEntry {
        name: "planar3-h16",
        robot: "planar3",
        shipped: true,
        learnable: true,
        label: "planar3, hidden [16]×4 (2.4× smaller file, coarser)",
    },
    ModelEntry {
        name: "planar3-long",
        robot: "planar3",
        shipped: true,
        learnable: true,
        label: "planar3, trained 3× longer (120 epochs, uniform data)",
    },
    ModelEntry {
        name: "planar3-mu0.2",
        robot: "planar3",
        shipped: true,
        learnable: true,
        label: "planar3, μ = 0.2 (tighter lower Lipschitz bound)",
    },
    ModelEntry {
        name: "planar4",
        robot: "planar4",
        shipped: true,
        learnable: true,
        label: "planar4 — 4 links, 2-D latent plane",
    },
    ModelEntry {
        name: "planar3-wide",
        robot: "planar3-wide",
        shipped: true,
        learnable: true,
        label: "planar3-wide — wide limits: where one chart fails",
    },
    ModelEntry {
        name: "planar2",
        robot: "planar2",
        shipped: false,
        learnable: false,
        label: "planar2 — 2 links, analytic IK (no redundancy)",
    },
];

/// The model shown when the URL names none: the one whose unrefined answers land closest to the
/// target (web/models/README.md). A link naming `planar3` still opens that model.
pub const DEFAULT_MODEL: &str = "planar3-h38w";

/// Looks a name up; `None` for anything not in [`MODELS`].
pub fn lookup(name: &str) -> Option<&'static ModelEntry> {
    MODELS.iter().find(|m| m.name == name)
}

/// The catalog's names, comma-separated, for error messages.
pub fn names() -> String {
    MODELS.iter().map(|m| m.name).collect::<Vec<_>>().join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_entry_names_a_real_preset_and_a_safe_file_name() {
        for m in MODELS {
            assert!(
                loink::robot::PlanarArm::preset(m.robot).is_ok(),
                "{}",
                m.name
            );
            assert!(m
                .name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '.'));
            assert!(!m.name.contains(".."));
        }
        assert!(lookup(DEFAULT_MODEL).is_some());
        assert_eq!(MODELS[0].name, DEFAULT_MODEL, "the default comes first");
    }

    #[test]
    fn names_outside_the_list_are_refused() {
        for bad in [
            "",
            "../secret",
            "https://evil.example/x",
            "PLANAR3",
            "planar3.json",
        ] {
            assert!(lookup(bad).is_none(), "{bad}");
        }
    }
}

#[cfg(test)]
mod shipped_files {
    use super::*;
    use std::path::Path;

    /// The catalog and `web/models/` agree: every shipped entry's file exists and loads, and
    /// every file there is in the catalog as shipped.
    #[test]
    fn catalog_matches_the_shipped_model_files() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../web/models");
        for m in MODELS.iter().filter(|m| m.learnable) {
            let path = dir.join(format!("{}.json", m.name));
            assert_eq!(
                path.exists(),
                m.shipped,
                "{}: shipped flag vs {}",
                m.name,
                path.display()
            );
            if m.shipped {
                let text = std::fs::read_to_string(&path).unwrap();
                let model = loink::artifact::load_model(&text)
                    .unwrap_or_else(|e| panic!("{} does not load: {e}", path.display()));
                assert!(
                    !model.file().metrics.contains_key("untrained"),
                    "{} is untrained",
                    m.name
                );
            }
        }
        // Every redundant-arm LOInK file there is offered by the page (regressor files and the
        // lessons' planar2 model are not LOInK playground models).
        if let Ok(entries) = std::fs::read_dir(&dir) {
            for entry in entries.flatten() {
                let name = entry.file_name().to_string_lossy().to_string();
                let Some(stem) = name.strip_suffix(".json") else {
                    continue;
                };
                let text = std::fs::read_to_string(entry.path()).unwrap_or_default();
                let Ok(model) = loink::artifact::parse_model(&text) else {
                    continue;
                };
                if model.robot.link_lengths.len() >= 3 {
                    assert!(
                        lookup(stem).is_some_and(|m| m.shipped),
                        "{name} is a LOInK model the catalog does not list"
                    );
                }
            }
        }
    }
}
