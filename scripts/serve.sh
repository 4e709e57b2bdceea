#!/usr/bin/env bash
# Serves the repository root on 127.0.0.1 as it is: pkg/ is committed (and CI proves it is what the
# sources build), so nothing is installed or built and the page is up in about a second.
#   scripts/serve.sh [--build] [PORT]     (PORT defaults to 8000, or $PORT)
#   --build   first rebuild pkg/ from the sources (`make web`), e.g. after changing crates/
# Python's http.server sends .wasm as application/wasm, which streaming instantiation needs.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" = "--build" ]; then
  shift
  scripts/setup.sh --web
  scripts/build-web.sh
fi
port=${1:-${PORT:-8000}}
echo "serving the playground at http://127.0.0.1:$port/index.html  (Ctrl-C stops)"
exec python3 -m http.server "$port" --bind 127.0.0.1 --directory . 2>/dev/null
