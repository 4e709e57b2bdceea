#!/usr/bin/env bash
# Real robots' URDFs, checked by a peer (scripts/urdf_peers.py): the arm chains of
# example-robot-data 6.0.0, fetched from the package index, read by loink and by Pinocchio 4.1.0
# (the oracle, pip-installed into the Python module's venv). Writes the table to
# target/urdf-peers/table.md; exits non-zero when a chain misses a check.
#   scripts/test-urdf-peers.sh [TARGETS_PER_CHAIN]   (default 200)
set -euo pipefail
cd "$(dirname "$0")/.."
venv=${LOINK_VENV:-target/python-venv}
count=${1:-200}
scripts/build-cli.sh
if ! "$venv/bin/python" -c 'import loink' 2>/dev/null; then
  scripts/python.sh
fi
if ! "$venv/bin/python" -c 'import pinocchio, sys; sys.exit(pinocchio.__version__ != "4.1.0")' 2>/dev/null; then
  "$venv/bin/python" -m pip install --quiet pin==4.1.0
fi
dir=target/urdf-peers
robots="$dir/robots"
if [ ! -d "$robots" ]; then
  rm -rf "$dir/wheel"
  "$venv/bin/python" -m pip download --quiet --no-deps example-robot-data==6.0.0 -d "$dir/wheel"
  "$venv/bin/python" - "$dir" <<'PY'
import glob, os, shutil, sys, zipfile
dir = sys.argv[1]
wheel, = glob.glob(os.path.join(dir, "wheel", "example_robot_data-6.0.0-*.whl"))
with zipfile.ZipFile(wheel) as z:
    z.extractall(os.path.join(dir, "unpacked"))
found, = glob.glob(os.path.join(dir, "unpacked", "**", "example-robot-data", "robots"), recursive=True)
shutil.move(found, os.path.join(dir, "robots"))
shutil.rmtree(os.path.join(dir, "unpacked"))
PY
fi
LOINK_BIN="$PWD/target/release/loink" "$venv/bin/python" scripts/urdf_peers.py \
  --robots "$robots" --targets "$count" --out "$dir/table.md"
