#!/usr/bin/env bash
# tools/sanitize.sh asan|tsan [ci|REGEX] — builds the sanitizer configuration (build-asan:
# ASan + UBSan; build-tsan: TSan; both GCC) and runs the concurrency-heavy tests under it:
# the VM and tracing unit tests, the fault programs, the tracing stress programs, the fuzz
# targets' replays, and the tracing, session, actor and event programs on two schedulers
# (JIT, and the lazy JIT switching modules while they are traced), the socket and distribution programs and the loaded-driver programs. `ci` runs the
# subset .ci/run runs (README, "Robustness"); a REGEX selects ctest names. A sanitizer report
# fails the test that caused it.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
kind=${1:-}
case "$kind" in
    asan) dir=$ROOT/build-asan; sanitizer=address ;;
    tsan) dir=$ROOT/build-tsan; sanitizer=thread ;;
    *) sed -n '2,8p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
esac
full='^(unit_vm|unit_tracing|unit_dist|fuzz_replay_.*|fault_(interp|jit)_S2_.*|stress_(interp|jit|jitlazy)_S2_(trace_patterns|message_tracing|tracer_modules|load_race)|e2e_(jit|jitlazy)_S2_(sessions|actors|trace|tracer|events|net|dist|drv)_.*)$'
# What CI affords in its hour: every fault and stress program on two schedulers under ASan;
# under TSan the chaos, reload, message-tracing and tracer-module programs; unit tests, the
# shell and remote shells (the terminal driver, the break menu's signal thread) under both.
ci_asan='^(cli_shell_jit|cli_remsh_jit|cli_erl_cmdline|unit_vm|unit_tracing|unit_dist|fuzz_replay_.*|fault_(interp|jit)_S2_.*|stress_(jit|jitlazy)_S2_(trace_patterns|message_tracing|tracer_modules|load_race)|e2e_jitlazy_S2_sessions_.*|e2e_jit_S2_(net|dist|drv)_.*)$'
ci_tsan='^(cli_shell_jit|cli_remsh_jit|unit_vm|unit_tracing|unit_dist|fault_jit_S2_(trace_chaos|reload)|stress_jit_S2_(message_tracing|tracer_modules)|e2e_jitlazy_S2_sessions_.*|e2e_jit_S2_(net|dist|drv)_.*)$'
case "${2:-}" in
    "") regex=$full ;;
    ci) if [ "$kind" = asan ]; then regex=$ci_asan; else regex=$ci_tsan; fi ;;
    *) regex=$2 ;;
esac
"$ROOT/tools/setup.sh"
# Line tables are all a sanitizer's report needs (file:line in every frame).
cmake -S "$ROOT" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DBEAMLET_SANITIZE=$sanitizer \
    -DBEAMLET_DEBUG_INFO=-g1 >/dev/null
# Only what the selected tests run (the end-to-end programs' NIF libraries included).
nifs=$(ninja -C "$dir" -t targets all | sed -n 's/^\(e2e_nif_[A-Za-z0-9_]*\): .*/\1/p' | sort -u)
# shellcheck disable=SC2086
ninja -C "$dir" beamlet beamlet_jit_library beamlet_stdlib e2e_programs stress_programs fault_programs \
    unit_vm unit_tracing unit_dist replay_loader replay_binary_to_term replay_match_spec replay_trace_pattern \
    replay_dist_packet $nifs
export ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=1:detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
export TSAN_OPTIONS=${TSAN_OPTIONS:-halt_on_error=1:second_deadlock_stack=1}
# One retry per test: LeakSanitizer's stop-the-world thread itself crashed once at a JIT run's
# exit ("Tracer caught signal 11 ... LeakSanitizer has encountered a fatal error"), a failure of
# the checker, not a report; a real report reproduces and fails both runs. ctest's log shows
# a retried test.
# Left out of every set: the 100 MB-each-way transfer with a real erl (minutes under a
# sanitizer; the busy-port and queue paths it takes are tcp_echo's and tcp_many's too).
exclude='_net_tcp_erl_peer_bulk$'
ctest --test-dir "$dir" -R "$regex" -E "$exclude" -j2 --output-on-failure --timeout 1200 --repeat until-pass:2
