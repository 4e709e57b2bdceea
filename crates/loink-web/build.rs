//! Embeds the page's model catalog (`web/models/catalog.json`, written by `scripts/catalog.sh`
//! from the model files' cards) as Rust data: the page looks model names up in it and fetches
//! only its files, with no catalog request at start-up.

use std::fmt::Write;

fn main() {
    let path = "../../web/models/catalog.json";
    println!("cargo:rerun-if-changed={path}");
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let catalog: serde_json::Value =
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}"));
    let models = catalog["models"]
        .as_array()
        .unwrap_or_else(|| panic!("{path}: no models array"));
    let mut out = String::from(
        "/// Every model the page offers, in menu order (generated from catalog.json).\n",
    );
    writeln!(out, "pub const MODELS: [ModelEntry; {}] = [", models.len()).unwrap();
    for m in models {
        let text = |key: &str| {
            m[key]
                .as_str()
                .unwrap_or_else(|| panic!("{path}: a model lacks '{key}'"))
                .to_string()
        };
        writeln!(
            out,
            "    ModelEntry {{ name: {:?}, problem: {:?}, problem_title: {:?}, kind: {:?}, description: {:?}, experiment_title: {:?}, experiment_line: {:?}, file: {:?}, bytes: {}, default: {}, full_bundle: {}, opening_target: &{:?}, opening_solver: {:?} }},",
            text("name"),
            text("problem"),
            text("problem_title"),
            text("kind"),
            text("description"),
            text("experiment_title"),
            text("experiment_line"),
            text("file"),
            m["bytes"].as_u64().unwrap_or_else(|| panic!("{path}: bytes")),
            m["default"].as_bool().unwrap_or_else(|| panic!("{path}: default")),
            m["full_bundle"].as_bool().unwrap_or_else(|| panic!("{path}: full_bundle")),
            opening_target(m),
            m["opening_solver"].as_str().unwrap_or(""),
        )
        .unwrap();
    }
    out.push_str("];\n");
    let dest = std::path::Path::new(&std::env::var("OUT_DIR").unwrap()).join("catalog_data.rs");
    std::fs::write(dest, out).unwrap();
}

/// A model's opening target (its task's columns; empty when the card names none).
fn opening_target(model: &serde_json::Value) -> Vec<f64> {
    model["opening_target"]
        .as_array()
        .map(|values| {
            values
                .iter()
                .map(|v| {
                    v.as_f64()
                        .unwrap_or_else(|| panic!("catalog.json: opening_target holds {v}"))
                })
                .collect()
        })
        .unwrap_or_default()
}
