#!/usr/bin/env bash
# tests/cli/cli_test.sh BEAMLET SAMPLE_BEAM UNCAUGHT_ERL — bad input to the beamlet command line:
# each case must exit non-zero within 10 s with exactly one "beamlet: " line on stderr, never a
# crash. Also checks an uncaught Erlang error, `beamlet dis` (both engines), `beamlet compare`
# and the usage message.
# SAMPLE_BEAM is a valid module with main/0 (build/unit_data/loader_sample.beam); the bad .beam
# files are made from it in a temporary directory.
set -u
beamlet=$1 sample_beam=$2 uncaught_erl=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
ulimit -c 0
failures=0 checks=0

fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}

# run_beamlet ARGS... — runs beamlet in $work with a 10 s limit; sets $status, $out, $err.
run_beamlet() {
  (cd "$work" && timeout 10 "$beamlet" "$@" >"$work/stdout" 2>"$work/stderr")
  status=$?
  out=$(cat "$work/stdout")
  err=$(cat "$work/stderr")
}

# expect_clean_failure NAME PATTERN ARGS... — beamlet ARGS must exit non-zero (not a signal or
# timeout) with exactly one stderr line that starts with "beamlet: " and contains PATTERN.
expect_clean_failure() {
  local name=$1 pattern=$2
  shift 2
  checks=$((checks + 1))
  run_beamlet "$@"
  if [ $status -eq 0 ]; then
    fail "$name: exit status 0"
  elif [ $status -eq 124 ]; then
    fail "$name: timed out after 10 s"
  elif [ $status -ge 128 ]; then
    fail "$name: killed by signal $((status - 128)); stderr: $err"
  elif [ "$(wc -l <"$work/stderr")" -ne 1 ]; then
    fail "$name: expected one stderr line, got: $err"
  elif [[ $err != "beamlet: "* ]]; then
    fail "$name: stderr does not start with 'beamlet: ': $err"
  elif [[ $err != *"$pattern"* ]]; then
    fail "$name: stderr lacks '$pattern': $err"
  fi
}

# u32 FILE OFFSET — the big-endian 32-bit word at OFFSET.
u32() {
  local b
  read -r -a b <<<"$(od -An -tu1 -j "$2" -N4 "$1")"
  echo $(((b[0] << 24) | (b[1] << 16) | (b[2] << 8) | b[3]))
}

# chunk_data_offset FILE ID — where chunk ID's data starts.
chunk_data_offset() {
  local file=$1 id=$2 at=12 size
  local total
  total=$(stat -c %s "$file")
  while [ $at -lt "$total" ]; do
    size=$(u32 "$file" $((at + 4)))
    if [ "$(dd if="$file" bs=1 skip=$at count=4 status=none)" = "$id" ]; then
      echo $((at + 8))
      return
    fi
    at=$((at + 8 + (size + 3) / 4 * 4))
  done
  echo "no chunk $id in $file" >&2
  exit 1
}

# Bad .beam files, all named after a module that does not exist elsewhere on the path.
printf 'this is not a BEAM file\nat all\n' >"$work/text.beam"
head -c 4096 "$beamlet" >"$work/binary.beam"
: >"$work/empty.beam"
head -c 500 "$sample_beam" >"$work/truncated.beam"
printf 'FOR1\0\0\0\0BEAM' >"$work/zero_size.beam"
cp "$sample_beam" "$work/misnamed.beam"
# The first instruction of the Code chunk patched to opcode 27 (m_plus), which beamlet lacks.
cp "$sample_beam" "$work/loader_sample.beam"
code=$(chunk_data_offset "$work/loader_sample.beam" Code)
first_instruction=$((code + 4 + $(u32 "$work/loader_sample.beam" "$code")))
printf '\033' | dd of="$work/loader_sample.beam" bs=1 seek=$first_instruction conv=notrunc status=none
mkdir "$work/opcode" && mv "$work/loader_sample.beam" "$work/opcode/"
# From OTP 26: its bs_match (182) as the first instruction; a header naming opcodes up to 182.
mkdir "$work/otp26" "$work/otp26_header"
cp "$sample_beam" "$work/otp26/loader_sample.beam"
printf '\266' | dd of="$work/otp26/loader_sample.beam" bs=1 seek=$first_instruction conv=notrunc status=none
cp "$sample_beam" "$work/otp26_header/loader_sample.beam"
printf '\0\0\0\266' | dd of="$work/otp26_header/loader_sample.beam" bs=1 seek=$((code + 8)) conv=notrunc status=none
printf -- '-module(broken).\n-export([main/0]).\nmain() -> ok(.\n' >"$work/broken.erl"

# A wrong command line: one line and exit status 2, for every subcommand.
expect_usage_error() {  # NAME PATTERN ARGS...
  local name=$1
  expect_clean_failure "$@"
  checks=$((checks + 1))
  [ $status -eq 2 ] || fail "$name: exit status $status, not 2"
}
expect_usage_error "no subcommand" "A subcommand is required" ""
expect_usage_error "unknown subcommand" "A subcommand is required" frob
expect_usage_error "run without a program" "run wants a program" run
expect_usage_error "an unknown option" "--no-such-option" run --no-such-option x
expect_usage_error "trace with a bad format" "--format" trace -f nope x x
expect_usage_error "dis without a module" "target is required" dis
expect_usage_error "compare without a module" "target is required" compare
run_beamlet --help
checks=$((checks + 1))
[ $status -eq 0 ] && [[ $out == *"Usage"* ]] || fail "--help: status $status, output: $out"
expect_clean_failure "missing module" "module no_such_module not found" run no_such_module
expect_clean_failure "missing .beam" "no_such_file.beam: no such file" run no_such_file.beam
expect_clean_failure "text .beam" "text.beam: not a BEAM file" run text.beam
expect_clean_failure "binary .beam" "binary.beam: not a BEAM file" run binary.beam
expect_clean_failure "empty .beam" "empty.beam: not a BEAM file" run empty.beam
expect_clean_failure "truncated .beam" "truncated.beam: truncated BEAM file" run truncated.beam
expect_clean_failure "FOR1 size 0" "zero_size.beam: bad BEAM file size 0" run zero_size.beam
expect_clean_failure "misnamed .beam" "misnamed.beam: file contains module loader_sample" run misnamed.beam
expect_clean_failure "unsupported opcode" "unsupported opcode 27 (m_plus)" run opcode/loader_sample.beam
expect_clean_failure "an OTP 26 instruction" "unsupported opcode 182 (bs_match (OTP 26))" run otp26/loader_sample.beam
expect_clean_failure "an OTP 26 header" "module loader_sample: compiled for a later version of the runtime system" run otp26_header/loader_sample.beam
expect_clean_failure "dis of a garbage .beam" "text.beam: not a BEAM file" dis text.beam

# Hostile .beam files: counts and sizes that promise far more than the file holds.
cp "$sample_beam" "$work/huge_atoms.beam"
atoms=$(chunk_data_offset "$work/huge_atoms.beam" AtU8)
printf '\177\377\377\377' | dd of="$work/huge_atoms.beam" bs=1 seek="$atoms" conv=notrunc status=none
mkdir "$work/hostile" && mv "$work/huge_atoms.beam" "$work/hostile/loader_sample.beam"
expect_clean_failure "atom count past the chunk" "loader_sample.beam" run hostile/loader_sample.beam
cp "$sample_beam" "$work/huge_chunk.beam"
printf '\177\377\377\377' | dd of="$work/huge_chunk.beam" bs=1 seek=16 conv=notrunc status=none
mkdir "$work/hostile2" && mv "$work/huge_chunk.beam" "$work/hostile2/loader_sample.beam"
expect_clean_failure "chunk size past the file" "loader_sample.beam" run hostile2/loader_sample.beam

# A NIF library that does not load: the module's on_load fails (OTP's warning report on
# stdout), and one line on stderr says why main/0 is undefined.
cat >"$work/nifbad.erl" <<'ERL'
-module(nifbad).
-export([main/0, f/0]).
-on_load(init/0).
init() -> erlang:load_nif("./no_such_nif", 0).
f() -> erlang:nif_error(not_loaded).
main() -> f().
ERL
expect_clean_failure "NIF library that does not load" "nifbad: its on_load function failed" run nifbad.erl

# Memory that runs out (the address space limited): one line and exit status 3, as README's
# "Exit status" says; never a signal. The literal area reserves 4 GiB of address space.
cat >"$work/hog.erl" <<'ERL'
-module(hog).
-export([main/0]).
main() -> grow([]).
grow(L) -> grow([L | L]).
ERL
checks=$((checks + 1))
(cd "$work" && erlc hog.erl) || fail "out of memory: erlc hog.erl failed"
(cd "$work" && ulimit -v 4800000 && timeout 60 "$beamlet" run --engine interp -S 1 hog.beam >"$work/stdout" 2>"$work/stderr")
status=$?
err=$(cat "$work/stderr")
[ $status -eq 3 ] || fail "out of memory: exit status $status, not 3: $err"
[ "$(wc -l <"$work/stderr")" -eq 1 ] && [[ $err == "beamlet: out of memory"* ]] || fail "out of memory: stderr is: $err"
# erlc's own diagnostics come first (on stderr, never stdout), then beamlet's one line.
checks=$((checks + 1))
run_beamlet run broken.erl
if [ $status -eq 0 ] || [ $status -ge 124 ]; then
  fail "erlc failure: exit status $status"
elif [ -s "$work/stdout" ]; then
  fail "erlc failure: output on stdout: $(cat "$work/stdout")"
elif [[ "$(tail -n 1 "$work/stderr")" != "beamlet: "*"broken.erl: erlc failed"* ]]; then
  fail "erlc failure: last stderr line is not beamlet's: $err"
elif ! grep -q "syntax error before" "$work/stderr"; then
  fail "erlc failure: erlc's diagnostic is missing: $err"
fi

# An uncaught error: the message and stack trace on stderr, earlier output kept.
checks=$((checks + 1))
run_beamlet run "$uncaught_erl"
if [ $status -eq 0 ] || [ $status -ge 124 ]; then fail "uncaught error: exit status $status"; fi
[[ $err == *"** exception error: badarith"* ]] || fail "uncaught error: no '** exception error: badarith' in: $err"
grep -q "in function" "$work/stderr" || fail "uncaught error: no 'in function' line in: $err"
[[ $out == *"before crash"* ]] || fail "uncaught error: stdout lacks 'before crash': $out"

# The disassembler shows function headers with their breakpoint slot.
checks=$((checks + 1))
run_beamlet dis "$sample_beam"
[ $status -eq 0 ] || fail "dis: exit status $status: $err"
grep -q "function main/0" "$work/stdout" || fail "dis: no 'function main/0' in output"
grep -q "header.*bp=none" "$work/stdout" || fail "dis: no header line with 'bp=none'"
grep -q "; trace points:" "$work/stdout" || fail "dis: no trace-point legend"

# dis --engine jit: the native entries' patch-site bytes, disarmed.
checks=$((checks + 1))
run_beamlet dis --engine jit "$sample_beam"
[ $status -eq 0 ] || fail "dis --engine jit: exit status $status: $err"
grep -q "JIT patch sites" "$work/stdout" || fail "dis --engine jit: no patch-site section"
# x86-64: test eax, imm32 (a9 + rel32); AArch64: mov x17, x30; nop.
grep -Eq "main/0: 0x[0-9a-f]+: (a9( [0-9a-f]{2}){4}|f1 03 1e aa 1f 20 03 d5)  disarmed" "$work/stdout" ||
  fail "dis --engine jit: no disarmed site for main/0"

# compare: a program that fails is a failure (exit 1), even with identical outputs.
checks=$((checks + 1))
run_beamlet compare "$uncaught_erl"
[ $status -eq 1 ] || fail "compare of a failing program: exit status $status, not 1"
grep -q "^interp .* exit 1$" "$work/stdout" && grep -q "^jit .* exit 1$" "$work/stdout" ||
  fail "compare: no per-engine lines with their exit: $(cat "$work/stdout")"
grep -q "outputs identical" "$work/stdout" || fail "compare: outputs differ: $(cat "$work/stdout")"
grep -q "^FAILED: the program failed under interp (exit 1)$" "$work/stdout" ||
  fail "compare: the failure is not reported: $(cat "$work/stdout")"

# compare: a traced program that prints its timings differs until --ignore masks those lines;
# the breakpoint hits of both engines agree.
cat >"$work/timed.erl" <<'ERL'
-module(timed).
-export([main/0, fib/1]).
main() ->
    erlang:trace(self(), true, [call]),
    erlang:trace_pattern({timed, fib, 1}, true, [local]),
    {Us, V} = timer:tc(fun() -> fib(12) end),
    io:format("fib(12) = ~p~n", [V]),
    io:format("took ~p us~n", [Us + erlang:system_time(nanosecond) rem 1000000]),
    erlang:trace(self(), false, [call]),
    flush().
fib(N) when N < 2 -> N;
fib(N) -> fib(N - 1) + fib(N - 2).
flush() -> receive _ -> flush() after 0 -> ok end.
ERL
checks=$((checks + 1))
run_beamlet compare "$work/timed.erl"
[ $status -eq 1 ] || fail "compare with a timing line: exit status $status, not 1: $out"
grep -q "^outputs differ at line 2" "$work/stdout" || fail "compare: the timing line is not the difference: $out"
checks=$((checks + 1))
run_beamlet compare --ignore '^took [0-9]+ us$' "$work/timed.erl"
[ $status -eq 0 ] || fail "compare --ignore: exit status $status: $out"
grep -q "^outputs identical (1 lines, 1 + 1 lines ignored)$" "$work/stdout" || fail "compare --ignore: $out"
hits=$(awk '$1 == "interp" || $1 == "jit" { print $3 }' "$work/stdout" | sort -u)
[ "$hits" = "465" ] || fail "compare: breakpoint hits are not 465 under both engines: $out"
checks=$((checks + 1))
run_beamlet compare --ignore '([' "$work/timed.erl"
[ $status -eq 2 ] && grep -q "bad --ignore regex" "$work/stderr" || fail "compare with a bad regex: status $status: $err"

# A program that sleeps for a minute.
cat >"$work/sleeper.erl" <<'ERL'
-module(sleeper).
-export([main/0]).
main() -> io:format("started~n"), timer:sleep(60000), io:format("never~n").
ERL

# compare: killed, it leaves no child running and no file behind.
checks=$((checks + 1))
(cd "$work" && exec "$beamlet" compare sleeper.erl >/dev/null 2>&1) &
compare_pid=$!
for _ in $(seq 50); do pgrep -f "run --engine interp .* sleeper$" >/dev/null && break; sleep 0.1; done
kill -TERM $compare_pid
wait $compare_pid 2>/dev/null
sleep 0.3
pgrep -f "run --engine (interp|jit) .* sleeper$" >/dev/null && fail "compare killed: a child still runs"
ls "${TMPDIR:-/tmp}" | grep -q "^beamlet-compare" && fail "compare killed: a temporary file is left"

# Streaming output: a line printed before a long sleep is on stdout while the program runs
# (flushed when the schedulers go idle), and stays there whatever ends the VM: SIGTERM stops it
# as init:stop/0 does (status 0), SIGINT with status 130, SIGKILL with 137.
for sig in TERM:0 INT:130 KILL:137; do
  checks=$((checks + 1))
  name=${sig%%:*} want=${sig##*:}
  (cd "$work" && exec "$beamlet" run sleeper.erl >"$work/stream.out" 2>"$work/stream.err") &
  pid=$!
  for _ in $(seq 1 200); do grep -q started "$work/stream.out" 2>/dev/null && break; sleep 0.05; done
  if ! grep -q started "$work/stream.out"; then
    fail "streaming ($name): 'started' not on stdout while the program runs"
    kill -KILL $pid 2>/dev/null
    wait $pid 2>/dev/null
    continue
  fi
  kill -"$name" $pid
  wait $pid
  got=$?
  [ "$got" -eq "$want" ] || fail "streaming ($name): exit status $got, expected $want"
  [ "$(cat "$work/stream.out")" = "started" ] || fail "streaming ($name): stdout is '$(cat "$work/stream.out")'"
done

# Usage errors: no target, no subcommand.
for args in "run" ""; do
  checks=$((checks + 1))
  # shellcheck disable=SC2086
  run_beamlet $args
  if [ $status -eq 0 ] || [ $status -ge 124 ]; then fail "usage '$args': exit status $status"; fi
  [[ $err == *"--help"* ]] || fail "usage '$args': stderr lacks usage help: $err"
done

echo "$checks checks, $failures failed"
[ $failures -eq 0 ]
