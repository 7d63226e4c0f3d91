#!/usr/bin/env bash
# Builds dist/: the page, the embed page, the single-file element script and the iframe
# resize listener, ready to copy to any static host (see README, "Putting a figure in your
# course"), the LMS packages (dist/lms/) and each figure's picture for where scripts cannot run
# (dist/pictures/, made in headless Chromium). It builds in folders of its own (build/dist-wasm, build/dist-web), without the
# test suite, so it neither needs nor disturbs the test builds.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build-core.sh dist
node scripts/build-web.mjs --wasm-dir build/dist-wasm --out build/dist-web
node scripts/build-dist.mjs --from build/dist-web --out dist
node scripts/build-pictures.mjs --dist dist
