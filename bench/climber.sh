#!/usr/bin/env bash
# The climbing robot (docs/climber.md) on 1,000 targets drawn into its useful stances (seed 1)
# and a 1,000-point drag of the front foot: LOInK (one-shot, 2 feedback rounds, refine 3), DLS,
# IPOPT (casadi: bench/ipopt_climber.py, its own model of the climber) one call from mid-range
# and best of 16, the reference optimum — every method interleaved target by target in one
# `loink bench` run, then each Rust method alone. The table (medians and the spread of times:
# p5, p95, max) is bench/results/climber.md, which bench/compose.sh puts into BENCHMARKS.md.
#   bash bench/climber.sh [COUNT]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
count=${1:-1000}
loink=target/release/loink
out=bench/results/climber
model=${CLIMBER_MODEL:-web/models/climber.json}
python=bench/.venv/bin/python
mkdir -p "$out"
rm -rf "$out/bench"
bash bench/setup-venv.sh >/dev/null
cargo build --release -q -p loink-train
"$python" bench/ipopt_climber.py --check
"$loink" targets --problem climber --count "$count" --seed 1 --out "$out/targets.csv" >/dev/null
"$loink" bench --problem climber --model "$model" --targets "$out/targets.csv" \
    --ipopt-python "$python" --ipopt-starts 16 --out-dir "$out/bench" >/dev/null
"$python" bench/climber_table.py "$out/bench/climber-rows.csv" "$out/bench/climber.md" \
    > bench/results/climber.md
cat bench/results/climber.md
