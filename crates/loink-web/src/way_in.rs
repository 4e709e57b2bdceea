//! The page's way in: the experiments it holds (one view per problem and model kind of the
//! catalog, with its first model: a problem's one-chart default, and its multi-chart model) and
//! every lesson, each a title, one line and the link that opens it. An experiment's words are
//! its model's card (`loink card --experiment-title … --experiment-line …`).

use serde::Serialize;

use crate::catalog;
use crate::lesson_table::LESSONS;

/// One entry of the list.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Entry {
    /// `experiment` or `lesson`.
    pub kind: &'static str,
    /// What it is called.
    pub title: String,
    /// What it shows, in one line.
    pub line: String,
    /// The URL hash that opens it.
    pub hash: String,
}

/// The experiments (one per problem and model kind, in catalog order, each with its first
/// model), then the lessons in course order.
pub fn entries() -> Vec<Entry> {
    let mut list: Vec<Entry> = Vec::new();
    let mut seen: Vec<(&str, &str)> = Vec::new();
    for model in catalog::MODELS {
        // A flow is its problem's baseline solver, opened from its problem's view; a regressor
        // a lesson's baseline.
        if !model.opens_a_view() || seen.contains(&(model.problem, model.kind)) {
            continue;
        }
        seen.push((model.problem, model.kind));
        list.push(Entry {
            kind: "experiment",
            title: model.experiment_title.to_string(),
            line: model.experiment_line.to_string(),
            hash: format!("#model={}", model.name),
        });
    }
    list.extend(LESSONS.iter().map(|lesson| Entry {
        kind: "lesson",
        title: lesson.title.to_string(),
        line: lesson.line.to_string(),
        hash: format!("#lesson={}", lesson.word),
    }));
    list
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings::parse_hash;

    #[test]
    fn every_entry_opens_a_view_the_page_accepts() {
        let list = entries();
        assert_eq!(
            list.iter().filter(|e| e.kind == "lesson").count(),
            LESSONS.len()
        );
        let problems: Vec<&str> = list
            .iter()
            .filter(|e| e.kind == "experiment")
            .map(|e| e.title.as_str())
            .collect();
        assert!(problems.len() >= 3, "{problems:?}");
        for entry in &list {
            let parsed = parse_hash(&entry.hash);
            assert!(
                parsed.warnings.is_empty(),
                "{}: {:?}",
                entry.hash,
                parsed.warnings
            );
            assert!(!entry.title.is_empty(), "{} has no title", entry.hash);
            assert!(!entry.line.is_empty(), "{} has no line", entry.title);
        }
        for lesson in &LESSONS {
            let parsed = parse_hash(lesson.playground);
            assert!(parsed.warnings.is_empty(), "{:?}", parsed.warnings);
        }
    }
}
