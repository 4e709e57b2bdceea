#!/usr/bin/env bash
# The benchmark in one command, from a fresh clone:
#   bash bench/run.sh            full run: 1,000 random targets + a 1,000-point path
#   bash bench/run.sh --quick    200 + 200, under 2 minutes once built
# Creates bench/.venv (casadi/IPOPT), builds the release binary, writes the targets
# (seeded), runs `loink bench` and leaves the table, all rows and the plot in bench/results/
# (bench/results/quick/ for --quick). Extra arguments go to `loink bench`.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

quick=()
out=bench/results
count=1000
if [ "${1:-}" = "--quick" ]; then
    shift
    quick=(--quick)
    out=bench/results/quick
    count=200
fi
robot="${ROBOT:-planar3}"
model="${MODEL:-web/models/$robot.json}"

bash bench/setup-venv.sh
cargo build --release -p loink-train
loink=target/release/loink
mkdir -p "$out"
targets="$out/targets-$robot.csv"
if "$loink" targets --help >/dev/null 2>&1; then
    "$loink" targets --robot "$robot" --count "$count" --seed 1 --out "$targets"
else
    # Same definition (y = p(q_s), q_s uniform in the limits), numpy's seeded generator.
    bench/.venv/bin/python bench/ipopt_planar3.py --robot "$robot" --generate "$count" --seed 1 --targets "$targets"
fi

model_args=()
if [ -f "$model" ]; then
    model_args=(--model "$model")
else
    echo "warning: no model at $model: the table has no LOInK rows (set MODEL=path)" >&2
fi
"$loink" bench --robot "$robot" "${model_args[@]}" --targets "$targets" "${quick[@]}" \
    --ipopt-python bench/.venv/bin/python --out-dir "$out" "$@"
