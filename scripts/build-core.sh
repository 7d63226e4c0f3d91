#!/usr/bin/env bash
# Builds the C++ core natively (build/native) and as WebAssembly (build/wasm).
# Usage: scripts/build-core.sh [native|wasm|asan]...   (default: native wasm)
set -euo pipefail
cd "$(dirname "$0")/.."
export NODE_PATH=/usr/share/nodejs  # Debian's emscripten finds acorn there
jobs=$(nproc)

targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(native wasm)
for target in "${targets[@]}"; do
  case "$target" in
    native) cmake -S . -B build/native -DCMAKE_BUILD_TYPE=Release >/dev/null ;;
    asan) cmake -S . -B build/asan -DCMAKE_BUILD_TYPE=Debug -DATTN_SANITIZE=ON >/dev/null ;;
    wasm) emcmake cmake -S . -B build/wasm -DCMAKE_BUILD_TYPE=Release >/dev/null ;;
    *) echo "build-core: unknown target '$target' (native, wasm or asan)" >&2; exit 2 ;;
  esac
  echo "build-core: building $target"
  cmake --build "build/$target" -j "$jobs"
done
