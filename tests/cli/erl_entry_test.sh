#!/usr/bin/env bash
# tests/cli/erl_entry_test.sh BEAMLET — beamlet as `erl`: a symlink named erl to beamlet takes
# erl's whole command line (beamlet erl ARGS likewise), and OTP's own launchers pointed at it
# run on beamlet: erlc (ERLC_EMULATOR) writes the same .beam as erl's erlc, escript
# (ESCRIPT_EMULATOR) runs a script as escript on erl does. Each check: the same standard
# output and exit status as the real erl, within 20 s.
set -u
beamlet=$(realpath "$1")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
ulimit -c 0
export ERL_CRASH_DUMP_SECONDS=0
export LC_ALL=C.UTF-8
unset ERL_FLAGS ERL_AFLAGS ERL_ZFLAGS ERLC_EMULATOR ESCRIPT_EMULATOR
failures=0 checks=0
cd "$work" || exit 1
mkdir bin
ln -s "$beamlet" bin/erl

fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}

# same NAME STDIN -- ERL_COMMAND... — the command with `erl` as erl, then as beamlet.
same() {
  local name=$1 input=$2
  shift 3
  checks=$((checks + 1))
  timeout 20 "$@" <"$input" >erl.out 2>erl.err
  local erl_status=$?
  PATH="$work/bin:$PATH" timeout 20 "$@" <"$input" >beamlet.out 2>beamlet.err
  local status=$?
  if [ $status -ge 124 ] && [ $status -ne 127 ]; then
    fail "$name: beamlet timed out or was killed (status $status): $(head -5 beamlet.err)"
  elif [ $status -ne $erl_status ]; then
    fail "$name: exit status $status, erl's $erl_status: $(head -5 beamlet.err)"
  elif ! diff -u <(sed -E 's/<0\.[0-9]+\.0>/<PID>/g' erl.out) <(sed -E 's/<0\.[0-9]+\.0>/<PID>/g' beamlet.out); then
    fail "$name: standard output differs from erl's"
  fi
}

cat >hello.erl <<'ERL'
-module(hello).
-export([start/0, main/1]).
start() -> io:format("hello ~p~n", [init:get_plain_arguments()]), halt().
main(Args) -> io:format("main ~p~n", [Args]).
ERL
printf '1 + 1.\nX = [a, b], length(X).\nlists:seq(1, 3).\n' >session.txt
printf 'hello:start().\n1 + 1.\n' >halt.txt
: >empty.txt

# erl's command line, as erl takes it.
same "-noshell -eval" empty.txt -- erl -noshell -eval 'io:format("~p~n", [6*7]), halt().'
same "-s and -extra" empty.txt -- sh -c 'erlc hello.erl && erl -noshell -pa . -s hello start -extra a b'
same "+S 1 and a user flag" empty.txt \
  -- erl +S 1 -noshell -foo x y -eval 'io:format("~p ~p~n", [erlang:system_info(schedulers), init:get_argument(foo)]), halt().'
same "-eval raises" empty.txt -- erl -noshell -eval 'erlang:error(boom)'
# The shell, reading a piped session (OTP's user, not a terminal).
same "piped shell" session.txt -- erl
same "piped shell, halt in it" halt.txt -- sh -c 'erlc hello.erl && erl -pa .'

# OTP's launchers with beamlet as their emulator.
checks=$((checks + 1))
mkdir -p by_erl by_beamlet
erlc +deterministic -o by_erl hello.erl
if ! ERLC_EMULATOR="$work/bin/erl" timeout 60 erlc +deterministic -o by_beamlet hello.erl; then
  fail "erlc on beamlet failed"
elif ! cmp -s by_erl/hello.beam by_beamlet/hello.beam; then
  fail "erlc on beamlet wrote another hello.beam than erlc on erl"
fi
cat >args.escript <<'ERL'
#!/usr/bin/env escript
main(Args) -> io:format("~p ~p~n", [Args, erlang:system_info(otp_release)]).
ERL
same "escript" empty.txt -- sh -c 'ESCRIPT_EMULATOR=$(command -v erl) escript args.escript x y'

echo "erl_entry_test: $checks checks, $failures failures"
[ $failures -eq 0 ]
