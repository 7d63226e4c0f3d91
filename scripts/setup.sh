#!/usr/bin/env bash
# Installs what the build and the tests need on a fresh Debian/Ubuntu machine, then the
# locked npm packages. Safe to run again: it installs only what is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

missing=()
command -v cmake >/dev/null || missing+=(cmake)
command -v g++ >/dev/null || missing+=(g++)
command -v em++ >/dev/null || missing+=(emscripten)
[ -f /usr/include/eigen3/Eigen/Dense ] || missing+=(libeigen3-dev)
[ -f /usr/src/googletest/CMakeLists.txt ] || missing+=(googletest)
[ -f /usr/include/benchmark/benchmark.h ] || missing+=(libbenchmark-dev)  # native kernel benchmark only
command -v node >/dev/null || missing+=(nodejs npm)
[ -x /usr/bin/chromium ] || missing+=(chromium)
# libFuzzer and the sanitizers' runtimes, for scripts/fuzz.sh
command -v clang++ >/dev/null || missing+=(clang)
compgen -G '/usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a' >/dev/null || missing+=(libclang-rt-14-dev)
# A compiler cache: a fresh clone's native and sanitized builds reuse the last clone's objects
command -v ccache >/dev/null || missing+=(ccache)

if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  sudo_cmd=""
  [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# Debian's emscripten needs Debian's node modules (acorn) on the path; see README.
export NODE_PATH=/usr/share/nodejs

if [ -L node_modules ]; then
  # node_modules is another checkout's (a git worktree sharing it through a symlink): npm ci
  # here would delete that folder's packages for everyone using it. A worktree's lock file is
  # newer than the shared install just by being checked out later, so the date says nothing.
  cmp -s package-lock.json "$(readlink -f node_modules)/../package-lock.json" \
    || echo "setup: node_modules is a link to $(readlink -f node_modules) and package-lock.json differs from that checkout's; not running npm ci through it (replace the link with a folder of your own to install)" >&2
elif [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund --loglevel=error
fi
