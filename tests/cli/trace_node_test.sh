#!/usr/bin/env bash
# tests/cli/trace_node_test.sh BEAMLET TRACE_CHECK — `beamlet trace --node`: running nodes
# traced from outside, redbug-style. The test starts an erl node and a beamlet node (short
# names @localhost, one cookie), each with a `pong` server and a `pinger` that sends the other
# node's pong a message every 50 ms with a seq_trace token (label 7). Then, under both
# engines: call and message events of the erl node and of the beamlet node (text, process
# names from the nodes), both nodes' seq_trace events in one JSON-lines file and one sequence
# diagram, the nodes left as they were (no trace flags, no patterns, seq_trace's system tracer
# back), and the errors: a node that is not there, a wrong cookie, --node with profile.
set -u
beamlet=$1 check=$2
work=$(mktemp -d)
erl_node=tracenode_erl_$$ bl_node=tracenode_bl_$$
cookie=tracenode_cookie
halt_node() {
  erl -sname "tracenode_stop_$$_$1@localhost" -setcookie $cookie -noshell \
    -eval "rpc:call('$1@localhost', erlang, halt, []), halt()." >/dev/null 2>&1
}
cleanup() {
  halt_node "$erl_node"
  halt_node "$bl_node"
  [ -n "${bl_pid:-}" ] && kill "$bl_pid" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT
ulimit -c 0
export ERL_CRASH_DUMP_SECONDS=0
failures=0 checks=0
cd "$work" || exit 1

fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}

cat >pp.erl <<'ERL'
-module(pp).
-export([main/0, start/1, pong/0, ping/2]).
%% A pong server, and a pinger that sends the peer's pong a traced message every 50 ms.
main() -> start(list_to_atom(os:getenv("PP_PEER"))), receive after infinity -> ok end.
start(Peer) ->
    register(pong, spawn(?MODULE, pong, [])),
    register(pinger, spawn(?MODULE, ping, [Peer, 0])),
    ok.
pong() -> receive {From, N} -> From ! {pong, N}, ?MODULE:pong() end.
ping(Peer, N) ->
    timer:sleep(50),
    seq_trace:set_token(label, 7),
    seq_trace:set_token(send, true),
    seq_trace:set_token('receive', true),
    {pong, Peer} ! {self(), N},
    receive {pong, N} -> ok after 1000 -> ok end,
    seq_trace:set_token([]),
    ping(Peer, N + 1).
ERL
erlc pp.erl || exit 1

PP_PEER="$erl_node@localhost" "$beamlet" run -sname "$bl_node@localhost" -setcookie $cookie -pa "$work" pp >"$work/bl.out" 2>&1 &
bl_pid=$!
for _ in $(seq 1 100); do
  epmd -names 2>/dev/null | grep -q "name $bl_node " && break
  sleep 0.1
done
erl -sname "$erl_node@localhost" -setcookie $cookie -noshell -pa "$work" \
  -eval "pp:start('$bl_node@localhost')" >"$work/erl.out" 2>&1 &
# Until each node's pinger has reached the other's pong (the beamlet node's started first).
erl -sname "tracenode_wait_$$@localhost" -setcookie $cookie -noshell -eval "
  Wait = fun W(0) -> halt(1);
             W(N) -> case [rpc:call(Node, erlang, process_info, [rpc:call(Node, erlang, whereis, [pong]), reductions])
                           || Node <- ['$erl_node@localhost', '$bl_node@localhost']] of
                         [{reductions, A}, {reductions, B}] when A > 100, B > 100 -> halt(0);
                         _ -> timer:sleep(100), W(N - 1)
                     end
         end,
  Wait(300)." || { echo "FAIL: the nodes did not start"; exit 1; }

# tr ARGS... — beamlet trace ARGS (the cookie given), 60 s at most; $status, stdout, stderr.
tr() {
  timeout 60 "$beamlet" trace -setcookie $cookie "$@" >"$work/stdout" 2>"$work/stderr"
  status=$?
}
expect_status() {  # NAME WANT
  checks=$((checks + 1))
  [ "$status" -eq "$2" ] || fail "$1: exit status $status, not $2; stderr: $(head -5 "$work/stderr")"
}
expect_line() {  # NAME REGEX FILE — a line of FILE matches REGEX (grep -E)
  checks=$((checks + 1))
  grep -Eq "$2" "$work/$3" || fail "$1: no line of $3 matches '$2':
$(head -20 "$work/$3")"
}

for engine in interp jit; do
  for node in "$erl_node" "$bl_node"; do
    what="$engine, $node"
    tr --engine "$engine" --node "$node@localhost" 'pp:pong/0' -e send,receive --procs pong -t 400
    expect_status "$what" 0
    expect_line "$what: a receive" '^ *[0-9.]+ <[0-9]+\.[0-9]+\.0> pong +receive \{<[0-9]+\.[0-9]+\.0>,[0-9]+\}$' stdout
    expect_line "$what: a send" '^ *[0-9.]+ <[0-9]+\.[0-9]+\.0> pong +send \{pong,[0-9]+\} to <[0-9]+\.[0-9]+\.0>' stdout
    expect_line "$what: a call" '^ *[0-9.]+ <[0-9]+\.[0-9]+\.0> pong +call pp:pong\(\)$' stdout
    expect_line "$what: the summary" '^beamlet trace: [0-9]+ events; stopped at the time limit \(--time-limit\)$' stderr
  done
  # seq_trace on both nodes: one trace, one sequence diagram.
  tr --engine "$engine" --node "$erl_node@localhost" --node "$bl_node@localhost" -e seq_trace -f json -o seq.jsonl -t 400
  expect_status "$engine, seq_trace json" 0
  checks=$((checks + 1))
  "$check" jsonl "$work/seq.jsonl" >/dev/null || fail "$engine: seq.jsonl is not JSON lines"
  senders=$(grep -c '"event":"seq_trace","term":"{send,' "$work/seq.jsonl")
  receivers=$(grep -c '"event":"seq_trace","term":"{'"'"'receive'"'"',' "$work/seq.jsonl")
  checks=$((checks + 1))
  [ "$senders" -ge 4 ] && [ "$receivers" -ge 4 ] || fail "$engine: seq_trace: $senders sends, $receivers receives"
  # Every event from both nodes, the pinger's (erl) and pong's (beamlet): two node numbers.
  nodes_seen=$(grep -o '<[0-9]*\.' "$work/seq.jsonl" | sort -u | wc -l)
  checks=$((checks + 1))
  [ "$nodes_seen" -eq 2 ] || fail "$engine: seq_trace events of $nodes_seen nodes, not 2:
$(head -5 "$work/seq.jsonl")"
  tr --engine "$engine" --node "$erl_node@localhost" --node "$bl_node@localhost" -e seq_trace -f seq -o seq.svg -t 400
  expect_status "$engine, seq_trace diagram" 0
  checks=$((checks + 1))
  "$check" svg "$work/seq.svg" >/dev/null || fail "$engine: seq.svg is not a picture"
  checks=$((checks + 1))
  grep -q '&lt;[0-9]*\.[0-9]*\.0&gt; pinger' "$work/seq.svg" && grep -q '&lt;[0-9]*\.[0-9]*\.0&gt; pong' "$work/seq.svg" ||
    fail "$engine: the diagram lacks pinger's or pong's lifeline"
done

# The nodes as they were: no trace flags on pong, no pattern, seq_trace's system tracer free.
for node in "$erl_node" "$bl_node"; do
  state=$(erl -sname "tracenode_look_$$@localhost" -setcookie $cookie -noshell -eval "
    N = '$node@localhost',
    Pong = rpc:call(N, erlang, whereis, [pong]),
    io:format(\"~p ~p ~p~n\", [rpc:call(N, erlang, trace_info, [Pong, flags]),
                               rpc:call(N, erlang, trace_info, [{pp, pong, 0}, traced]),
                               rpc:call(N, seq_trace, get_system_tracer, [])]),
    halt().")
  checks=$((checks + 1))
  [ "$state" = "{flags,[]} {traced,false} false" ] || fail "$node after the trace: $state"
done

# Errors: one line, status 2.
tr --node "tracenode_nosuch_$$@localhost" 'pp:pong/0'
checks=$((checks + 1))
[ "$status" -eq 2 ] && grep -q "^beamlet trace: cannot connect to tracenode_nosuch_$$@localhost" "$work/stderr" ||
  fail "no such node: status $status, stderr $(cat "$work/stderr")"
timeout 60 "$beamlet" trace -setcookie wrong_cookie --node "$erl_node@localhost" 'pp:pong/0' >"$work/stdout" 2>"$work/stderr"
status=$?
checks=$((checks + 1))
[ "$status" -eq 2 ] && grep -q "^beamlet trace: cannot connect to $erl_node@localhost" "$work/stderr" ||
  fail "wrong cookie: status $status, stderr $(cat "$work/stderr")"
timeout 60 "$beamlet" trace pp >"$work/stdout" 2>"$work/stderr"
status=$?
checks=$((checks + 1))
[ "$status" -eq 2 ] || fail "nothing to trace: status $status"
timeout 60 "$beamlet" trace >"$work/stdout" 2>"$work/stderr"
status=$?
checks=$((checks + 1))
[ "$status" -eq 2 ] && grep -q "^beamlet trace: a program to run (MOD, FILE.erl or FILE.beam) or --node NODE$" "$work/stderr" ||
  fail "no program, no node: status $status, stderr $(cat "$work/stderr")"

echo "trace_node_test: $checks checks, $failures failures"
[ "$failures" -eq 0 ]
