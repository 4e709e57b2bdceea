"""The planar arms of docs/planar3.md (planar3, planar3-wide, planar4), in numpy, for the IPOPT
baseline.

Shared by ipopt_planar3.py and reference_planar3.py: the arm, forward kinematics, the cost,
target generation, the eval CSV format and the status judgement by forward-kinematics replay.
The Rust crate (crates/loink) is the source of truth; this mirrors it so the peer's numbers are
judged by the same rules.
"""

import csv
import math

import numpy as np

# name: (link lengths, lower limits, upper limits), as crates/loink/src/problem/planar/mod.rs.
ROBOTS = {
    "planar3": ([0.5, 0.4, 0.3], [-math.pi / 2, 0.0, 0.0], [math.pi / 2, 2.6, 2.6]),
    "planar3-wide": ([0.5, 0.4, 0.3], [-2.6] * 3, [2.6] * 3),
    "planar4": ([0.3, 0.2, 0.5, 0.2], [-1.0, 0.0, 0.0, 0.0], [1.0, 1.5, 2.1, 3.0]),
}
LIMITS = {name: (np.array(lo), np.array(hi)) for name, (_, lo, hi) in ROBOTS.items()}
COM_WEIGHT = 4.0


def com_coeffs(links):
    """Centre-of-mass coefficients a_k = l_k (l_k/2 + Σ_{j>k} l_j) / Σ l (uniform links, mass ∝ length)."""
    total = float(links.sum())
    return np.array([links[k] * (links[k] / 2 + links[k + 1 :].sum()) / total for k in range(len(links))])


# planar3.md's "feasible": residual below 1e-6 m, limits held to 1e-6 rad.
RESIDUAL_TOL = 1e-6
LIMIT_TOL = 1e-6


class Arm:
    """One of the presets: links, limits, mid-range c, half-width h."""

    def __init__(self, name):
        if name not in ROBOTS:
            raise SystemExit(f"unknown robot '{name}' (known: {', '.join(ROBOTS)})")
        self.name = name
        self.links = np.array(ROBOTS[name][0])
        self.n = len(self.links)
        self.com_coeffs = com_coeffs(self.links)
        self.lower, self.upper = LIMITS[name]
        self.centre = 0.5 * (self.lower + self.upper)
        self.half_width = 0.5 * (self.upper - self.lower)
        self.reach = float(self.links.sum())
        self.inner_radius = max(0.0, 2 * self.links.max() - self.reach)

    def fk(self, q):
        s = np.cumsum(q)
        return np.array([np.dot(self.links, np.cos(s)), np.dot(self.links, np.sin(s))])

    def cost(self, q):
        u = (np.asarray(q) - self.centre) / self.half_width
        com_x = np.dot(self.com_coeffs, np.cos(np.cumsum(q)))
        return float(np.dot(u, u) + COM_WEIGHT * com_x * com_x)

    def margin(self, q):
        q = np.asarray(q)
        return float(np.min(np.minimum(q - self.lower, self.upper - q)))

    def sample_q(self, rng, count=None):
        shape = (self.n,) if count is None else (count, self.n)
        return self.lower + (self.upper - self.lower) * rng.random(shape)

    def judge(self, target, q, solver_succeeded, capped=False):
        """Status word, residual, margin, cost of q by replay (the rules of report.rs `assess`)."""
        q = np.asarray(q, dtype=float)
        if q.shape != (self.n,) or not np.all(np.isfinite(q)):
            return "invalid", math.nan, math.nan, math.nan
        residual = float(np.linalg.norm(self.fk(q) - target))
        margin = self.margin(q)
        cost = self.cost(q)
        radius = float(np.linalg.norm(target))
        outside = radius > self.reach + RESIDUAL_TOL or radius < self.inner_radius - RESIDUAL_TOL
        if margin < -LIMIT_TOL:
            status = "limits"
        elif not residual <= RESIDUAL_TOL:
            status = "unreachable" if outside else "capped"
        elif capped or not solver_succeeded:
            status = "capped"
        else:
            status = "converged"
        return status, residual, margin, cost


def read_targets(path):
    """Targets from a CSV with (at least) columns x and y, in file order."""
    with open(path, newline="") as handle:
        reader = csv.DictReader(handle)
        if reader.fieldnames is None or "x" not in reader.fieldnames or "y" not in reader.fieldnames:
            raise SystemExit(f"{path}: needs a header with columns x and y")
        return np.array([[float(row["x"]), float(row["y"])] for row in reader])


def write_targets(path, arm, count, seed):
    """planar3.md's evaluation targets: y = p(q_s), q_s uniform in the limits (seeded)."""
    rng = np.random.default_rng(seed)
    qs = arm.sample_q(rng, count)
    with open(path, "w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["x", "y"])
        for q in qs:
            x, y = arm.fk(q)
            writer.writerow([repr(float(x)), repr(float(y))])


def eval_header(n):
    """`loink eval`'s CSV columns for an n-joint arm."""
    return ["x", "y", *[f"q{i + 1}" for i in range(n)], "residual", "cost", "margin", "status", "iterations", "micros"]


def eval_row(target, q, status, residual, cost, margin, iterations, micros, n):
    """One row in `loink eval`'s CSV columns."""
    qs = list(q) if len(q) == n else [math.nan] * n
    return [*map(float, target), *map(float, qs), residual, cost, margin, status, int(iterations), micros]
