#!/usr/bin/env bash
# tests/stress/run_stress.sh BEAMLET SCHEDULERS BEAM_DIR MODULE [ENGINE] — runs a self-checking
# stress program; it passes when the program exits 0 and its last line is "all ok".
set -u
out=$(timeout 900 "$1" run --engine "${5:-jit}" -S "$2" -pa "$3" "$4")
status=$?
echo "$out"
[ $status -eq 0 ] && [ "$(echo "$out" | tail -n 1)" = "all ok" ]
