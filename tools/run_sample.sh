#!/usr/bin/env bash
# tools/run_sample.sh — set up, build, and run a sample program on beamlet.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/setup.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
ninja -C build beamlet >/dev/null
build/beamlet run "${1:-samples/hello.erl}"
