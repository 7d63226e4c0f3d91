#!/usr/bin/env bash
# Quick start, command 2: set up, build every target and run every test.
#   1–3. scripts/test-native.sh: GoogleTest natively, the same suite under ASan+UBSan, and the
#        core API fuzzed under libFuzzer + ASan + UBSan (500,000 inputs from a fixed seed)
#   4. the same suite as WebAssembly under node (ctest in build/wasm)
#   5. the JS API and native/wasm agreement (node --test tests/js)
#   6. the page in headless Chromium   (node --test tests/browser)
# One step at a time: the browser tests and the compilers each keep both cores busy, and run
# side by side (tried) they only slowed each other and made the page's timing flaky.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
export NODE_PATH=/usr/share/nodejs

# Each step's heading says how long the run has taken so far, so a slow step shows in CI's log.
started=$SECONDS
step() { printf '\n=== %s (at %d min %02d s) ===\n' "$*" $(((SECONDS - started) / 60)) $(((SECONDS - started) % 60)); }

step "native: GoogleTest, ASan + UBSan, fuzzing (scripts/test-native.sh)"
bash scripts/test-native.sh

step "WebAssembly build and tests under node"
bash scripts/build-core.sh wasm
ctest --test-dir build/wasm --output-on-failure -j2

step "JS API (node --test)"
node --test --test-concurrency=2 tests/js/

step "page build and browser tests (node --test)"
node scripts/build-web.mjs
# Two test files at a time: each has its own server and browser on their own ports and temporary
# folders. The files that time the page (how figures mount and yield, the measured figure's
# timing run) run afterwards on their own, so that another file's load cannot fail them.
alone=(tests/browser/mount-order.test.mjs tests/browser/measured.test.mjs)
together=()
for file in tests/browser/*.test.mjs; do
  [[ " ${alone[*]} " == *" $file "* ]] || together+=("$file")
done
node --test --test-concurrency=2 "${together[@]}"
node --test --test-concurrency=1 "${alone[@]}"
step "done"
