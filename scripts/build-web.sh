#!/usr/bin/env bash
# Builds the playground's wasm (release, small profile) and runs wasm-bindgen into pkg/, and
# the lessons' bundle (the same crate with its `lessons` feature) into pkg/lessons/.
#   scripts/build-web.sh            build into pkg/
#   scripts/build-web.sh OUT_DIR    build into OUT_DIR instead (the staleness check uses this)
# Installs the matching wasm-bindgen-cli first when it is missing (scripts/setup.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-pkg}

want=$(awk '/^name = "wasm-bindgen"$/{getline; gsub(/version = |"/, ""); print; exit}' Cargo.lock)
have=$(wasm-bindgen --version 2>/dev/null | awk '{print $2}' || true)
if [ "$have" != "$want" ]; then
  echo "build-web: wasm-bindgen-cli $want needed (have: ${have:-none}); installing (~3 min)" >&2
  # Not --locked: the registry here lacks one of its locked dependency versions.
  cargo install wasm-bindgen-cli --version "$want"
fi

# bundle OUT FEATURE_FLAGS...: one wasm-bindgen bundle of loink-web, shrunk by wasm-opt.
bundle() {
  local dir=$1; shift
  cargo build -p loink-web --target wasm32-unknown-unknown --profile wasm-release "$@"
  mkdir -p "$dir"
  wasm-bindgen --target web --no-typescript --out-dir "$dir" \
    target/wasm32-unknown-unknown/wasm-release/loink_web.wasm
  # Optional: shrink with binaryen's wasm-opt from npm (v132). Never Debian's (v108): it breaks
  # modules in Chromium. Skipped when tests/node_modules has no binaryen.
  local opt=tests/node_modules/binaryen/bin/wasm-opt
  if [ -x "$opt" ]; then
    "$opt" -Oz --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext \
      --enable-mutable-globals "$dir/loink_web_bg.wasm" -o "$dir/loink_web_bg.wasm.opt"
    mv "$dir/loink_web_bg.wasm.opt" "$dir/loink_web_bg.wasm"
  fi
  local wasm_gz js_gz
  wasm_gz=$(gzip -9 -n -c "$dir/loink_web_bg.wasm" | wc -c)
  js_gz=$(gzip -9 -n -c "$dir/loink_web.js" | wc -c)
  echo "build-web: $dir/loink_web_bg.wasm $(wc -c < "$dir/loink_web_bg.wasm") B ($wasm_gz B gz), loink_web.js ($js_gz B gz)"
}

# The playground's download: no lessons (the size goal counts this one).
bundle "$out" --no-default-features
# The lessons' bundle, fetched by web/lessons.js on lesson pages only.
bundle "$out/lessons" --features lessons
