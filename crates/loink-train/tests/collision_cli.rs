//! The collision model through the CLI: `loink spheres` on the Panda (every mesh vertex inside a
//! sphere of its link, the SRDF's pairs skipped, the shipped file reproduced), a user's URDF
//! with `--spheres` and `--scene`, and bad input refused with exit 2 and nothing written.

mod common;

use std::path::{Path, PathBuf};

use common::{refused, run, text};
use loink::problem::chain::collision::spheres_file::SpheresFile;

const PANDA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../robots/panda");

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("loink-collision-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

fn s(path: &Path) -> &str {
    path.to_str().unwrap()
}

fn panda(file: &str) -> String {
    format!("{PANDA}/{file}")
}

/// `--urdf … --spheres … --scene SCENE`: the Panda of `panda-shelf` from its files.
fn panda_by_file(scene: &str) -> Vec<String> {
    [
        "--urdf",
        &panda("panda.urdf"),
        "--base",
        "panda_link0",
        "--tip",
        "panda_hand_tcp",
        "--hold",
        "panda_joint7=0",
        "--spheres",
        &panda("panda-spheres.json"),
        "--scene",
        scene,
    ]
    .map(str::to_string)
    .to_vec()
}

#[test]
fn panda_spheres_cover_every_vertex_and_match_the_shipped_file() {
    let out = scratch("spheres.json");
    let urdf = panda("panda.urdf");
    let srdf = panda("panda.srdf");
    let result = run(&[
        "spheres",
        "--urdf",
        &urdf,
        "--srdf",
        &srdf,
        "--out",
        s(&out),
    ]);
    assert!(result.status.success(), "{}", text(&result));
    let written = SpheresFile::from_json(&std::fs::read(&out).unwrap()).unwrap();
    let shipped =
        SpheresFile::from_json(&std::fs::read(panda("panda-spheres.json")).unwrap()).unwrap();
    assert_eq!(
        written, shipped,
        "robots/panda/panda-spheres.json is what `loink spheres` writes"
    );
    assert_eq!(
        written.links.len(),
        11,
        "every link with collision geometry"
    );
    for link in &written.links {
        assert_eq!(
            link.fit.inside, 1.0,
            "{}: every vertex inside a sphere",
            link.link
        );
        assert!(
            link.fit.points > 0 && link.fit.bulge_m < 0.06,
            "{}: {:?}",
            link.link,
            link.fit
        );
    }
    assert!(written.skips("panda_link0", "panda_link1"), "joined links");
    assert!(
        written.skips("panda_link3", "panda_link7"),
        "the SRDF's 'Never' pair"
    );
    assert!(
        !written.skips("panda_link2", "panda_link6"),
        "a pair that can touch"
    );
}

#[test]
fn a_missing_mesh_or_a_bad_scene_is_refused_and_writes_nothing() {
    let dir = scratch("alone");
    std::fs::create_dir_all(&dir).unwrap();
    let urdf = dir.join("panda.urdf");
    std::fs::copy(panda("panda.urdf"), &urdf).unwrap();
    let out = dir.join("spheres.json");
    let message = refused(&["spheres", "--urdf", s(&urdf), "--out", s(&out)]);
    assert!(
        message.contains("link0.stl") && message.contains("not found"),
        "{message}"
    );
    assert!(!out.exists());

    let targets = scratch("t.csv");
    for (name, body, says) in [
        (
            "negative.toml",
            "[[box]]\nname = \"shelf\"\ncentre = [0.6, 0, 0.45]\nsize = [0.6, -1.2, 0.03]\n",
            "size",
        ),
        (
            "nan.toml",
            "[[box]]\nname = \"shelf\"\ncentre = [0.6, nan, 0.45]\nsize = [0.6, 1.2, 0.03]\n",
            "not finite",
        ),
        (
            "zero.toml",
            "[[half_space]]\nname = \"floor\"\nnormal = [0, 0, 0]\noffset = 0\n",
            "normal",
        ),
        ("unknown.toml", "[[cone]]\nname = \"x\"\n", "cone"),
    ] {
        let scene = scratch(name);
        std::fs::write(&scene, body).unwrap();
        let mut args = vec!["targets", "--count", "3", "--out", s(&targets)];
        let chain = panda_by_file(s(&scene));
        args.extend(chain.iter().map(String::as_str));
        let message = refused(&args);
        assert!(message.contains(says), "{name}: {message}");
        assert!(!targets.exists(), "{name}: nothing written");
    }
}

#[test]
fn a_user_chain_with_spheres_and_scene_answers_as_the_preset() {
    let targets = scratch("preset-targets.csv");
    let result = run(&[
        "targets",
        "--problem",
        "panda-shelf",
        "--count",
        "12",
        "--seed",
        "4",
        "--out",
        s(&targets),
    ]);
    assert!(result.status.success(), "{}", text(&result));
    for line in std::fs::read_to_string(&targets).unwrap().lines().skip(1) {
        let v: Vec<f64> = line.split(',').map(|x| x.parse().unwrap()).collect();
        let under =
            (0.4..=0.85).contains(&v[0]) && v[1].abs() <= 0.5 && (0.05..=0.35).contains(&v[2]);
        assert!(under, "a preset target under the shelf: {line}");
    }
    // DLS reads only the chain, its cost and its tuning: the same rows from the preset and from
    // the URDF with its spheres and scene mean the same collision model.
    let (by_preset, by_file) = (scratch("dls-preset.csv"), scratch("dls-file.csv"));
    let result = run(&[
        "eval",
        "--problem",
        "panda-shelf",
        "--solver",
        "dls",
        "--targets",
        s(&targets),
        "--out",
        s(&by_preset),
    ]);
    assert!(result.status.success(), "{}", text(&result));
    let mut args = vec![
        "eval",
        "--solver",
        "dls",
        "--targets",
        s(&targets),
        "--out",
        s(&by_file),
    ];
    let chain = panda_by_file(&panda("shelf.toml"));
    args.extend(chain.iter().map(String::as_str));
    let result = run(&args);
    assert!(result.status.success(), "{}", text(&result));
    let strip = |path: &Path| -> Vec<String> {
        // Every column but the time.
        std::fs::read_to_string(path)
            .unwrap()
            .lines()
            .map(|l| l.rsplit_once(',').unwrap().0.to_string())
            .collect()
    };
    assert_eq!(strip(&by_preset), strip(&by_file));
}
