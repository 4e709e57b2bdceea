#!/usr/bin/env bash
# End-to-end tests of the playground in Debian's headless Chromium (playwright-core drives
# /usr/bin/chromium; no browser is downloaded). Installs tests/node_modules from the lock file.
# Screenshots land in tests/artifacts/.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v chromium >/dev/null; then
  echo "test-e2e: chromium is missing (scripts/setup.sh --browser installs it)" >&2
  exit 1
fi
(cd tests && npm ci --no-audit --no-fund --loglevel=error)
[ -f pkg/loink_web_bg.wasm ] || scripts/build-web.sh
cd tests && node --test --test-concurrency=1 e2e/
