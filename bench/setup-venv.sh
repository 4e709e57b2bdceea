#!/usr/bin/env bash
# Creates bench/.venv (gitignored) with the pinned IPOPT baseline (casadi, numpy).
# Idempotent: skips the install when the venv already has the pinned versions.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
venv="$here/.venv"
python="${PYTHON:-python3}"
if [ ! -x "$venv/bin/python" ]; then
    "$python" -m venv "$venv"
fi
if ! "$venv/bin/python" -c 'import casadi, numpy, sys; sys.exit(0 if casadi.__version__ == "3.8.2" else 1)' 2>/dev/null; then
    "$venv/bin/python" -m pip install --quiet --upgrade pip
    "$venv/bin/python" -m pip install --quiet -r "$here/requirements.txt"
fi
"$venv/bin/python" -c 'import casadi, numpy; print("bench venv ready: casadi", casadi.__version__, "numpy", numpy.__version__)'
