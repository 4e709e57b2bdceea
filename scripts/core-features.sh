#!/usr/bin/env bash
# Prints the core crate's optional features (crates/loink/Cargo.toml's [features] table, the
# default set left out), one a line: what scripts/test.sh builds the core with, each alone.
set -euo pipefail
cd "$(dirname "$0")/.."
awk '/^\[features\]/{on=1; next} /^\[/{on=0} on && /^[a-z][a-z0-9-]* *=/{print $1}' crates/loink/Cargo.toml \
  | grep -v '^default$'
