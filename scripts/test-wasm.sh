#!/usr/bin/env bash
# wasm-bindgen tests of the bindings (crates/loink-web/tests/web.rs) in headless Chromium
# through ChromeDriver. The runner is wasm-bindgen-test-runner (from wasm-bindgen-cli, matching
# Cargo.lock; .cargo/config.toml names it); webdriver.json passes the root-safe Chromium flags.
set -euo pipefail
cd "$(dirname "$0")/.."
export CHROMEDRIVER=${CHROMEDRIVER:-/usr/bin/chromedriver}
export WASM_BINDGEN_TEST_TIMEOUT=${WASM_BINDGEN_TEST_TIMEOUT:-120}
cd crates/loink-web
cargo test -p loink-web --target wasm32-unknown-unknown --test web
