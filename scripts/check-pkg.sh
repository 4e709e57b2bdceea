#!/usr/bin/env bash
# Fails when the committed pkg/ or web/app.min.js is not what the sources build: rebuilds into a
# temporary directory with scripts/build-web.sh and compares byte for byte.
set -euo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
APP_OUT="$tmp/app.min.js" scripts/build-web.sh "$tmp/pkg" >/dev/null
if ! cmp -s web/app.min.js "$tmp/app.min.js"; then
  echo "check-pkg: web/app.min.js is stale: run scripts/build-web.sh and commit it" >&2
  exit 1
fi
if ! diff -r -q pkg "$tmp/pkg"; then
  echo "check-pkg: pkg/ is stale: run scripts/build-web.sh and commit pkg/" >&2
  for f in "$tmp"/pkg/*.* "$tmp"/pkg/lessons/* "$tmp"/pkg/train/*; do
    b=${f#"$tmp"/pkg/}
    echo "  $b: committed $(wc -c < "pkg/$b" 2>/dev/null || echo missing) B, built $(wc -c < "$f") B" >&2
  done
  exit 1
fi
echo "check-pkg: pkg/ matches the sources"
