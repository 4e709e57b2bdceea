#!/usr/bin/env bash
# Writes each shipped model's scope into its card (`loink card`: the weights are kept bit for
# bit): what of the paper a view of the model reproduces, and what it does not. The page's model
# card shows both; `loink catalog` refuses a page model without them. scripts/train-models.sh
# runs this after training.
#
#   scripts/model-cards.sh            # every model
#   scripts/model-cards.sh planar3    # only the ones whose file name contains "planar3"
set -euo pipefail
cd "$(dirname "$0")/.."
LOINK=${LOINK:-target/release/loink}
[ -x "$LOINK" ] || cargo build --release -p loink-train
only=${1:-}

# card NAME REPRODUCES DOES_NOT
card() {
  local out="web/models/$1.json"
  if [[ -n "$only" && "$out" != *"$only"* ]]; then return; fi
  "$LOINK" card --model "$out" --reproduces "$2" --does-not "$3"
}

planar3_reproduces='the central claim of the paper: the cheapest configuration for each target sits at latent z = 0 of an invertible bi-Lipschitz map, found by inverting the network instead of running an optimiser (checked against a global reference optimum)'
planar3_does_not='the arms and timings of the paper: this arm is the benchmark of docs/planar3.md, and its times are measured on two CPU cores (BENCHMARKS.md)'
for name in planar3-h28w planar3-h38w planar3-h38 planar3-surface planar3 planar3-h16 planar3-long; do
  card "$name" "$planar3_reproduces" "$planar3_does_not"
done
card planar3-mu0.2 \
  'what the lower Lipschitz bound μ does: a larger μ makes G⁻¹ less steep, so the joints move more gently along a path and follow fast turns of the optimum less closely' \
  "$planar3_does_not"
card planar4 \
  'LOInK with a two-dimensional latent: the self-motion set of a four-link arm is a surface, and its cheapest point sits at z = 0' \
  'the robots and timings of the paper: this four-link arm is our own, its limits chosen so that its solution sets stay connected'
card planar3-wide \
  'the limitation the paper names: one bijective chart cannot cover solution sets that the joint limits cut into pieces' \
  'a remedy: this model is one chart (planar3-wide-charts is the multi-chart remedy)'
card planar3-wide-charts \
  'the remedy the paper names as future work: several charts, each trained where the solution sets stay connected, the cheapest feasible proposal winning' \
  'the paper itself: it trains one chart; the charts are our extension'
card planar2 \
  'the degenerate case without redundancy (no latent): the map picks one of the two elbow branches, where a direct regression averages them' \
  'anything about the latent origin, which this arm does not have'
card soft4 \
  'the model-free experiment of the paper: LOInK learned from simulator data alone answers with one inverse and no simulator call, against an IKFlow-style flow trained on the same rows' \
  'the HSA robot of the paper and its Cosserat-rod simulator: this steady-state arm and its numbers are our own (docs/soft-arm.md), and a call here costs microseconds, not seconds'
card soft4-flow \
  'the baseline of the model-free experiment: an IKFlow-style conditional normalising flow, sampled at z = 0 or the cheapest of K samples' \
  "IKFlow's own networks and training budget: this flow is the best of a small sweep of depth, width and learning rate, trained on two CPU cores"
