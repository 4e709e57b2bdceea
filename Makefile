# The two commands (see README.md):
#   make serve   build the playground and serve it on 127.0.0.1 (prints the URL)
#   make test    every check CI runs: format, lints, unit/property/CLI tests, wasm build,
#                pkg/ staleness, wasm-bindgen tests and end-to-end tests in headless Chromium
.PHONY: serve test models bench

serve:
	scripts/serve.sh

test:
	scripts/test.sh

models:
	scripts/train-models.sh

bench:
	bash bench/run.sh
