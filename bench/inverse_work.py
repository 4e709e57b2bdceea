"""The floating-point work of one LOInK inverse, counted, against this CPU's measured limit.

For each model: its one-shot answers (a `loink eval --model M` results file) are run forward
through G here (numpy, from the model file's own matrices) to count the active units of every
block of every monotone layer at the answer. With those counts, one semi-smooth Newton step on a
layer of width n, hidden blocks n_1..n_L (N units, a_k active in block k, a in all) costs
  forward  2Nn + 2 sum_k a_(k-1) n_k + 2an        (pre-activations, V products, output)
  Jacobian 2n sum_k a_k a_(k-1) + 2an^2           (the active rows of T, then S^T T)
  solve    2n^3/3 + 2n^2                          (LU with one right-hand side)
(a multi-chart file: every chart's inverse, at the first chart's counts); the inverse adds the section head (2 sum in*out) and the forward pass that seeds it, or the
first forward pass of a cold start, and the orthogonal layers (2n^2 each). The Jacobian is
counted at every step (the solver reuses it when the activation pattern holds: an upper bound).
Iterations are the file's mean `iterations`; time is its median `micros` (the solve as
`loink eval` times it). The limit is a single-thread f64 matrix product here (numpy's BLAS, one thread), the
most this core does per microsecond on dense, cache-resident work.

  OPENBLAS_NUM_THREADS=1 python bench/inverse_work.py LABEL=MODEL:RESULTS ...
"""

import csv
import json
import os
import statistics
import sys
import time

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
import numpy as np  # noqa: E402


def limit_flops_per_us():
    a = np.random.default_rng(1).standard_normal((256, 256))
    b = a.T.copy()
    best = float("inf")
    for _ in range(30):
        t = time.perf_counter()
        a @ b
        best = min(best, time.perf_counter() - t)
    return 2 * 256**3 / best / 1e6


def layers(model):
    net = model["bilipnet"]
    ortho = [np.array(o["r"]) for o in net["orthogonal"]], [np.array(o["b"]) for o in net["orthogonal"]]
    mono = []
    for m in net["monotone"]:
        hidden = m["hidden"]
        s = np.array(m["s"])
        v = [np.array(x) for x in m["v"]]
        mono.append((m["mu"], m["gamma"], hidden, s, v, np.array(m["b_hidden"]), np.array(m["b_out"])))
    return ortho, mono


def active_counts(ortho, mono, x):
    """Active units per block of each monotone layer on the forward pass at x."""
    (rs, bs) = ortho
    u = rs[0] @ x + bs[0]
    counts = []
    for k, (mu, gamma, hidden, s, v, bh, bo) in enumerate(mono):
        pre = bh + np.sqrt(2 * gamma) * (s @ u)
        z = np.zeros_like(pre)
        start = 0
        per_block = []
        for j, h in enumerate(hidden):
            block = pre[start:start + h].copy()
            if j > 0:
                prev = z[start - hidden[j - 1]:start]
                block += v[j - 1] @ prev
            z[start:start + h] = np.maximum(block, 0.0)
            per_block.append(int((block > 0).sum()))
            start += h
        counts.append(per_block)
        out = mu * u + np.sqrt(gamma / 2) * (s.T @ z) + bo
        u = rs[k + 1] @ out + bs[k + 1]
    return counts


def step_work(n, hidden, a):
    total, act = sum(hidden), sum(a)
    forward = 2 * total * n + sum(2 * a[k - 1] * hidden[k] for k in range(1, len(hidden))) + 2 * act * n
    jacobian = sum(2 * n * a[k] * a[k - 1] for k in range(1, len(hidden))) + 2 * act * n * n
    solve = 2 * n**3 / 3 + 2 * n * n
    return forward, jacobian, solve


def main():
    limit = limit_flops_per_us()
    print(f"limit: {limit:,.0f} flop/µs (one thread, f64 256x256 matrix product)\n")
    print("| model | n | depth × hidden | head | Newton steps (mean) | work per inverse (kflop) | "
          "µs (median, `loink eval`) | kflop/µs | share of the limit |")
    print("|---|---|---|---|---|---|---|---|---|")
    for spec in sys.argv[1:]:
        label, rest = spec.split("=", 1)
        path, results = rest.split(":", 1)
        model = json.load(open(path))
        charts = 1
        if model.get("kind") == "charts":
            # Every chart proposes (its own inverse), the cheapest feasible answer wins: the
            # work is K inverses of the first chart's size.
            charts = len(model["charts"])
            model = model["charts"][0]["model"]
        ortho, mono = layers(model)
        norm = model["normalisation"]
        n = len(norm["x_shift"])
        rows = list(csv.DictReader(open(results)))
        iterations = statistics.mean(int(r["iterations"]) for r in rows) / charts
        micros = statistics.median(float(r["micros"]) for r in rows)
        per_layer = []
        for r in rows[:300]:
            q = np.array([float(r[f"q{i + 1}"]) for i in range(n)])
            x = (q - np.array(norm["x_shift"])) / np.array(norm["x_scale"])
            per_layer.append(active_counts(ortho, mono, x))
        d = len(mono)
        mean_step, mean_forward = 0.0, 0.0
        for l, (_, _, hidden, *_rest) in enumerate(mono):
            works = [step_work(n, hidden, c[l]) for c in per_layer]
            f = statistics.mean(w[0] for w in works)
            mean_forward += f
            mean_step += statistics.mean(sum(w) for w in works)
        mean_step /= d
        head = model.get("section_head")
        head_work = 0
        if head:
            head_work = sum(2 * len(layer["w"]) * len(layer["w"][0]) for layer in head["layers"])
        orthogonal = 2 * (d + 1) * n * n * 2
        work = charts * (head_work + mean_forward + orthogonal + iterations * mean_step)
        hidden = mono[0][2]
        shape = f"{d} × {hidden}" + (f", {charts} charts" if charts > 1 else "")
        rate = work / micros
        print(f"| {label} | {n} | {shape} | {'σ(ỹ) ' + str([len(l['b']) for l in head['layers'][:-1]]) if head else 'none'} "
              f"| {iterations:.2f} | {work / 1e3:.1f} | {micros:.1f} | {rate / 1e3:.2f} | {100 * rate / limit:.1f} % |")


if __name__ == "__main__":
    main()
