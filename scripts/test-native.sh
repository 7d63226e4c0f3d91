#!/usr/bin/env bash
# The native half of the tests (scripts/test.sh runs it first; it runs on its own as well):
#   1. GoogleTest natively             (ctest in build/native)
#   2. the same suite under ASan+UBSan (ctest in build/asan), but for one long numerical test
#   3. the core API fuzzed under libFuzzer + ASan + UBSan: 500,000 inputs from seed 1 (scripts/fuzz.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
export NODE_PATH=/usr/share/nodejs

started=$SECONDS
step() { printf '\n=== native: %s (at %d min %02d s) ===\n' "$*" $(((SECONDS - started) / 60)) $(((SECONDS - started) % 60)); }

step "native build and tests"
bash scripts/build-core.sh native
ctest --test-dir build/native --output-on-failure -j2

step "AddressSanitizer + UndefinedBehaviorSanitizer"
bash scripts/build-core.sh asan
# One test stays out of this run: the float32 training's long race to the loss target beside
# float64 (twelve sessions of up to 3,000 steps) is a numerical check, and took 46 of this
# step's 57 s under the sanitizers. It runs natively and as WebAssembly; the same float32
# training code runs here, under the sanitizers, in the shorter LearnFloat32 tests.
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  ctest --test-dir build/asan --output-on-failure -j2 -E '^LearnFloat32\.ReachesTheTargetAtTheSameStepWithinTwoPercent$'

# The inputs are fixed (seed and count), so a green commit stays green; the time limit only
# guards against a hang, and is generous so that a busy machine still runs every input.
step "core fuzzing (libFuzzer, ASan + UBSan: 500,000 inputs from seed 1, 180 s at most)"
FUZZ_SEED=1 FUZZ_RUNS=500000 bash scripts/fuzz.sh 180
step "done"
