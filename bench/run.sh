#!/usr/bin/env bash
# The benchmark in one command, from a fresh clone; regenerates BENCHMARKS.md.
#   bash bench/run.sh              planar3 (the page's default model), planar4, planar3-wide
#                                  (eight charts beside one), soft4 (bench/soft4.sh), the Panda
#                                  (bench/panda.sh) and the climber (bench/climber.sh): 1,000
#                                  random targets (+ a 1,000-point path for the planar arms and
#                                  the climber) each, the scaling figures, then
#                                  BENCHMARKS.md (about 7 minutes once built)
#   bash bench/run.sh --browser    the same, plus the page in headless Chromium (wasm vs native,
#                                  frame, start-up, download; needs scripts/setup.sh --browser)
#   bash bench/run.sh --quick      planar3 only, 200 + 200, into bench/results/quick/ (no
#                                  BENCHMARKS.md)
# Creates bench/.venv (casadi/IPOPT), builds the release binary, writes the targets (seeded),
# runs `loink bench` per problem and leaves each problem's table, rows and plots in
# bench/results/. ROBOT=… MODEL=… bench/run.sh --quick benchmarks another problem or model;
# extra arguments go to `loink bench`.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

quick=0
browser=0
while [ $# -gt 0 ]; do
    case "$1" in
        --quick) quick=1; shift ;;
        --browser) browser=1; shift ;;
        *) break ;;
    esac
done

bash bench/setup-venv.sh
cargo build --release -p loink-train
loink=target/release/loink

# The page's default model of a problem: the first catalog entry of that problem.
default_model() {
    bench/.venv/bin/python - "$1" <<'PY'
import json, sys
for m in json.load(open("web/models/catalog.json"))["models"]:
    if m["problem"] == sys.argv[1] and m["kind"] == "loink":
        print(m["file"]); break
PY
}

# bench_one ROBOT COUNT OUT_DIR [loink bench args…]
bench_one() {
    local robot=$1 count=$2 out=$3; shift 3
    local model="${MODEL:-$(default_model "$robot")}"
    mkdir -p "$out"
    local targets="$out/targets-$robot.csv"
    "$loink" targets --robot "$robot" --count "$count" --seed 1 --out "$targets"
    local model_args=()
    if [ -n "$model" ] && [ -f "$model" ]; then
        model_args=(--model "$model")
    else
        echo "warning: no model for $robot: its table has no LOInK rows (set MODEL=path)" >&2
    fi
    "$loink" bench --robot "$robot" "${model_args[@]}" --targets "$targets" \
        --ipopt-python bench/.venv/bin/python --out-dir "$out" "$@"
}

if [ "$quick" = 1 ]; then
    bench_one "${ROBOT:-planar3}" 200 bench/results/quick --quick "$@"
    exit 0
fi

out=bench/results
# BENCHMARKS.md shows one run: no page figures from an earlier one.
rm -f "$out/browser.txt"
for robot in planar3 planar4; do
    bench_one "$robot" 1000 "$out" "$@"
done
# The limitation case: the eight-chart model, the one-chart model beside it.
MODEL=web/models/planar3-wide-charts.json bench_one planar3-wide 1000 "$out" \
    --compare-model web/models/planar3-wide.json "$@"
# The model-free soft arm: LOInK and the flow from one data file, black-box DLS, the reference.
bash bench/soft4.sh 1000
# The Franka Panda: the reference, DLS and IPOPT (mid-range, best of 16) on its own URDF.
bash bench/panda.sh 1000
# The hand's pose: LOInK's charts, the flow and the regression against DLS and IPOPT with the
# orientation as constraints, on 1,000 tabletop targets a task (panda-pose, panda-axis).
bash bench/pose.sh 1000
# The Panda under a shelf: every solver under the collision cost, graded on the meshes.
bash bench/shelf.sh 200
bash bench/python.sh 1000 2026
# The climber: LOInK, DLS and IPOPT (mid-range, best of 16) with the spread of their times.
bash bench/climber.sh 1000
"$loink" bench --scaling --robot planar3 --model "$(default_model planar3)" \
    --targets "$out/targets-planar3.csv" --out-dir "$out"
if [ "$browser" = 1 ]; then
    (cd tests && node e2e/bench.mjs 1000) | tee "$out/browser.txt"
fi
bash bench/compose.sh
