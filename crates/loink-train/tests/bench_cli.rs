//! `loink bench` end to end on a three-dimensional task, with a stand-in IPOPT peer (a few lines
//! of Python speaking the `--serve` protocol of bench/ipopt_serve.py and answering every start
//! with the start itself), so the run needs no casadi: every answer is still judged by replay.

mod common;

use common::{run, text};

/// A peer that answers each start with its seed, unconverged, so the bench's replay judges it.
const STAND_IN: &str = r#"
import sys
args = sys.argv[1:]
robot = args[args.index("--robot") + 1]
n, m = {"panda": (6, 3)}[robot]
centre = [0.0, 0.0, 0.0, -1.5708, 0.0, 1.8675]
print("ready", flush=True)
for line in sys.stdin:
    parts = line.split()
    method = parts[1]
    if method == "mid":
        starts = [centre]
    elif method.startswith("random-"):
        starts = [centre] * int(method[7:])
    else:
        starts = [[float(v) for v in parts[2 + m:]]]
    lines = [" ".join(repr(v) for v in q) + " 0 1 0 1.0 1.0" for q in starts]
    print("\n".join(lines + ["end"]), flush=True)
"#;

#[test]
fn bench_runs_a_serial_chain_and_writes_its_task_columns() {
    let dir = std::env::temp_dir().join(format!("loink-bench-cli-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let (targets, peer, out) = (dir.join("t.csv"), dir.join("peer.py"), dir.join("out"));
    std::fs::write(&peer, STAND_IN).unwrap();
    let path = |p: &std::path::Path| p.to_str().unwrap().to_string();
    let o = run(&[
        "targets",
        "--problem",
        "panda",
        "--count",
        "4",
        "--seed",
        "2",
        "--out",
        &path(&targets),
    ]);
    assert!(o.status.success(), "{}", text(&o));
    let o = run(&[
        "bench",
        "--problem",
        "panda",
        "--targets",
        &path(&targets),
        "--ipopt-python",
        "python3",
        "--ipopt-script",
        &path(&peer),
        "--ipopt-starts",
        "2",
        "--out-dir",
        &path(&out),
    ]);
    assert!(o.status.success(), "{}", text(&o));
    let rows = std::fs::read_to_string(out.join("panda-rows.csv")).unwrap();
    let mut lines = rows.lines();
    assert!(
        lines
            .next()
            .unwrap()
            .starts_with("set,method,index,x,y,z,q1,q2,q3,q4,q5,q6,residual,"),
        "{rows}"
    );
    let fields = |line: &str| line.split(',').map(str::to_string).collect::<Vec<_>>();
    let body: Vec<Vec<String>> = lines.map(fields).collect();
    let of =
        |method: &str| -> Vec<&Vec<String>> { body.iter().filter(|r| r[1] == method).collect() };
    // The reference reaches all four random targets and all four path points.
    assert_eq!(of("reference J*").len(), 8, "{rows}");
    assert!(
        of("reference J*").iter().all(|r| r[15] == "converged"),
        "{rows}"
    );
    // The stand-in's answers (the seed itself) are judged by replay: not converged.
    assert_eq!(of("ipopt (mid seed)").len(), 8, "{rows}");
    assert!(
        of("ipopt (mid seed)").iter().all(|r| r[15] != "converged"),
        "{rows}"
    );
    assert_eq!(of("ipopt best of 2").len(), 4, "{rows}");
    let page = std::fs::read_to_string(out.join("panda.md")).unwrap();
    assert!(
        page.contains("reference J*") && page.contains("dls"),
        "{page}"
    );
    // A targets file of the wrong dimension is refused before any work.
    let flat = dir.join("flat.csv");
    std::fs::write(&flat, "x,y\n0.4,0.1\n").unwrap();
    let o = run(&[
        "bench",
        "--problem",
        "panda",
        "--targets",
        &path(&flat),
        "--out-dir",
        &path(&out),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    std::fs::remove_dir_all(&dir).unwrap();
}
