//! Training recipes and the options each trainer reads: `loink train --recipe R [--set K=V]`
//! trains what the file says and records it in the card; an option the trainer does not read
//! is refused with one line naming it; every shipped model's card names its recipe.

mod common;

use std::path::{Path, PathBuf};

use common::{refused, run, text};

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("loink-recipe-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

fn s(path: &Path) -> &str {
    path.to_str().unwrap()
}

fn card(path: &Path) -> serde_json::Value {
    let file: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    file["about"].clone()
}

#[test]
fn an_option_its_trainer_does_not_read_is_refused_by_name() {
    let out = scratch("x.json");
    for (args, named) in [
        (vec!["--kind", "mse", "--optima", "100"], "--optima"),
        (vec!["--kind", "mse", "--mu", "0.3"], "--mu"),
        (
            vec!["--kind", "flow", "--surface-task-weight", "2"],
            "--surface-task-weight",
        ),
        (vec!["--kind", "mdn", "--noise", "0.01"], "--noise"),
        (vec!["--kind", "loink", "--components", "3"], "--components"),
    ] {
        let mut full = vec!["train", "--problem", "planar2"];
        full.extend(&args);
        full.extend(["--out", s(&out)]);
        let message = refused(&full);
        assert_eq!(message.trim().lines().count(), 1, "{message}");
        assert!(message.contains(named), "{args:?}: {message}");
    }
    assert!(!out.exists(), "nothing trained");
    // Anchors' weights need anchors.
    let message = refused(&[
        "train",
        "--problem",
        "planar3",
        "--optima-weight",
        "5",
        "--out",
        s(&out),
    ]);
    assert!(message.contains("--optima"), "{message}");
}

#[test]
fn a_recipe_trains_what_it_says_and_the_card_records_it() {
    let recipe = scratch("tiny.toml");
    std::fs::write(
        &recipe,
        "# a tiny planar3 model\ntrainer = \"loink\"\nproblem = \"planar3\"\n\
         description = \"a tiny model\"\nout = \"web/models/never-written.json\"\n\n\
         [options]\nepochs = 1\nsamples = 2000\ndepth = 2\nhidden = [8, 8]\n\
         head-hidden = [8]\ncheck-targets = 0\nseed = 5\n",
    )
    .unwrap();
    let model = scratch("tiny.json");
    let out = run(&[
        "train",
        "--recipe",
        s(&recipe),
        "--set",
        &format!("out={}", s(&model)),
        "--set",
        "epochs=2",
    ]);
    assert!(out.status.success(), "{}", text(&out));
    let about = card(&model);
    assert_eq!(about["recipe"], s(&recipe));
    assert_eq!(about["recipe_sha256"].as_str().unwrap().len(), 64);
    assert_eq!(about["description"], "a tiny model");
    let file: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&model).unwrap()).unwrap();
    assert_eq!(file["metrics"]["epochs"], 2.0, "--set took");
    assert_eq!(file["hyper"]["hidden"], serde_json::json!([8, 8]));
    // The recipe goes with --set only.
    let message = refused(&["train", "--recipe", s(&recipe), "--epochs", "3"]);
    assert!(
        message.contains("--epochs") && message.contains("--set"),
        "{message}"
    );
    // A recipe whose option its trainer does not read is refused like the flag.
    let wrong = scratch("wrong.toml");
    std::fs::write(
        &wrong,
        "trainer = \"mse\"\nproblem = \"planar2\"\nout = \"x.json\"\n[options]\noptima = 100\n",
    )
    .unwrap();
    let message = refused(&["train", "--recipe", s(&wrong)]);
    assert!(message.contains("--optima"), "{message}");
    let broken = scratch("broken.toml");
    std::fs::write(&broken, "trainer = [\n").unwrap();
    assert!(refused(&["train", "--recipe", s(&broken)]).contains("recipe"));
}

#[test]
fn every_shipped_model_names_a_recipe_that_exists() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut carded = 0;
    for entry in std::fs::read_dir(root.join("web/models")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "json") || path.ends_with("catalog.json") {
            continue;
        }
        let about = card(&path);
        let recipe = about["recipe"].as_str().unwrap_or_default();
        assert!(!recipe.is_empty(), "{}: no recipe", path.display());
        assert!(root.join(recipe).exists(), "{}: {recipe}", path.display());
        carded += 1;
    }
    assert!(carded >= 20, "{carded} model files");
}
