#!/usr/bin/env bash
# tests/e2e_check.sh BEAMLET ENGINE SCHEDULERS BEAM_DIR MODULE EXPECTED — runs MODULE:main() on
# beamlet and compares its stdout with the expected file produced by real erl
# (tests/regen_expected.sh).
set -u
beamlet=$1 engine=$2 scheds=$3 dir=$4 mod=$5 expected=$6
actual=$(mktemp)
trap 'rm -f "$actual"' EXIT
timeout 60 "$beamlet" run --engine "$engine" -S "$scheds" -pa "$dir" "$mod" >"$actual"
status=$?
if [ $status -ne 0 ]; then
  echo "beamlet exited with status $status"
fi
if ! diff -u "$expected" "$actual"; then
  echo "FAIL: $mod output differs from $expected"
  exit 1
fi
exit $status
