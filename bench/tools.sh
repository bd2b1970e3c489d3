#!/usr/bin/env bash
# bench/tools.sh — wall time of real tools run on erl and on beamlet as erl (a symlink first on
# PATH), in the same run: `rebar3 eunit` on a new app with one test module, `mix test` on the
# project `mix new` makes, `elixir -e`, and `erlc` on 20 of stdlib's sources. Each row: the
# median of REPS runs (default 5) after one warm-up run each (the JIT's object cache, rebar3's
# and Mix's build directories), and beamlet/erl. BEAMLET_ENGINE=interp for the interpreter.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
beamlet="${BEAMLET:-$here/../build/beamlet}"
reps=${REPS:-5}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/bin"
ln -s "$(realpath "$beamlet")" "$work/bin/erl"
export NO_COLOR=1 HOME="$work"

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
# wall CMD...: seconds, as a decimal.
wall() {
  local t0 t1
  t0=$(date +%s.%N)
  "$@" >/dev/null 2>&1 || echo "bench/tools: failed: $*" >&2
  t1=$(date +%s.%N)
  echo "$t1 - $t0" | bc -l
}
row() {  # NAME DIR CMD...
  local name=$1 dir=$2
  shift 2
  local e b
  (cd "$dir" && "$@" >/dev/null 2>&1; PATH="$work/bin:$PATH" "$@" >/dev/null 2>&1) || true
  e=$(for _ in $(seq "$reps"); do (cd "$dir" && wall "$@"); done | median)
  b=$(for _ in $(seq "$reps"); do (cd "$dir" && PATH="$work/bin:$PATH" wall "$@"); done | median)
  printf '| %s | %.2f s | %.2f s | %.2f |\n' "$name" "$e" "$b" "$(echo "$b / $e" | bc -l)"
}

cd "$work"
rebar3 new app benchapp >/dev/null
mkdir -p benchapp/test
cat >benchapp/test/benchapp_tests.erl <<'ERL'
-module(benchapp_tests).
-include_lib("eunit/include/eunit.hrl").
sort_test_() -> [?_assertEqual(lists:seq(1, N), lists:sort(lists:reverse(lists:seq(1, N)))) || N <- lists:seq(1, 200)].
ERL
mix new benchproj >/dev/null
mkdir -p stdlib_out
srcs=$(ls /usr/lib/erlang/lib/stdlib-*/src/*.erl | head -20)

echo "| tool | erl | beamlet | ratio |"
echo "|---|---:|---:|---:|"
row "rebar3 eunit" benchapp rebar3 eunit
row "mix test" benchproj mix test
row "elixir -e" . elixir -e 'IO.puts(Enum.sum(1..1000))'
# shellcheck disable=SC2086
row "erlc, 20 stdlib sources" . erlc -o stdlib_out -I /usr/lib/erlang/lib/stdlib-*/include $srcs
