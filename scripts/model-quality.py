#!/usr/bin/env python3
"""Measures every shipped LOInK model on 1,000 held-out targets of its problem and writes the
table between the quality markers of web/models/README.md.

    python3 scripts/model-quality.py                   (after cargo build --release -p loink-train)
    python3 scripts/model-quality.py panda-pose ...    (only these models' rows; the others kept)

Targets: `loink targets --robot P --count 1000 --seed 2026` (not the training seed). Each model is
run by `loink eval` one-shot, with two feedback rounds and with --refine 3; the table reads the
rows' residual, status and gap columns.
"""
import csv
import gzip
import json
import math
import os
import subprocess
import sys
import tempfile

from order_stats import median, quantile  # the project's quantile (scripts/order_stats.py)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LOINK = os.path.join(ROOT, "target", "release", "loink")
README = os.path.join(ROOT, "web", "models", "README.md")
BEGIN, END = "<!-- quality:begin -->", "<!-- quality:end -->"


def run(args):
    subprocess.run([LOINK, *args], check=True, cwd=ROOT, capture_output=True)


def rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def length(metres):
    if metres < 1e-3:
        return f"{metres * 1e6:.3g} µm"
    if metres < 1.0:
        return f"{metres * 1e3:.3g} mm"
    return f"{metres:.3g} m"


def gap(row):
    """The row's gap (J − J*)/J* (J − J* over the floor 1e-3 where the file says the gap is
    absolute, J* being near 0), ∞ when it has none (an infeasible or unsolved answer)."""
    text = row.get("gap", "")
    value = float(text) if text.strip() else math.nan
    if row.get("gap_absolute", "0").strip() in ("1", "1.0"):
        value /= 1e-3
    return math.inf if math.isnan(value) else max(value, 0.0)


def percent(value):
    if math.isinf(value):
        return "∞"
    return "> 10,000 %" if value > 100 else f"{100 * value:.3f} %"


def within_one_percent(row):
    return row["status"] == "converged" and gap(row) <= 0.01


def main():
    catalog = json.load(open(os.path.join(ROOT, "web", "models", "catalog.json")))
    tmp = tempfile.mkdtemp()
    lines = [
        "| model | download (gzip) | one-shot residual median / p95 | one-shot angle median / mean | "
        "feedback 2: residual median | `--refine 3`: within 1 % of J\\* | gap median / p95 (`--refine 3`) |",
        "|---|---|---|---|---|---|---|",
    ]
    only = set(sys.argv[1:])
    text = open(README, encoding="utf-8").read()
    head, rest = text.split(BEGIN, 1)
    table, tail = rest.split(END, 1)
    kept = {}
    for line in table.strip().splitlines()[2:]:
        cells = line.split("|")
        if len(cells) == 8:  # a row from before the angle column: no angle, as for a position task
            cells.insert(4, " — ")
        name = cells[1].strip().replace("**", "").replace(" (default)", "")
        kept[name] = "|".join(cells)
    for model in catalog["models"]:
        if model["kind"] not in ("loink", "charts"):
            continue
        if only and model["name"] not in only:
            if model["name"] in kept:
                lines.append(kept[model["name"]])
            continue
        problem, file = model["problem"], model["file"]
        targets = os.path.join(tmp, f"targets-{problem}.csv")
        if not os.path.exists(targets):
            # A task that turns the hand is measured on its tabletop set (docs/pose.md).
            cone = ["--cone", "60"] if problem.endswith(("-pose", "-axis")) else []
            run(["targets", "--robot", problem, "--count", "1000", "--seed", "2026", *cone, "--out", targets])
        out = {}
        for name, extra in [("fb0", ["--no-gap"]), ("fb2", ["--feedback", "2", "--no-gap"]), ("r3", ["--refine", "3"])]:
            path = os.path.join(tmp, f"{model['name']}-{name}.csv")
            run(["eval", "--model", file, "--targets", targets, "--out", path, *extra])
            out[name] = rows(path)
        one_shot = [float(r["residual"]) for r in out["fb0"]]
        angles = [math.degrees(float(r["angle"])) for r in out["fb0"] if "angle" in r]
        angle = (f"{median(angles):.2f}° / {sum(angles) / len(angles):.2f}°" if angles else "—")
        feedback = [float(r["residual"]) for r in out["fb2"]]
        refined = out["r3"]
        hits = sum(within_one_percent(r) for r in refined) / len(refined)
        gaps = [gap(r) for r in refined]
        size = len(gzip.compress(open(os.path.join(ROOT, file), "rb").read(), 9))
        label = f"**{model['name']}** (default)" if model["default"] else model["name"]
        lines.append(
            f"| {label} | {size / 1000:.1f} kB | {length(median(one_shot))} / "
            f"{length(quantile(one_shot, 0.95))} | {angle} | {length(median(feedback))} | "
            f"{100 * hits:.1f} % | {percent(median(gaps))} / {percent(quantile(gaps, 0.95))} |"
        )
        print(lines[-1], file=sys.stderr)
    open(README, "w", encoding="utf-8").write(head + BEGIN + "\n" + "\n".join(lines) + "\n" + END + tail)
    print(f"wrote the quality table of {README}")


if __name__ == "__main__":
    main()
