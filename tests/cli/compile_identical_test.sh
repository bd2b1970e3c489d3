#!/usr/bin/env bash
# tests/cli/compile_identical_test.sh BEAMLET ENGINE — OTP's compiler on beamlet writes the same
# bytes as on erl: compile:file/2 with `deterministic` over OTP's own stdlib and compiler
# sources (Debian's erlang-src), once on erl and once on beamlet, and every .beam compared
# byte for byte. By default every 8th source (17 of 143, both applications); COMPILE_ALL=1
# compiles them all (tools and README: 143 of 143 identical). Skipped (77) without the sources.
set -u
beamlet=$(realpath "$1")
engine=${2:-jit}
lib=/usr/lib/erlang/lib
stdlib=$(ls -d $lib/stdlib-* 2>/dev/null | head -1)
compiler=$(ls -d $lib/compiler-* 2>/dev/null | head -1)
kernel=$(ls -d $lib/kernel-* 2>/dev/null | head -1)
ls "$stdlib"/src/*.erl "$compiler"/src/*.erl >/dev/null 2>&1 ||
  { echo "compile_identical_test: OTP's sources not installed (erlang-src)"; exit 77; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/erl" "$work/beamlet"
every=8
[ -n "${COMPILE_ALL:-}" ] && every=1
# The compiler's Makefile defines COMPILER_VSN; its value is the application's version.
cat >"$work/compile_all.erl" <<EOF
-module(compile_all).
-export([main/1]).
main([Out]) ->
    Opts = [deterministic, {outdir, Out}, {i, "$stdlib/include"}, {i, "$stdlib/src"},
            {i, "$kernel/include"}, {i, "$compiler/src"},
            {d, 'COMPILER_VSN', "${compiler##*-}"}, return_errors],
    All = filelib:wildcard("$stdlib/src/*.erl") ++ filelib:wildcard("$compiler/src/*.erl"),
    Files = [F || {I, F} <- lists:enumerate(All), I rem $every =:= 0 orelse $every =:= 1],
    [io:format("~s: ~p~n", [filename:basename(F), element(1, compile:file(F, Opts))]) || F <- Files],
    halt().
EOF
erlc -o "$work" "$work/compile_all.erl" || exit 1
(ulimit -v 8000000; cd "$work" && erl -noshell -pa "$work" -run compile_all main erl >erl.out 2>&1)
(cd "$work" && BEAMLET_ENGINE=$engine timeout 900 "$beamlet" erl -noshell -pa "$work" -run compile_all main beamlet \
  >beamlet.out 2>&1)
status=$?
failures=0
if [ $status -ne 0 ] || ! diff -u "$work/erl.out" "$work/beamlet.out"; then
  echo "FAIL: compile:file/2 on beamlet (status $status) did not report what it did on erl"
  failures=$((failures + 1))
fi
count=0
for f in "$work"/erl/*.beam; do
  count=$((count + 1))
  if ! cmp -s "$f" "$work/beamlet/$(basename "$f")"; then
    echo "FAIL: $(basename "$f") differs from erl's"
    failures=$((failures + 1))
  fi
done
[ $count -gt 0 ] || { echo "FAIL: erl compiled nothing"; exit 1; }
echo "compile_identical_test ($engine): $count .beam files compared, $failures failures"
[ $failures -eq 0 ]
