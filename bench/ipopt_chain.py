#!/usr/bin/env python3
"""IPOPT on a serial chain read from its URDF (the Panda: docs/panda.md), one target per solve
call, with its own URDF reader and forward kinematics (numpy for the replay, casadi for the NLP):
an implementation independent of `loink`'s.

Problem: minimise J(q) = sum(((q_i - c_i) / h_i)^2) (c_i, h_i the mid-range and half-range of
joint i) subject to tip(q) = y and the joint limits; joints given by --hold are fixed. With
--spheres and --scene (or `--robot panda-shelf`) J also holds the collision terms of
docs/collision.md, written again in bench/collision_model.py.

Methods (comma-separated):
- `mid`:    one start at the mid-range c;
- `best-K`: c and K - 1 random starts uniform in the limits (numpy, seeded per target:
            seed, row index), the cheapest converged answer kept.

Writes `ipopt-<method>.csv` per method in `loink eval`'s columns
`x,y,z,q1,...,qn,residual,cost,margin,status,iterations,micros`, each answer judged by replay
(converged: IPOPT met its test, residual <= 1e-6 m, limits held to 1e-6).

    python bench/ipopt_chain.py --urdf robots/panda/panda.urdf --base panda_link0 \
        --tip panda_hand_tcp --hold panda_joint7=0 --targets T.csv --out-dir DIR \
        [--methods mid,best-16] [--seed 7] [--limit N]
    python bench/ipopt_chain.py --robot panda --targets T.csv --out-dir DIR   # the same chain
    python bench/ipopt_chain.py --serve --robot panda [--seed 7]             # for `loink bench`

`--robot` names a chain of robots/ as `loink` does (panda, tiago). `--serve` answers
`loink bench`'s requests through the line protocol of bench/ipopt_serve.py.
"""

import argparse
import math
import os
import sys
import xml.etree.ElementTree as ET

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ipopt_batch  # noqa: E402
import ipopt_serve  # noqa: E402

ROBOTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "robots")
# The chains `loink` names (crates/loink/src/problem/chain/urdf.rs): file, base, tip, held joints.
PRESETS = {
    "panda": ("panda/panda.urdf", "panda_link0", "panda_hand_tcp", {"panda_joint7": 0.0}),
    "panda-shelf": ("panda/panda.urdf", "panda_link0", "panda_hand_tcp", {"panda_joint7": 0.0}),
    "tiago": ("tiago/tiago_no_hand.urdf", "torso_lift_link", "arm_tool_link", {}),
}
# The presets that keep clear of themselves and a scene: their spheres and scene files.
COLLISION = {"panda-shelf": ("panda/panda-spheres.json", "panda/shelf.toml")}

def rpy_matrix(roll, pitch, yaw, lib=np):
    """R = Rz(yaw) Ry(pitch) Rx(roll), the URDF convention."""
    cr, sr, cp, sp, cy, sy = math.cos(roll), math.sin(roll), math.cos(pitch), math.sin(pitch), math.cos(yaw), math.sin(yaw)
    return np.array([
        [cy * cp, cy * sp * sr - sy * cr, cy * sp * cr + sy * sr],
        [sy * cp, sy * sp * sr + cy * cr, sy * sp * cr - cy * sr],
        [-sp, cp * sr, cp * cr],
    ])


class Chain:
    """The joints from base to tip: fixed origins, axes, types, limits; held joints kept aside."""

    def __init__(self, path, base, tip, held):
        root = ET.parse(path).getroot()
        by_child = {}
        for joint in root.findall("joint"):
            by_child[joint.find("child").get("link")] = joint
        path_joints, link = [], tip
        while link != base:
            joint = by_child[link]
            path_joints.append(joint)
            link = joint.find("parent").get("link")
        path_joints.reverse()
        self.steps = []  # (origin 4x4, kind, axis, name)
        self.names, lower, upper = [], [], []
        for joint in path_joints:
            origin = joint.find("origin")
            xyz = [float(v) for v in (origin.get("xyz", "0 0 0") if origin is not None else "0 0 0").split()]
            rpy = [float(v) for v in (origin.get("rpy", "0 0 0") if origin is not None else "0 0 0").split()]
            t = np.eye(4)
            t[:3, :3] = rpy_matrix(*rpy)
            t[:3, 3] = xyz
            kind = joint.get("type")
            axis_node = joint.find("axis")
            axis = np.array([float(v) for v in (axis_node.get("xyz") if axis_node is not None else "1 0 0").split()])
            axis = axis / np.linalg.norm(axis)
            name = joint.get("name")
            if kind == "fixed":
                self.steps.append((t, "fixed", axis, name))
            elif name in held:
                self.steps.append((t, ("held", kind, held[name]), axis, name))
            else:
                self.steps.append((t, kind, axis, name))
                limit = joint.find("limit")
                if kind == "continuous":
                    lower.append(-math.pi)
                    upper.append(math.pi)
                else:
                    lower.append(float(limit.get("lower", 0)))
                    upper.append(float(limit.get("upper", 0)))
                self.names.append(name)
        self.lower, self.upper = np.array(lower), np.array(upper)
        self.centre = (self.lower + self.upper) / 2
        self.half = (self.upper - self.lower) / 2
        self.n = len(self.names)
        self.collision = None

    def fk(self, q, lib="numpy"):
        """The tip position at q (numpy array, or casadi SX when lib == 'casadi')."""
        return self.frame(q, lib)[:3, 3]

    def frame(self, q, lib="numpy"):
        """The tip's 4 x 4 transform at q (numpy array, or casadi SX when lib == 'casadi')."""
        if lib == "casadi":
            import casadi as ca
            t, cos, sin, eye = ca.SX.eye(4), ca.cos, ca.sin, ca.SX.eye
        else:
            t, cos, sin, eye = np.eye(4), np.cos, np.sin, np.eye
        i = 0
        for origin, kind, axis, _ in self.steps:
            t = t @ origin if lib != "casadi" else ca.mtimes(t, ca.DM(origin))
            if kind == "fixed":
                continue
            if isinstance(kind, tuple):
                _, kind, value = kind
            else:
                value = q[i]
                i += 1
            m = eye(4) if lib != "casadi" else ca.SX.eye(4)
            if kind in ("revolute", "continuous"):
                x, y, z = axis
                c, s = cos(value), sin(value)
                v = 1 - c
                rot = [[c + x * x * v, x * y * v - z * s, x * z * v + y * s],
                       [y * x * v + z * s, c + y * y * v, y * z * v - x * s],
                       [z * x * v - y * s, z * y * v + x * s, c + z * z * v]]
                for r in range(3):
                    for col in range(3):
                        m[r, col] = rot[r][col]
            else:
                for r in range(3):
                    m[r, 3] = axis[r] * value
            t = t @ m if lib != "casadi" else ca.mtimes(t, m)
        return t

    def sample_q(self, rng, count):
        """count seeds uniform in the limits."""
        return [rng.uniform(self.lower, self.upper) for _ in range(count)]

    def cost(self, q):
        u = (np.asarray(q) - self.centre) / self.half
        extra = self.collision.cost(np.asarray(q, dtype=float)) if self.collision else 0.0
        return float(np.dot(u, u) + extra)

    def judge(self, target, q, ok):
        return ipopt_batch.judge(self.fk, target, q, self.lower, self.upper, ok, self.cost)


def build_solver(chain):
    import casadi as ca
    q = ca.SX.sym("q", chain.n)
    target = ca.SX.sym("y", 3)
    u = (q - ca.DM(chain.centre)) / ca.DM(chain.half)
    objective = ca.dot(u, u)
    if chain.collision:
        objective = objective + chain.collision.cost([q[i] for i in range(chain.n)], lib="casadi")
    nlp = {"x": q, "p": target, "f": objective, "g": chain.fk(q, lib="casadi") - target}
    options = {
        "print_time": False,
        "ipopt": {"tol": 1e-10, "hessian_approximation": "exact", "linear_solver": "mumps",
                  "print_level": 0, "sb": "yes", "max_iter": 3000},
    }
    return ca.nlpsol("chain", "ipopt", nlp, options)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--robot", choices=sorted(PRESETS), help="a chain of robots/ (instead of --urdf …)")
    parser.add_argument("--urdf")
    parser.add_argument("--base")
    parser.add_argument("--tip")
    parser.add_argument("--hold", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument("--spheres", help="the links as spheres (`loink spheres`): the cost keeps them clear")
    parser.add_argument("--scene", help="with --spheres: the scene file (TOML)")
    ipopt_batch.add_arguments(parser, ["x", "y", "z"])
    args = parser.parse_args()
    held = {}
    for h in args.hold:
        name, value = h.split("=")
        held[name] = float(value)
    if args.robot:
        file, base, tip, preset_held = PRESETS[args.robot]
        chain = Chain(os.path.join(ROBOTS, file), base, tip, {**preset_held, **held})
    elif args.urdf and args.base and args.tip:
        chain = Chain(args.urdf, args.base, args.tip, held)
    else:
        parser.error("--robot, or --urdf with --base and --tip")
    spheres, scene = args.spheres, args.scene
    if args.robot in COLLISION:
        spheres, scene = (os.path.join(ROBOTS, f) for f in COLLISION[args.robot])
    if spheres:
        from collision_model import CollisionModel
        urdf = os.path.join(ROBOTS, PRESETS[args.robot][0]) if args.robot else args.urdf
        base = PRESETS[args.robot][1] if args.robot else args.base
        chain.collision = CollisionModel(urdf, base, chain.names,
                                         {**(PRESETS[args.robot][3] if args.robot else {}), **held},
                                         spheres, scene)
    solve_once = ipopt_batch.timed(build_solver(chain), chain.lower, chain.upper)
    if args.serve:
        ipopt_serve.serve(solve_once, chain.centre, chain.sample_q, 3, args.seed, chain.fk(chain.centre))
        return
    if not args.targets or not args.out_dir:
        parser.error("--targets and --out-dir are required unless --serve")
    targets = ipopt_batch.read_targets(args.targets, ["x", "y", "z"], args.limit)
    solve_once(targets[0].tolist(), chain.centre.tolist())  # loads MUMPS
    ipopt_batch.run_methods(targets, ["x", "y", "z"], chain.centre, chain.sample_q, solve_once,
                            chain.judge, args.methods, args.seed, args.out_dir)


if __name__ == "__main__":
    main()
