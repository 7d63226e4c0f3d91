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

# Every core source, so that a new core file is fuzzed too. Eigen's assertions stay on: a shape
# that got past the core's checks aborts instead of reading out of bounds. The core is compiled
# as two unity files (its sources dealt out in turn), one per core, as CMake's unity build does:
# Eigen's templates are instantiated twice instead of once per source. A unity file is compiled
# again only when one of its sources or a core header changed since.
# Line tables only: a crash's stack still names files and lines, at about half the compile time.
flags=(-std=c++17 -gline-tables-only -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -Icpp/core -isystem /usr/include/eigen3)
mkdir -p "$out/obj"
sources=(cpp/core/*.cpp cpp/core/learn/*.cpp)
objects=()
compile() {  # compile SOURCE OBJECT DEPENDENCIES...
  local source=$1 object=$2
  shift 2
  objects+=("$object")
  if [ -f "$object" ] && [ -z "$(find "$@" cpp/core -name '*.hpp' -newer "$object" -print -quit)" ] \
    && [ -z "$(find "$@" -newer "$object" -print -quit)" ]; then
    return
  fi
  clang++ "${flags[@]}" -c "$source" -o "$object" &
}
for part in 0 1; do
  unity="$out/obj/core_unity_$part.cpp"
  members=()
  for index in "${!sources[@]}"; do [ $((index % 2)) -eq "$part" ] && members+=("${sources[$index]}"); done
  printf '#include "%s"\n' "${members[@]/#/$PWD/}" >"$unity.new"
  cmp -s "$unity.new" "$unity" && rm "$unity.new" || mv "$unity.new" "$unity"
  compile "$unity" "$out/obj/core_unity_$part.o" "$unity" "${members[@]}"
done
compile tests/fuzz/core_fuzz.cpp "$out/obj/core_fuzz.o" tests/fuzz/core_fuzz.cpp
for job in $(jobs -p); do wait "$job"; done
clang++ "${flags[@]}" "${objects[@]}" -o "$out/core_fuzz"

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
  echo "- target: tests/fuzz/core_fuzz.cpp (clang++ -fsanitize=fuzzer,address,undefined)"
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
