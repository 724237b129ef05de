#!/usr/bin/env bash
# scripts/build.sh — configures (once) and builds modelc into ./build with
# CMake + Ninja. Usage: scripts/build.sh [extra ninja targets...]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build="${MODELC_BUILD_DIR:-$root/build}"
if [ ! -f "$build/build.ninja" ]; then
  cmake -G Ninja -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release
fi
ninja -C "$build" "$@"
