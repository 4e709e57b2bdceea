"""The Panda-under-a-shelf benchmark table from the results bench/shelf.sh leaves.

    python bench/shelf_table.py DIR COUNT

Every answer is replayed through bench/ipopt_chain.py's kinematics and graded by
bench/collision_model.py's sphere distances and cost (written apart from `loink`) and by the
collision meshes (bench/mesh_clearance.py: Pinocchio and coal). J* of a target is the least full
cost among the reference and IPOPT's best of 16 (both replayed, both converged and clear).
"Converged" is within 1e-6 m with the limits held to 1e-6 rad; "within 1 %" counts converged
answers with J ≤ 1.01 J* (an answer below J* counts); "clear" counts converged answers whose
spheres (or meshes) touch nothing.
"""

import csv
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "scripts"))
from collision_model import CollisionModel  # noqa: E402
from ipopt_chain import COLLISION, PRESETS, ROBOTS, Chain  # noqa: E402
from order_stats import median  # noqa: E402
import mesh_clearance  # noqa: E402
import pinocchio as pin  # noqa: E402

ROWS = [
    ("loink", "LOInK `panda-shelf.json` (two charts, the full cost), one-shot"),
    ("loink-refine3", "LOInK `panda-shelf.json` + refine 3"),
    ("dls", "DLS + null-space pull of the full cost"),
    ("ipopt-mid", "IPOPT, one call from mid-range"),
    ("ipopt-best-16", "IPOPT, best of 16 starts"),
    ("reference", "reference (48 clear neighbours + 16 spread starts)"),
    ("panda-loink-refine3", "LOInK `panda.json` + refine 3, without the scene"),
]


def rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def main():
    out, count = sys.argv[1], int(sys.argv[2])
    file, base, tip, held = PRESETS["panda-shelf"]
    chain = Chain(os.path.join(ROBOTS, file), base, tip, held)
    spheres, scene = (os.path.join(ROBOTS, f) for f in COLLISION["panda-shelf"])
    chain.collision = CollisionModel(os.path.join(ROBOTS, file), base, chain.names, held, spheres, scene)
    targets = np.array([[float(r[k]) for k in ("x", "y", "z")] for r in rows(os.path.join(out, "targets.csv"))])
    model, geom = mesh_clearance.build()
    data, gdata = model.createData(), pin.GeometryData(geom)

    def judged(name):
        path = os.path.join(out, f"{name}.csv")
        if not os.path.exists(path):
            return None
        result = []
        for target, row in zip(targets, rows(path)):
            q = np.array([float(row[f"q{i}"]) for i in range(1, 7)])
            if not np.all(np.isfinite(q)):
                result.append((False, np.inf, False, False, float(row["micros"])))
                continue
            residual = np.linalg.norm(chain.fk(q) - target)
            margin = np.min(np.minimum(q - chain.lower, chain.upper - q))
            converged = residual <= 1e-6 and margin >= -1e-6
            spheres_clear = chain.collision.clearance(q) > 0
            full = pin.neutral(model)
            full[:6] = q
            pin.computeCollisions(model, data, geom, gdata, full, True)
            meshes_clear = not any(r.isCollision() for r in gdata.collisionResults)
            result.append((converged, chain.cost(q), spheres_clear, meshes_clear, float(row["micros"])))
        return result

    answers = {name: judged(name) for name, _ in ROWS}
    j_star = np.full(len(targets), np.inf)
    for name in ("reference", "ipopt-best-16"):
        for i, (conv, cost, sph, mesh, _) in enumerate(answers[name] or []):
            if conv and sph:
                j_star[i] = min(j_star[i], cost)
    ipopt_mid = median([a[4] for a in answers["ipopt-mid"]]) if answers["ipopt-mid"] else float("nan")
    print(f"## The Panda under a shelf: {count} held-out targets\n")
    print("`bash bench/shelf.sh " + str(count) + "`: targets `loink targets --problem panda-shelf --seed 2026`, "
          "every answer replayed and graded apart from `loink` (bench/shelf_table.py). J* is the least full cost "
          "of the reference and IPOPT's best of 16. µs is wall time per target (IPOPT: its solve calls).\n")
    print("| solver | converged | within 1 % of J* | clear: spheres | clear: meshes | median µs | × one IPOPT call |")
    print("|---|---|---|---|---|---|---|")
    for name, label in ROWS:
        a = answers[name]
        if not a:
            continue
        n = len(a)
        conv = sum(x[0] for x in a)
        within = sum(x[0] and x[1] <= 1.01 * j_star[i] + 1e-12 for i, x in enumerate(a))
        sph = sum(x[0] and x[2] for x in a)
        mesh = sum(x[0] and x[3] for x in a)
        micros = median([x[4] for x in a])
        speed = ipopt_mid / micros if micros > 0 else float("nan")
        pct = lambda k: f"{100 * k / n:.1f} %"  # noqa: E731
        times = f"{speed:.0f}×" if speed >= 10 else f"{speed:.2g}×"
        print(f"| {label} | {pct(conv)} | {pct(within)} | {pct(sph)} | {pct(mesh)} | {micros:.1f} | {times} |")


if __name__ == "__main__":
    main()
