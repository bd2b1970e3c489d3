#!/usr/bin/env bash
# bench/realprogs.sh — the Benchmarks Game programs of ../shared/realprogs/bg at sizes where
# erl takes about half a second or more, on erl, beamlet's interpreter and beamlet's JIT,
# interleaved, wall time of the whole command (boot included), medians.
#
#   bench/realprogs.sh                    every program, REPS=3, SCHEDS=1
#   REPS=5 SCHEDS=2 bench/realprogs.sh nbody mandelbrot
#   MODES="interp jit" bench/realprogs.sh  (leave erl out)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"
bg="$(cd "$root/../shared/realprogs/bg" && pwd)"
beamlet="${BEAMLET:-$root/build/beamlet}"
reps=${REPS:-3}
sched=${SCHEDS:-1}
modes=${MODES:-erl interp jit}
work="$here/build-realprogs"

# folder, argument: each about 0.5-2 s on erl 25 (+S 1) on the 2-core machine.
declare -A size=(
    [binarytrees]=18 [chameneosredux]=300000 [fannkuchredux]=10 [fasta]=1000000 [mandelbrot]=1600
    [nbody]=1000000 [pidigits]=2500 [spectralnorm]=1000 [threadring]=5000000
)
programs=("$@")
[ ${#programs[@]} -eq 0 ] && programs=(binarytrees chameneosredux fannkuchredux fasta mandelbrot nbody pidigits spectralnorm threadring)

now_ms() { echo $(( $(date +%s%N) / 1000000 )); }

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

printf "%-16s %10s" program size
for m in $modes; do printf " %9s" "$m ms"; done
[[ " $modes " == *" erl "* ]] && printf "  %s" "interp/erl jit/erl jit/interp"
echo
for prog in "${programs[@]}"; do
    dir="$work/$prog"
    mkdir -p "$dir"
    (cd "$bg/$prog" && erlc -o "$dir" "$prog.erl" 2>/dev/null || erlc -o "$dir" ./*.erl)
    arg=${size[$prog]}
    cat > "$dir/rp_$prog.erl" <<ERL
-module(rp_$prog).
-export([main/0]).
main() -> $prog:main(["$arg"]), receive after infinity -> ok end.
ERL
    erlc -o "$dir" "$dir/rp_$prog.erl"
    declare -A times=()
    for ((r = 0; r < reps; r++)); do
        for m in $modes; do
            t0=$(now_ms)
            case $m in
            erl) erl -noshell -noinput +S "$sched:$sched" -pa "$dir" -eval "rp_$prog:main()" > /dev/null ;;
            *) "$beamlet" run --engine "$m" -S "$sched" -pa "$dir" "rp_$prog" > /dev/null ;;
            esac
            times[$m]+="$(( $(now_ms) - t0 )) "
        done
    done
    printf "%-16s %10s" "$prog" "$arg"
    declare -A med=()
    for m in $modes; do
        med[$m]=$(tr ' ' '\n' <<<"${times[$m]}" | grep . | median)
        printf " %9s" "${med[$m]}"
    done
    if [[ " $modes " == *" erl "* ]]; then
        awk -v e="${med[erl]}" -v i="${med[interp]:-0}" -v j="${med[jit]:-0}" \
            'BEGIN { printf "  %10.2f %7.2f %10.2f", i / e, j / e, (i ? j / i : 0) }'
    fi
    echo
    unset times med
done
