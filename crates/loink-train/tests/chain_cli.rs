//! The serial chains through the CLI: `targets`, `eval` and `data` on the Panda preset and on
//! the same robot given as `--urdf FILE --base --tip --hold`, 3-D targets files, and broken
//! robot files refused with exit 2 and one line.

mod common;

use std::path::{Path, PathBuf};

use common::{eval_problem, refused, run, text};

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("loink-chain-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

fn s(path: &Path) -> &str {
    path.to_str().unwrap()
}

fn csv_rows(path: &Path) -> Vec<Vec<String>> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| l.split(',').map(str::to_string).collect())
        .collect()
}

const PANDA_URDF: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../robots/panda/panda.urdf");

/// `--urdf` flags naming the Panda problem exactly as the preset does.
fn panda_by_file() -> Vec<&'static str> {
    vec![
        "--urdf",
        PANDA_URDF,
        "--base",
        "panda_link0",
        "--tip",
        "panda_hand_tcp",
        "--hold",
        "panda_joint7=0",
    ]
}

#[test]
fn panda_targets_eval_and_data_work_in_3d() {
    let targets = scratch("t.csv");
    let out = run(&[
        "targets",
        "--robot",
        "panda",
        "--count",
        "12",
        "--seed",
        "3",
        "--out",
        s(&targets),
    ]);
    assert!(out.status.success(), "{}", text(&out));
    let t = csv_rows(&targets);
    assert_eq!(t[0], ["x", "y", "z"]);
    assert_eq!(t.len(), 13);

    // The same robot by its file gives the same targets.
    let by_file = scratch("t-file.csv");
    let mut args = vec![
        "targets",
        "--count",
        "12",
        "--seed",
        "3",
        "--out",
        s(&by_file),
    ];
    args.extend(panda_by_file());
    let out = run(&args);
    assert!(out.status.success(), "{}", text(&out));
    assert_eq!(csv_rows(&by_file), t);

    for solver in ["reference", "dls"] {
        let results = scratch(&format!("r-{solver}.csv"));
        let out = eval_problem("panda", solver, &targets, &results, &[]);
        assert!(out.status.success(), "{}", text(&out));
        let r = csv_rows(&results);
        assert_eq!(
            r[0].join(","),
            "x,y,z,q1,q2,q3,q4,q5,q6,residual,cost,margin,status,iterations,micros"
        );
        for row in &r[1..] {
            assert_eq!(row[12], "converged", "{solver}: {row:?}");
            let residual: f64 = row[9].parse().unwrap();
            let margin: f64 = row[11].parse().unwrap();
            assert!(residual <= 1e-6 && margin >= 0.0, "{solver}: {row:?}");
        }
    }
    // The reference is never beaten by DLS (same targets, same cost).
    let (reference, dls) = (
        csv_rows(&scratch("r-reference.csv")),
        csv_rows(&scratch("r-dls.csv")),
    );
    for (a, b) in reference[1..].iter().zip(&dls[1..]) {
        let (ja, jb): (f64, f64) = (a[10].parse().unwrap(), b[10].parse().unwrap());
        assert!(
            ja <= jb * (1.0 + 1e-6) + 1e-12,
            "reference {ja} above DLS {jb}"
        );
    }

    let data = scratch("d.csv");
    let mut args = vec!["data", "--count", "5", "--seed", "2", "--out", s(&data)];
    args.extend(panda_by_file());
    let out = run(&args);
    assert!(out.status.success(), "{}", text(&out));
    let d = csv_rows(&data);
    assert_eq!(d[0].join(","), "x1,x2,x3,x4,x5,x6,y1,y2,y3,J");
    assert_eq!(d.len(), 6);
}

#[test]
fn targets_of_another_dimension_are_refused() {
    let planar = scratch("planar.csv");
    std::fs::write(&planar, "x,y\n0.5,0.2\n").unwrap();
    let out = eval_problem("panda", "dls", &planar, &scratch("x.csv"), &[]);
    let message = text(&out);
    assert_eq!(out.status.code(), Some(2), "{message}");
    assert!(message.contains("'z'"), "{message}");
    let spatial = scratch("spatial.csv");
    std::fs::write(&spatial, "x,y,z\n0.5,0.2,0.3\n").unwrap();
    let out = eval_problem("planar3", "dls", &spatial, &scratch("y.csv"), &[]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
}

#[test]
fn broken_robot_files_exit_2_with_one_line() {
    let write = |name: &str, body: &[u8]| {
        let path = scratch(name);
        std::fs::write(&path, body).unwrap();
        path
    };
    let panda = std::fs::read_to_string(PANDA_URDF).unwrap();
    let huge = scratch("huge.urdf");
    let file = std::fs::File::create(&huge).unwrap();
    file.set_len(11 * 1024 * 1024).unwrap();
    let cases: Vec<(PathBuf, &str)> = vec![
        (
            write("truncated.urdf", &panda.as_bytes()[..panda.len() / 2]),
            "not XML",
        ),
        (write("text.urdf", b"hello"), "not XML"),
        (
            write(
                "zero-axis.urdf",
                panda
                    .replacen("<axis xyz=\"0 0 1\"/>", "<axis xyz=\"0 0 0\"/>", 1)
                    .as_bytes(),
            ),
            "zero axis",
        ),
        (
            write(
                "nan-origin.urdf",
                panda
                    .replacen("xyz=\"0 0 0.333\"", "xyz=\"0 0 nan\"", 1)
                    .as_bytes(),
            ),
            "origin xyz",
        ),
        (huge, "larger than"),
        (scratch("missing.urdf"), "cannot read"),
    ];
    let never = scratch("never.csv");
    for (path, needle) in cases {
        let mut args = vec!["targets", "--count", "3", "--out", s(&never)];
        let flags = panda_by_file();
        args.extend(["--urdf", s(&path)]);
        args.extend(&flags[2..]);
        let message = refused(&args);
        assert!(message.contains(needle), "'{needle}' not in {message}");
        assert_eq!(message.trim_end().lines().count(), 1, "{message}");
    }
    // A tip that is not there, and a held joint that is not on the chain.
    for (at, value, needle) in [
        (5, "panda_nowhere", "'panda_nowhere' (the tip)"),
        (7, "panda_joint9=0", "panda_joint9"),
    ] {
        let mut args = vec!["targets", "--count", "3", "--out", s(&never)];
        let mut flags = panda_by_file();
        flags[at] = value;
        args.extend(flags);
        let message = refused(&args);
        assert!(message.contains(needle), "'{needle}' not in {message}");
    }
}

#[test]
fn a_training_region_narrows_where_g_learns_and_nothing_else() {
    let model = scratch("region-model.json");
    let mut args = vec![
        "train",
        "--problem",
        "panda",
        "--samples",
        "2000",
        "--region-lower=-1,-1,-1,-2.5,-0.5,0.5",
        "--region-upper=1,1,1,-0.6,0.5,3",
        "--out",
        s(&model),
    ];
    args.extend(common::tiny("1", "5"));
    let o = run(&args);
    assert!(o.status.success(), "{}", text(&o));
    let file: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&model).unwrap()).unwrap();
    // The problem keeps the preset's limits (and so its cost's mid-range and half-ranges).
    assert_eq!(file["problem"]["lower"][4], -2.8973, "{}", file["problem"]);
    assert_eq!(file["problem"]["upper"][5], 3.7525, "{}", file["problem"]);
    for (bad, needle) in [
        ("--region-lower=-9,-1,-1,-2.5,-0.5,0.5", "region of joint 1"),
        ("--region-lower=-1,-1,-1", "3 values"),
        (
            "--region-lower=0.5,-1,-1,-2.5,-0.5,0.5",
            "region of joint 1",
        ),
        ("--region-lower=x,-1,-1,-2.5,-0.5,0.5", "region corner"),
    ] {
        let mut args = vec!["train", "--problem", "panda", bad];
        if bad.starts_with("--region-lower=0.5") {
            args.push("--region-upper=0.2,1,1,-0.6,0.5,3");
        }
        args.extend(["--out", s(&model)]);
        args.extend(common::tiny("1", "5"));
        let message = refused(&args);
        assert!(message.contains(needle), "{bad}: {message}");
    }
}
