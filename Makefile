# The commands (see README.md):
#   make serve   serve the committed playground (pkg/) on 127.0.0.1 at once: builds and installs nothing
#   make web     rebuild pkg/ from the sources (installs wasm-bindgen-cli and wasm-opt the first time)
#   make python  build the Python module (crates/loink-py) into target/python-venv
#   make test    every check CI runs: format, lints, unit/property/CLI tests, wasm build,
#                pkg/ staleness, wasm-bindgen tests and end-to-end tests in headless Chromium
.PHONY: serve web test python models bench catalog

serve:
	scripts/serve.sh

web:
	scripts/setup.sh --web
	scripts/build-web.sh

test:
	scripts/test.sh

python:
	scripts/python.sh

models:
	scripts/train-models.sh

catalog:
	scripts/catalog.sh

bench:
	bash bench/run.sh
