//! The fixed list of models the page knows, generated from `web/models/catalog.json` (itself
//! written by `scripts/catalog.sh` from the model files' cards) at build time. A model name from
//! the URL is looked up here and nowhere else: the page only ever fetches a file this list
//! names, never an arbitrary URL (a static page must not be steered to other addresses).

use serde::Serialize;

/// One entry of the catalog.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct ModelEntry {
    /// Name used in the URL hash and the model file's stem.
    pub name: &'static str,
    /// The problem's name (the menu's group).
    pub problem: &'static str,
    /// The problem in words (the group's label).
    pub problem_title: &'static str,
    /// The model kind (`loink`, `charts`, or `flow`: its problem's baseline solver, fetched
    /// with the problem's models and never a menu entry).
    pub kind: &'static str,
    /// One line for the model menu.
    pub description: &'static str,
    /// What the list of experiments calls the view this model opens (from its card).
    pub experiment_title: &'static str,
    /// What that experiment shows, in one line (from its card).
    pub experiment_line: &'static str,
    /// The file, relative to the site root.
    pub file: &'static str,
    /// Its size in bytes.
    pub bytes: u64,
    /// The page's default model.
    pub default: bool,
    /// It runs in the page's full bundle (pkg/lessons/): multi-chart models, flows, and
    /// problems other than the planar arms.
    pub full_bundle: bool,
    /// Where a view of it opens, in its task's columns (from its card; empty: its problem's
    /// default target).
    pub opening_target: &'static [f64],
    /// The solver a view of it opens with when its link names none (a solver's word, from its
    /// card; empty: the page's default).
    pub opening_solver: &'static str,
}

include!(concat!(env!("OUT_DIR"), "/catalog_data.rs"));

impl ModelEntry {
    /// Whether a view opens on it (a LOInK model or charts): a flow is its problem's baseline
    /// solver, a regressor a lesson's baseline.
    pub fn opens_a_view(&self) -> bool {
        self.kind == "loink" || self.kind == "charts"
    }
}

/// The model shown when the URL names none (the catalog's `default: true` entry).
pub fn default_entry() -> &'static ModelEntry {
    MODELS.iter().find(|m| m.default).unwrap_or(&MODELS[0])
}

/// A model trained in the page (`loinkPlayground.train`, `useModel`): one slot per planar arm.
/// It has no file to fetch; a link naming it opens the view without its weights, which live
/// only in the page that trained or loaded them.
const fn trained(
    name: &'static str,
    problem: &'static str,
    problem_title: &'static str,
) -> ModelEntry {
    ModelEntry {
        name,
        problem,
        problem_title,
        kind: "loink",
        description: "trained in this page",
        experiment_title: "",
        experiment_line: "",
        file: "",
        bytes: 0,
        default: false,
        full_bundle: false,
        opening_target: &[],
        opening_solver: "",
    }
}

/// The slots of models trained in the page, one per planar arm.
pub const TRAINED: [ModelEntry; 3] = [
    trained("trained-planar2", "planar2", "2 links, no redundancy"),
    trained("trained-planar3", "planar3", "3 links, 1 redundant joint"),
    trained("trained-planar4", "planar4", "4 links, 2 redundant joints"),
];

/// The slot of a model of `problem` trained in the page.
pub fn trained_slot(problem: &str) -> Option<&'static ModelEntry> {
    TRAINED.iter().find(|m| m.problem == problem)
}

/// Why model `entry` has no weights in this page: its file did not load, or (a slot of
/// [`TRAINED`]) nothing was trained or loaded into it here.
pub fn missing_reason(entry: &ModelEntry) -> String {
    if entry.file.is_empty() {
        format!(
            "{} holds a model trained in a page, and this page has none: train one (Train…) or load its file",
            entry.name
        )
    } else {
        format!("the {} model file is not loaded", entry.name)
    }
}

/// Looks a name up; `None` for anything not in [`MODELS`] or [`TRAINED`].
pub fn lookup(name: &str) -> Option<&'static ModelEntry> {
    MODELS.iter().chain(&TRAINED).find(|m| m.name == name)
}

/// Looks up a model a view opens on ([`ModelEntry::opens_a_view`]); `None` for anything else.
pub fn lookup_view(name: &str) -> Option<&'static ModelEntry> {
    lookup(name).filter(|m| m.opens_a_view())
}

/// The names of the models a view opens on, comma-separated, for error messages.
pub fn names() -> String {
    MODELS
        .iter()
        .filter(|m| m.opens_a_view())
        .map(|m| m.name)
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_default_and_safe_file_names() {
        assert_eq!(MODELS.iter().filter(|m| m.default).count(), 1);
        for m in MODELS {
            assert!(m
                .name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '.'));
            assert!(!m.name.contains(".."));
            assert_eq!(m.file, format!("web/models/{}.json", m.name));
        }
        // Every problem's models are listed together, its default first.
        let mut seen: Vec<&str> = Vec::new();
        for w in MODELS.windows(2) {
            if w[0].problem != w[1].problem {
                assert!(!seen.contains(&w[1].problem), "{} is split", w[1].problem);
                seen.push(w[0].problem);
            }
        }
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

    fn root() -> &'static Path {
        Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
    }

    /// Every entry's file exists, loads, is trained, and has the recorded size and problem.
    #[test]
    fn catalog_matches_the_model_files() {
        for m in MODELS {
            let text = std::fs::read_to_string(root().join(m.file)).unwrap();
            assert_eq!(text.len() as u64, m.bytes, "{}: size", m.name);
            if m.kind == "flow" {
                let flow = loink::flow::Flow::from_json(&text)
                    .unwrap_or_else(|e| panic!("{} does not load: {e}", m.file));
                assert_eq!(flow.problem().name(), m.problem, "{}", m.name);
                assert!(m.full_bundle, "{}: a flow runs in the full bundle", m.name);
                continue;
            }
            if !m.opens_a_view() {
                let regressor = loink::regressor::Regressor::from_json(&text)
                    .unwrap_or_else(|e| panic!("{} does not load: {e}", m.file));
                assert_eq!(regressor.problem().name(), m.problem, "{}", m.name);
                assert_eq!(regressor.kind().as_str(), m.kind, "{}", m.name);
                assert!(m.full_bundle, "{}: a lesson's baseline", m.name);
                continue;
            }
            let model = crate::learned::LoinkView::from_json(&text)
                .unwrap_or_else(|e| panic!("{} does not load: {e}", m.file));
            assert_eq!(model.problem().name(), m.problem, "{}", m.name);
            assert!(!model.is_untrained(), "{}", m.name);
            assert_eq!(model.chart_count() > 1, m.kind == "charts", "{}", m.name);
        }
    }

    /// index.html preloads the default model's weights (the page's first request for them).
    #[test]
    fn index_html_preloads_the_catalog_default() {
        let html = std::fs::read_to_string(root().join("index.html")).unwrap();
        let default = default_entry();
        let preload = format!(
            "<link rel=\"preload\" href=\"{}\" as=\"fetch\" type=\"application/json\" crossorigin data-model=\"{}\">",
            default.file, default.name
        );
        assert!(html.contains(&preload), "index.html lacks {preload}");
        assert_eq!(html.matches("data-model=").count(), 1, "one model preload");
    }
}
