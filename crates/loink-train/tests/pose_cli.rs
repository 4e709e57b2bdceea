//! The hand's pose through the CLI (docs/pose.md): `targets` writes `x,y,z,qw,qx,qy,qz` (and the
//! axis task `x,y,z,ax,ay,az`) with `--cone` keeping the tabletop set, `eval` writes the angle
//! beside the residual, `data` names the chart coordinates, a user's robot takes `--task pose`,
//! and bad input gets exit 2 or an `invalid` row with its reason.

mod common;

use std::path::{Path, PathBuf};

use common::{csv_rows, eval_problem, refused, run, text};

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("loink-pose-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

fn s(path: &Path) -> &str {
    path.to_str().unwrap()
}

fn rows(path: &Path) -> (Vec<String>, Vec<Vec<String>>) {
    csv_rows(path)
}

/// `loink targets` of `count` tabletop targets (seed 3, the hand within 60° of straight down).
fn tabletop<'a>(problem: &'a str, count: &'a str, out: &'a Path) -> [&'a str; 11] {
    [
        "targets",
        "--problem",
        problem,
        "--count",
        count,
        "--seed",
        "3",
        "--cone",
        "60",
        "--out",
        s(out),
    ]
}

fn number(row: &[String], header: &[String], column: &str) -> f64 {
    let at = header.iter().position(|h| h == column).unwrap();
    row[at].parse().unwrap()
}

#[test]
fn pose_targets_are_unit_quaternions_within_the_cone_and_solve() {
    let targets = scratch("pose.csv");
    let out = run(&tabletop("panda-pose", "20", &targets));
    assert!(out.status.success(), "{}", text(&out));
    let (header, t) = rows(&targets);
    assert_eq!(header.join(","), "x,y,z,qw,qx,qy,qz");
    assert_eq!(t.len(), 20);
    for row in &t {
        let q: Vec<f64> = row[3..].iter().map(|v| v.parse().unwrap()).collect();
        let length = q.iter().map(|v| v * v).sum::<f64>().sqrt();
        assert!((length - 1.0).abs() < 1e-12 && q[0] >= 0.0, "{row:?}");
        // The hand's z axis is the third column of the rotation: its z component is
        // 1 − 2(qx² + qy²), within 60° of straight down.
        let z = 1.0 - 2.0 * (q[1] * q[1] + q[2] * q[2]);
        assert!(z <= -0.5 + 1e-12, "{row:?}: z axis {z}");
    }
    let mut costs = Vec::new();
    for solver in ["dls", "reference"] {
        let results = scratch(&format!("pose-{solver}.csv"));
        let out = eval_problem("panda-pose", solver, &targets, &results, &[]);
        assert!(out.status.success(), "{}", text(&out));
        assert!(text(&out).contains("angle (°)"), "{}", text(&out));
        let (header, r) = rows(&results);
        assert_eq!(
            header.join(","),
            "x,y,z,qw,qx,qy,qz,q1,q2,q3,q4,q5,q6,q7,residual,angle,cost,margin,status,iterations,micros"
        );
        for row in &r {
            assert_eq!(row[18], "converged", "{solver}: {row:?}");
            assert!(number(row, &header, "residual") <= 1e-6);
            assert!(number(row, &header, "angle") <= 1e-6);
        }
        costs.push(
            r.iter()
                .map(|row| number(row, &header, "cost"))
                .collect::<Vec<_>>(),
        );
    }
    // The reference is never dearer than DLS's answer.
    for (dls, reference) in costs[0].iter().zip(&costs[1]) {
        assert!(reference <= &(dls + 1e-9), "{reference} > {dls}");
    }
}

#[test]
fn axis_targets_and_data_name_their_columns() {
    let targets = scratch("axis.csv");
    let out = run(&tabletop("panda-axis", "5", &targets));
    assert!(out.status.success(), "{}", text(&out));
    assert_eq!(rows(&targets).0.join(","), "x,y,z,ax,ay,az");
    let results = scratch("axis-dls.csv");
    let out = eval_problem("panda-axis", "dls", &targets, &results, &[]);
    assert!(out.status.success(), "{}", text(&out));
    let (header, r) = rows(&results);
    assert!(header.join(",").contains(",residual,angle,cost,"));
    assert!(r.iter().all(|row| row.contains(&"converged".to_string())));
    let data = scratch("pose-data.csv");
    let out = run(&[
        "data",
        "--problem",
        "panda-pose",
        "--count",
        "3",
        "--out",
        s(&data),
    ]);
    assert!(out.status.success(), "{}", text(&out));
    assert_eq!(
        rows(&data).0.join(","),
        "x1,x2,x3,x4,x5,x6,x7,x,y,z,rx,ry,rz,J"
    );
}

#[test]
fn a_users_robot_takes_the_pose_task() {
    let urdf = concat!(env!("CARGO_MANIFEST_DIR"), "/../../robots/panda/panda.urdf");
    let chain = |task| {
        [
            "--urdf",
            urdf,
            "--base",
            "panda_link0",
            "--tip",
            "panda_hand_tcp",
            "--task",
            task,
        ]
    };
    let robot = chain("pose");
    let targets = scratch("user-pose.csv");
    let mut args = vec!["targets", "--count", "8", "--out", s(&targets)];
    args.extend(robot);
    let out = run(&args);
    assert!(out.status.success(), "{}", text(&out));
    assert_eq!(rows(&targets).0.join(","), "x,y,z,qw,qx,qy,qz");
    let results = scratch("user-pose-dls.csv");
    let mut args = vec![
        "eval",
        "--solver",
        "dls",
        "--targets",
        s(&targets),
        "--out",
        s(&results),
    ];
    args.extend(robot);
    let out = run(&args);
    assert!(out.status.success(), "{}", text(&out));
    assert!(rows(&results)
        .1
        .iter()
        .all(|row| row.contains(&"converged".to_string())));
    let mut args = vec!["targets", "--count", "1", "--out", s(&targets)];
    args.extend(chain("grasp"));
    let message = refused(&args);
    assert!(message.contains("position, pose or axis"), "{message}");
}

#[test]
fn bad_pose_input_is_refused_or_made_invalid_with_its_reason() {
    let position = scratch("position.csv");
    std::fs::write(&position, "x,y,z\n0.3,0,0.5\n").unwrap();
    let out = scratch("bad-out.csv");
    let message = refused(&[
        "eval",
        "--problem",
        "panda-pose",
        "--solver",
        "dls",
        "--targets",
        s(&position),
        "--out",
        s(&out),
    ]);
    assert!(message.contains("x,y,z,qw,qx,qy,qz"), "{message}");
    let hostile = scratch("hostile.csv");
    std::fs::write(
        &hostile,
        "x,y,z,qw,qx,qy,qz\n0.3,0,0.5,0,0,0,0\n0.3,0,0.5,1,2,3,4\n0.3,0,0.5,inf,0,0,1\n0.3,0,0.5,0,1.05,0,0\n",
    )
    .unwrap();
    let results = scratch("hostile-out.csv");
    let run_out = eval_problem("panda-pose", "dls", &hostile, &results, &[]);
    assert!(run_out.status.success(), "{}", text(&run_out));
    let said = text(&run_out);
    assert!(
        said.contains("row 1 is invalid") && said.contains("length 0"),
        "{said}"
    );
    assert!(said.contains("off 1 by more than 10 %"), "{said}");
    let (_, r) = rows(&results);
    let statuses: Vec<&str> = r.iter().map(|row| row[18].as_str()).collect();
    assert_eq!(&statuses[..3], ["invalid", "invalid", "invalid"]);
    // Within 10 % of unit length a quaternion is normalised and solved.
    assert_eq!(statuses[3], "converged");
    // The cone is for a task that turns the hand.
    let message = refused(&tabletop("panda", "1", &out));
    assert!(message.contains("--cone"), "{message}");
}
