#!/usr/bin/env python3
"""IPOPT on the climbing robot (docs/climber.md): one target per solve call, with its own model
of the climber written from the design's equations (numpy for the replay, casadi for the NLP),
independent of `loink`'s.

Problem: minimise J(x), the smoothed peak magnet pull plus the ankle-centring and body-attitude
terms, over x = (θ_b, front femur, front tibia, rear femur, rear tibia) subject to f(x) = y (the
rear-to-front ankle vector and the body's clearance) and the joint box.

Methods (comma-separated):
- `mid`:    one start at the box's mid-range;
- `best-K`: the mid-range and K - 1 random starts uniform in the box (numpy, seeded per target:
            seed, row index), the cheapest converged answer kept.

Writes `ipopt-<method>.csv` per method in `loink eval`'s columns
`y1,y2,y3,q1,...,q5,residual,cost,margin,status,iterations,micros`, each answer judged by replay
(converged: IPOPT met its test, residual <= 1e-6 m, limits held to 1e-6).

    python bench/ipopt_climber.py --targets T.csv --out-dir DIR [--methods mid,best-16] [--seed 7]
    python bench/ipopt_climber.py --serve [--seed 7]          # for `loink bench`
    python bench/ipopt_climber.py --check                     # the design's reference table

`--serve` answers `loink bench`'s requests through the line protocol of bench/ipopt_serve.py
(`--robot climber` is accepted there for symmetry with the other scripts).
"""

import argparse
import math
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ipopt_batch  # noqa: E402
import ipopt_serve  # noqa: E402

# Geometry (m) and limits (rad): docs/climber.md §3–4.
FEMUR, TIBIA, PAD = 0.15, 0.132, 0.031
PIVOT = {"U": (0.125, 0.0527 + 0.0393), "L": (-0.125, 0.0527 + 0.0393)}
SIDE = {"U": 1.0, "L": -1.0}
LOWER = np.array([0.0, -1.571, -2.355, -1.571, -2.355])
UPPER = np.array([4.2, 2.355, 0.001, 2.355, 0.001])
# Masses (kg) and centres: the base, two coxae per pair, two femurs per pair at 0.0331 m along e1,
# the tibiae along e2 (front: AL with its F/T sensor and AR combined), two feet per pair at the ankle.
BASE = (1.44521, (-0.0002696, 0.0333181))
COXA, COXA_V = 2 * 0.05629, 0.0527
FEMURS = (2 * 0.25695, 0.0331)
TIBIAE = {"U": (0.57311 + 0.45311, (0.57311 * 0.04813 + 0.45311 * 0.0363) / (0.57311 + 0.45311)), "L": (0.90622, 0.0363)}
FEET = 2 * (0.03591 + 0.02961 + 0.32158)
GRAVITY = 9.81
MU, BETA, EPS_T = 0.7, 20.0, 1.0
W_ANKLE, W_TILT, TILT_REF, ANKLE_MAX = 0.03, 0.05, 0.5, 0.523599
# The task's columns in targets and results files.
COLUMNS = ["y1", "y2", "y3"]

class Numpy:
    cos, sin, sqrt, exp, log = np.cos, np.sin, np.sqrt, np.exp, np.log


def casadi_lib():
    import casadi as ca

    class Casadi:
        cos, sin, sqrt, exp, log = ca.cos, ca.sin, ca.sqrt, ca.exp, ca.log

    return Casadi


def mass_total():
    return BASE[0] + 2 * COXA + 2 * FEMURS[0] + TIBIAE["U"][0] + TIBIAE["L"][0] + 2 * FEET


def legs(x, lib):
    """Per pair: pivot P, knee K, ankle A, the unit vectors e1, e2 (body frame, 2-tuples)."""
    out = {}
    for name, (qf, qt) in (("U", (x[1], x[2])), ("L", (x[3], x[4]))):
        s = SIDE[name]
        p = PIVOT[name]
        e1 = (s * lib.cos(qf), lib.sin(qf))
        e2 = (s * lib.cos(qf + qt), lib.sin(qf + qt))
        k = (p[0] + FEMUR * e1[0], p[1] + FEMUR * e1[1])
        a = (k[0] + TIBIA * e2[0], k[1] + TIBIA * e2[1])
        out[name] = (p, k, a, e1, e2)
    return out


def dot(a, b):
    return a[0] * b[0] + a[1] * b[1]


def sub(a, b):
    return (a[0] - b[0], a[1] - b[1])


def cross(a, b):
    return a[0] * b[1] - a[1] * b[0]


def frame(x, lib):
    """The legs, the span d, the wall direction ŝ and normal n̂ (body frame)."""
    leg = legs(x, lib)
    span = sub(leg["U"][2], leg["L"][2])
    d = lib.sqrt(dot(span, span))
    s_hat = (span[0] / d, span[1] / d)
    n_hat = (-s_hat[1], s_hat[0])
    return leg, d, s_hat, n_hat


def task(x, lib=Numpy):
    """y = (R(θ_b)(A_U − A_L), −n̂·A_L + pad)."""
    leg, _, _, n_hat = frame(x, lib)
    span = sub(leg["U"][2], leg["L"][2])
    c, s = lib.cos(x[0]), lib.sin(x[0])
    return [c * span[0] - s * span[1], s * span[0] + c * span[1], -dot(n_hat, leg["L"][2]) + PAD]


def cost(x, lib=Numpy):
    """J(x): the smoothed peak adhesion (units of body weight) plus the ankle and tilt terms."""
    leg, d, s_hat, n_hat = frame(x, lib)
    c, s = lib.cos(x[0]), lib.sin(x[0])
    g = (s * -GRAVITY, c * -GRAVITY)  # R(θ_b)ᵀ (0, −g)
    weight = mass_total() * GRAVITY
    # Point masses (m, position) per pair, distal first, and the body's.
    parts = {}
    for name in ("U", "L"):
        p, k, a, e1, e2 = leg[name]
        tm, tc = TIBIAE[name]
        parts[name] = {
            "femur": (FEMURS[0], (p[0] + FEMURS[1] * e1[0], p[1] + FEMURS[1] * e1[1])),
            "tibia": (tm, (k[0] + tc * e2[0], k[1] + tc * e2[1])),
            "foot": (FEET, a),
        }
    masses = [BASE, (COXA, (0.125, COXA_V)), (COXA, (-0.125, COXA_V))]
    for name in ("U", "L"):
        masses += list(parts[name].values())
    total = sum(m for m, _ in masses)
    com = (sum(m * r[0] for m, r in masses) / total, sum(m * r[1] for m, r in masses) / total)
    # Wall components of the weight: sin γ = (R ŝ)_y, cos γ = (R ŝ)_x.
    sin_g = s * s_hat[0] + c * s_hat[1]
    cos_g = c * s_hat[0] - s * s_hat[1]
    r_s, r_n = weight * sin_g, weight * cos_g
    a_l = leg["L"][2]
    s_c, n_c = dot(s_hat, sub(com, a_l)), dot(n_hat, sub(com, a_l))
    n_u = (r_n * s_c - r_s * n_c) / d
    normal = {"U": n_u, "L": r_n - n_u}
    # Joint torques at f = 0, and the equal-stiffness shear f* = −Σ σ h τ⁰ / Σ h².
    num, den = 0, 0
    for name in ("U", "L"):
        p, k, a, _, _ = leg[name]
        sigma = SIDE[name]
        for joint, distal in ((p, ("femur", "tibia", "foot")), (k, ("tibia", "foot"))):
            h = dot(n_hat, sub(joint, a))
            o = dot(s_hat, sub(a, joint))
            tau0 = h * (r_s / 2) + o * normal[name]
            for part in distal:
                m, r = parts[name][part]
                tau0 = tau0 + m * cross(sub(r, joint), g)
            num = num + sigma * h * tau0
            den = den + h * h
    f = -num / den
    shear = {"U": r_s / 2 + f, "L": r_s / 2 - f}
    adhesion = {i: lib.sqrt(shear[i] ** 2 + EPS_T**2) / MU - normal[i] for i in ("U", "L")}
    peak = lib.log(lib.exp(BETA * adhesion["U"] / weight) + lib.exp(BETA * adhesion["L"] / weight)) / BETA
    ankles = 0
    for name in ("U", "L"):
        cos_psi = -dot(n_hat, leg[name][4])
        u = (1 - cos_psi) / (1 - math.cos(ANKLE_MAX))
        ankles = ankles + u + u**4
    tilt = (1 - s_hat[0]) / (1 - math.cos(TILT_REF))
    return peak + W_ANKLE * ankles + W_TILT * tilt


def judge(target, q, ok):
    return ipopt_batch.judge(task, target, q, LOWER, UPPER, ok, cost)


def build_solver():
    import casadi as ca

    lib = casadi_lib()
    x = ca.SX.sym("x", 5)
    target = ca.SX.sym("y", 3)
    xs = [x[i] for i in range(5)]
    nlp = {"x": x, "p": target, "f": cost(xs, lib), "g": ca.vertcat(*task(xs, lib)) - target}
    options = {
        "print_time": False,
        # A random start can put the feet on top of each other (d = 0), where J is not defined:
        # IPOPT steps back from such points by itself, and casadi need not print each one.
        "show_eval_warnings": False,
        # tol 1e-8: the design's one-call timing (docs/climber.md §7).
        "ipopt": {"tol": 1e-8, "hessian_approximation": "exact", "linear_solver": "mumps",
                  "print_level": 0, "sb": "yes", "max_iter": 3000},
    }
    return ca.nlpsol("climber", "ipopt", nlp, options)


# docs/climber.md §5: x, y, J for rows N, D, A, B, C, M.
REFERENCE = [
    ((1.57079632679, -0.0754545679137, -1.68259473039, -0.0754545679137, -1.68259473039),
     (3.06161699787e-17, 0.5, 0.08), 0.88118624728),
    ((1.9, -0.7, -1.5, 0.6, -1.7), (0.00908150276263, 0.500533786414, 0.0805437682791), 0.787001781386),
    ((2.3, -0.4, -1.5, 0.3, -1.9), (-0.251727478778, 0.425384018394, 0.0779034459952), 1.02653875553),
    ((1.2, 0.2, -1.9, -0.6, -1.1), (0.06967861622, 0.495201115982, 0.0982423192122), 0.844600105473),
    ((3.0, -1.0, -0.8, 0.9, -2.2), (-0.390721332446, 0.303251276733, 0.0851437304206), 1.06680957301),
    ((2.1, 0.392, -1.177, 0.392, -1.177), (-0.360457368876, 0.616326786037, -0.0250046968391), 2.77357948653),
]


def check():
    """The reference table: y and J to 1e-9 (the table's own digits)."""
    worst = 0.0
    for x, y, j in REFERENCE:
        worst = max(worst, float(np.max(np.abs(np.array(task(np.array(x))) - y))), abs(cost(np.array(x)) - j))
    print(f"reference table: largest difference {worst:.2e}")
    return worst < 1e-9


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--robot", choices=["climber"], default="climber")
    parser.add_argument("--check", action="store_true", help="reproduce the design's reference table")
    ipopt_batch.add_arguments(parser, COLUMNS)
    args = parser.parse_args()
    if args.check:
        sys.exit(0 if check() else 1)
    centre = (LOWER + UPPER) / 2

    def sample_q(rng, count):
        return [rng.uniform(LOWER, UPPER) for _ in range(count)]

    solve_once = ipopt_batch.timed(build_solver(), LOWER, UPPER)
    if args.serve:
        ipopt_serve.serve(solve_once, centre, sample_q, 3, args.seed, REFERENCE[0][1])
        return
    if not args.targets or not args.out_dir:
        parser.error("--targets and --out-dir are required unless --serve or --check")
    targets = ipopt_batch.read_targets(args.targets, COLUMNS, args.limit)
    solve_once(list(REFERENCE[0][1]), centre.tolist())  # loads MUMPS
    ipopt_batch.run_methods(targets, COLUMNS, centre, sample_q, solve_once, judge, args.methods,
                            args.seed, args.out_dir)


if __name__ == "__main__":
    main()
