#!/usr/bin/env python3
"""IPOPT baseline on the planar arms (docs/planar3.md: planar3, planar3-wide, planar4), one
target per solve call.

The NLP is built once with the target as a parameter (casadi nlpsol 'ipopt': exact Hessian,
MUMPS, tol 1e-8), then solved for each target of a CSV from:

- `mid`:     the mid-range seed c;
- `random`:  one random seed, uniform in the limits (seeded per target: seed, row index);
- `best-K`:  K random starts (the first is the `random` seed), the cheapest feasible answer kept.

Each solve call is timed alone (perf_counter around the call; best-K sums its K calls).
Writes one CSV per method in `loink eval`'s columns
`x,y,q1,…,qn,residual,cost,margin,status,iterations,micros`, status judged by forward-kinematics
replay (converged only if IPOPT succeeded, residual < 1e-6 m and limits held to 1e-6 rad).

    python bench/ipopt_planar3.py --targets T.csv --out-dir DIR [--robot planar3-wide]
        [--methods mid,random,best-3,best-8] [--seed 7]
    python bench/ipopt_planar3.py --generate 1000 --seed 1 --targets T.csv   # write targets only
    python bench/ipopt_planar3.py --serve [--robot R] [--seed 7]               # for `loink bench`

`--serve` lets `loink bench` interleave IPOPT with its own solvers target by target, through the
line protocol of bench/ipopt_serve.py (its random-K starts are file mode's random seeds).
"""

import argparse
import csv
import os
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ipopt_serve  # noqa: E402
import planar3  # noqa: E402

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts"))
from order_stats import quantile  # noqa: E402  (the project's quantile)

# IPOPT's own verdicts that count as "the solver met its stopping test".
SUCCESS = {"Solve_Succeeded", "Solved_To_Acceptable_Level"}
CAPPED = {"Maximum_Iterations_Exceeded", "Maximum_CpuTime_Exceeded", "Maximum_WallTime_Exceeded"}


def build_solver(arm):
    """The arm's NLP with the target as a parameter, built once."""
    import casadi as ca

    q = ca.SX.sym("q", arm.n)
    target = ca.SX.sym("y", 2)
    s = ca.cumsum(q)
    fk = ca.vertcat(ca.dot(arm.links, ca.cos(s)), ca.dot(arm.links, ca.sin(s)))
    u = (q - arm.centre) / arm.half_width
    com_x = ca.dot(arm.com_coeffs, ca.cos(s))
    cost = ca.dot(u, u) + planar3.COM_WEIGHT * com_x**2
    nlp = {"x": q, "p": target, "f": cost, "g": fk - target}
    options = {
        "print_time": False,
        "ipopt": {
            "tol": 1e-8,
            "hessian_approximation": "exact",
            "linear_solver": "mumps",
            "print_level": 0,
            "sb": "yes",
        },
    }
    return ca.nlpsol("planar3", "ipopt", nlp, options)


class Ipopt:
    def __init__(self, arm):
        self.arm = arm
        self.solver = build_solver(arm)
        self.lbx = arm.lower.tolist()
        self.ubx = arm.upper.tolist()

    def solve_once(self, target, seed):
        """One timed solve call: (q, succeeded, capped, iterations, micros, cpu_micros).

        micros is wall time; cpu_micros the calling thread's CPU time over the same call (IPOPT
        runs in this thread), which a loaded machine inflates far less."""
        cpu_start = time.thread_time_ns()
        start = time.perf_counter()
        result = self.solver(x0=seed, p=target, lbx=self.lbx, ubx=self.ubx, lbg=0.0, ubg=0.0)
        micros = (time.perf_counter() - start) * 1e6
        cpu_micros = (time.thread_time_ns() - cpu_start) / 1e3
        stats = self.solver.stats()
        status = stats.get("return_status", "")
        q = np.array(result["x"]).reshape(-1)
        return q, status in SUCCESS, status in CAPPED, int(stats.get("iter_count", 0)), micros, cpu_micros

    def solve(self, target, seeds):
        """Best of the given starts: the cheapest converged answer, else the smallest residual."""
        best, best_key = None, None
        iterations, micros = 0, 0.0
        for seed in seeds:
            q, ok, capped, its, us, _ = self.solve_once(target.tolist(), seed.tolist())
            iterations += its
            micros += us
            status, residual, margin, cost = self.arm.judge(target, q, ok, capped)
            # Converged answers first, cheapest first; otherwise the closest to the target.
            key = (0, cost) if status == "converged" else (1, residual if np.isfinite(residual) else np.inf)
            if best_key is None or key < best_key:
                best, best_key = (q, status, residual, cost, margin), key
        q, status, residual, cost, margin = best
        return q, status, residual, cost, margin, iterations, micros


def starts(arm, method, index, seed):
    if method == "mid":
        return [arm.centre]
    rng = np.random.default_rng([seed, index])
    count = 1 if method == "random" else int(method.split("-")[1])
    return list(arm.sample_q(rng, count))


def serve(ipopt, seed):
    """`--serve` (the protocol is bench/ipopt_serve.py's)."""
    arm = ipopt.arm
    ipopt_serve.serve(ipopt.solve_once, arm.centre, arm.sample_q, 2, seed, arm.fk(arm.centre))


def parse_methods(text):
    methods = [m.strip() for m in text.split(",") if m.strip()]
    for m in methods:
        ok = m in ("mid", "random") or (m.startswith("best-") and m[5:].isdigit() and int(m[5:]) >= 1)
        if not ok:
            raise SystemExit(f"unknown method '{m}' (mid, random, best-K)")
    return methods


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--robot", default="planar3", choices=sorted(planar3.LIMITS))
    parser.add_argument("--targets", help="CSV with columns x,y")
    parser.add_argument("--serve", action="store_true", help="answer solve requests on stdin (see doc)")
    parser.add_argument("--out-dir", help="writes ipopt-<method>.csv here")
    parser.add_argument("--methods", default="mid,random,best-3,best-8")
    parser.add_argument("--seed", type=int, default=7, help="random-start seed")
    parser.add_argument("--generate", type=int, metavar="N", help="write N targets to --targets and exit")
    parser.add_argument("--limit", type=int, help="solve only the first N targets")
    args = parser.parse_args()

    arm = planar3.Arm(args.robot)
    if args.serve:
        serve(Ipopt(arm), args.seed)
        return
    if not args.targets:
        parser.error("--targets is required unless --serve")
    if args.generate is not None:
        planar3.write_targets(args.targets, arm, args.generate, args.seed)
        return
    if not args.out_dir:
        parser.error("--out-dir is required unless --generate")
    methods = parse_methods(args.methods)
    targets = planar3.read_targets(args.targets)
    if args.limit is not None:
        targets = targets[: args.limit]
    os.makedirs(args.out_dir, exist_ok=True)

    ipopt = Ipopt(arm)
    ipopt.solve(targets[0], [arm.centre])  # warm the process (first call loads MUMPS)
    for method in methods:
        path = os.path.join(args.out_dir, f"ipopt-{method}.csv")
        rows = []
        for index, target in enumerate(targets):
            q, status, residual, cost, margin, its, us = ipopt.solve(target, starts(arm, method, index, args.seed))
            rows.append(planar3.eval_row(target, q, status, residual, cost, margin, its, us, arm.n))
        with open(path, "w", newline="") as handle:
            writer = csv.writer(handle)
            writer.writerow(planar3.eval_header(arm.n))
            writer.writerows(rows)
        micros = [float(r[-1]) for r in rows]
        converged = np.mean([r[8] == "converged" for r in rows]) * 100
        print(
            f"ipopt {method:>7}: {len(rows)} targets, median {quantile(micros, 0.5):.0f} µs, "
            f"p95 {quantile(micros, 0.95):.0f} µs, converged {converged:.1f}% -> {path}",
            file=sys.stderr,
        )


if __name__ == "__main__":
    main()
