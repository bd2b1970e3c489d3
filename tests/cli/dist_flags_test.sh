#!/usr/bin/env bash
# tests/cli/dist_flags_test.sh BEAMLET — a node named on the command line, as erl names one:
# `beamlet run -sname N -setcookie C` and with -hidden, next to `erl -noshell` with the same
# flags, against a real erl node the test starts (epmd is started by whichever VM comes first,
# as erlexec does): the same standard output and exit status. A name that another node holds
# fails on both with erl's message.
set -u
beamlet=$1
work=$(mktemp -d)
peer=distflags_peer_$$
cleanup() {
  erl -sname "distflags_stop_$$@localhost" -setcookie distflags -noshell \
    -eval "rpc:call('$peer@localhost', erlang, halt, []), halt()." >/dev/null 2>&1
  rm -rf "$work"
}
trap cleanup EXIT
ulimit -c 0
export ERL_CRASH_DUMP_SECONDS=0
failures=0 checks=0
cd "$work" || exit 1
cat >named.erl <<'ERL'
-module(named).
-export([main/0]).
main() ->
    [Name, Host] = string:split(atom_to_list(node()), "@"),
    io:format("alive ~p, host ~s, name prefix ~s~n", [is_alive(), Host, lists:sublist(Name, 8)]),
    io:format("cookie ~p~n", [erlang:get_cookie()]),
    Peer = list_to_atom(os:getenv("DISTFLAGS_PEER")),
    io:format("ping ~p~n", [net_adm:ping(Peer)]),
    io:format("visible ~p, hidden ~p~n", [nodes() =:= [Peer], nodes(hidden) =:= [Peer]]),
    io:format("peer sees us ~p~n", [lists:member(node(), rpc:call(Peer, erlang, nodes, [connected]))]).
ERL
erlc named.erl || exit 1
cat >port_range.erl <<'ERL'
-module(port_range).
-export([main/0]).
main() ->
    [Name, Host] = string:split(atom_to_list(node()), "@"),
    {port, Port, _} = erl_epmd:port_please(Name, Host),
    {ok, Min} = application:get_env(kernel, inet_dist_listen_min),
    {ok, Max} = application:get_env(kernel, inet_dist_listen_max),
    io:format("listening within ~p..~p: ~p~n", [Min, Max, Port >= Min andalso Port =< Max]).
ERL
erlc port_range.erl || exit 1
erl -sname "$peer@localhost" -setcookie distflags -noshell -eval 'receive after 120000 -> halt() end.' &
for _ in $(seq 1 100); do
  epmd -names 2>/dev/null | grep -q "name $peer " && break
  sleep 0.1
done
export DISTFLAGS_PEER="$peer@localhost"

fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}

# same_as_erl NAME ARGS... — beamlet run ARGS named and erl -noshell ARGS -s named main -s init
# stop, each as its own node (a "_b" or "_e" appended to an -sname's value).
same_as_erl() {
  local name=$1
  shift
  checks=$((checks + 1))
  timeout 30 erl -noshell $(printf '%s\n' "$@" | sed "s/^\(distflags_[a-z]*\)_$$/\1_e$$/") -pa . -s named main -s init stop >erl.out 2>erl.err
  local erl_status=$?
  timeout 30 "$beamlet" run $(printf '%s\n' "$@" | sed "s/^\(distflags_[a-z]*\)_$$/\1_b$$/") -pa . named >beamlet.out 2>beamlet.err
  local status=$?
  if [ $status -ge 124 ]; then
    fail "$name: beamlet timed out or was killed (status $status): $(cat beamlet.err)"
  elif [ $status -ne $erl_status ]; then
    fail "$name: exit status $status, erl's $erl_status: $(cat beamlet.err)"
  elif ! diff -u erl.out beamlet.out; then
    fail "$name: standard output differs from erl's"
  fi
}

same_as_erl "-sname" -sname "distflags_a_$$" -setcookie distflags
same_as_erl "-sname Name@Host" -sname "distflags_b_$$@localhost" -setcookie distflags
same_as_erl "-hidden" -sname "distflags_c_$$" -setcookie distflags -hidden

# -kernel with two parameters: the port range a firewall would open.
checks=$((checks + 1))
low=$((20000 + $$ % 20000))
range=(-kernel inet_dist_listen_min $low inet_dist_listen_max $((low + 20)))
timeout 30 erl -noshell -sname "distflags_r_e$$" -setcookie distflags "${range[@]}" -pa . -s port_range main -s init stop >erl.out 2>erl.err
timeout 30 "$beamlet" run -sname "distflags_r_b$$" -setcookie distflags "${range[@]}" -pa . port_range >beamlet.out 2>beamlet.err
if ! diff -u erl.out beamlet.out; then
  fail "-kernel inet_dist_listen_min/max: output differs from erl's: $(cat beamlet.err)"
fi

# No epmd where ERL_EPMD_PORT says, and -start_epmd false: erl's failure, its status.
checks=$((checks + 1))
no_epmd=$((40000 + $$ % 20000))
ERL_EPMD_PORT=$no_epmd timeout 30 erl -noshell -sname "distflags_n_e$$" -start_epmd false -pa . -s named main -s init stop >erl.out 2>&1
erl_status=$?
ERL_EPMD_PORT=$no_epmd timeout 30 "$beamlet" run -sname "distflags_n_b$$" -start_epmd false -pa . named >beamlet.out 2>&1
status=$?
if [ $status -ne $erl_status ]; then
  fail "no epmd: exit status $status, erl's $erl_status: $(cat beamlet.out)"
elif ! grep -qxF -- "$(head -n 1 erl.out)" beamlet.out; then
  fail "no epmd: erl's '$(head -n 1 erl.out)' is not in beamlet's output: $(cat beamlet.out)"
fi

# ERL_EPMD_PORT with epmd started by the VM, as erlexec starts it: the node registers there.
checks=$((checks + 1))
cat >registered.erl <<'ERL'
-module(registered).
-export([main/0]).
main() ->
    [Name, Host] = string:split(atom_to_list(node()), "@"),
    io:format("registered with that epmd: ~p~n", [element(1, erl_epmd:port_please(Name, Host)) =:= port]).
ERL
erlc registered.erl || exit 1
own_epmd=$((no_epmd + 1))
ERL_EPMD_PORT=$own_epmd timeout 30 "$beamlet" run -sname "distflags_p_b$$" -pa . registered >beamlet.out 2>&1
if ! grep -qx "registered with that epmd: true" beamlet.out || ! ERL_EPMD_PORT=$own_epmd epmd -names >/dev/null 2>&1; then
  fail "ERL_EPMD_PORT: $(cat beamlet.out)"
fi
ERL_EPMD_PORT=$own_epmd epmd -kill >/dev/null 2>&1

# A name the peer holds: erl's message on standard output or error, a failed start.
checks=$((checks + 1))
timeout 30 erl -noshell -sname "$peer@localhost" -setcookie distflags -pa . -s named main -s init stop >erl.out 2>&1
erl_status=$?
timeout 30 "$beamlet" run -sname "$peer@localhost" -setcookie distflags -pa . named >beamlet.out 2>&1
status=$?
if [ $status -ge 124 ]; then
  fail "taken name: beamlet timed out (status $status)"
elif [ $status -ne $erl_status ]; then
  fail "taken name: exit status $status, erl's $erl_status: $(cat beamlet.out)"
elif ! grep -q "seems to be in use by another Erlang node" beamlet.out; then
  fail "taken name: no 'in use' message: $(cat beamlet.out)"
fi

echo "$checks checks, $failures failures"
[ $failures -eq 0 ]
