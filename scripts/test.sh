#!/usr/bin/env bash
# Every check CI runs, in order, each step timed. Run from anywhere: `make test`.
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TERM_COLOR=${CARGO_TERM_COLOR:-never}

step() { printf '\n\033[1;34m== %s\033[0m\n' "$*"; step_start=$(date +%s); }
done_step() { printf '\033[1;32m-- done in %ss\033[0m\n' "$(( $(date +%s) - step_start ))"; }
total_start=$(date +%s)

step "setup (wasm-bindgen-cli, chromium, playwright-core)"
scripts/setup.sh --browser
done_step

step "format"
cargo fmt --all --check
done_step

step "clippy (native, all targets; both bundle profiles of the web crate for wasm32)"
# The dev profile: the lints are the same, and the checked dependencies serve the per-feature
# checks and rustdoc below.
cargo clippy --workspace --all-targets -- -D warnings
# The page's two bundles (scripts/build-web.sh): the `full` profile and the playground's `slim`.
for profile in full slim; do
  cargo clippy -p loink -p loink-web --target wasm32-unknown-unknown --profile wasm-release \
    --no-default-features --features "$profile" -- -D warnings
done
done_step

step "the core compiles with each optional feature on its own (cargo check)"
for feature in $(scripts/core-features.sh); do
  printf '  loink --features %s\n' "$feature"
  cargo check -q -p loink --no-default-features --features "$feature"
done
cargo check -q -p loink --no-default-features
done_step

step "documentation builds without a warning (rustdoc -D warnings)"
RUSTDOCFLAGS="-D warnings" cargo doc --no-deps --workspace
done_step

step "unit, property and CLI tests (release: burn is too slow unoptimised)"
cargo test --workspace --release
done_step

step "Python bindings: pip install into a fresh venv, pytest against the CLI"
scripts/test-python.sh
done_step

step "real robots' URDFs against Pinocchio (example-robot-data's arms)"
scripts/test-urdf-peers.sh
done_step

step "panda-shelf's answers graded on the collision meshes (Pinocchio and coal)"
scripts/test-mesh-clearance.sh
done_step

step "loink compiles for wasm32 with its default features (the page's bundles build it below)"
cargo check -p loink --target wasm32-unknown-unknown
done_step

step "web/models/catalog.json is what the model files' cards give"
scripts/catalog.sh --check
done_step

step "pkg/ is what the sources build"
scripts/check-pkg.sh
done_step

step "wasm-bindgen tests in headless Chromium"
scripts/test-wasm.sh
done_step

step "end-to-end tests in headless Chromium (Playwright)"
scripts/test-e2e.sh
done_step

printf '\n\033[1;32mall checks passed in %ss\033[0m\n' "$(( $(date +%s) - total_start ))"
