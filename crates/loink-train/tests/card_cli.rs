//! `loink card` on every kind of model file (one LOInK network, a charts file, a flow): it
//! rewrites the card alone, every weight kept, and `loink catalog` refuses a page model whose
//! card does not say what of the paper its view reproduces and what it does not.

use std::path::PathBuf;
use std::process::{Command, Output};

use serde_json::Value;

/// Runs `loink ARGS…` from the repository's root, where the cards' recipe paths lead.
fn loink(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_loink"))
        .args(args)
        .current_dir(root())
        .output()
        .expect("the loink binary runs")
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The file as JSON without its card.
fn without_card(path: &PathBuf) -> Value {
    let mut v: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    v.as_object_mut().unwrap().remove("about");
    v
}

fn card(path: &PathBuf) -> Value {
    let v: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    v["about"].clone()
}

#[test]
fn card_rewrites_the_scope_of_every_kind_and_the_catalog_needs_it() {
    let dir = std::env::temp_dir().join(format!("loink-card-cli-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let names = ["planar3-h28w", "planar3-wide-charts", "soft4-flow"];
    for name in names {
        let from = root().join(format!("web/models/{name}.json"));
        let to = dir.join(format!("{name}.json"));
        std::fs::copy(&from, &to).unwrap();
        let shipped = card(&from);
        assert!(
            !shipped["reproduces"].as_str().unwrap_or("").is_empty()
                && !shipped["does_not"].as_str().unwrap_or("").is_empty()
                && !shipped["experiment_title"]
                    .as_str()
                    .unwrap_or("")
                    .is_empty()
                && !shipped["experiment_line"].as_str().unwrap_or("").is_empty(),
            "{name}: the shipped card has no scope: {shipped}"
        );
        let before = without_card(&to);
        let path = to.to_str().unwrap();
        let o = loink(&[
            "card",
            "--model",
            path,
            "--reproduces",
            "",
            "--does-not",
            "",
        ]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        assert_eq!(without_card(&to), before, "{name}: the weights moved");
        assert_eq!(card(&to)["description"], shipped["description"], "{name}");
        assert_eq!(card(&to)["command"], shipped["command"], "{name}");
        assert!(card(&to).get("reproduces").is_none(), "{name}");
    }
    let catalog = |out: &str| {
        loink(&[
            "catalog",
            "--dir",
            dir.to_str().unwrap(),
            "--order",
            &names.join(","),
            "--out",
            out,
        ])
    };
    let out = dir.join("catalog.json");
    let o = catalog(out.to_str().unwrap());
    assert_eq!(o.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("reproduces"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(!out.exists(), "nothing written");
    for name in names {
        let path = dir.join(format!("{name}.json"));
        let o = loink(&[
            "card",
            "--model",
            path.to_str().unwrap(),
            "--reproduces",
            "what it reproduces",
            "--does-not",
            "what it does not",
        ]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        assert_eq!(card(&path)["reproduces"], "what it reproduces");
        assert_eq!(card(&path)["does_not"], "what it does not");
    }
    let o = catalog(out.to_str().unwrap());
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    // The list of experiments reads its words from the card: a card without them is refused too.
    let first = dir.join(format!("{}.json", names[0]));
    let shipped = card(&root().join(format!("web/models/{}.json", names[0])));
    let set_title = |title: &str| {
        let o = loink(&[
            "card",
            "--model",
            first.to_str().unwrap(),
            "--experiment-title",
            title,
        ]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    };
    set_title("");
    let o = catalog(out.to_str().unwrap());
    assert_eq!(o.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("experiment title"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    set_title(shipped["experiment_title"].as_str().unwrap());
    let o = catalog(out.to_str().unwrap());
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let written: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    assert_eq!(
        written["models"][0]["experiment_title"],
        shipped["experiment_title"]
    );
    assert_eq!(
        written["models"][0]["experiment_line"],
        shipped["experiment_line"]
    );
    // A card on a file that is not a model is refused, and the file is left as it was.
    let junk = dir.join("junk.json");
    std::fs::write(&junk, "{\"format\": \"loink-model\"").unwrap();
    let o = loink(&[
        "card",
        "--model",
        junk.to_str().unwrap(),
        "--reproduces",
        "x",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        std::fs::read_to_string(&junk).unwrap(),
        "{\"format\": \"loink-model\""
    );
}
