#!/usr/bin/env bash
# Fuzzes the public core API with libFuzzer under ASan + UBSan (tests/fuzz/core_fuzz.cpp).
# Usage: scripts/fuzz.sh [seconds]   (default 60; CI runs the default)
# Starts from the seed corpus in tests/fuzz/corpus, keeps what it finds in build/fuzz/corpus,
# and writes executions and coverage (libFuzzer's cov/ft counts) to build/fuzz/report.md.
# A crash, a sanitizer report or a broken contract leaves build/fuzz/crash-* and fails.
# FUZZ_SEED and FUZZ_RUNS fix the random seed and the number of inputs, so a run is repeatable:
# CI uses them (a green commit stays green), while a long run without them keeps exploring.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
out=build/fuzz
mkdir -p "$out/corpus"

# The fuzz target is built in the sanitized build (build/asan, Clang, ASan + UBSan at -O1 with
# line tables, Eigen's assertions on: a shape that got past the core's checks aborts instead of
# reading out of bounds), from the same compiled core as the sanitized GoogleTest suite, which
# carries libFuzzer's coverage hooks (CMakeLists.txt). Every core source is in it, so a new
# core file is fuzzed too.
ATTN_CONFIGURE_ONLY=1 bash scripts/build-core.sh asan
# The cache's keys independent of the clone's folder, as build-core.sh sets them.
CCACHE_BASEDIR=$PWD CCACHE_NOHASHDIR=true cmake --build build/asan --target attention_core_fuzz -j "${ATTN_JOBS:-$(nproc)}" >/dev/null
cp build/asan/attention_core_fuzz "$out/core_fuzz"

set +e
"$out/core_fuzz" "$out/corpus" tests/fuzz/corpus -max_total_time="$seconds" -max_len=4096 -timeout=20 \
  -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$out/" \
  ${FUZZ_SEED:+-seed="$FUZZ_SEED"} ${FUZZ_RUNS:+-runs="$FUZZ_RUNS"} >"$out/fuzz.log" 2>&1
status=$?
set -e

stat() { sed -n "s/^stat::$1: *//p" "$out/fuzz.log" | tail -1; }
last=$(grep -E '^#[0-9]+' "$out/fuzz.log" | tail -1 || true)
cov=$(sed -n 's/.* cov: \([0-9]*\).*/\1/p' <<<"$last")
ft=$(sed -n 's/.* ft: \([0-9]*\).*/\1/p' <<<"$last")
corp=$(sed -n 's/.* corp: \([0-9]*\).*/\1/p' <<<"$last")
{
  echo "# Core fuzzing report"
  echo
  echo "- date: $(date -u +%Y-%m-%dT%H:%M:%SZ), commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
  echo "- target: tests/fuzz/core_fuzz.cpp (build/asan: clang++ -fsanitize=fuzzer,address,undefined)"
  echo "- asked for: ${seconds} s; ran: $(sed -n 's/^Done [0-9]* runs in \([0-9]*\) second.*/\1/p' "$out/fuzz.log" | tail -1) s"
  echo "- executions: $(stat number_of_executed_units) ($(stat average_exec_per_sec) per second)"
  echo "- coverage: cov ${cov:-?} edges, ft ${ft:-?} features; corpus ${corp:-?} inputs"
  echo "- peak memory: $(stat peak_rss_mb) MB"
  if [ "$status" -eq 0 ]; then
    echo "- outcome: every input gave a finite, row-stochastic result or a std::invalid_argument"
  else
    echo "- outcome: FAILED (exit $status); see build/fuzz/fuzz.log and build/fuzz/crash-*"
  fi
} >"$out/report.md"
cat "$out/report.md"
[ "$status" -eq 0 ] || tail -40 "$out/fuzz.log" >&2
exit "$status"
