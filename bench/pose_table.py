"""The hand's pose benchmark table (docs/pose.md) from the results bench/pose.sh leaves.

    python bench/pose_table.py DIR TASK COUNT      the markdown section of one task (pose, axis)
    python bench/pose_table.py --reached TASK CSV  the pose (task columns) each answer of CSV reaches

Every answer is replayed through bench/ipopt_chain.py's kinematics (its own URDF reader, not
loink's): the position error, the orientation or axis angle, the limit margin and the cost are
recomputed here. J* of a target is the least cost among the feasible answers of every method (the
reference, IPOPT's best of 16, DLS, the learned solvers). An answer is feasible when its position
is within 1e-6 m, its angle within 1e-6 rad and its joints within their limits to 1e-6 rad;
"within 1 %" counts feasible answers with J − J* ≤ 1 % of J* (of 10⁻³ where J* is below it). The gap
where an answer lands is (J − J*)/J* in percent at its own target for a feasible answer, and for
one that misses, at the pose it reaches (J* there by the reference, `reached-NAME.csv`).
"""

import csv
import math
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "scripts"))
from ipopt_chain import ROBOTS, Chain  # noqa: E402
from ipopt_pose import COLUMNS, PRESETS, judge  # noqa: E402
from order_stats import median  # noqa: E402  (the project's quantile)
from panda_table import same_run  # noqa: E402

ROWS = [
    ("loink", "LOInK one-shot, x = G⁻¹([y; 0])"),
    ("loink-feedback2", "LOInK + 2 feedback rounds"),
    ("loink-refine3", "LOInK + refine 3"),
    ("flow", "flow (IKFlow-style), the z = 0 sample"),
    ("flow-best8", "flow, cheapest near sample of 8"),
    ("mse", "direct regression (MSE), tabletop data"),
    ("dls", "DLS + null-space pull, random restarts (TRAC-IK style)"),
    ("ipopt-mid", "IPOPT, one call from mid-range"),
    ("ipopt-best-16", "IPOPT, best of 16 starts (mid-range + 15 random)"),
    ("closed-form-search", "closed form on a 64-value q7 grid + golden-section search of the 3 cheapest pieces"),
    ("reference", "reference optimum (closed-form sweep of q7 + polish)"),
]
FLOOR = 1e-3  # loink::gap::GAP_FLOOR: below it the gap is J − J* over the floor


def read(path):
    with open(path) as f:
        return list(csv.DictReader(f))


def replayed(chain, task, rows):
    """(position m, angle rad, feasible, cost, micros) per row by the independent kinematics."""
    out = []
    columns = COLUMNS[task]
    for row in rows:
        target = [float(row[c]) for c in columns]
        try:
            q = np.array([float(row[f"q{i + 1}"]) for i in range(chain.n)])
        except (KeyError, ValueError):
            q = np.full(chain.n, math.nan)
        micros = float(row.get("micros") or "nan")
        if not np.all(np.isfinite(q)):
            out.append((math.inf, math.inf, False, math.nan, micros))
            continue
        status, residual, angle, margin, cost = judge(chain, task, target, q, True)
        out.append((residual, angle, status == "converged", cost, micros))
    return out


def reached(task, path):
    """The pose (the task's columns) each answer of `path` reaches, by this side's kinematics."""
    robot = "panda-pose" if task == "pose" else "panda-axis"
    file, base, tip, _ = PRESETS[robot]
    chain = Chain(os.path.join(ROBOTS, file), base, tip, {})
    print(",".join(COLUMNS[task]))
    for row in read(path):
        try:
            q = np.array([float(row[f"q{i + 1}"]) for i in range(chain.n)])
        except (KeyError, ValueError):
            q = np.full(chain.n, math.nan)
        if not np.all(np.isfinite(q)):
            print(",".join(["nan"] * len(COLUMNS[task])))
            continue
        frame = chain.frame(q)
        r = frame[:3, :3]
        if task == "pose":
            end = quaternion(r)
        else:
            end = r[:, 2]
        print(",".join(repr(float(v)) for v in [*frame[:3, 3], *end]))


def quaternion(r):
    """The unit quaternion (w first, w >= 0) of rotation r."""
    w = math.sqrt(max(0.0, 1 + r[0, 0] + r[1, 1] + r[2, 2])) / 2
    x = math.copysign(math.sqrt(max(0.0, 1 + r[0, 0] - r[1, 1] - r[2, 2])) / 2, r[2, 1] - r[1, 2])
    y = math.copysign(math.sqrt(max(0.0, 1 - r[0, 0] + r[1, 1] - r[2, 2])) / 2, r[0, 2] - r[2, 0])
    z = math.copysign(math.sqrt(max(0.0, 1 - r[0, 0] - r[1, 1] + r[2, 2])) / 2, r[1, 0] - r[0, 1])
    return [w, x, y, z]


def fmt(v, digits=1):
    if not math.isfinite(v):
        return "—"
    return f"{v:.{digits}f}" if abs(v) >= 10 ** -digits or v == 0 else f"{v:.1e}"


def main():
    out, task, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
    robot = "panda-pose" if task == "pose" else "panda-axis"
    file, base, tip, _ = PRESETS[robot]
    chain = Chain(os.path.join(ROBOTS, file), base, tip, {})
    results = {}
    for name, _ in ROWS:
        path = os.path.join(out, f"{name}.csv")
        if os.path.exists(path):
            results[name] = replayed(chain, task, read(path))
    n = min(len(r) for r in results.values())
    best = [min((r[i][3] for r in results.values() if r[i][2]), default=math.nan) for i in range(n)]
    mid = median([r[4] for r in results.get("ipopt-mid", [])]) if "ipopt-mid" in results else math.nan
    # J* at the pose an answer that misses reaches.
    lands = {}
    for name in results:
        path = os.path.join(out, f"reached-{name}.csv")
        if os.path.exists(path):
            lands[name] = [float(r["cost"]) if r.get("status") == "converged" else math.nan
                           for r in read(path)[:n]]
    what = "full pose (position + orientation)" if task == "pose" else "position + tool axis"
    print(f"### `panda-{task}`: the {what}, {count} tabletop targets\n")
    print("Targets: q uniform in the limits, kept where the hand's z axis is within 60° of straight down")
    print(f"(`loink targets --problem panda-{task} --count {count} --seed 1 --cone 60`). Every answer replayed")
    print("through bench/ipopt_chain.py's kinematics; J* the least cost any method found feasible.\n")
    print("| method | µs median | × one IPOPT call | position error mm, median / mean | angle °, median / mean "
          "| feasible | within 1 % of J* | gap where it lands, median |")
    print("|---|---|---|---|---|---|---|---|")
    for name, label in ROWS:
        rows = results.get(name)
        if rows is None:
            continue
        rows = rows[:n]
        micros = median([r[4] for r in rows])
        mm = [r[0] * 1e3 for r in rows if math.isfinite(r[0])]
        deg = [math.degrees(r[1]) for r in rows if math.isfinite(r[1])]
        feasible = sum(r[2] for r in rows)
        within = sum(1 for r, b in zip(rows, best) if r[2] and r[3] - b <= 0.01 * max(b, FLOOR))
        at = lands.get(name, [math.nan] * n)
        gaps = [100 * (r[3] - (b if r[2] else a)) / max(b if r[2] else a, FLOOR)
                for r, b, a in zip(rows, best, at) if r[2] or math.isfinite(a)]
        print(f"| {label} | {fmt(micros)} | {fmt(mid / micros, 1) if micros > 0 else '—'}× "
              f"| {fmt(median(mm), 3)} / {fmt(sum(mm) / max(len(mm), 1), 3)} "
              f"| {fmt(median(deg), 3)} / {fmt(sum(deg) / max(len(deg), 1), 3)} "
              f"| {100 * feasible / n:.1f}% | {100 * within / n:.1f}% | {fmt(median(gaps), 2) if gaps else '—'}% |")
    print()
    print("\n".join(same_run(out, robot)))
    print()


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "--reached":
        reached(sys.argv[2], sys.argv[3])
    else:
        main()
