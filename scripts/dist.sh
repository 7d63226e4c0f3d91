#!/usr/bin/env bash
# Builds dist/: the page, the embed page and the single-file element script, ready to copy
# to any static host (see README, "Putting a figure in your course").
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build-core.sh wasm
node scripts/build-web.mjs
node scripts/build-dist.mjs
