#!/usr/bin/env bash
# The Python bindings' tests: the module built and installed by pip into a virtual environment
# (scripts/python.sh), then pytest against it and the `loink` binary (answers equal to
# `loink eval`'s, every status, bad input, threads, a URDF of the user's), and mypy's stubtest on the
# module's type stubs.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build-cli.sh
scripts/python.sh
venv=${LOINK_VENV:-target/python-venv}
LOINK_BIN="$PWD/target/release/loink" "$venv/bin/python" -m pytest -q crates/loink-py/tests
# The type stubs (python/loink/_loink.pyi) say what the module has, no more and no less.
"$venv/bin/python" -m mypy.stubtest loink._loink
