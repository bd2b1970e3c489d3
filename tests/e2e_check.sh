#!/usr/bin/env bash
# tests/e2e_check.sh BEAMLET ENGINE SCHEDULERS BEAM_DIR MODULE EXPECTED — runs MODULE:main() on
# beamlet and compares its stdout with the expected file produced by real erl
# (tests/regen_expected.sh). Next to EXPECTED, an optional NAME.input is fed on stdin
# (otherwise stdin is /dev/null) and an optional NAME.filter (a sed script) is applied to the
# output before the comparison (it masks timestamps and pids; EXPECTED holds filtered output).
# The helper modules shared by the programs (tests/e2e/shared, compiled next to BEAM_DIR into
# its sibling shared/) are on the code path too.
set -u
beamlet=$1 engine=$2 scheds=$3 dir=$4 mod=$5 expected=$6
base=${expected%.expected}
input=/dev/null
[ -f "$base.input" ] && input=$base.input
# NAME.erl_flags: erl's flags for the program (tests/regen_expected.sh), $DIR its directory;
# beamlet run takes them as erl does.
# NAME.beamlet_flags (possibly empty) replaces them for beamlet: what erl needs, beamlet may not.
flags=()
if [ -f "$base.beamlet_flags" ]; then
  # shellcheck disable=SC2207 # the flags are words
  flags=($(sed "s|\$DIR|$(dirname "$expected")|g" "$base.beamlet_flags"))
elif [ -f "$base.erl_flags" ]; then
  # shellcheck disable=SC2207 # the flags are words
  flags=($(sed "s|\$DIR|$(dirname "$expected")|g" "$base.erl_flags"))
fi
shared=$(dirname "$dir")/shared
pa_shared=()
[ -d "$shared" ] && pa_shared=(-pa "$shared")
actual=$(mktemp)
trap 'rm -f "$actual" "$actual.raw"' EXIT
# BEAMLET_E2E_TIMEOUT: seconds per program (60; longer under an emulator, tests/CMakeLists.txt).
timeout "${BEAMLET_E2E_TIMEOUT:-60}" "$beamlet" run --engine "$engine" -S "$scheds" "${flags[@]}" -pa "$dir" "${pa_shared[@]}" "$mod" <"$input" >"$actual.raw"
status=$?
if [ -f "$base.filter" ]; then
  sed -f "$base.filter" "$actual.raw" >"$actual"
else
  mv "$actual.raw" "$actual"
fi
if [ $status -ne 0 ]; then
  echo "beamlet exited with status $status"
fi
if ! diff -u "$expected" "$actual"; then
  echo "FAIL: $mod output differs from $expected"
  exit 1
fi
exit $status
