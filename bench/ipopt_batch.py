"""What the IPOPT scripts of the 3-D problems (bench/ipopt_chain.py, bench/ipopt_climber.py) share:
one timed solve call of a casadi IPOPT solver, and the batch of methods over a targets file.

Methods: `mid`, one start at the box's mid-range; `best-K`, the mid-range and K - 1 random starts
uniform in the box (numpy, seeded per target: seed, row index), the cheapest converged answer
kept (its time the sum of its calls). Each method writes `ipopt-<method>.csv` in `loink eval`'s
columns: the task's, q1..qn, residual, cost, margin, status, iterations, micros.
"""

import csv
import math
import os
import sys
import time

import numpy as np

SUCCESS = {"Solve_Succeeded", "Solved_To_Acceptable_Level"}
CAPPED = {"Maximum_Iterations_Exceeded", "Maximum_CpuTime_Exceeded", "Maximum_WallTime_Exceeded"}


def add_arguments(parser, columns):
    """The options every such script takes: --serve, or a targets file with `columns` and the
    methods to run over it."""
    parser.add_argument("--serve", action="store_true", help="answer loink bench's requests on stdin")
    parser.add_argument("--targets", help=f"CSV with columns {','.join(columns)}")
    parser.add_argument("--out-dir")
    parser.add_argument("--methods", default="mid,best-16")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--limit", type=int)


def read_targets(path, columns, limit=None):
    """The targets file's rows as arrays of `columns`, the first `limit` of them."""
    with open(path) as f:
        targets = [np.array([float(r[c]) for c in columns]) for r in csv.DictReader(f)]
    return targets[:limit] if limit else targets


def judge(reached, target, q, lower, upper, ok, cost):
    """(status, residual, margin, cost) of an answer q by replay: `reached` is where q puts the
    task, `cost` its cost; converged when IPOPT met its test, the residual is at most 1e-6 and the
    limits hold to 1e-6."""
    q = np.asarray(q, dtype=float)
    if not np.all(np.isfinite(q)):
        return "invalid", math.inf, -math.inf, math.nan
    residual = float(np.linalg.norm(np.asarray(reached(q), dtype=float) - np.asarray(target)))
    margin = float(np.min(np.minimum(q - lower, upper - q)))
    if ok and residual <= 1e-6 and margin >= -1e-6:
        status = "converged"
    elif margin < -1e-6:
        status = "limits"
    else:
        status = "capped"
    return status, residual, margin, float(cost(q))


def timed(solver, lower, upper, lbg=0, ubg=0):
    """solve_once(target, start) -> (q, ok, capped, iterations, micros, cpu_micros), as
    bench/ipopt_serve.py wants it: the wall and thread-CPU time of the solve call alone. The
    constraints are equalities unless `lbg`/`ubg` bound them otherwise."""
    lbx, ubx = list(lower), list(upper)

    def solve_once(target, start):
        cpu_start = time.thread_time_ns()
        begin = time.perf_counter()
        result = solver(x0=start, p=target, lbx=lbx, ubx=ubx, lbg=lbg, ubg=ubg)
        micros = (time.perf_counter() - begin) * 1e6
        cpu_micros = (time.thread_time_ns() - cpu_start) / 1e3
        stats = solver.stats()
        status = stats.get("return_status", "")
        q = np.array(result["x"]).reshape(-1)
        return q, status in SUCCESS, status in CAPPED, int(stats.get("iter_count", 0)), micros, cpu_micros

    return solve_once


def run_methods(targets, columns, centre, sample_q, solve_once, judge, methods, seed, out_dir):
    """Every method over `targets` (arrays of the task's dimension, `columns` their names) into
    out_dir; judge(target, q, ok) -> (status, residual, margin, cost) by replay."""
    os.makedirs(out_dir, exist_ok=True)
    n = len(centre)
    header = list(columns) + [f"q{i + 1}" for i in range(n)] + ["residual", "cost", "margin", "status", "iterations", "micros"]
    for method in [m.strip() for m in methods.split(",") if m.strip()]:
        count = 1 if method == "mid" else int(method.split("-")[1])
        rows = []
        for index, y in enumerate(targets):
            rng = np.random.default_rng([seed, index])
            seeds = [np.asarray(centre)] + list(sample_q(rng, count - 1))
            best, best_key, iterations, micros = None, None, 0, 0.0
            for start in seeds:
                q, ok, _, its, us, _ = solve_once(list(map(float, y)), np.asarray(start).tolist())
                micros += us
                iterations += its
                status, residual, margin, cost = judge(y, q, ok)
                key = (0, cost) if status == "converged" else (1, residual)
                if best_key is None or key < best_key:
                    best, best_key = (q, status, residual, cost, margin), key
            q, status, residual, cost, margin = best
            rows.append([*(repr(float(v)) for v in y), *(repr(float(v)) for v in q), repr(residual), repr(cost),
                         repr(margin), status, iterations, f"{micros:.3f}"])
        path = os.path.join(out_dir, f"ipopt-{method}.csv")
        with open(path, "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(header)
            w.writerows(rows)
        print(f"wrote {path} ({len(rows)} targets)", file=sys.stderr)
