#!/usr/bin/env bash
# Builds the playground (scripts/build-web.sh) and serves the repository root on 127.0.0.1.
#   scripts/serve.sh [--no-build] [PORT]     (PORT defaults to 8000, or $PORT)
# Python's http.server sends .wasm as application/wasm, which streaming instantiation needs.
set -euo pipefail
cd "$(dirname "$0")/.."
build=1
if [ "${1:-}" = "--no-build" ]; then build=0; shift; fi
port=${1:-${PORT:-8000}}
if [ "$build" = 1 ]; then scripts/build-web.sh; fi
echo "serving the playground at http://127.0.0.1:$port/index.html  (Ctrl-C stops)"
exec python3 -m http.server "$port" --bind 127.0.0.1 --directory . 2>/dev/null
