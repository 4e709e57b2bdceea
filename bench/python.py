"""LOInK from Python against `loink eval`, on held-out Panda targets, in one run.

    bash bench/python.sh [COUNT] [SEED]      (defaults 1000, 2026; writes bench/results/python.md)

Measures:
- the batch call `Model.load("web/models/panda.json").solve(T, refine=3)`: its q against
  `loink eval --refine 3`'s (largest difference), its wall time per target single-threaded
  (median of 5 calls) against eval's median per-row time, and the speed-up on every core;
- the share within 1 % of J*, judged by an independent replay: bench/ipopt_chain.py's own
  forward kinematics of the URDF (numpy) replays every answer and the reference optimum's.
"""

import argparse
import csv
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

import loink

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))
from ipopt_chain import Chain  # noqa: E402

LOINK = os.environ.get("LOINK_BIN", str(ROOT / "target" / "release" / "loink"))


def run(*args):
    subprocess.run([LOINK, *map(str, args)], check=True, capture_output=True, text=True)


def read(path):
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    return rows[0], rows[1:]


def replayed(chain, targets, q):
    """Residual, margin and cost of each answer by the independent forward kinematics."""
    residual = np.array([np.linalg.norm(chain.fk(row) - t) if np.all(np.isfinite(row)) else np.inf
                         for row, t in zip(q, targets)])
    margin = np.min(np.minimum(q - chain.lower, chain.upper - q), axis=1)
    cost = np.array([chain.cost(row) for row in q])
    return residual, margin, cost


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--out", default=str(ROOT / "bench" / "results" / "python.md"))
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="loink-python-bench-"))
    targets_csv, eval_csv = work / "targets.csv", work / "eval.csv"
    run("targets", "--robot", "panda", "--count", args.count, "--seed", args.seed, "--out", targets_csv)
    run("eval", "--model", ROOT / "web/models/panda.json", "--refine", 3, "--targets", targets_csv,
        "--out", eval_csv, "--no-gap")
    header, rows = read(eval_csv)
    eval_q = np.array([[float(r[header.index(f"q{i}")]) for i in range(1, 7)] for r in rows])
    eval_times = [float(r[header.index("micros")]) for r in rows]
    eval_micros = statistics.median(eval_times)
    targets = np.array(read(targets_csv)[1], dtype=float)

    model = loink.Model.load(ROOT / "web/models/panda.json")
    model.solve(targets[:50], refine=3, threads=1)  # warm caches
    walls = {}
    for threads in (1, None):
        times = []
        for _ in range(5):
            start = time.perf_counter()
            sol = model.solve(targets, refine=3, threads=threads)
            if threads == 1:
                sol_one = sol
            times.append(time.perf_counter() - start)
        walls[threads] = statistics.median(times)
    per_target = walls[1] / len(targets) * 1e6
    speedup = walls[1] / walls[None]
    max_dq = float(np.max(np.abs(sol.q - eval_q)))

    chain = Chain(str(ROOT / "robots/panda/panda.urdf"), "panda_link0", "panda_hand_tcp",
                  {"panda_joint7": 0.0})
    best = model.problem.solve(targets, solver="reference")
    residual, margin, cost = replayed(chain, targets, sol.q)
    best_residual, best_margin, best_cost = replayed(chain, targets, best.q)
    best_ok = (best_residual <= 1e-6) & (best_margin >= -1e-6)
    feasible = (residual <= 1e-6) & (margin >= -1e-6)
    within = feasible & best_ok & ((cost - best_cost) / np.maximum(np.abs(best_cost), 1e-12) <= 0.01)
    cores = os.cpu_count()
    lines = [
        "## From Python",
        "",
        f"The Python bindings (docs/python.md) on {len(targets)} held-out Panda targets (seed {args.seed}), "
        f"`Model.load(\"web/models/panda.json\").solve(T, refine=3)`, one run:",
        "",
        "| | figure |",
        "|---|---|",
        f"| largest \\|q − q(loink eval --refine 3)\\| | {max_dq:.1e} rad |",
        f"| within 1 % of J* (independent numpy replay of the URDF) | {100 * within.mean():.1f} % "
        f"({within.sum()}/{len(targets)}) |",
        f"| batch wall time per target, threads=1 (median of 5 calls) | {per_target:.1f} µs |",
        f"| `loink eval`'s median per-row time (fastest of up to 5 timings a row) | {eval_micros:.1f} µs |",
        f"| ratio, Python single-threaded / eval | {per_target / eval_micros:.2f}× |",
        f"| per-row solve times inside the batch (`sol.micros`): median, mean | "
        f"{np.median(sol_one.micros):.1f} µs, {np.mean(sol_one.micros):.1f} µs |",
        f"| `loink eval`'s per-row times: mean | {statistics.mean(eval_times):.1f} µs |",
        f"| batch on every core ({cores}) vs threads=1 | {speedup:.2f}× faster |",
        "",
        f"Reproduce: `bash bench/python.sh {args.count} {args.seed}`",
    ]
    text = "\n".join(lines) + "\n"
    Path(args.out).write_text(text)
    print(text)


if __name__ == "__main__":
    main()
