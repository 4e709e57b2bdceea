"""The soft arm's benchmark table from the `loink eval` results bench/soft4.sh leaves.

    python3 bench/soft4_table.py DIR SIGMA COUNT          the markdown page
    python3 bench/soft4_table.py --pick-sigma DIR S1 S2…  the flow's sampling scale

Every gap is (J − J*)/J* against the reference run on the same targets (same row order);
"within" counts answers inside the limits (1e-6 rad), within 0.01 mm of the target and 1 % of J*.
"""

import csv
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts"))
from order_stats import median, quantile  # noqa: E402  (the project's quantile)

ROWS = [
    ("loink", "LOInK one-shot, x* = G⁻¹([y; 0])"),
    ("loink-feedback2", "LOInK + 2 feedback rounds"),
    ("loink-refine3", "LOInK + refine 3"),
    ("flow", "flow, one sample at z = 0"),
    ("flow-best8", "flow, cheapest near sample of 8"),
    ("flow-best32", "flow, cheapest near sample of 32"),
    ("dls", "black-box DLS (finite differences)"),
    ("reference", "reference optimum (16-start polish)"),
]


def read(path):
    with open(path) as f:
        return list(csv.DictReader(f))


def mm(metres):
    """A length in millimetres, in plain or scientific notation as its size asks."""
    value = 1e3 * metres
    return f"{value:.4f}" if value >= 1e-3 or value == 0 else f"{value:.1e}"


def gaps(rows, best):
    out = []
    for r, b in zip(rows, best):
        if float(r["margin"]) < -1e-6 or not r["q1"]:
            out.append(float("nan"))
        else:
            j, js = float(r["cost"]), float(b["cost"])
            out.append((j - js) / max(abs(js), 1e-12))
    return out


def pick_sigma(folder, scales):
    """The flow's sampling scale (bench/flow_sigma.sh): effort gaps against tune-ref.csv, the
    reference on the same targets ((J − J*)/J* of any answer inside the limits, as `loink eval`'s
    effort_gap column)."""
    z0 = read(os.path.join(folder, "tune-z0.csv"))
    reference = read(os.path.join(folder, "tune-ref.csv"))
    limit = 2 * quantile([float(r["residual"]) for r in z0], 0.5)
    best = None
    for s in scales:
        rows = read(os.path.join(folder, f"tune-{s}.csv"))
        miss = quantile([float(r["residual"]) for r in rows], 0.5)
        effort = quantile(gaps(rows, reference), 0.5)
        if miss <= limit and (best is None or effort < best[0]):
            best = (effort, s)
    return best[1] if best else scales[0]


def page(folder, sigma, count):
    best = read(os.path.join(folder, "reference.csv"))
    lines = [
        "## soft4 (model-free)",
        "",
        f"`bash bench/soft4.sh` on {count} random reachable targets (`loink targets --problem soft4"
        " --count 1000 --seed 1`), one `loink eval` per row; µs is wall time per target, simulator"
        f" calls included. The flow samples at σ = {sigma} (its best scale on 200 other targets).",
        "Both learned models read only `target/soft4-data.csv` (200,000 simulator rows);"
        " `web/models/README.md` has their training figures.",
        "",
        "| method | µs median | ee error median (mm) | p95 (mm) | effort gap median | p95 | within 0.01 mm and 1 % of J* | sim calls (median) |",
        "|---|---|---|---|---|---|---|---|",
    ]
    figures = {}
    for name, label in ROWS:
        path = os.path.join(folder, f"{name}.csv")
        if not os.path.exists(path):
            continue
        rows = read(path)
        miss = [float(r["residual"]) for r in rows]
        gap = gaps(rows, best)
        within = sum(
            1
            for r, g in zip(rows, gap)
            if float(r["residual"]) <= 1e-5 and g == g and g <= 0.01
        )
        micros = median(float(r["micros"]) for r in rows)
        calls = median(float(r["sim_calls"]) for r in rows)
        figures[name] = (quantile(miss, 0.5), quantile(gap, 0.5), micros)
        lines.append(
            f"| {label} | {micros:.1f} | {mm(quantile(miss, 0.5))} | {mm(quantile(miss, 0.95))} "
            f"| {100 * quantile(gap, 0.5):.3f} % | {100 * quantile(gap, 0.95):.3f} % "
            f"| {100 * within / len(rows):.1f} % | {calls:.0f} |"
        )
    lines += [
        "",
        "Effort gaps count only answers inside the limits (an answer outside them has none).",
        "",
        "### Against the paper's HSA figures",
        "",
        "| | LOInK | flow (IKFlow) | flow ÷ LOInK |",
        "|---|---|---|---|",
    ]
    if "loink" in figures and "flow" in figures:
        (lm, lg, lt), (fm, fg, ft) = figures["loink"], figures["flow"]
        lines.append(
            f"| here: ee error median, one-shot vs z = 0 | {mm(lm)} mm | {mm(fm)} mm | {fm / lm:.2f}× |"
        )
        lines.append(
            f"| here: effort gap median | {100 * lg:.3f} % | {100 * fg:.3f} % | {fg / lg:.0f}× |"
        )
        lines.append(f"| here: µs per solve (median) | {lt:.1f} | {ft:.1f} | {ft / lt:.1f}× |")
    lines += [
        "| paper (HSA robot): ee error | 0.44 mm | 1.42 mm | 3.2× |",
        "| paper: time per solve | 2.66 ms | 4.51 ms | 1.7× |",
        "",
    ]
    return "\n".join(lines)


if __name__ == "__main__":
    if sys.argv[1] == "--pick-sigma":
        print(pick_sigma(sys.argv[2], sys.argv[3:]))
    else:
        print(page(sys.argv[1], sys.argv[2], sys.argv[3]))
