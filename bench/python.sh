#!/usr/bin/env bash
# LOInK from Python against `loink eval` on held-out Panda targets (bench/python.py):
#   bash bench/python.sh [COUNT] [SEED]     → bench/results/python.md
# Builds the CLI and the module (scripts/python.sh: target/python-venv) first.
set -euo pipefail
cd "$(dirname "$0")/.."
count=${1:-1000}
seed=${2:-2026}
cargo build -q --release -p loink-train
scripts/python.sh >/dev/null
"${LOINK_VENV:-target/python-venv}/bin/python" bench/python.py --count "$count" --seed "$seed"
