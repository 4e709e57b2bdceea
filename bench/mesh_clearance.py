#!/usr/bin/env python3
"""Grade answers on the Panda's collision meshes, not on the spheres the cost was made with.

Pinocchio (with coal) reads robots/panda/panda.urdf and its collision meshes, removes the pairs
robots/panda/panda.srdf disables, and adds the table (a 2 x 2 x 0.1 m slab with its top at z = 0,
which link0 stands on) and the shelf board of `panda-shelf` (read from robots/panda/shelf.toml)
as geometry fixed to the world. For each results file of `loink eval` (columns q1..q6 and status;
joint 7 and the fingers at 0) it prints the share of answers that are converged and clear of
every mesh, the median smallest distance, and the pairs that touch most often.

  python3 bench/mesh_clearance.py RESULTS.csv [MORE.csv ...] [--json OUT.json] [--require FILE=SHARE ...]

With --require it exits 1 when a file's share converged and clear is below SHARE.
"""
import argparse
import collections
import json
import os
import statistics
import sys
import tempfile
import tomllib

import numpy as np
import pinocchio as pin
import coal

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
PANDA = os.path.join(ROOT, "robots", "panda")


def package_dir():
    """A directory where `package://example-robot-data/robots/panda_description/meshes/...`
    resolves to robots/panda/meshes (the URDF names the meshes by their package path)."""
    top = tempfile.mkdtemp(prefix="loink-meshes-")
    desc = os.path.join(top, "example-robot-data", "robots", "panda_description")
    os.makedirs(desc)
    os.symlink(os.path.join(PANDA, "meshes"), os.path.join(desc, "meshes"))
    return top


def build():
    urdf = os.path.join(PANDA, "panda.urdf")
    model = pin.buildModelFromUrdf(urdf)
    geom = pin.buildGeomFromUrdf(model, urdf, pin.GeometryType.COLLISION, package_dirs=[package_dir()])
    with open(os.path.join(PANDA, "shelf.toml"), "rb") as f:
        scene = tomllib.load(f)
    obstacles = []
    # The table: the half-space z < 0 as a slab whose top is the plane.
    table = pin.GeometryObject("table", 0, pin.SE3(np.eye(3), np.array([0.0, 0.0, -0.05])), coal.Box(2.0, 2.0, 0.1))
    obstacles.append(geom.addGeometryObject(table))
    for box in scene.get("box", []):
        placement = pin.SE3(np.eye(3), np.array(box["centre"], dtype=float))
        obstacles.append(geom.addGeometryObject(pin.GeometryObject(box["name"], 0, placement, coal.Box(*box["size"]))))
    geom.addAllCollisionPairs()
    pin.removeCollisionPairs(model, geom, os.path.join(PANDA, "panda.srdf"))
    return model, geom


def grade(model, geom, path):
    data, gdata = model.createData(), pin.GeometryData(geom)
    rows = list(csvrows(path))
    clear, smallest, touching = 0, [], collections.Counter()
    for row in rows:
        q = pin.neutral(model)
        q[:6] = [float(row[f"q{i}"]) for i in range(1, 7)]
        pin.computeCollisions(model, data, geom, gdata, q, False)
        pin.computeDistances(model, data, geom, gdata, q)
        hits = [k for k, r in enumerate(gdata.collisionResults) if r.isCollision()]
        d = min(r.min_distance for r in gdata.distanceResults)
        smallest.append(0.0 if hits else d)
        for k in hits:
            pair = geom.collisionPairs[k]
            names = sorted(geom.geometryObjects[i].name.rsplit("_", 1)[0] for i in (pair.first, pair.second))
            touching[" and ".join(names)] += 1
        if not hits and row["status"] == "converged":
            clear += 1
    return {
        "file": path,
        "rows": len(rows),
        "clear_share": clear / max(1, len(rows)),
        "median_clearance_mm": 1000 * statistics.median(smallest) if smallest else float("nan"),
        "touching": touching.most_common(3),
    }


def csvrows(path):
    import csv
    with open(path, newline="") as f:
        yield from csv.DictReader(f)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("results", nargs="+")
    parser.add_argument("--json")
    parser.add_argument("--require", action="append", default=[], metavar="FILE=SHARE")
    args = parser.parse_args()
    model, geom = build()
    print(f"{len(geom.collisionPairs)} mesh pairs checked (SRDF pairs removed; table and shelf fixed to the world)")
    print("file | rows | converged and clear of the meshes | median clearance (mm) | touching most often")
    out = []
    for path in args.results:
        g = grade(model, geom, path)
        out.append(g)
        touching = ", ".join(f"{what} ({n})" for what, n in g["touching"])
        print(f"{path} | {g['rows']} | {100 * g['clear_share']:.1f} % | {g['median_clearance_mm']:.1f} | {touching}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(out, f, indent=1)
    failed = 0
    for rule in args.require:
        path, share = rule.rsplit("=", 1)
        got = next((g["clear_share"] for g in out if g["file"] == path), None)
        if got is None or got < float(share):
            print(f"FAIL: {path} is converged and clear of the meshes on {got} (required {share})")
            failed = 1
    return failed


if __name__ == "__main__":
    sys.exit(main())
