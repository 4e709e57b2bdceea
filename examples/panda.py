"""LOInK on the Franka Panda from Python: solve a batch of targets, check every answer.

    make python && target/python-venv/bin/python examples/panda.py

Loads the shipped Panda model, draws 1,000 reachable targets from random joint vectors, solves
them with LOInK (one network inverse, 3 polish steps) and with damped least squares, and
prints how often each lands on the global optimum found by the reference solver.
"""

from pathlib import Path

import numpy as np

import loink

ROOT = Path(__file__).resolve().parents[1]

model = loink.Model.load(ROOT / "web" / "models" / "panda.json")
problem = model.problem
print(model, "|", problem, "| J(q) =", problem.cost_formula)

rng = np.random.default_rng(0)
q_random = rng.uniform(problem.lower, problem.upper, size=(1000, problem.n))
targets = problem.forward(q_random)  # (1000, 3): x, y, z of the hand's TCP

learned = model.solve(targets, refine=3)
dls = problem.solve(targets, solver="dls")
best = problem.solve(targets, solver="reference")

print(learned)
for name, sol in [("LOInK + refine 3", learned), ("DLS", dls)]:
    ok = np.array([s == "converged" for s in sol.status])
    gap = (sol.cost - best.cost) / np.maximum(np.abs(best.cost), 1e-12)
    within = ok & (gap <= 0.01)
    print(f"{name:>17}: {within.mean():.1%} within 1 % of J*, "
          f"median {np.median(sol.micros):.0f} µs a target, "
          f"largest converged residual {sol.residual[ok].max():.1e} m")

# One target; the answer replays through the forward map.
one = model.solve([0.45, -0.20, 0.35], refine=3)
print("q =", one.q[0].round(4), one.status[0], "reached", problem.forward(one.q)[0].round(6))
