#!/usr/bin/env bash
# Quick start, command 2: set up, build every target and run every test.
#   1–3. scripts/test-native.sh: GoogleTest natively, the same suite under ASan+UBSan, and the
#        core API fuzzed under libFuzzer + ASan + UBSan (500,000 inputs from a fixed seed)
#   4. the same suite as WebAssembly under node (ctest in build/wasm)
#   5. the page in headless Chromium   (node --test tests/browser)
#   6. the JS API and native/wasm agreement (node --test tests/js)
# Steps 1–3 run in the background, at a lower priority, while 4 and 5 run: a browser test
# spends much of its time waiting on the page, and the native builds fill those gaps on the
# machine's two cores. Their log is printed when they end.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
export NODE_PATH=/usr/share/nodejs

# Each step's heading says how long the run has taken so far, so a slow step shows in CI's log.
started=$SECONDS
step() { printf '\n=== %s (at %d min %02d s) ===\n' "$*" $(((SECONDS - started) / 60)) $(((SECONDS - started) % 60)); }

mkdir -p build
native_log=build/native-steps.log
# Its own process group (setsid), so that one kill stops it and everything it started.
setsid nice -n 10 bash scripts/test-native.sh >"$native_log" 2>&1 </dev/null &
native_pid=$!
# If this script stops early (a failed step, Ctrl-C), the background steps stop with it.
trap 'kill -- "-$native_pid" 2>/dev/null || true' EXIT

step "WebAssembly build and tests under node (native steps in the background: $native_log)"
bash scripts/build-core.sh wasm
ctest --test-dir build/wasm --output-on-failure -j2

step "page build and browser tests (node --test)"
node scripts/build-web.mjs
# Two test files at a time: each has its own server and browser on their own ports and temporary
# folders. The files that time the page (how figures mount and yield, the measured figure's
# timing run) run last on their own, once the background steps are done, so that no other
# load can fail them.
alone=(tests/browser/mount-order.test.mjs tests/browser/measured.test.mjs)
together=()
for file in tests/browser/*.test.mjs; do
  [[ " ${alone[*]} " == *" $file "* ]] || together+=("$file")
done
node --test --test-concurrency=2 "${together[@]}"

step "waiting for the native steps"
status=0
wait "$native_pid" || status=$?
trap - EXIT
cat "$native_log"
[ "$status" -eq 0 ] || { echo "test: the native steps failed (exit $status); their log is above" >&2; exit "$status"; }

step "JS API (node --test)"
node --test --test-concurrency=2 tests/js/

step "browser tests that time the page, alone"
node --test --test-concurrency=1 "${alone[@]}"
step "done"
