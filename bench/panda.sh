#!/usr/bin/env bash
# The Franka Panda (docs/panda.md) on 1,000 uniform-q targets (seed 1): the reference optimum,
# DLS, IPOPT (casadi) one call from mid-range and best of 16 (bench/ipopt_chain.py, its own URDF
# reader and kinematics), and — when the models exist — LOInK (one-shot, 2 feedback rounds,
# refine 3), the IKFlow-style flow (z = 0, cheapest near of 8) and the direct regression. Every
# answer is replayed through bench/ipopt_chain.py's kinematics, and the gap of an answer that
# misses is also measured at the point it reaches (its own J* there). The table is
# bench/results/panda.md, which bench/compose.sh puts into BENCHMARKS.md.
#   bash bench/panda.sh [COUNT]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
count=${1:-1000}
loink=target/release/loink
out=bench/results/panda
model=${PANDA_MODEL:-web/models/panda.json}
flow=${PANDA_FLOW:-web/models/panda-flow.json}
mse=${PANDA_MSE:-web/models/panda-mse.json}
python=bench/.venv/bin/python
mkdir -p "$out"
rm -rf "$out"/*.csv "$out/bench"
bash bench/setup-venv.sh >/dev/null
cargo build --release -q -p loink-train
"$loink" targets --problem panda --count "$count" --seed 1 --out "$out/targets.csv" >/dev/null
run() { # NAME ARGS...
    local name=$1; shift
    echo "== $name: loink eval $*"
    "$loink" eval "$@" --targets "$out/targets.csv" --out "$out/$name.csv" >/dev/null
}
run reference --problem panda --solver reference
run dls --problem panda --solver dls
if [ -f "$model" ]; then
    run loink --model "$model" --no-gap
    run loink-feedback2 --model "$model" --feedback 2 --no-gap
    run loink-refine3 --model "$model" --refine 3 --no-gap
fi
if [ -f "$flow" ]; then
    sigma=$(bash bench/flow_sigma.sh panda "$flow" "$out")
    echo "flow sampling scale: σ = $sigma (chosen on 200 other targets)"
    echo "$sigma" > "$out/flow-sigma.txt"
    run flow --model "$flow" --no-gap
    run flow-best8 --model "$flow" --samples 8 --sigma "$sigma" --seed 1 --no-gap
fi
if [ -f "$mse" ]; then
    run mse --model "$mse"
fi
echo "== ipopt: mid-range and best of 16 (about $((count * 200 / 1000)) s)"
"$python" bench/ipopt_chain.py --robot panda --targets "$out/targets.csv" --out-dir "$out" \
    --methods mid,best-16
# J* where each approximate answer actually lands: the reached points, by the independent
# kinematics, through the reference.
for name in loink loink-feedback2 flow flow-best8 mse; do
    if [ -f "$out/$name.csv" ]; then
        "$python" bench/panda_table.py --reached "$out/$name.csv" > "$out/reached-$name.targets.csv"
        "$loink" eval --problem panda --solver reference --targets "$out/reached-$name.targets.csv" \
            --out "$out/reached-$name.csv" >/dev/null
    fi
done
if [ -f "$model" ]; then
    echo "== loink bench: every method in one run, cold on the targets and warm along a path"
    "$loink" bench --problem panda --model "$model" --targets "$out/targets.csv" \
        --ipopt-python "$python" --out-dir "$out/bench" >/dev/null
fi
"$python" bench/panda_table.py "$out" "$count" > bench/results/panda.md
cat bench/results/panda.md
