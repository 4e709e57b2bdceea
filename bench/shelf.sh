#!/usr/bin/env bash
# The Panda under a shelf (docs/collision.md) on COUNT held-out targets under the board (seed 2026),
# every solver under the full cost (joint centring + 10 × self + 10 × scene collision): the
# reference, DLS, IPOPT (casadi) one call from mid-range and best of 16 (bench/ipopt_chain.py with
# bench/collision_model.py: its own URDF walk and sphere distances), LOInK web/models/panda-shelf.json
# (or SHELF_MODEL=FILE; one-shot and refine 3), and panda.json without the scene. Every answer is replayed by the independent
# kinematics, its spheres measured by bench/collision_model.py and its meshes by Pinocchio and coal
# (bench/mesh_clearance.py). The table is bench/results/shelf.md.
#   bash bench/shelf.sh [COUNT]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
count=${1:-500}
loink=target/release/loink
out=bench/results/shelf
model=${SHELF_MODEL:-web/models/panda-shelf.json}
python=bench/.venv/bin/python
mkdir -p "$out"
rm -f "$out"/*.csv
bash bench/setup-venv.sh >/dev/null
"$python" -c 'import pinocchio' 2>/dev/null || "$python" -m pip install --quiet pin==4.1.0
cargo build --release -q -p loink-train
"$loink" targets --problem panda-shelf --count "$count" --seed 2026 --out "$out/targets.csv" >/dev/null
run() { # NAME ARGS...
    local name=$1; shift
    echo "== $name: loink eval $*"
    "$loink" eval "$@" --targets "$out/targets.csv" --out "$out/$name.csv" >/dev/null
}
run reference --problem panda-shelf --solver reference
run dls --problem panda-shelf --solver dls
if [ -n "$model" ] && [ -f "$model" ]; then
    run loink --model "$model" --no-gap
    run loink-refine3 --model "$model" --refine 3 --no-gap
fi
run panda-loink-refine3 --model web/models/panda.json --refine 3 --no-gap
echo "== ipopt: mid-range and best of 16"
"$python" bench/ipopt_chain.py --robot panda-shelf --targets "$out/targets.csv" --out-dir "$out" \
    --methods mid,best-16
"$python" bench/shelf_table.py "$out" "$count" > bench/results/shelf.md
cat bench/results/shelf.md
