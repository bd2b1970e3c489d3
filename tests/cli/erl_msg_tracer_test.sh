#!/usr/bin/env bash
# tests/cli/erl_msg_tracer_test.sh BUILD_DIR — the erl_tracer documentation's example, built
# and run as the documentation shows (samples/erl_msg_tracer/run.sh), under both engines:
# load() answers ok, trace(new, ...) matches 0 processes, and the tracer prints
# {trace, Sender, Recipient} for the sends of the processes created afterwards (the file's
# io server, the echo process) and nothing else.
set -u
build=$1
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
fail=0
for engine in interp jit; do
    out=$(BEAMLET_ENGINE=$engine "$root/samples/erl_msg_tracer/run.sh" "$build" 2>&1)
    status=$?
    check() {
        if ! grep -Eq "$1" <<<"$out"; then
            echo "FAIL ($engine): no line matching $1"
            fail=1
        fi
    }
    [ $status -eq 0 ] || { echo "FAIL ($engine): exit status $status"; fail=1; }
    [ "$(sed -n 1p <<<"$out")" = ok ] || { echo "FAIL ($engine): load() did not answer ok"; fail=1; }
    [ "$(sed -n 3p <<<"$out")" = 0 ] || { echo "FAIL ($engine): trace(new, ...) did not answer 0"; fail=1; }
    file_pid=$(grep -Eo '^\{ok,<[0-9.]+>\}$' <<<"$out" | grep -Eo '<[0-9.]+>')
    main_line=$(grep -Eo '^\{trace,<[0-9.]+>,<[0-9.]+>\}$' <<<"$out" | tail -1)
    [ -n "$file_pid" ] || { echo "FAIL ($engine): file:open gave no {ok, Pid}"; fail=1; }
    check "^\{trace,$file_pid,<[0-9.]+>\}$"
    check '^\{tracer,\{erl_msg_tracer,<[0-9.]+>\}\}$'
    # Every other line is a {trace, Sender, Recipient} of a new process.
    others=$(grep -Ev '^(ok|<[0-9.]+>|0|\{ok,<[0-9.]+>\}|\{trace,<[0-9.]+>,<[0-9.]+>\}|\{tracer,\{erl_msg_tracer,<[0-9.]+>\}\})$' <<<"$out")
    [ -z "$others" ] || { echo "FAIL ($engine): unexpected output:"; echo "$others"; fail=1; }
    [ -n "$main_line" ] || { echo "FAIL ($engine): no trace lines"; fail=1; }
    if [ $fail -ne 0 ]; then echo "$out"; fi
done
exit $fail
