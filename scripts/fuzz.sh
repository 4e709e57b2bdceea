#!/usr/bin/env bash
# Runs the cargo-fuzz targets one after another at the lowest CPU priority.
#
#   scripts/fuzz.sh [SECONDS] [TARGET...]     default: 600 s each, all targets
#
# Targets: artifact (model-file loader), targets_csv (the eval targets-CSV reader), solve
# (solve(y), learned and classical), urdf (the URDF reader of the serial chains). The committed seeds in fuzz/seeds/TARGET start each
# corpus; the grown corpus goes to fuzz/corpus/TARGET and crashes to fuzz/artifacts/TARGET
# (both git-ignored). Not part of CI: a 20-second smoke needs a ~1-minute instrumented build
# per run, plus cargo-fuzz itself (~2 minutes to install).
#
# The toolchain is the workspace's stable 1.95: cargo-fuzz needs nightly flags (-Zsanitizer),
# which RUSTC_BOOTSTRAP=1 lets stable accept.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-600}"
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(artifact targets_csv solve urdf)

command -v cargo-fuzz >/dev/null || cargo install cargo-fuzz
export RUSTC_BOOTSTRAP=1
(cd fuzz && nice -n 19 cargo fuzz build -O)

for target in "${targets[@]}"; do
  mkdir -p "fuzz/corpus/$target" "fuzz/artifacts/$target"
  cp -n fuzz/seeds/"$target"/* "fuzz/corpus/$target/" 2>/dev/null || true
  max_len=4096
  [ "$target" = artifact ] && max_len=65536
  [ "$target" = urdf ] && max_len=32768
  echo "== $target: ${seconds}s"
  (cd fuzz && nice -n 19 cargo fuzz run -O "$target" "corpus/$target" -- \
      -max_total_time="$seconds" -max_len="$max_len" -timeout=60 -rss_limit_mb=2048 \
      -print_final_stats=1 -artifact_prefix="artifacts/$target/") 2>&1 \
    | tee "fuzz/artifacts/$target/last-run.log" | grep -E '^(#[0-9]+ *(DONE|INITED)|stat::|==|SUMMARY|Done)' || true
  grep -q 'stat::number_of_executed_units' "fuzz/artifacts/$target/last-run.log" \
    || { echo "$target: the run did not finish cleanly (see fuzz/artifacts/$target/last-run.log)"; exit 1; }
done
