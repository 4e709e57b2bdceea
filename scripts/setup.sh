#!/usr/bin/env bash
# Installs what the build and the tests need on a fresh Debian machine with Rust. Idempotent:
# each step is skipped when its tool is already there at the right version.
#   scripts/setup.sh --web      the wasm toolchain: target, wasm-bindgen-cli, and wasm-opt (npm binaryen)
#                               — what `make web` needs to rebuild pkg/ byte for byte
#   scripts/setup.sh --browser  also Chromium, ChromeDriver and the Playwright driver (`make test`)
# `make serve` needs none of it.
set -euo pipefail
cd "$(dirname "$0")/.."

log() { printf '\033[1;34m[setup]\033[0m %s\n' "$*"; }

mode=${1:---web}
case "$mode" in
  --web|--browser) ;;
  *) echo "usage: scripts/setup.sh [--web|--browser]" >&2; exit 2 ;;
esac

# The wasm32 target comes through rust-toolchain.toml; `rustup show` installs it if missing.
rustup show active-toolchain >/dev/null 2>&1 || rustup show >/dev/null
rustup target list --installed | grep -q wasm32-unknown-unknown || rustup target add wasm32-unknown-unknown

# wasm-bindgen-cli must match the wasm-bindgen crate in Cargo.lock exactly.
want=$(awk '/^name = "wasm-bindgen"$/{getline; gsub(/version = |"/, ""); print; exit}' Cargo.lock)
have=$(wasm-bindgen --version 2>/dev/null | awk '{print $2}' || true)
if [ -z "$want" ]; then
  echo "setup: no wasm-bindgen in Cargo.lock" >&2; exit 1
fi
if [ "$have" != "$want" ]; then
  log "installing wasm-bindgen-cli $want (have: ${have:-none}); takes ~3 min"
  # Not --locked: the crate registry may lack one of its locked dependency versions.
  cargo install wasm-bindgen-cli --version "$want"
fi

# tests/package.json pins binaryen (wasm-opt, which shrinks pkg/ to the committed bytes), terser
# (which shrinks web/app.js into web/app.min.js) and playwright-core (the browser tests' driver; it downloads no browser).
if [ ! -x tests/node_modules/binaryen/bin/wasm-opt ] || [ ! -d tests/node_modules/playwright-core ] \
  || [ ! -f tests/node_modules/terser/bin/terser ]; then
  log "installing tests/node_modules (binaryen's wasm-opt, terser, playwright-core)"
  (cd tests && npm ci --no-audit --no-fund)
fi

if [ "$mode" = "--browser" ]; then
  if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; then
    log "installing chromium and chromium-driver from Debian"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq chromium chromium-driver >/dev/null
  fi
fi
log "ready"
