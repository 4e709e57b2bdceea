#!/usr/bin/env bash
# Trains every shipped LOInK model into web/models/ with the exact commands that made the
# committed files (same command, same machine -> the same bytes; each file's card records its
# command). Each model's wall time is printed and appended to target/train-models.log;
# web/models/README.md records the figures measured on them. Then each card gets its scope
# (scripts/model-cards.sh) and the catalog is rewritten.
#
#   scripts/train-models.sh            # all models
#   scripts/train-models.sh planar3    # only the ones whose output name contains "planar3"
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -p loink-train
LOINK=target/release/loink
LOG=target/train-models.log
only=${1:-}

# train OUT DESCRIPTION ARGS...: one `loink train` command; DESCRIPTION is the card's one line.
train() {
  local out=$1 description=$2; shift 2
  if [[ -n "$only" && "$out" != *"$only"* ]]; then return; fi
  echo "== $out: loink train $* --out $out" | tee -a "$LOG"
  local start
  start=$(date +%s)
  "$LOINK" train "$@" --out "$out" --description "$description" | tee -a "$LOG"
  echo "== $out: $(( $(date +%s) - start )) s wall, load $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$LOG"
}

# train_compact OUT DIGITS R_DIGITS DESCRIPTION ARGS...: trains into target/<name>.f32.json, then
# writes OUT with `loink compact` (weights to DIGITS significant digits, the orthogonal layers'
# R to R_DIGITS; refused unless the engine validates it; the drift is printed). The page
# downloads these files: fewer digits, fewer bytes.
train_compact() {
  local out=$1 digits=$2 r_digits=$3 description=$4; shift 4
  local full
  full="target/$(basename "$out" .json).f32.json"
  train "$full" "$description" "$@"
  if [[ -n "$only" && "$out" != *"$only"* ]]; then return; fi
  local r_flag=()
  if [ "$r_digits" != "$digits" ]; then r_flag=(--orthogonal-digits "$r_digits"); fi
  "$LOINK" compact --model "$full" --out "$out" --digits "$digits" "${r_flag[@]}" | tee -a "$LOG"
}

# The page's default: [28]x4 with heads [16, 16] and the surface training below, weights to 5
# significant digits (R to 6), 33 kB gzipped: the smallest download and the fastest inverse of the
# surface-trained models, every answer within 1 % of the optimum after three feedback rounds.
train_compact web/models/planar3-h28w.json 5 6 \
  '[28]×4 network trained on its own optimal surface, surface errors weighted 4× (the smallest download and fastest solve)' \
  --robot planar3 --epochs 160 --patience 1000 --surface 60000 --task-loss norm --task-weight 0.5 --cost-weight 2 --surface-task-weight 4 --hidden 28,28,28,28 --head-hidden 16,16 --seed 1
# The most accurate: [38]x4 with heads [16, 16], trained 160 epochs on its own optimal surface
# (each epoch after the first 40 also trains on the network's z = 0 preimages of 60,000 fresh
# targets), each surface point's task error counted 4 times a uniform sample's, the task error
# unsquared, task weight 0.5 and cost weight 2; weights to 5 significant digits (R to 6: they must
# stay orthonormal to 1e-5), 54 kB gzipped for the page's download.
train_compact web/models/planar3-h38w.json 5 6 \
  '[38]×4 network trained on its own optimal surface, surface errors weighted 4× (the most accurate)' \
  --robot planar3 --epochs 160 --patience 1000 --surface 60000 --task-loss norm --task-weight 0.5 --cost-weight 2 --surface-task-weight 4 --hidden 38,38,38,38 --head-hidden 16,16 --seed 1
# The same architecture and surface training, every point's task error counted once.
train_compact web/models/planar3-h38.json 6 6 \
  '[38]×4 network trained on its own optimal surface, unweighted' \
  --robot planar3 --epochs 160 --patience 1000 --surface 60000 --task-loss norm --task-weight 1 --hidden 38,38,38,38 --head-hidden 16,16 --seed 1
# The benchmark architecture trained 160 epochs with optimal-surface resampling and task weight 100.
train web/models/planar3-surface.json \
  '[32]×4 network trained on its own optimal surface, task weight 100' \
  --robot planar3 --epochs 160 --patience 1000 --surface 60000 --task-weight 100 --seed 1
# The benchmark network: depth 3, hidden [32]x4, mu 0.05, nu 20, uniform data, 40 epochs.
train web/models/planar3.json \
  'the benchmark network: depth 3, [32]×4, 2·10⁵ uniform samples, 40 epochs' \
  --robot planar3 --seed 1
# The small alternative: hidden [16]x4 (about 2x faster cold inverse, crates/loink/benches/README.md).
train web/models/planar3-h16.json \
  'a small [16]×4 network (66 kB; coarser, about twice as fast)' \
  --robot planar3 --hidden 16,16,16,16 --seed 1
# The benchmark network trained 3x longer with early stopping off (120 epochs).
train web/models/planar3-long.json \
  '[32]×4 trained three times longer (120 epochs, uniform data)' \
  --robot planar3 --epochs 120 --patience 1000 --seed 1
# mu 0.2 instead of 0.05: G^-1 is 4x less steep, so the joint path is smoother but follows fast
# changes of the optimum worse (the smoothness lesson).
train web/models/planar3-mu0.2.json \
  'μ = 0.2, a larger lower Lipschitz bound: a less steep inverse' \
  --robot planar3 --mu 0.2 --seed 1
# Four joints, two-dimensional latent (the latent-plane picture).
train web/models/planar4.json \
  '4 links, a 2-D latent plane of solutions' \
  --robot planar4 --epochs 25 --samples 150000 --seed 1
# The limitation case: solution sets cut into pieces by the limits; one chart fits badly.
train web/models/planar3-wide.json \
  'joints in ±2.6 rad: one chart where the solution sets fall apart (the limitation case)' \
  --robot planar3-wide --epochs 20 --samples 100000 --seed 1
# The remedy: eight charts, one per sign pattern of (q1, q2, q3), each an ordinary LOInK network
# trained on its octant of the box (inside one, the solution set holding the optimum is almost
# always connected: loink connectivity --model …); every chart proposes, the cheapest feasible
# answer wins. Each chart is trained on its own optimal surface (20,000 targets an epoch, the
# unsquared task loss, surface points' task error ×4, cost weight 2): one-shot 0.8 mm median
# against 1.9 mm for 25 epochs of uniform data, whose worst charts fitted to 2 cm. Weights to 5
# significant digits (R to 6), as the default model's.
train_compact web/models/planar3-wide-charts.json 5 6 \
  'eight charts, one per sign pattern of the joints: the cheapest feasible proposal wins where one chart cannot cover the pieces' \
  --robot planar3-wide --charts 1,2,3 --epochs 30 --samples 120000 --surface 20000 --task-loss norm --task-weight 0.5 --cost-weight 2 --surface-task-weight 4 --seed 1
# Two links on the elbow chart q2 in [0, pi] (no redundancy: a learned closed-form IK; the
# averaging lesson).
train web/models/planar2.json \
  '2 links on one elbow chart (q₂ ∈ [0, π]): no redundancy, a learned closed-form IK' \
  --robot planar2 --lower=-1.5707963267948966,0 --upper=1.5707963267948966,3.141592653589793 --samples 60000 --seed 1

# The soft arm, model-free: both learners read only a data file of 200,000 simulator rows
# (uniform twists; the trainers never see the simulator). LOInK: the benchmark network, the
# unsquared task error and the cost weighed 10 (its z = 0 must sit at the cheapest point of each
# self-motion set, so the cost fit matters more than on the planar arms), 120 epochs; after the
# first 30, each epoch also trains once more on the 40,000 rows nearest the learned surface z = 0,
# their task error weighed 4 (--data-surface: the model-free counterpart of --surface).
soft4_data() {
  local data=target/soft4-data.csv
  if [ ! -f "$data" ]; then
    "$LOINK" data --problem soft4 --count 200000 --seed 1 --out "$data" | tee -a "$LOG"
  fi
}
if [[ -z "$only" || "soft4" == *"$only"* || "soft4-flow" == *"$only"* ]]; then soft4_data; fi
train_compact web/models/soft4.json 6 6 \
  'the soft arm learned from 200,000 data rows alone: one inverse, no simulator call' \
  --data target/soft4-data.csv --problem soft4 --epochs 120 --patience 1000 --task-loss norm --task-weight 1 --cost-weight 10 --data-surface 40000 --surface-task-weight 4 --seed 1
# The flow baseline (IKFlow-style) on the same rows. First a sweep: four configurations of depth,
# width and learning rate, 20 epochs each; the lowest held-out negative log-likelihood wins and is
# trained as many epochs as fit in SECONDS of its sweep pace (at least LOInK's training time).
# Every sweep row is logged.
# flow_sweep DATA PROBLEM: prints "depth hidden lr seconds-for-20-epochs" of the winner.
flow_sweep() {
  local data=$1 problem=$2 best="" best_nll="" cfg nll seconds
  for cfg in "6 64,64 1e-3" "10 64,64 1e-3" "6 128,128 1e-3" "6 64,64 3e-3"; do
    read -r depth hidden lr <<<"$cfg"
    local out="target/$problem-flow-sweep-${depth}-${hidden/,/x}-${lr}.json"
    "$LOINK" train --kind flow --data "$data" --problem "$problem" --epochs 20 \
      --depth "$depth" --hidden "$hidden" --lr "$lr" --seed 1 --out "$out" >target/flow-sweep.out 2>&1
    cat target/flow-sweep.out >>"$LOG"
    seconds=$(awk '/^train_seconds/ {print $2}' target/flow-sweep.out)
    nll=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['metrics']['heldout_nll'])" "$out")
    echo "== $problem flow sweep: --depth $depth --hidden $hidden --lr $lr: held-out NLL $nll, $seconds s for 20 epochs" | tee -a "$LOG" >&2
    if [ -z "$best" ] || python3 -c "import sys; sys.exit(0 if float(sys.argv[1]) < float(sys.argv[2]) else 1)" "$nll" "$best_nll"; then
      best="$depth $hidden $lr $seconds"; best_nll=$nll
    fi
  done
  echo "$best"
}
# train_flow OUT DIGITS DATA PROBLEM SECONDS DESCRIPTION: the sweep's winner trained for SECONDS.
train_flow() {
  local out=$1 digits=$2 data=$3 problem=$4 budget=$5 description=$6
  if [[ -n "$only" && "$out" != *"$only"* ]]; then return; fi
  read -r depth hidden lr seconds <<<"$(flow_sweep "$data" "$problem")"
  epochs=$(python3 -c "import sys; print(max(20, round($budget * 20 / float(sys.argv[1]))))" "$seconds")
  train_compact "$out" "$digits" "$digits" "$description" \
    --kind flow --data "$data" --problem "$problem" --epochs "$epochs" --patience 1000 --depth "$depth" --hidden "$hidden" --lr "$lr" --seed 1
}
train_flow web/models/soft4-flow.json 4 target/soft4-data.csv soft4 660 \
  'the IKFlow-style baseline: a conditional normalising flow on the same 200,000 rows'

# The Franka Panda (docs/panda.md): n = 6, a 3-D task and a 3-D latent. Uniform samples alone
# leave the latent origin unplaced (the cost changes little along a 6-joint self-motion set), so
# the network is anchored at the optimum: the reference optimum of 30,000 targets (images of
# uniform configurations, the TRAC-IK protocol), each batch also training on as many of them with
# ‖G₂(x̃*)‖² weighted 10 and their task error 4 (--optima, --optima-weight,
# --surface-task-weight). Configurations are drawn from the box that holds the optima of the
# front sector and most of the rest (the problem, its limits and its cost stay the Panda's):
# q1 −1.45…1.55, q2 −1.05…1.1, q3 −1.1…1.15, q4 −2.55…−0.65, q5 −0.45…0.45, q6 0.65…2.95.
# After the first quarter every epoch also trains on the network's own z = 0 answers to 20,000
# fresh targets (--surface), and the task error enters as its norm (--task-loss norm): together
# with 130 epochs they took the front sector's one-shot miss from 4.9 to 3.0 mm (about 21 min).
train_compact web/models/panda.json 6 6 \
  'the Panda, one chart anchored at the optimum: its optimal postures at z = 0' \
  --robot panda --epochs 130 --samples 100000 --patience 1000 --optima 30000 --optima-weight 10 --surface-task-weight 4 \
  --surface 20000 --task-loss norm \
  --region-lower=-1.45,-1.05,-1.1,-2.55,-0.45,0.65 --region-upper=1.55,1.1,1.15,-0.65,0.45,2.95 --seed 1
# The Panda's baselines, both from 200,000 uniform configurations (the IKFlow and 7-joint DNN
# protocol; `loink data --problem panda`). The flow: the sweep's winner trained for at least the
# LOInK model's time (1,500 s of the sweep's pace). The direct regression y → q (MSE): two layers
# of 128, the averaging baseline (three of 256 average just as much: a 0.59 m median miss, in a
# 2.8 MB file).
panda_data() {
  local data=target/panda-data.csv
  if [ ! -f "$data" ]; then
    "$LOINK" data --problem panda --count 200000 --seed 1 --out "$data" | tee -a "$LOG"
  fi
}
if [[ -z "$only" || "panda-flow" == *"$only"* || "panda-mse" == *"$only"* ]]; then panda_data; fi
train_flow web/models/panda-flow.json 5 target/panda-data.csv panda 1500 \
  'the IKFlow-style baseline on the Panda: a conditional normalising flow on 200,000 uniform configurations'
train web/models/panda-mse.json \
  'direct regression y → q on the Panda (MSE, two layers of 128): the averaging baseline' \
  --kind mse --data target/panda-data.csv --problem panda --hidden 128,128 --epochs 30 --seed 1

# The climber (docs/climber.md): n = 5, a 3-D task (foot vector and clearance), a 2-D latent (body
# tilt and slide). Configurations drawn by rejection into the useful stances (about 1 in 40 of the
# box); anchored at the reference optimum of 10,000 targets, weight 5.
train_compact web/models/climber.json 6 6 \
  'Magneto on a wall: the posture needing the least magnet force at z = 0' \
  --robot climber --epochs 30 --samples 100000 --optima 10000 --optima-weight 5 --seed 1

LOINK=$LOINK scripts/model-cards.sh "$only"
scripts/catalog.sh
