#!/usr/bin/env bash
# Builds the C++ core natively (build/native), under ASan + UBSan (build/asan) and as
# WebAssembly (build/wasm), through the presets in CMakePresets.json.
# Usage: scripts/build-core.sh [native|wasm|asan|dist]...   (default: native wasm)
#   dist   the WebAssembly modules alone, for dist/ (build/dist-wasm, -DATTN_TESTS=OFF: no
#          GoogleTest suite compiled)
# ATTN_BUILD_ROOT=dir puts the build folders under dir instead of build/;
# ATTN_CONFIGURE_ONLY=1 runs CMake's configure step and stops.
set -euo pipefail
cd "$(dirname "$0")/.."
export NODE_PATH=/usr/share/nodejs  # Debian's emscripten finds acorn there
jobs=${ATTN_JOBS:-$(nproc)}
build_root=${ATTN_BUILD_ROOT:-build}

# A build folder configured from another checkout (the repository was moved or copied, build/
# and all) makes CMake stop: "The current CMakeCache.txt directory … is different than the
# directory … where CMakeCache.txt was created". Such a folder holds nothing reusable here, so
# it is configured afresh.
reset_if_foreign() {
  local dir=$1 cache="$1/CMakeCache.txt" source_dir cache_dir
  [ -f "$cache" ] || return 0
  source_dir=$(sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' "$cache")
  cache_dir=$(sed -n 's/^CMAKE_CACHEFILE_DIR:INTERNAL=//p' "$cache")
  if [ "$(realpath -m "$source_dir")" != "$(realpath -m .)" ] || [ "$(realpath -m "$cache_dir")" != "$(realpath -m "$dir")" ]; then
    echo "build-core: $dir was configured for $source_dir; configuring it afresh"
    rm -rf "$dir"
  fi
}

# The sanitized build is compiled by Clang (CMakePresets.json); a folder configured with another
# compiler is configured afresh rather than left to CMake's cache-deleting warning.
reset_if_other_compiler() {
  local cache="$1/CMakeCache.txt"
  [ -f "$cache" ] && ! grep -q '^CMAKE_CXX_COMPILER:[A-Z]*=.*clang' "$cache" && rm -rf "$1"
  return 0
}

# ccache, where the machine has it (scripts/setup.sh installs it), for every build: CI builds
# every fresh clone from scratch, and most of its sources are the same as the last clone's.
# The base directory makes the cache's keys independent of where the clone is. em++ runs its
# Clang through the cache itself (EM_COMPILER_WRAPPER). Measured on a second clone
# in another folder: native 53 → 26 s, WebAssembly 58 → 34 s (the two unity files, which name
# their sources by absolute path, and the links still run).
launcher=()
if command -v ccache >/dev/null; then
  export CCACHE_BASEDIR=$PWD CCACHE_NOHASHDIR=true EM_COMPILER_WRAPPER=ccache
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
fi

targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(native wasm)
for target in "${targets[@]}"; do
  dir="$build_root/$target"
  [ "$target" = dist ] && dir="$build_root/dist-wasm"
  reset_if_foreign "$dir"
  [ "$target" = asan ] && reset_if_other_compiler "$dir"
  case "$target" in
    native | asan) cmake --preset "$target" -B "$dir" "${launcher[@]}" >/dev/null ;;
    wasm) cmake --preset "$target" -B "$dir" >/dev/null ;;
    dist) cmake --preset wasm -B "$dir" -DATTN_TESTS=OFF >/dev/null ;;
    *) echo "build-core: unknown target '$target' (native, wasm, asan or dist)" >&2; exit 2 ;;
  esac
  [ "${ATTN_CONFIGURE_ONLY:-0}" = 1 ] && continue
  echo "build-core: building $target"
  cmake --build "$dir" -j "$jobs"
done
