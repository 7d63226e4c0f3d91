#!/usr/bin/env bash
# The one benchmark command (npm run bench): builds the core natively and as WebAssembly, and the
# native Google Benchmark binary (a target no other build makes), then runs scripts/bench.mjs,
# which measures every row side by side and writes docs/performance.md and docs/performance.json.
# Before them, scripts/bench-page.mjs measures the page's budgets in headless Chromium (key press
# to next frame, long tasks, mounting at 1x and 6x CPU, Lighthouse), which bench.mjs folds in.
# Usage: bash scripts/bench.sh [--quick]   (--quick: fewer samples, 100 presses, no Lighthouse)
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build-core.sh native wasm
node scripts/build-web.mjs
if [[ " $* " == *" --quick "* ]]; then
  node scripts/bench-page.mjs --events 100 --no-lighthouse
else
  node scripts/bench-page.mjs
fi
if ! cmake --build build/native --target attention_kernels_benchmark -j 2; then
  echo "bench: no Google Benchmark binary (is libbenchmark-dev installed?); the native rows are left out" >&2
fi
# The kernels one by one (Q·Kᵀ, the softmax rows, P·V; portable and SIMD sets), as WebAssembly.
NODE_PATH=/usr/share/nodejs cmake --build build/wasm --target attention_kernels_timing -j 2
# The learn figure's training speed (steps per second, steps to the target), folded in by bench.mjs.
node scripts/bench-learn.mjs "$@"
exec node --expose-gc scripts/bench.mjs "$@"
