#!/usr/bin/env bash
# Builds the C++ core natively (build/native), under ASan + UBSan (build/asan) and as
# WebAssembly (build/wasm), through the presets in CMakePresets.json.
# Usage: scripts/build-core.sh [native|wasm|asan]...   (default: native wasm)
set -euo pipefail
cd "$(dirname "$0")/.."
export NODE_PATH=/usr/share/nodejs  # Debian's emscripten finds acorn there
jobs=$(nproc)

targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(native wasm)
for target in "${targets[@]}"; do
  case "$target" in
    native | asan | wasm) cmake --preset "$target" >/dev/null ;;
    *) echo "build-core: unknown target '$target' (native, wasm or asan)" >&2; exit 2 ;;
  esac
  echo "build-core: building $target"
  cmake --build "build/$target" -j "$jobs"
done
