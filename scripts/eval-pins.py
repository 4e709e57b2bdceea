#!/usr/bin/env python3
"""Regenerates crates/loink-train/tests/fixtures/eval-pins.json: the `loink eval` rows that
crates/loink-train/tests/eval_pins.rs holds every later build to (every column but `micros`).

Each case is one `loink eval` command on the first four targets of `loink targets --count 4
--seed 7` for its problem. Regenerate only when a change is meant to move answers, and say so
where it lands:

    cargo build --release -p loink-train && python3 scripts/eval-pins.py [--check]

--check compares instead of writing (every column but `micros`) and exits 1 on a difference.
"""
import csv
import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LOINK = ROOT / "target" / "release" / "loink"
FIXTURE = ROOT / "crates" / "loink-train" / "tests" / "fixtures" / "eval-pins.json"
TARGET_SEED = "7"
TARGET_COUNT = "4"

CLASSICAL = [
    ("planar3-reference", "planar3", ["--solver", "reference"]),
    ("planar3-dls", "planar3", ["--solver", "dls"]),
    ("planar3-dls-seed3", "planar3", ["--solver", "dls", "--seed", "3"]),
    ("planar3-wide-dls", "planar3-wide", ["--solver", "dls"]),
    ("planar4-dls", "planar4", ["--solver", "dls"]),
    ("planar4-reference", "planar4", ["--solver", "reference"]),
    ("planar2-analytic", "planar2", ["--solver", "analytic"]),
    ("planar2-dls", "planar2", ["--solver", "dls"]),
]
# (model file stem, its problem, the settings pinned: one-shot, 2 feedback rounds, 3 refinement steps)
LEARNED = [
    ("planar3-h28w", "planar3", ["fb0", "fb2", "r3"]),
    ("planar3-h38w", "planar3", ["fb0", "fb2", "r3"]),
    ("planar3", "planar3", ["fb0", "fb2", "r3"]),
    ("planar3-wide", "planar3-wide", ["fb0", "fb2", "r3"]),
    ("planar3-mu0.2", "planar3", ["fb0", "fb2", "r3"]),
    ("planar3-h16", "planar3", ["fb0", "fb2", "r3"]),
    ("planar4", "planar4", ["fb0", "r3"]),
]
SETTING = {"fb0": [], "fb2": ["--feedback", "2"], "r3": ["--refine", "3"]}
SAMPLED = [
    ("planar3-h38w-sigma", "planar3",
     ["--model", "web/models/planar3-h38w.json", "--sigma", "0.3", "--samples", "3", "--seed", "5"]),
]


def cases():
    for name, robot, args in CLASSICAL:
        yield name, robot, ["--robot", robot] + args
    for stem, robot, settings in LEARNED:
        for s in settings:
            yield f"{stem}-{s}", robot, ["--model", f"web/models/{stem}.json"] + SETTING[s]
    yield from SAMPLED


def run(args, cwd):
    subprocess.run([str(LOINK), *args], cwd=cwd, check=True, stdout=subprocess.DEVNULL)


def main():
    check = "--check" in sys.argv[1:]
    out = []
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        for name, robot, args in cases():
            targets = tmp / f"{robot}-targets.csv"
            if not targets.exists():
                run(["targets", "--robot", robot, "--count", TARGET_COUNT, "--seed", TARGET_SEED,
                     "--out", str(targets)], ROOT)
            results = tmp / f"{name}.csv"
            run(["eval", *args, "--targets", str(targets), "--out", str(results)], ROOT)
            with open(targets, newline="") as f:
                target_rows = list(csv.reader(f))[1:]
            with open(results, newline="") as f:
                header, *rows = list(csv.reader(f))
            out.append({"name": name, "args": args, "targets": target_rows, "header": header, "rows": rows})
    if check:
        pinned = json.loads(FIXTURE.read_text())

        def without_micros(case):
            m = case["header"].index("micros")
            return {**case, "rows": [r[:m] + r[m + 1:] for r in case["rows"]]}

        same = [without_micros(c) for c in pinned] == [without_micros(c) for c in out]
        print("eval-pins: the fixture is what the tree gives" if same else "eval-pins: the fixture differs")
        sys.exit(0 if same else 1)
    FIXTURE.write_text(json.dumps(out, indent=1, ensure_ascii=False))
    print(f"eval-pins: wrote {len(out)} cases to {FIXTURE.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
