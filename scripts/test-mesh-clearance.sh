#!/usr/bin/env bash
# `panda-shelf`'s answers graded on the Panda's collision meshes (bench/mesh_clearance.py, Pinocchio
# 4.1.0 with coal, pip-installed into the Python module's venv as the URDF peer suite does), never
# on the spheres its cost was made with: the reference under the full cost must be converged and
# clear of every mesh on at least 99 % of targets under the shelf; the joint-centring reference
# without the scene is reported beside. Writes target/mesh-clearance/table.md.
#   scripts/test-mesh-clearance.sh [TARGETS]   (default 100)
set -euo pipefail
cd "$(dirname "$0")/.."
venv=${LOINK_VENV:-target/python-venv}
count=${1:-100}
scripts/build-cli.sh
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv"
fi
if ! "$venv/bin/python" -c 'import pinocchio, sys; sys.exit(pinocchio.__version__ != "4.1.0")' 2>/dev/null; then
  "$venv/bin/python" -m pip install --quiet pin==4.1.0
fi
dir=target/mesh-clearance
mkdir -p "$dir"
loink=target/release/loink
$loink targets --problem panda-shelf --count "$count" --seed 2 --out "$dir/targets.csv"
$loink eval --problem panda-shelf --solver reference --targets "$dir/targets.csv" --out "$dir/reference.csv" >/dev/null
$loink eval --problem panda --solver reference --targets "$dir/targets.csv" --out "$dir/without-scene.csv" >/dev/null
"$venv/bin/python" bench/mesh_clearance.py "$dir/reference.csv" "$dir/without-scene.csv" \
  --require "$dir/reference.csv=0.99" | tee "$dir/table.md"
