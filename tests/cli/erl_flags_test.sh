#!/usr/bin/env bash
# tests/cli/erl_flags_test.sh BEAMLET — erl's flags given wrong, on beamlet run and on erl: a
# boot script that does not exist or is corrupt, a sys.config that does not parse or does not
# exist, -boot_var without values. OTP's init and application controller answer them on both:
# the same standard output and exit status (stderr: erl's halt line, also beamlet's), within
# 10 s, never a crash. Then erlexec's own: an -args_file that does not exist, -env without
# values (one "beamlet: " line, status 1, as erl's status). And flags given right, among them
# -enable-feature maybe_expr, which a module that uses maybe needs to load on OTP 25.
set -u
beamlet=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
ulimit -c 0
export ERL_CRASH_DUMP_SECONDS=0 # erl: no erl_crash.dump (beamlet writes none)
failures=0 checks=0
cd "$work" || exit 1
cat >hello.erl <<'ERL'
-module(hello).
-export([main/0]).
main() -> io:format("hello~n").
ERL
erlc hello.erl || exit 1
# OTP 25 loads a module that uses maybe only with -enable-feature maybe_expr.
cat >mb.erl <<'ERL'
-module(mb).
-feature(maybe_expr, enable).
-export([main/0]).
main() -> maybe {ok, X} ?= {ok, 42}, io:format("maybe ~p~n", [X]) end.
ERL
erlc mb.erl || exit 1
echo 'garbage' >corrupt.boot
printf '[{kernel, [{foo, bar}]}' >bad.config

fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}

# same_as_erl NAME ARGS... — beamlet run ARGS MOD and erl -noshell ARGS -s MOD main -s init stop
# (MOD: hello unless set).
same_as_erl() {
  local name=$1 mod=${MOD:-hello}
  shift
  checks=$((checks + 1))
  timeout 10 erl -noshell "$@" -pa . -s "$mod" main -s init stop >erl.out 2>erl.err
  local erl_status=$?
  timeout 10 "$beamlet" run "$@" -pa . "$mod" >beamlet.out 2>beamlet.err
  local status=$?
  if [ $status -ge 124 ]; then
    fail "$name: beamlet timed out or was killed (status $status): $(cat beamlet.err)"
  elif [ $status -ne $erl_status ]; then
    fail "$name: exit status $status, erl's $erl_status"
  elif ! diff -u erl.out beamlet.out; then
    fail "$name: standard output differs from erl's"
  elif [ ! -s erl.err ] && [ -s beamlet.err ]; then
    fail "$name: beamlet wrote to stderr, erl did not: $(cat beamlet.err)"
  elif [ -s erl.err ] && ! grep -qxF -- "$(tail -n 1 erl.err)" beamlet.err; then
    fail "$name: erl's last stderr line '$(tail -n 1 erl.err)' is not in beamlet's: $(cat beamlet.err)"
  fi
}

# clean_failure NAME PATTERN ARGS... — one "beamlet: " line containing PATTERN, status 1.
clean_failure() {
  local name=$1 pattern=$2
  shift 2
  checks=$((checks + 1))
  timeout 10 "$beamlet" run "$@" -pa . hello >beamlet.out 2>beamlet.err
  local status=$?
  local err
  err=$(cat beamlet.err)
  if [ $status -ne 1 ]; then
    fail "$name: exit status $status (want 1): $err"
  elif [ "$(wc -l <beamlet.err)" -ne 1 ] || [[ $err != "beamlet: "*"$pattern"* ]]; then
    fail "$name: want one 'beamlet: ...$pattern...' line, got: $err"
  fi
}

same_as_erl "boot script missing" -boot no_such_boot
same_as_erl "boot script corrupt" -boot corrupt
same_as_erl "sys.config syntax error" -config bad
same_as_erl "sys.config missing" -config no_such
same_as_erl "-boot_var without values" -boot_var
same_as_erl "good flags" -kernel some_par some_val -mode interactive
MOD=mb same_as_erl "-enable-feature" -enable-feature maybe_expr
clean_failure "-args_file missing" 'Failed to open arguments file "no_such.args"' -args_file no_such.args
clean_failure "-env without values" "-env wants two values" -env ONLY_NAME
clean_failure "erl's -detached" "-detached has no place in beamlet run" -detached

echo "$checks checks, $failures failures"
[ $failures -eq 0 ]
