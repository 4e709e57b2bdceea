#!/usr/bin/env python3
"""Global optimum J* on planar3 / planar3-wide (docs/planar3.md), in numpy — a cross-check.

The self-motion set is parameterised by φ = q₁+q₂+q₃: for each φ the wrist w = y − l₃(cos φ, sin φ)
is a two-link problem with two closed-form elbow branches. Limit-infeasible points are dropped,
φ is swept densely (4·10⁴ samples over [Σ lower, Σ upper]) and the best few local minima are
refined by zoom grids to ~1e-11 rad in φ. Writes `loink eval`'s CSV columns.

The Rust `reference::solve` is the driver's J*; this script exists to check the IPOPT numbers
against planar3.md's anchors independently of the Rust code, and the Rust reference against it.

    python bench/reference_planar3.py --targets T.csv --out ref.csv [--robot planar3-wide]
"""

import argparse
import csv
import math
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import planar3  # noqa: E402

L1, L2, L3 = planar3.ROBOTS["planar3"][0]
SAMPLES = 40_000


def branch_points(arm, target, phi, elbow):
    """Joint vectors (…, 3) on one elbow branch and a feasibility mask, for angles phi."""
    wx = target[0] - L3 * np.cos(phi)
    wy = target[1] - L3 * np.sin(phi)
    c2 = (wx * wx + wy * wy - L1 * L1 - L2 * L2) / (2 * L1 * L2)
    ok = np.abs(c2) <= 1.0
    q2 = elbow * np.arccos(np.clip(c2, -1.0, 1.0))
    q1 = np.arctan2(wy, wx) - np.arctan2(L2 * np.sin(q2), L1 + L2 * np.cos(q2))
    lo, hi = arm.lower, arm.upper
    # Angles are not wrapped: pick the representative of q₁, q₂ inside [lo, lo + 2π).
    q1 = lo[0] + np.mod(q1 - lo[0], 2 * math.pi)
    q2 = lo[1] + np.mod(q2 - lo[1], 2 * math.pi)
    q3 = phi - q1 - q2
    q = np.stack([q1, q2, q3], axis=-1)
    ok &= np.all((q >= lo) & (q <= hi), axis=-1)
    return q, ok


def costs(arm, q):
    u = (q - arm.centre) / arm.half_width
    s = np.cumsum(q, axis=-1)
    com_x = np.cos(s) @ planar3.com_coeffs(np.array(planar3.ROBOTS["planar3"][0]))
    return np.sum(u * u, axis=-1) + planar3.COM_WEIGHT * com_x * com_x


def solve(arm, target, candidates=4):
    """(q*, J*) or (None, inf) when no feasible point exists."""
    lo_phi, hi_phi = arm.lower.sum(), arm.upper.sum()
    phi = np.linspace(lo_phi, hi_phi, SAMPLES)
    step = phi[1] - phi[0]
    best_q, best_j = None, math.inf
    for elbow in (1.0, -1.0):
        q, ok = branch_points(arm, target, phi, elbow)
        if not ok.any():
            continue
        j = np.where(ok, costs(arm, q), np.inf)
        # Local minima of the sampled cost (boundary points of feasible runs included).
        left = np.concatenate([[np.inf], j[:-1]])
        right = np.concatenate([j[1:], [np.inf]])
        minima = np.flatnonzero(np.isfinite(j) & (j <= left) & (j <= right))
        for index in minima[np.argsort(j[minima])][:candidates]:
            centre, half = phi[index], step
            for _ in range(12):
                grid = np.linspace(centre - half, centre + half, 21)
                gq, gok = branch_points(arm, target, grid, elbow)
                gj = np.where(gok, costs(arm, gq), np.inf)
                k = int(np.argmin(gj))
                if not np.isfinite(gj[k]):
                    break
                centre, half = grid[k], half / 10
            qq, okk = branch_points(arm, target, np.array([centre]), elbow)
            if okk[0]:
                jj = float(costs(arm, qq)[0])
                if jj < best_j:
                    best_q, best_j = qq[0], jj
    return best_q, best_j


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--robot", default="planar3", choices=sorted(planar3.LIMITS))
    parser.add_argument("--targets", required=True)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    arm = planar3.Arm(args.robot)
    rows = []
    for target in planar3.read_targets(args.targets):
        start = time.perf_counter()
        q, _ = solve(arm, target)
        micros = (time.perf_counter() - start) * 1e6
        if q is None:
            radius = float(np.linalg.norm(target))
            rows.append([*target, math.nan, math.nan, math.nan, math.nan, math.nan, math.nan,
                         "unreachable" if radius > arm.reach else "capped", 0, micros])
            continue
        status, residual, margin, cost = arm.judge(target, q, True)
        rows.append(planar3.eval_row(target, q, status, residual, cost, margin, 0, micros, 3))
    with open(args.out, "w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(planar3.eval_header(3))
        writer.writerows(rows)


if __name__ == "__main__":
    main()
