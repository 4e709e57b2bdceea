#!/usr/bin/env python3
"""IPOPT on the hand's pose (docs/pose.md): the Panda's or TIAGo's seven joints placing the hand
at a position and an orientation (task `pose`) or a position and the direction of its z axis
(task `axis`), one target per solve call, on bench/ipopt_chain.py's own URDF reader and
kinematics (independent of `loink`'s).

Problem: minimise J(q) = sum(((q_i - c_i) / h_i)^2) subject to the position, the orientation as
constraints and the joint limits:
- pose: p(q) = p*, the skew part of R*^T R(q) zero and trace(R*^T R(q)) >= 1 (the same
  orientation, not the one turned half a circle, whose skew part is zero too);
- axis: p(q) = p*, z(q) . u = z(q) . v = 0 for two directions u, v across the target axis a*,
  and z(q) . a* >= 0.

Methods, as bench/ipopt_chain.py's: `mid` (one start at the mid-range) and `best-K` (the
mid-range and K - 1 random starts, the cheapest converged answer kept). Writes
`ipopt-<method>.csv` in `loink eval`'s columns for the task: the target's, q1..q7, residual,
angle, cost, margin, status, iterations, micros — each answer judged by replay (converged:
IPOPT met its test, position within 1e-6 m, angle within 1e-6 rad, limits held to 1e-6).

    python bench/ipopt_pose.py --robot panda-pose --targets T.csv --out-dir DIR [--methods mid,best-16]
    python bench/ipopt_pose.py --serve --robot panda-pose [--seed 7]         # for `loink bench`

`--serve` answers `loink bench`'s requests through the line protocol of bench/ipopt_serve.py,
each target given in the task's columns (x,y,z,qw,qx,qy,qz or x,y,z,ax,ay,az).
"""

import argparse
import csv
import math
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ipopt_batch  # noqa: E402
import ipopt_serve  # noqa: E402
from ipopt_chain import ROBOTS, Chain  # noqa: E402

# The chains of `loink`'s pose presets: file, base, tip, task.
PRESETS = {
    "panda-pose": ("panda/panda.urdf", "panda_link0", "panda_hand_tcp", "pose"),
    "panda-axis": ("panda/panda.urdf", "panda_link0", "panda_hand_tcp", "axis"),
    "tiago-pose": ("tiago/tiago_no_hand.urdf", "torso_lift_link", "arm_tool_link", "pose"),
}
COLUMNS = {"pose": ["x", "y", "z", "qw", "qx", "qy", "qz"], "axis": ["x", "y", "z", "ax", "ay", "az"]}


def quaternion_matrix(w, x, y, z):
    """The rotation of a unit quaternion (w first)."""
    return np.array([
        [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
        [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
        [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)],
    ])


def across(a):
    """Two unit directions across unit a, and a."""
    pick = np.eye(3)[int(np.argmin(np.abs(a)))]
    u = np.cross(pick, a)
    u /= np.linalg.norm(u)
    return u, np.cross(a, u)


def parameters(task, row):
    """The solver's parameter vector of a target row: position, then the orientation's data."""
    row = np.asarray(row, dtype=float)
    if task == "pose":
        q = row[3:7] / np.linalg.norm(row[3:7])
        return np.concatenate([row[:3], quaternion_matrix(*q).reshape(-1)])
    a = row[3:6] / np.linalg.norm(row[3:6])
    u, v = across(a)
    return np.concatenate([row[:3], a, u, v])


def build_solver(chain, task):
    import casadi as ca
    q = ca.SX.sym("q", chain.n)
    frame = chain.frame(q, lib="casadi")
    p, r = frame[:3, 3], frame[:3, :3]
    u = (q - ca.DM(chain.centre)) / ca.DM(chain.half)
    if task == "pose":
        target = ca.SX.sym("target", 12)
        rt = ca.reshape(target[3:12], 3, 3).T  # row-major in, casadi is column-major
        e = ca.mtimes(rt.T, r)
        g = ca.vertcat(p - target[:3], e[2, 1] - e[1, 2], e[0, 2] - e[2, 0], e[1, 0] - e[0, 1],
                       e[0, 0] + e[1, 1] + e[2, 2])
        lbg, ubg = [0.0] * 6 + [1.0], [0.0] * 6 + [3.0]
    else:
        target = ca.SX.sym("target", 12)
        z = r[:, 2]
        a, uu, vv = target[3:6], target[6:9], target[9:12]
        g = ca.vertcat(p - target[:3], ca.dot(z, uu), ca.dot(z, vv), ca.dot(z, a))
        lbg, ubg = [0.0] * 5 + [0.0], [0.0] * 5 + [1.0]
    nlp = {"x": q, "p": target, "f": ca.dot(u, u), "g": g}
    options = {
        "print_time": False,
        "ipopt": {"tol": 1e-10, "hessian_approximation": "exact", "linear_solver": "mumps",
                  "print_level": 0, "sb": "yes", "max_iter": 3000},
    }
    return ca.nlpsol("pose", "ipopt", nlp, options), lbg, ubg


def judge(chain, task, row, q, ok):
    """(status, residual, angle, margin, cost) of q by replay through this script's kinematics."""
    q = np.asarray(q, dtype=float)
    if not np.all(np.isfinite(q)):
        return "invalid", math.inf, math.inf, -math.inf, math.nan
    frame = chain.frame(q)
    row = np.asarray(row, dtype=float)
    residual = float(np.linalg.norm(frame[:3, 3] - row[:3]))
    if task == "pose":
        rt = quaternion_matrix(*(row[3:7] / np.linalg.norm(row[3:7])))
        e = rt.T @ frame[:3, :3]
        skew = np.linalg.norm([e[2, 1] - e[1, 2], e[0, 2] - e[2, 0], e[1, 0] - e[0, 1]]) / 2
        angle = math.atan2(skew, (np.trace(e) - 1) / 2)
    else:
        a = row[3:6] / np.linalg.norm(row[3:6])
        z = frame[:3, 2]
        angle = math.atan2(np.linalg.norm(np.cross(z, a)), float(np.dot(z, a)))
    margin = float(np.min(np.minimum(q - chain.lower, chain.upper - q)))
    if ok and residual <= 1e-6 and angle <= 1e-6 and margin >= -1e-6:
        status = "converged"
    elif margin < -1e-6:
        status = "limits"
    else:
        status = "capped"
    return status, residual, angle, margin, chain.cost(q)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--robot", choices=sorted(PRESETS), required=True)
    parser.add_argument("--targets")
    parser.add_argument("--out-dir")
    parser.add_argument("--serve", action="store_true")
    parser.add_argument("--methods", default="mid,best-16")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--limit", type=int)
    args = parser.parse_args()
    file, base, tip, task = PRESETS[args.robot]
    chain = Chain(os.path.join(ROBOTS, file), base, tip, {})
    columns = COLUMNS[task]
    solver, lbg, ubg = build_solver(chain, task)
    solve_once = ipopt_batch.timed(solver, chain.lower, chain.upper, lbg, ubg)
    if args.serve:
        # Targets come in the task's columns; the NLP takes its own parameters of them.
        def solve_columns(row, start):
            return solve_once(parameters(task, np.asarray(row)).tolist(), start)

        ready = chain.fk(chain.centre)
        warm = list(ready) + ([0.0, 1.0, 0.0, 0.0] if task == "pose" else [0.0, 0.0, -1.0])
        ipopt_serve.serve(solve_columns, chain.centre, chain.sample_q, len(columns), args.seed, warm)
        return
    if not (args.targets and args.out_dir):
        parser.error("--targets and --out-dir are required unless --serve")
    rows = ipopt_batch.read_targets(args.targets, columns, args.limit)
    solve_once(parameters(task, rows[0]).tolist(), chain.centre.tolist())  # loads MUMPS
    os.makedirs(args.out_dir, exist_ok=True)
    header = columns + [f"q{i + 1}" for i in range(chain.n)] + [
        "residual", "angle", "cost", "margin", "status", "iterations", "micros"]
    for method in [m.strip() for m in args.methods.split(",") if m.strip()]:
        count = 1 if method == "mid" else int(method.split("-")[1])
        out = []
        for index, row in enumerate(rows):
            rng = np.random.default_rng([args.seed, index])
            starts = [chain.centre] + chain.sample_q(rng, count - 1)
            best, best_key, iterations, micros = None, None, 0, 0.0
            p = parameters(task, row).tolist()
            for start in starts:
                q, ok, _, its, us, _ = solve_once(p, np.asarray(start).tolist())
                micros += us
                iterations += its
                status, residual, angle, margin, cost = judge(chain, task, row, q, ok)
                key = (0, cost) if status == "converged" else (1, residual + 0.15 * angle)
                if best_key is None or key < best_key:
                    best, best_key = (q, status, residual, angle, cost, margin), key
            q, status, residual, angle, cost, margin = best
            out.append([*(repr(float(v)) for v in row), *(repr(float(v)) for v in q), repr(residual),
                        repr(angle), repr(cost), repr(margin), status, iterations, f"{micros:.3f}"])
        path = os.path.join(args.out_dir, f"ipopt-{method}.csv")
        with open(path, "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(header)
            w.writerows(out)
        print(f"wrote {path} ({len(out)} targets)", file=sys.stderr)


if __name__ == "__main__":
    main()
