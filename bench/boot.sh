#!/usr/bin/env bash
# bench/boot.sh — start-up next to erl, in the same run: hello world to exit, and a program
# that starts OTP's sasl application (application:ensure_all_started/1) and exits. Wall time of
# the whole command and peak resident memory (GNU time), medians of REPS runs, interleaved.
#   beamlet run M (interp, jit)   vs   erl -noshell -s M main -s init stop   (the issue's form)
#                                  and erl -noshell -eval 'M:main(), halt().' (no init:stop)
#
#   bench/boot.sh            REPS=9
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"
beamlet="${BEAMLET:-$root/build/beamlet}"
reps=${REPS:-9}
work="$here/build-boot"
mkdir -p "$work"
cat > "$work/boot_hello.erl" <<'ERL'
-module(boot_hello).
-export([main/0]).
main() -> io:format("hello, world~n").
ERL
cat > "$work/boot_sasl.erl" <<'ERL'
-module(boot_sasl).
-export([main/0]).
main() -> {ok, _} = application:ensure_all_started(sasl), io:format("sasl started~n").
ERL
(cd "$work" && erlc boot_hello.erl boot_sasl.erl)

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

# run LABEL CMD... — one run: "ms kb" of the command (output discarded).
run() {
    local t0 t1 kb
    t0=$(date +%s%N)
    /usr/bin/time -f "%M" -o "$work/rss" "$@" >/dev/null 2>&1
    kb=$(tail -1 "$work/rss")
    t1=$(date +%s%N)
    echo "$(( (t1 - t0) / 1000000 )) $kb"
}

printf "%-12s %-30s %9s %9s %9s %9s\n" program command "wall ms" "RSS MB" "/erl -s" "/erl -eval"
for prog in boot_hello boot_sasl; do
    declare -A ms=() kb=()
    modes=(erl_s erl_eval interp jit)
    for m in "${modes[@]}"; do ms[$m]=""; kb[$m]=""; done
    for _ in $(seq "$reps"); do
        for m in "${modes[@]}"; do
            case $m in
                erl_s) r=$(cd "$work" && run erl -noshell -s "$prog" main -s init stop) ;;
                erl_eval) r=$(cd "$work" && run erl -noshell -eval "$prog:main(), halt().") ;;
                interp) r=$(cd "$work" && run "$beamlet" run --engine interp "$prog") ;;
                jit) r=$(cd "$work" && run "$beamlet" run --engine jit "$prog") ;;
            esac
            ms[$m]+="${r% *}"$'\n'; kb[$m]+="${r#* }"$'\n'
        done
    done
    base=$(printf "%s" "${ms[erl_s]}" | median)
    base_eval=$(printf "%s" "${ms[erl_eval]}" | median)
    for m in "${modes[@]}"; do
        t=$(printf "%s" "${ms[$m]}" | median)
        k=$(printf "%s" "${kb[$m]}" | median)
        case $m in
            erl_s) label="erl -s M main -s init stop" ;;
            erl_eval) label="erl -eval 'M:main(), halt()'" ;;
            *) label="beamlet run --engine $m" ;;
        esac
        printf "%-12s %-30s %9s %9.1f %9.2f %9.2f\n" "$prog" "$label" "$t" "$(echo "$k / 1024" | bc -l)" \
            "$(echo "$t / $base" | bc -l)" "$(echo "$t / $base_eval" | bc -l)"
    done
    unset ms kb
done
