#!/usr/bin/env bash
# Builds the page's bundles and runs wasm-bindgen: the `slim` profile of loink-web (the
# playground's download) into pkg/, the `full` profile (lessons and every other problem) into
# pkg/lessons/ (both small), the in-browser trainer into pkg/train/ (fast); and the page's
# script web/app.js, minified, into web/app.min.js.
#   scripts/build-web.sh            build into pkg/
#   scripts/build-web.sh OUT_DIR    build into OUT_DIR instead (the staleness check uses this)
#   scripts/build-web.sh --bench OUT_DIR   the playground with its benchmark (`?bench=1`) into OUT_DIR
#                                   only (tests/e2e/bench.mjs; never shipped)
# Installs the matching wasm-bindgen-cli and wasm-opt first when they are missing (scripts/setup.sh --web).
set -euo pipefail
cd "$(dirname "$0")/.."
bench=0
if [ "${1:-}" = "--bench" ]; then bench=1; shift; fi
out=${1:-pkg}

# The exact wasm-bindgen-cli and npm's wasm-opt: without them the bytes would differ from pkg/.
scripts/setup.sh --web >/dev/null
opt=tests/node_modules/binaryen/bin/wasm-opt

# bundle OUT PROFILE FEATURE_FLAGS...: one wasm-bindgen bundle of loink-web built with cargo
# profile PROFILE (Cargo.toml says what each is for), shrunk by wasm-opt.
bundle() {
  local dir=$1 profile=$2; shift 2
  cargo build -p loink-web --target wasm32-unknown-unknown --profile "$profile" "$@"
  mkdir -p "$dir"
  wasm-bindgen --target web --no-typescript --out-dir "$dir" \
    "target/wasm32-unknown-unknown/$profile/loink_web.wasm"
  # Shrunk with binaryen's wasm-opt from npm (v132); never Debian's (v108): it breaks modules in Chromium.
  # --converge repeats the passes until the module stops shrinking (about 0.8 kB gzipped).
  "$opt" -Oz --converge --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext \
    --enable-mutable-globals --enable-simd "$dir/loink_web_bg.wasm" -o "$dir/loink_web_bg.wasm.opt"
  mv "$dir/loink_web_bg.wasm.opt" "$dir/loink_web_bg.wasm"
  # The glue, shrunk by terser like the page's script: wasm-bindgen copies every exported
  # function's doc comment into it (about 5 kB gzipped of the slim page's download).
  node tests/node_modules/terser/bin/terser "$dir/loink_web.js" --module --ecma 2022 --compress --mangle \
    -o "$dir/loink_web.min.js"
  mv "$dir/loink_web.min.js" "$dir/loink_web.js"
  local wasm_gz js_gz
  wasm_gz=$(gzip -9 -n -c "$dir/loink_web_bg.wasm" | wc -c)
  js_gz=$(gzip -9 -n -c "$dir/loink_web.js" | wc -c)
  echo "build-web: $dir/loink_web_bg.wasm $(wc -c < "$dir/loink_web_bg.wasm") B ($wasm_gz B gz), loink_web.js ($js_gz B gz)"
}

# The page's script, shrunk: terser (npm, pinned in tests/package.json) drops the comments and
# shortens local names of web/app.js into web/app.min.js, which index.html loads (about 4 kB
# gzipped less to download). APP_OUT writes it elsewhere (the staleness check).
minify_app() {
  {
    echo "// Built by scripts/build-web.sh from web/app.js (terser): edit web/app.js, not this file."
    node tests/node_modules/terser/bin/terser web/app.js --module --ecma 2022 --compress --mangle
  } >"${APP_OUT:-web/app.min.js}"
}

# The in-browser trainer (crate loink-web-train: burn's autodiff and Adam on its ndarray backend),
# run by web/train-worker.js and fetched only when a reader trains. Built at opt-level 3 (the
# release profile): it is compute-bound, and its download (about 0.8 MB gzipped) is nobody's first
# one. Not shrunk by wasm-opt: -Oz takes about a minute for 3 % of its gzipped size.
train_bundle() {
  local dir=$1
  cargo build -p loink-web-train --target wasm32-unknown-unknown --release
  mkdir -p "$dir"
  wasm-bindgen --target web --no-typescript --out-dir "$dir" \
    target/wasm32-unknown-unknown/release/loink_web_train.wasm
  node tests/node_modules/terser/bin/terser "$dir/loink_web_train.js" --module --ecma 2022 --compress --mangle \
    -o "$dir/loink_web_train.min.js"
  mv "$dir/loink_web_train.min.js" "$dir/loink_web_train.js"
  echo "build-web: $dir/loink_web_train_bg.wasm $(wc -c < "$dir/loink_web_train_bg.wasm") B ($(gzip -9 -n -c "$dir/loink_web_train_bg.wasm" | wc -c) B gz)"
}

if [ "$bench" = 1 ]; then
  bundle "$out" wasm-release --no-default-features --features slim,bench
  exit 0
fi
minify_app
# The playground's download (the size goal counts this one).
bundle "$out" wasm-release --no-default-features --features slim
# The full bundle, fetched by web/lessons.js on lesson pages and for every other problem.
bundle "$out/lessons" wasm-full --no-default-features --features full
# The trainer, fetched by the worker when a reader trains.
train_bundle "$out/train"
