#!/usr/bin/env bash
# Quick start, command 1: set up, build the core and the page, serve it on 127.0.0.1.
# Usage: scripts/serve.sh [--port 8000]
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build-core.sh wasm
node scripts/build-web.mjs
# Served with the same strict Content-Security-Policy the tests use.
exec node scripts/serve.mjs --root build/web --csp "$@"
