#!/usr/bin/env bash
# Prints one line per case: a SHA-256 of `loink eval`'s answers (every column but `micros`) for
# DLS and the reference on every preset, and LOInK + refine 3 with every shipped LOInK model.
# The solvers stop on counts, never on the clock, so the same build prints the same lines on
# any machine and under any load: run it idle and with every core busy, and compare.
#   scripts/answers-digest.sh [COUNT]    (default 50 targets per preset, seed 11)
set -euo pipefail
cd "$(dirname "$0")/.."
count=${1:-50}
scripts/build-cli.sh
loink=target/release/loink
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

# The answers of one `loink eval` run without its `micros` column, hashed.
digest() {
  local name=$1; shift
  "$loink" eval "$@" --out "$dir/out.csv" >/dev/null 2>&1 || { echo "$name failed"; return; }
  python3 - "$dir/out.csv" "$name" <<'PY'
import csv, hashlib, sys
rows = list(csv.reader(open(sys.argv[1])))
keep = [i for i, h in enumerate(rows[0]) if h != "micros"]
text = "\n".join(",".join(r[i] for i in keep) for r in rows)
print(f"{sys.argv[2]:<40} {len(rows) - 1:>5} rows  {hashlib.sha256(text.encode()).hexdigest()[:16]}")
PY
}

presets="planar2 planar3 planar3-wide planar4 soft4 climber panda panda-pose panda-axis tiago tiago-pose"
for p in $presets; do
  extra=()
  case $p in panda-pose|panda-axis) extra=(--cone 60) ;; esac
  "$loink" targets --problem "$p" --count "$count" --seed 11 "${extra[@]}" --out "$dir/$p.csv" >/dev/null
  for solver in dls reference; do
    digest "$p $solver" --problem "$p" --solver "$solver" --targets "$dir/$p.csv"
  done
done
for model in web/models/*.json; do
  kind=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1])).get("kind", ""))' "$model")
  case $kind in loink|charts) ;; *) continue ;; esac
  problem=$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); p=d.get("problem", {}); print(p.get("name", "") if isinstance(p, dict) else p)' "$model")
  [ -f "$dir/$problem.csv" ] || continue
  digest "$(basename "$model" .json) refine 3" --model "$model" --refine 3 --targets "$dir/$problem.csv"
done
