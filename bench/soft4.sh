#!/usr/bin/env bash
# The model-free soft arm: LOInK and the flow baseline, both learned from the same data file,
# against black-box DLS and the reference optimum, on 1,000 random reachable targets (seed 1).
# Every row is a `loink eval` run (the numbers a user of the CLI gets); the table is
# bench/results/soft4.md, which bench/compose.sh puts into BENCHMARKS.md.
#   bash bench/soft4.sh [COUNT]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
count=${1:-1000}
loink=target/release/loink
out=bench/results/soft4
mkdir -p "$out"
cargo build --release -q -p loink-train
lo=web/models/soft4.json
flow=web/models/soft4-flow.json
"$loink" targets --problem soft4 --count "$count" --seed 1 --out "$out/targets.csv" >/dev/null
sigma=$(bash bench/flow_sigma.sh soft4 "$flow" "$out")
echo "flow sampling scale: σ = $sigma (chosen on 200 other targets)"

run() { # NAME ARGS...
    local name=$1; shift
    echo "== $name: loink eval $*"
    "$loink" eval "$@" --targets "$out/targets.csv" --out "$out/$name.csv" >/dev/null
}
run reference --problem soft4 --solver reference
run loink --model "$lo"
run loink-feedback2 --model "$lo" --feedback 2
run loink-refine3 --model "$lo" --refine 3
run flow --model "$flow"
run flow-best8 --model "$flow" --samples 8 --sigma "$sigma" --seed 1
run flow-best32 --model "$flow" --samples 32 --sigma "$sigma" --seed 1
run dls --problem soft4 --solver dls
python3 bench/soft4_table.py "$out" "$sigma" "$count" > bench/results/soft4.md
cat bench/results/soft4.md
