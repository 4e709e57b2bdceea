//! Every preset through the CLI, whatever its kind and task: `targets` writes the task's columns
//! (a pose's `x,y,z,qw,qx,qy,qz`), `eval` solves them with DLS and the reference and writes one
//! row each, `data` writes `x1..xn`, the task's coordinates and `J`, and a tiny `train` (LOInK,
//! and the direct regression) writes a model `eval` reads back.

mod common;

use std::path::PathBuf;

use common::{eval_model, eval_problem, run, text, tiny};
use loink::problem::registry::preset_names;
use loink::problem::Problem;

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("loink-conformance-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

fn header(path: &PathBuf) -> String {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .next()
        .unwrap_or_default()
        .to_string()
}

fn lines(path: &PathBuf) -> usize {
    std::fs::read_to_string(path).unwrap().lines().count()
}

#[test]
fn every_preset_runs_targets_eval_data_and_train() {
    for name in preset_names() {
        let problem = Problem::preset(name).unwrap();
        let (n, m) = (problem.dof(), problem.task_dim());
        let ok = |args: &[&str]| {
            let out = run(args);
            assert!(
                out.status.success(),
                "{name}: loink {}\n{}",
                args.join(" "),
                text(&out)
            );
        };
        let targets = scratch(&format!("{name}-targets.csv"));
        ok(&[
            "targets",
            "--problem",
            name,
            "--count",
            "4",
            "--seed",
            "2",
            "--out",
            targets.to_str().unwrap(),
        ]);
        let columns = header(&targets);
        assert_eq!(columns, problem.task().columns().join(","), "{name}");
        for solver in ["dls", "reference"] {
            let results = scratch(&format!("{name}-{solver}.csv"));
            let out = eval_problem(name, solver, &targets, &results, &[]);
            assert!(out.status.success(), "{name}/{solver}: {}", text(&out));
            assert!(
                header(&results).starts_with(&format!("{columns},q1,")),
                "{name}"
            );
            assert_eq!(lines(&results), 5, "{name}/{solver}");
        }
        let data = scratch(&format!("{name}-data.csv"));
        ok(&[
            "data",
            "--problem",
            name,
            "--count",
            "3",
            "--out",
            data.to_str().unwrap(),
        ]);
        // A task that turns the hand names its chart coordinates; any other y1…ym.
        let task: Vec<String> = if problem.task().has_angle() {
            problem.task().names()
        } else {
            (1..=m).map(|i| format!("y{i}")).collect()
        };
        let want: Vec<String> = (1..=n)
            .map(|i| format!("x{i}"))
            .chain(task)
            .chain(["J".to_string()])
            .collect();
        assert_eq!(header(&data), want.join(","), "{name}");
        if n == m {
            continue; // no latent to learn
        }
        let model = scratch(&format!("{name}.json"));
        let mut args = vec![
            "train",
            "--problem",
            name,
            "--samples",
            "3000",
            "--out",
            model.to_str().unwrap(),
        ];
        args.extend(tiny("2", "10"));
        ok(&args);
        let results = scratch(&format!("{name}-loink.csv"));
        let out = eval_model(&model, &targets, &results, &["--refine", "3"]);
        assert!(out.status.success(), "{name}: {}", text(&out));
        assert_eq!(lines(&results), 5, "{name}/loink");
        let mse = scratch(&format!("{name}-mse.json"));
        ok(&[
            "train",
            "--kind",
            "mse",
            "--problem",
            name,
            "--samples",
            "3000",
            "--epochs",
            "2",
            "--hidden",
            "8,8",
            "--out",
            mse.to_str().unwrap(),
        ]);
        let results = scratch(&format!("{name}-mse.csv"));
        let out = eval_model(&mse, &targets, &results, &[]);
        assert!(out.status.success(), "{name}: {}", text(&out));
        assert!(
            header(&results).starts_with(&format!("{columns},q1,")),
            "{name}"
        );
        assert_eq!(lines(&results), 5, "{name}/mse");
        // A regression answer is the network's output: no learned solver's flags.
        assert_eq!(
            eval_model(&mse, &targets, &results, &["--refine", "2"])
                .status
                .code(),
            Some(2),
            "{name}"
        );
    }
}
