#!/usr/bin/env bash
# The flow's sampling scale σ for its own best of 8, chosen on 200 other targets (seed 7): the
# scale whose answers have the lowest median effort gap among those whose median miss stays
# within twice the z = 0 sample's (bench/soft4_table.py --pick-sigma). Fair to the flow: it gets
# its best scale. Prints σ; the tuning files go to DIR.
#   bash bench/flow_sigma.sh PROBLEM FLOW_MODEL DIR
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
problem=$1 flow=$2 out=$3
loink=target/release/loink
"$loink" targets --problem "$problem" --count 200 --seed 7 --out "$out/tune.csv" >/dev/null
"$loink" eval --problem "$problem" --solver reference --targets "$out/tune.csv" --out "$out/tune-ref.csv" >/dev/null
"$loink" eval --model "$flow" --targets "$out/tune.csv" --out "$out/tune-z0.csv" >/dev/null
for s in 0.1 0.25 0.5 1.0; do
    "$loink" eval --model "$flow" --targets "$out/tune.csv" --out "$out/tune-$s.csv" \
        --samples 8 --sigma "$s" --seed 7 >/dev/null
done
python3 bench/soft4_table.py --pick-sigma "$out" 0.1 0.25 0.5 1.0
