#!/usr/bin/env bash
# Trains every shipped model by its recipe: one `loink train --recipe recipes/NAME.toml` each
# (the recipe holds the trainer, the problem, the data and every option; the model's card
# records the recipe's path and SHA-256). Each model's wall time is printed and appended to
# target/train-models.log; web/models/README.md records the figures measured on them. Then each
# card gets its scope (scripts/model-cards.sh) and the catalog is rewritten.
#
#   scripts/train-models.sh            # every recipe
#   scripts/train-models.sh planar3    # only the recipes whose name contains "planar3"
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -p loink-train
LOINK=target/release/loink
LOG=target/train-models.log
only=${1:-}

for recipe in recipes/*.toml; do
  name=$(basename "$recipe" .toml)
  if [[ -n "$only" && "$name" != *"$only"* ]]; then continue; fi
  echo "== $name: loink train --recipe $recipe" | tee -a "$LOG"
  start=$(date +%s)
  "$LOINK" train --recipe "$recipe" | tee -a "$LOG"
  echo "== $name: $(( $(date +%s) - start )) s wall, load $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$LOG"
done

LOINK=$LOINK scripts/model-cards.sh "$only"
scripts/catalog.sh
