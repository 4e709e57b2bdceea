#!/usr/bin/env bash
# Writes web/models/catalog.json, the page's model menu, from the model files' own cards
# (`loink catalog`); with --check, fails when the committed catalog is not what they give (CI).
# The order below is the menu's: the first is the page's default, and each problem's first model
# is that problem's default. A model file not listed here still appears (after the listed ones).
#   scripts/catalog.sh [--check]
set -euo pipefail
cd "$(dirname "$0")/.."
order=planar3-h28w,planar3-h38w,planar3-h38,planar3-surface,planar3,planar3-h16,planar3-long,planar3-mu0.2
order=$order,planar4,planar3-wide,planar3-wide-charts,planar2,soft4,soft4-flow,climber,panda,panda-flow,panda-pose,panda-pose-flow,panda-axis
order=$order,panda-shelf
scripts/build-cli.sh
target/release/loink catalog --dir web/models --order "$order" --out web/models/catalog.json "$@"
