#!/usr/bin/env bash
# tests/cli/trace_test.sh BEAMLET TRACE_CHECK ENGINE — `beamlet trace` and `beamlet profile` on
# the programs of tests/cli/trace, under ENGINE with one scheduler: exact text output (time
# stamps, pids and refs normalised by trace/normalise.pl) against trace/*.expected; JSON lines,
# Chrome Trace Event files, sequence diagrams and flame graphs checked by TRACE_CHECK
# (tests/cli/trace_check.cpp); the limits and what they say; bad patterns; an interrupted
# trace's files; profile tables (times masked).
set -u
beamlet=$1 check=$2 engine=$3
here=$(cd "$(dirname "$0")" && pwd)
data=$here/trace
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp "$data"/*.erl "$work"/
failures=0 checks=0

fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}

# bl SUBCOMMAND ARGS... — beamlet SUBCOMMAND under ENGINE with -S 1, in $work, 60 s at most;
# sets $status and leaves stdout and stderr in $work/stdout and $work/stderr.
bl() {
  local sub=$1
  shift
  (cd "$work" && timeout 60 "$beamlet" "$sub" --engine "$engine" -S 1 "$@" >"$work/stdout" 2>"$work/stderr")
  status=$?
}

# expect_text NAME EXPECTED FILE — FILE, normalised, equals trace/EXPECTED.
expect_text() {
  checks=$((checks + 1))
  perl "$data/normalise.pl" "$work/$3" >"$work/$3.norm"
  diff -u "$data/$2" "$work/$3.norm" >"$work/diff" || fail "$1: differs from $2:
$(head -40 "$work/diff")"
}

# expect_check NAME KIND FILE [--open] — TRACE_CHECK accepts FILE as KIND; its "ok" line is in $checked.
expect_check() {
  checks=$((checks + 1))
  checked=$("$check" "$2" "$work/$3" ${4:-}) || fail "$1: $checked"
}

expect_status() {  # NAME WANT
  checks=$((checks + 1))
  [ "$status" -eq "$2" ] || fail "$1: exit status $status, not $2; stderr: $(head -5 "$work/stderr")"
}

expect_stderr() {  # NAME LINE — stderr is exactly LINE
  checks=$((checks + 1))
  [ "$(cat "$work/stderr")" = "$2" ] || fail "$1: stderr is '$(cat "$work/stderr")', not '$2'"
}

# ---- text ------------------------------------------------------------------------------------

bl trace calls.erl 'calls:fib/1 -> return' -o fib.txt
expect_status "fib" 0
expect_stderr "fib" "beamlet trace: 18 events, written to fib.txt"
grep -q "^fib(4) = 3$" "$work/stdout" || fail "fib: the program's output is not on stdout"
expect_text "fib" calls_fib.expected fib.txt

bl trace calls.erl 'calls:classify(X, _) when X > 3 -> return; caller; stack' 'calls:safe_div -> exception' \
  'lists:seq/2' -o actions.txt
expect_status "actions" 0
expect_text "actions" calls_actions.expected actions.txt

bl trace calls.erl 'lists:seq -> return' --depth 3 -o depth.txt
checks=$((checks + 1))
grep -q "returned from lists:seq/2 -> \[1,2|\.\.\.\]$" "$work/depth.txt" || fail "depth: $(cat "$work/depth.txt")"

bl trace msgs.erl -e send,receive,procs -o events.txt
expect_status "events" 0
expect_text "events" msgs_events.expected events.txt

bl trace msgs.erl -e receive --procs echo -o echo.txt
expect_text "procs echo" msgs_echo.expected echo.txt

# Sockets are ports: -e ports traces the ports the program opens (an accepted socket has no
# open event, as on erl).
bl trace sockets.erl -e ports -o sockets.txt
expect_status "sockets" 0
expect_text "sockets" sockets_ports.expected sockets.txt

bl trace msgs.erl -e seq_trace -o seq_trace.txt
expect_status "seq_trace" 0
expect_text "seq_trace" msgs_seq_trace.expected seq_trace.txt

# To standard output, after the program's own lines (the writer thread is behind it).
bl trace calls.erl 'calls:classify/2'
checks=$((checks + 1))
[ "$(grep -c "call calls:classify" "$work/stdout")" -eq 3 ] || fail "stdout: $(cat "$work/stdout")"

# ---- JSON lines, Chrome trace, pictures ------------------------------------------------------

bl trace calls.erl 'calls:fib/1 -> return' -f json -o fib.jsonl
expect_check "json" jsonl fib.jsonl
[ "$checked" = "ok jsonl 18 events: call=9 return_from=9" ] || fail "json: $checked"
checks=$((checks + 1))
grep -q '^{"t":[0-9.]*,"pid":"<[0-9.]*>","name":"main","event":"call","mfa":"calls:fib/1","args":\["4"\]}$' \
  "$work/fib.jsonl" || fail "json: no call of fib(4): $(head -2 "$work/fib.jsonl")"

bl trace calls.erl 'calls:fib/1' -f chrome -o fib.json
expect_status "chrome" 0
expect_stderr "chrome" "beamlet trace: 18 events, written to fib.json"
expect_check "chrome" chrome fib.json
[ "$checked" = "ok chrome 20 events: 9 slices, 0 instants, 0 flows, 1 threads, 2 metadata" ] || fail "chrome: $checked"

bl trace msgs.erl 'msgs:echo/0' -e send,receive,procs,running,gc -f chrome -o msgs.json
expect_check "chrome events" chrome msgs.json
case $checked in
  *", 0 flows"*|*" 0 slices"*) fail "chrome events: no flows or no slices: $checked" ;;
esac

bl trace msgs.erl -e send,receive -f seq -o msgs.svg
expect_stderr "seq" "beamlet trace: 23 events, sequence diagram written to msgs.svg"
expect_check "seq" svg msgs.svg
bl trace msgs.erl -e seq_trace -f seq -o seq_trace.svg
expect_check "seq (seq_trace)" svg seq_trace.svg

bl trace calls.erl calls -f flame -o flame.svg
expect_status "flame" 0
expect_check "flame" svg flame.svg
expect_check "flame folded" folded flame.svg.folded
checks=$((checks + 1))
grep -Eq "^<[0-9.]+> main;calls:main/0;calls:fib/1 [0-9]+$" "$work/flame.svg.folded" ||
  fail "flame: no main;calls:main/0;calls:fib/1 stack (recursion folded): $(cat "$work/flame.svg.folded")"

# ---- limits and interruptions ----------------------------------------------------------------

bl trace calls.erl 'calls:fib/1 -> return' -n 5 -o limit.txt
expect_status "max-events" 0
expect_stderr "max-events" "beamlet trace: 5 events, written to limit.txt; stopped after 5 events (--max-events)"
checks=$((checks + 1))
[ "$(wc -l <"$work/limit.txt")" -eq 5 ] && grep -q "^done$" "$work/stdout" ||
  fail "max-events: $(wc -l <"$work/limit.txt") lines; the program did not finish"

bl trace calls.erl 'calls:fib/1 -> return' --max-rate 4/1000 -o rate.txt
expect_stderr "max-rate" "beamlet trace: 4 events, written to rate.txt; stopped: more than 4 events in 1000 ms (--max-rate)"

bl trace ticker.erl 'ticker:tick -> return' -t 300 -o time.txt
expect_status "time-limit" 0
checks=$((checks + 1))
grep -q "; stopped at the time limit (--time-limit)$" "$work/stderr" && grep -q "^ticked 30$" "$work/stdout" ||
  fail "time-limit: $(cat "$work/stderr")"
lines=$(wc -l <"$work/time.txt")
[ "$lines" -ge 2 ] && [ "$lines" -le 16 ] || fail "time-limit: $lines events in 300 ms of ticks 50 ms apart"

# Interrupted (SIGINT): the files written so far are complete and valid; exit status 130.
for format in chrome text; do
  checks=$((checks + 1))
  (cd "$work" && TICKS=200 exec "$beamlet" trace --engine "$engine" -S 1 ticker.erl 'ticker:tick -> return' \
     -f $format -o "interrupted.$format" >/dev/null 2>"$work/interrupted.err") &
  pid=$!
  # Interrupted once it has written an event (under an emulator on a busy machine the
  # program may take longer than any fixed delay to get there).
  for _ in $(seq 600); do
    grep -q "ticker:tick" "$work/interrupted.$format" 2>/dev/null && break
    sleep 0.1
  done
  kill -INT $pid
  wait $pid
  status=$?
  [ $status -eq 130 ] || fail "interrupted $format: exit status $status"
  grep -q "; interrupted$" "$work/interrupted.err" || fail "interrupted $format: $(cat "$work/interrupted.err")"
done
expect_check "interrupted chrome" chrome interrupted.chrome
checks=$((checks + 1))
[ "$(tail -n 1 "$work/interrupted.text" | grep -c "returned from ticker:tick/1")" -eq 1 ] ||
  fail "interrupted text: its last line is not a whole event: $(tail -n 2 "$work/interrupted.text")"

bl trace ticker.erl 'ticker:tick' --progress -o progress.txt
checks=$((checks + 1))
grep -Eq "^beamlet trace: [0-9]+ events, 0 dropped, [0-9]+/s$" "$work/stderr" || fail "progress: $(cat "$work/stderr")"

# ---- bad input -------------------------------------------------------------------------------

bad_pattern() {  # PATTERN STDERR
  bl trace calls.erl "$1"
  expect_status "pattern $1" 2
  expect_stderr "pattern $1" "$2"
}
bad_pattern 'calls:fib(' "beamlet trace: bad pattern 'calls:fib(' at column 10: '(' is never closed"
bad_pattern 'calls:fib/x' "beamlet trace: bad pattern 'calls:fib/x' at column 11: expected an arity (an integer) after '/'"
bad_pattern 'calls:fib(X]' "beamlet trace: bad pattern 'calls:fib(X]' at column 12: unexpected ']'"
bad_pattern 'calls:fib(X) when X >> -> return' \
  "beamlet trace: bad pattern 'calls:fib(X) when X >> -> return' at column 21: unexpected '>>'"
bad_pattern 'calls:fib -> frobnicate' \
  "beamlet trace: bad pattern 'calls:fib -> frobnicate' at column 14: unknown action 'frobnicate' (return, exception, caller, stack)"
bad_pattern ':fib' "beamlet trace: bad pattern ':fib' at column 1: expected a module name, not ':'"
bad_pattern 'calls:fib(X) when foo(X)' \
  "beamlet trace: bad pattern 'calls:fib(X) when foo(X)' at column 19: fun containing the local function call 'foo/1' (called in guard) cannot be translated into match_spec"

bl trace calls.erl -e frob
expect_status "unknown event" 2
expect_stderr "unknown event" "beamlet trace: unknown event frob (send, receive, procs, running, gc, ports, seq_trace)"
bl trace calls.erl
expect_status "nothing to trace" 2
bl trace calls.erl 'calls:nosuch' -o none.txt
expect_status "no function" 0
checks=$((checks + 1))
head -1 "$work/stderr" | grep -qx "beamlet trace: pattern 'calls:nosuch' matches no function" || fail "no function: $(cat "$work/stderr")"
bl trace calls.erl calls -o /nonexistent/dir/out.txt
expect_status "unwritable output" 2
expect_stderr "unwritable output" "beamlet trace: cannot write /nonexistent/dir/out.txt"

# ---- profile ---------------------------------------------------------------------------------

# The times vary; the calls and the words allocated do not (rows sorted by words).
mask_times() {
  awk '/^\*\*\*\*\*\*/ { sub(/[0-9]+ us,/, "T us,") } /^[a-z].*:.*\/[0-9]+ / { $3 = "T"; $4 = "P"; $5 = "T" } { print }' "$work/$1"
}
bl profile calls.erl --sort memory
expect_status "profile" 0
expect_stderr "profile" ""
checks=$((checks + 1))
mask_times stdout >"$work/profile.masked"
diff -u "$data/profile_calls.expected" "$work/profile.masked" >"$work/diff" || fail "profile: $(head -30 "$work/diff")"

bl profile msgs.erl --per-process --sort calls
checks=$((checks + 1))
[ "$(grep -c '^\*\*\*\*\*\* beamlet profile of <' "$work/stdout")" -eq 3 ] || fail "profile per process: $(cat "$work/stdout")"
grep -Eq "^msgs:echo/0 +4 " "$work/stdout" || fail "profile per process: echo/0 is not called 4 times: $(cat "$work/stdout")"

bl profile calls.erl 'calls:fib/1' --sort name
checks=$((checks + 1))
grep -Eq "^calls:fib/1 +9 +[0-9]+ +100.00 " "$work/stdout" || fail "profile of a pattern: $(cat "$work/stdout")"

echo "$checks checks, $failures failed"
[ $failures -eq 0 ]
