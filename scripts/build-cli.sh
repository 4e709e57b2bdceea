#!/usr/bin/env bash
# Builds target/release/loink as `cargo test --workspace --release` builds it: with the tests'
# features (dev-dependencies unify features of shared crates such as rand and nalgebra, so a plain
# `cargo build -p loink-train` compiles the core, burn and the CLI a second time). Run after the
# tests it builds nothing; run alone it builds the tests too.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo test -q --release --workspace --no-run
test -x target/release/loink
