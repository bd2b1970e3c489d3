#!/usr/bin/env bash
# tools/run_tests.sh — set up, build everything and run all tests (unit + end-to-end).
set -euo pipefail
cd "$(dirname "$0")/.."
tools/setup.sh
BUILD=${BUILD:-build}
cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo ${CMAKE_ARGS:-} >/dev/null
ninja -C "$BUILD"
ctest --test-dir "$BUILD" --output-on-failure -j2
