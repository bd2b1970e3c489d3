#!/usr/bin/env bash
# Regenerate tests/e2e/<area>/<name>.expected from the real Erlang VM.
#
# Usage: tests/regen_expected.sh [path/to/test.erl ...]
#   With no arguments, regenerates every tests/e2e/*/*.erl that is not under
#   tests/e2e/cli/ (cli tests are checked differently and have no .expected), and
#   tests/e2e/sessions/ (the OTP 27 trace module: OTP 25 has none; their .expected files are
#   written from the OTP 27 documentation, see tests/e2e/sessions/README.md).
#   Each module is compiled with plain `erlc` into a temp dir and run as
#   `erl -noshell -pa TMP -eval '<name>:main(), halt().'`; only stdout is kept. A <name>.input
#   next to the program is fed on stdin; a <name>.filter (sed script) is applied to stdout; a
#   <name>.erl_flags holds more flags for erl (-noinput: the program reads fd 0 itself; $DIR
#   is the program's directory).
#   tests/e2e/shared/ holds helper modules for the programs, not programs: they are compiled
#   into TMP/shared, which is on every program's code path (as in tests/e2e_check.sh).
set -euo pipefail

script_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
e2e_dir="$script_dir/e2e"

command -v erlc >/dev/null || { echo "regen_expected: erlc not found" >&2; exit 1; }
command -v erl  >/dev/null || { echo "regen_expected: erl not found" >&2; exit 1; }

files=()
if [ "$#" -gt 0 ]; then
    for f in "$@"; do
        files+=("$(cd "$(dirname "$f")" && pwd)/$(basename "$f")")
    done
else
    while IFS= read -r f; do
        files+=("$f")
    done < <(find "$e2e_dir" -mindepth 2 -maxdepth 2 -name '*.erl' -not -path "$e2e_dir/cli/*" -not -path "$e2e_dir/sessions/*" -not -path "$e2e_dir/tracer_ext/*" -not -path "$e2e_dir/nif/*" -not -path "$e2e_dir/drv/*" -not -path "$e2e_dir/shared/*" | LC_ALL=C sort)
fi

timeout_cmd=""
if command -v timeout >/dev/null; then timeout_cmd="timeout 60"; fi

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

mkdir "$tmp/shared"
for f in "$e2e_dir"/shared/*.erl; do
    [ -e "$f" ] || continue
    erlc -o "$tmp/shared" "$f" || { echo "regen_expected: erlc failed for $f" >&2; exit 1; }
done

fail=0
for f in "${files[@]}"; do
    case "$f" in
        *.erl) ;;
        *) echo "regen_expected: not an .erl file: $f" >&2; fail=1; continue ;;
    esac
    name="$(basename "$f" .erl)"
    out="${f%.erl}.expected"
    if ! erlc -o "$tmp" "$f" >&2; then
        echo "regen_expected: erlc failed for $f" >&2; fail=1; continue
    fi
    # The other modules of the same area are on the code path too, as in the ctest harness
    # (a program may load a helper module of its area).
    for other in "$(dirname "$f")"/*.erl; do
        [ "$other" = "$f" ] || erlc -o "$tmp" "$other" >/dev/null 2>&1 || true
    done
    # Run from inside the temp dir with crash dumps disabled so a failing test
    # leaves nothing behind; guard against hangs with a timeout when available.
    input=/dev/null
    [ -f "${f%.erl}.input" ] && input="${f%.erl}.input"
    flags=""
    [ -f "${f%.erl}.erl_flags" ] && flags=$(sed "s|\$DIR|$(dirname "$f")|g" "${f%.erl}.erl_flags")
    # shellcheck disable=SC2086 # the flags are words
    if ! (cd "$tmp" && ERL_CRASH_DUMP_SECONDS=0 $timeout_cmd erl -noshell $flags -pa "$tmp" "$tmp/shared" \
              -eval "${name}:main(), halt()." >"$tmp/$name.out" 2>"$tmp/$name.err" <"$input"); then
        echo "regen_expected: erl failed for $f:" >&2; cat "$tmp/$name.err" >&2; fail=1; continue
    fi
    if [ -f "${f%.erl}.filter" ]; then
        sed -f "${f%.erl}.filter" "$tmp/$name.out" >"$tmp/$name.filtered"
        mv "$tmp/$name.filtered" "$tmp/$name.out"
    fi
    if [ -s "$tmp/$name.err" ]; then
        echo "regen_expected: warning: $f wrote to stderr:" >&2; cat "$tmp/$name.err" >&2
    fi
    if [ -f "$out" ] && cmp -s "$tmp/$name.out" "$out"; then
        echo "unchanged $out"
    else
        cp "$tmp/$name.out" "$out"
        echo "wrote     $out"
    fi
done
exit "$fail"
