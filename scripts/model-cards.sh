#!/usr/bin/env bash
# Writes each shipped model's scope into its card (`loink card`: the weights are kept bit for
# bit): what of the paper a view of the model reproduces, and what it does not, and its problem's
# experiment as the page's list of experiments words it (a title and one line). The page's model
# card shows the scope; `loink catalog` refuses a page model without all four. scripts/train-models.sh
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

# experiment NAME TITLE LINE
experiment() {
  local out="web/models/$1.json"
  if [[ -n "$only" && "$out" != *"$only"* ]]; then return; fi
  "$LOINK" card --model "$out" --experiment-title "$2" --experiment-line "$3"
}

for name in planar3-h28w planar3-h38w planar3-h38 planar3-surface planar3 planar3-h16 planar3-long planar3-mu0.2; do
  experiment "$name" 'The planar arm (3 links)' 'the paper'"'"'s planar arm: one redundant joint, the optimum at z = 0'
done
experiment planar4 'Four links' 'two redundant joints: a latent plane instead of a line'
experiment planar3-wide 'Wide joint limits' 'wide joint limits cut a solution set into pieces one chart cannot cover'
experiment planar3-wide-charts 'Wide joint limits, eight charts' 'several charts, each where the pieces stay whole: the cheapest feasible proposal wins'
experiment planar2 'Two links' 'no redundancy: two elbow branches and the chart that picks one'
for name in soft4 soft4-flow; do
  experiment "$name" 'A soft arm (model-free)' 'model-free: learned from a data file alone, against a normalising flow'
done
experiment climber 'A climbing robot (Magneto)' 'where to stand on a wall so the magnets hold least: a 2-D latent of body tilt and slide'
for name in panda panda-flow; do
  experiment "$name" 'The Franka Panda (3-D)' 'a real 7-joint arm from its URDF: n = 6, a 3-D task and a 3-D latent'
done
for name in panda-pose panda-pose-flow panda-pose-mse; do
  experiment "$name" 'The hand placed and turned (the Panda)' 'the full pose: n = 7, m = 6, the elbow as a one-dimensional latent, its answers in pieces'
done
experiment panda-axis 'The hand placed, its tool axis pointed (the Panda)' 'position and tool axis: n = 7, m = 5, a latent plane of elbow and turn'
experiment panda-shelf 'Under a shelf (the Panda)' 'collisions in the cost: the cheapest posture clear of the arm itself, the table and a shelf board'

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
card panda \
  'the paper'"'"'s central claim on a real arm: the cheapest posture for each target at latent z = 0 of one bi-Lipschitz map, found by one inverse; one chart suffices in the front sector (azimuth within ±120°, 0.25–0.75 m out, 0.05–0.90 m up: with three polish steps within 1 % of the optimum on every benchmark target there), and on 97 % of uniform-q targets of the whole workspace (BENCHMARKS.md)' \
  'the paper'"'"'s arms and timings, and behind the base: there the two mirror optima tie and the optimal posture jumps, which one chart cannot follow (its answer there is a good start for the polish, not the optimum); the anchors at the reference optimum are ours'
card panda-flow \
  'the baseline of the learned-IK literature on the Panda: an IKFlow-style conditional normalising flow, sampled at z = 0 or the cheapest of K samples' \
  "IKFlow's own networks, full-pose task and training budget: this flow is the best of a small sweep, trained on two CPU cores on uniform configurations"
card climber \
  'the paper'"'"'s climbing-robot experiment in spirit: for each foothold and body height, the posture that needs the least magnet force at latent z = 0, found by one inverse instead of an optimiser' \
  'the paper'"'"'s own formulation and robot model, which are not public: this side view with lumped leg pairs, the equal-joint-stiffness force sharing and the soft ankle and tilt terms are ours (docs/climber.md)'
card panda-pose \
  'the paper'"'"'s central claim on the full pose: for a hand placed and turned, the cheapest of the elbow'"'"'s postures at latent z = 0, found by inverting eight charts (orientation references turned 0° and 180° about the tool axis, each covering the orientations within 110° of its own, times four pieces of the answers: q5 below −π/2, above π/2, and inside split by the sign of q2, because the optimum jumps between pieces) and keeping the cheapest feasible proposal; with three polish steps it lands within 1 % of J* far more often than DLS or a local solve from mid-range (BENCHMARKS.md)' \
  'a one-shot answer on the target: unrefined, the charts land centimetres and degrees off (each fits its piece to about 4 cm at the optimum), so its view opens with LOInK + refine (three polish steps), an answer on the target; with three polish steps it misses the optimum on 15 % of tabletop targets (BENCHMARKS.md), mostly where its chart'"'"'s answer lands a decimetre off (median 94 mm unrefined on the misses, 34 mm on the hits) and the polish ends on another piece: each chart'"'"'s region holds two to four arcs of the answers, which one bijection cannot follow (docs/pose.md); the paper'"'"'s arms and timings'
card panda-axis \
  'LOInK with a two-dimensional latent on a real arm: the hand placed and its tool axis pointed, the turn about the axis left free, the cheapest of the elbow-and-turn postures at z = 0 of four charts (the pieces of the answers), with one stereographic axis chart over the whole tabletop cone' \
  'a one-shot answer on the target (its view opens with LOInK + refine) and the targets outside the tabletop cone (the tool axis more than 60° from straight down); the paper'"'"'s arms and timings'
card panda-shelf \
  'the paper'"'"'s claim that whatever is in the cost is learned into z = 0, with collisions in the cost: the cheapest posture clear of the arm'"'"'s own links, the table and a shelf board (spheres fitted to the URDF'"'"'s collision meshes), found by inverting two charts (the elbow swung out to either side) and keeping the cheapest feasible proposal; answers checked against the meshes (BENCHMARKS.md)' \
  'a scene that changes: the shelf is fixed at training time, so a moved shelf is not in the map (the readout still measures the answer against the trained one); the paper'"'"'s arms and timings'
card panda-pose-flow \
  'the baseline of the learned-IK literature on the full pose: an IKFlow-style conditional normalising flow on tabletop configurations, sampled at z = 0 or the cheapest of K samples' \
  "IKFlow's own networks and training budget (trained on two CPU cores); it does not know the cost, so its answer's gap to the optimum is what sampling gives"
card panda-pose-mse \
  'the averaging trap on the full pose: a direct regression from the pose to the joints, trained by mean squared error, answers between the elbow'"'"'s postures' \
  'a solver to use: its answers are averages of postures, off the target; it is here as the baseline the other models are measured against'

card planar2-mse \
  'the averaging trap of the paper: a direct regression from the target to the joints, trained by mean squared error on both elbow branches, answers between them (off the target)' \
  'a solver to use: it is the baseline the averaging lesson measures LOInK against'
card planar2-mdn \
  'the usual way out of the averaging trap: a mixture density network puts one component on each elbow branch, and its most likely component reaches the target' \
  'the cost: its components know nothing of which branch is cheaper, which LOInK puts at z = 0'
card planar3-mdn \
  'a mixture density network on the redundant arm: its components follow postures of the solution set, answering without knowing their cost' \
  'the optimum: its answers reach the target on some posture, not the cheapest one (the averaging lesson measures that gap)'
card panda-mse \
  'the averaging trap on a real arm: a direct regression from the Panda'"'"'s TCP position to its joints, trained by mean squared error, answers between the elbow'"'"'s postures' \
  'a solver to use: its answers are averages of postures, off the target; it is the baseline the other models are measured against'

# Where each view opens: its preset problem's default target, written into the card (the page
# reads it from its catalog): the Panda's arm low and to the side, where the elbow bends and the
# optimum is not the mid-range posture; a pose with the elbow bent; the planar arms halfway out.
opening() {
  local out="web/models/$1.json"
  if [[ -n "$only" && "$out" != *"$only"* ]]; then return; fi
  "$LOINK" card --model "$out" --opening-target "${2:-preset}"
}
for name in planar3-h28w planar3-h38w planar3-h38 planar3-surface planar3 planar3-h16 planar3-long \
  planar3-mu0.2 planar4 planar3-wide planar3-wide-charts planar2 soft4 climber panda panda-pose panda-axis \
  panda-shelf; do
  opening "$name"
done

# The solver each view opens with when its link names none: the pose views' one-shot answers land
# centimetres off, and under the shelf a few millimetres off is inside the board's margin, so they
# open with three polish steps (the page's default refine) on top.
for name in panda-pose panda-axis panda-shelf; do
  out="web/models/$name.json"
  if [[ -n "$only" && "$out" != *"$only"* ]]; then continue; fi
  "$LOINK" card --model "$out" --opening-solver loink-refine
done
