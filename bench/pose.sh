#!/usr/bin/env bash
# The Panda's hand pose (docs/pose.md): `panda-pose` (position + orientation) and `panda-axis`
# (position + tool axis) on COUNT tabletop targets each (q uniform, the hand's z axis within 60°
# of straight down, seed 1): the reference optimum, DLS, the classical closed form searched along q7
# (pose only), IPOPT (casadi, orientation as
# constraints; bench/ipopt_pose.py, its own URDF reader and kinematics) one call from mid-range and
# best of 16, and — when the models exist — LOInK (one-shot, 2 feedback rounds, refine 3, warm
# along a path), the IKFlow-style flow and the direct regression. Every answer is replayed
# through bench/ipopt_chain.py's kinematics; the tables (bench/pose_table.py) and the published
# anchors go to bench/results/pose.md, which bench/compose.sh puts into BENCHMARKS.md.
#   bash bench/pose.sh [COUNT]        (IPOPT: about COUNT × 0.5 s per task)
#   bash bench/pose.sh COUNT --keep   keeps what an earlier run with the same COUNT left (each
#                                     method's CSV, the `loink bench` folder: delete one to rerun
#                                     it) and writes the tables again
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
count=${1:-1000}
keep=${2:-}
loink=target/release/loink
python=bench/.venv/bin/python
bash bench/setup-venv.sh >/dev/null
cargo build --release -q -p loink-train
page=bench/results/pose.md
: > "$page.tmp"
for task in pose axis; do
    problem="panda-$task"
    out=bench/results/$problem
    model=web/models/$problem.json
    flow=web/models/$problem-flow.json
    mse=web/models/$problem-mse.json
    mkdir -p "$out"
    if [ "$keep" != "--keep" ]; then rm -f "$out"/*.csv; fi
    "$loink" targets --problem "$problem" --count "$count" --seed 1 --cone 60 --out "$out/targets.csv" >/dev/null
    run() { # NAME ARGS...
        local name=$1; shift
        if [ "$keep" = "--keep" ] && [ -f "$out/$name.csv" ]; then return; fi
        echo "== $problem $name: loink eval $*"
        "$loink" eval "$@" --targets "$out/targets.csv" --out "$out/$name.csv" >/dev/null
    }
    run reference --problem "$problem" --solver reference
    run dls --problem "$problem" --solver dls
    if [ "$task" = pose ]; then
        run closed-form-search --problem "$problem" --solver closed-form-search
    fi
    if [ -f "$model" ]; then
        run loink --model "$model" --no-gap
        run loink-feedback2 --model "$model" --feedback 2 --no-gap
        run loink-refine3 --model "$model" --refine 3 --no-gap
    fi
    if [ -f "$flow" ]; then
        sigma=$(bash bench/flow_sigma.sh "$problem" "$flow" "$out")
        echo "flow sampling scale: σ = $sigma (chosen on 200 other targets)"
        echo "$sigma" > "$out/flow-sigma.txt"
        run flow --model "$flow" --no-gap
        run flow-best8 --model "$flow" --samples 8 --sigma "$sigma" --seed 1 --no-gap
    fi
    if [ -f "$mse" ]; then
        run mse --model "$mse" --no-gap
    fi
    echo "== $problem ipopt: mid-range and best of 16"
    [ "$keep" = "--keep" ] && [ -f "$out/ipopt-best-16.csv" ] || "$python" bench/ipopt_pose.py --robot "$problem" --targets "$out/targets.csv" --out-dir "$out" \
        --methods mid,best-16
    # J* where each answer that misses lands: the reached poses, by the independent kinematics,
    # through the reference.
    for name in loink loink-feedback2 flow flow-best8 mse; do
        if [ -f "$out/$name.csv" ]; then
            "$python" bench/pose_table.py --reached "$task" "$out/$name.csv" > "$out/reached-$name.targets.csv"
            "$loink" eval --problem "$problem" --solver reference --targets "$out/reached-$name.targets.csv" \
                --out "$out/reached-$name.csv" >/dev/null 2>&1 || true
        fi
    done
    if [ -f "$model" ] && ! { [ "$keep" = "--keep" ] && [ -f "$out/bench/$problem-rows.csv" ]; }; then
        echo "== $problem loink bench: every method in one run, cold on the targets and warm along a path"
        rm -rf "$out/bench"
        "$loink" bench --problem "$problem" --model "$model" --targets "$out/targets.csv" \
            --ipopt-python "$python" --out-dir "$out/bench" >/dev/null
    fi
    "$python" bench/pose_table.py "$out" "$task" "$count" >> "$page.tmp"
done
{
    echo "## The hand's pose: the Panda placed and turned"
    echo
    cpu=$(awk -F': ' '/^model name/ {print $2; exit}' /proc/cpuinfo)
    echo "Measured by \`bash bench/pose.sh $count\` on $(nproc) cores, $cpu, load average $(cut -d' ' -f1-3 /proc/loadavg)."
    echo
    cat "$page.tmp"
    cat <<'MD'
### Published anchors (other protocols, other machines; none reports the cost of its answer)

| system | Panda full pose | notes |
|---|---|---|
| TRAC-IK v1.5.1 | 99.88 % solved, 0.37 ms mean | 10,000 uniform-q targets, 1e-5 tolerance, 5 ms timeout, first solution found |
| IKFlow (`panda__full__lp191_5.25m`) | 6.8 mm, 2.28° mean error; 10 ms per 100 solutions (GPU) | samples, no refinement, no cost |
| cuRobo v2 | 100 % in 2.6 ms per batch of 100 (GPU); 1e-4 mm, 1e-5° | no pull towards a rest pose by default |
| analytic Franka IK (q7 given) | a few µs | up to 4 answers per q7; the choice is left to the user |
MD
} > "$page"
rm -f "$page.tmp"
cat "$page"
