#!/usr/bin/env bash
# The Franka Panda (docs/panda.md): the classical side on 1,000 uniform-q targets (seed 1) —
# the reference optimum and DLS (`loink eval`), IPOPT (casadi) one call from mid-range and best
# of 16 starts (bench/ipopt_chain.py, its own URDF reader and kinematics). The table is
# bench/results/panda.md, which bench/compose.sh puts into BENCHMARKS.md.
#   bash bench/panda.sh [COUNT]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
count=${1:-1000}
loink=target/release/loink
out=bench/results/panda
mkdir -p "$out"
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
echo "== ipopt: mid-range and best of 16 (about $((count * 200 / 1000)) s)"
bench/.venv/bin/python bench/ipopt_chain.py --urdf robots/panda/panda.urdf --base panda_link0 \
    --tip panda_hand_tcp --hold panda_joint7=0 --targets "$out/targets.csv" --out-dir "$out" \
    --methods mid,best-16
bench/.venv/bin/python bench/panda_table.py "$out" "$count" > bench/results/panda.md
cat bench/results/panda.md
