#!/usr/bin/env bash
# `make python`: builds the Python module (crates/loink-py, by maturin from the package index)
# and installs it, with pytest, into a virtual environment: target/python-venv, or $LOINK_VENV.
# Idempotent: the venv is made once; pip rebuilds the module from the current sources.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=${LOINK_VENV:-target/python-venv}
python=${PYTHON:-python3}
if [ ! -x "$venv/bin/python" ]; then
  "$python" -m venv "$venv"
  "$venv/bin/python" -m pip install --quiet --upgrade pip
fi
"$venv/bin/python" -m pip install --quiet "./crates/loink-py[test]"
"$venv/bin/python" -c 'import loink; print("loink", loink.__version__, "installed in '"$venv"' (activate: . '"$venv"'/bin/activate)")'
