//! The page's way in: the experiments it holds (one view per problem and model kind of the
//! catalog, with its first model: a problem's one-chart default, and its multi-chart model) and every lesson, each a title, one line and the link that opens it.

use serde::Serialize;

use crate::catalog;
use crate::lessons::table::LESSONS;

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

/// A problem's experiment as the list names it (the catalog's title where it has no own).
fn experiment_title(problem: &str, kind: &str, catalog_title: &str) -> String {
    if kind == "charts" {
        return match problem {
            "planar3-wide" => "Wide joint limits, eight charts".to_string(),
            _ => format!("{catalog_title}, several charts"),
        };
    }
    match problem {
        "planar3" => "The planar arm (3 links)".to_string(),
        "planar4" => "Four links".to_string(),
        "planar3-wide" => "Wide joint limits".to_string(),
        "planar2" => "Two links".to_string(),
        "soft4" => "A soft arm (model-free)".to_string(),
        _ => catalog_title.to_string(),
    }
}

/// What a problem's experiment shows, in one line.
fn experiment_line(problem: &str, kind: &str) -> &'static str {
    if kind == "charts" {
        return "several charts, each where the pieces stay whole: the cheapest feasible proposal wins";
    }
    match problem {
        "planar3" => "the paper's planar arm: one redundant joint, the optimum at z = 0",
        "planar4" => "two redundant joints: a latent plane instead of a line",
        "planar3-wide" => "wide joint limits cut a solution set into pieces one chart cannot cover",
        "planar2" => "no redundancy: two elbow branches and the chart that picks one",
        "soft4" => "model-free: learned from a data file alone, against a normalising flow",
        _ => "a problem of the model catalog",
    }
}

/// The experiments (one per problem and model kind, in catalog order, each with its first
/// model), then the lessons in course order.
pub fn entries() -> Vec<Entry> {
    let mut list: Vec<Entry> = Vec::new();
    let mut seen: Vec<(&str, &str)> = Vec::new();
    for model in catalog::MODELS {
        // A flow is its problem's baseline solver, opened from its problem's view.
        if model.kind == "flow" || seen.contains(&(model.problem, model.kind)) {
            continue;
        }
        seen.push((model.problem, model.kind));
        list.push(Entry {
            kind: "experiment",
            title: experiment_title(model.problem, model.kind, model.problem_title),
            line: experiment_line(model.problem, model.kind).to_string(),
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
            assert!(!entry.line.is_empty(), "{} has no line", entry.title);
        }
        for lesson in &LESSONS {
            let parsed = parse_hash(lesson.playground);
            assert!(parsed.warnings.is_empty(), "{:?}", parsed.warnings);
        }
    }
}
