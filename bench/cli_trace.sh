#!/usr/bin/env bash
# bench/cli_trace.sh — what tracing from the command line costs (issue 15's goals), measured
# next to erl in the same run.
#
#  1. The traced ring (bench_cliring.erl: 1000 processes, 200k hops, pass/1 called on every
#     hop): its timed part untraced, with pass/1 traced from inside the program (a local call
#     pattern, the call flag on the ring, a counting tracer process), and under
#     `beamlet trace bench_cliring 'bench_cliring:pass/1'` (text to /dev/null, JSON lines to a
#     file). erl runs the first two. REPS runs of each, interleaved; medians.
#  2. The Chrome trace of a million events: `beamlet trace -f chrome` of 500k calls of pass/1
#     with their returns, wall time of the whole command (boot and program included), and
#     trace_check on the file.
#
#   bench/cli_trace.sh            REPS=7 SCHEDS=1 bench/cli_trace.sh
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"
beamlet="${BEAMLET:-$root/build/beamlet}"
check="$root/build/tests/trace_check"
reps=${REPS:-5}
sched=${SCHEDS:-2}
work="$here/build-cli"
mkdir -p "$work"
erlc -o "$work" "$here/bench_cliring.erl"
cd "$work"

# us_of OUTPUT — the "bench cliring_... N us" figure.
us_of() { sed -n 's/^bench cliring_[a-z]* \([0-9]*\) us$/\1/p' <<<"$1"; }

declare -A runs
record() { runs[$1]="${runs[$1]:-} $2"; }
for rep in $(seq "$reps"); do
  record "erl untraced" "$(us_of "$(erl -noshell +S "$sched:$sched" -pa . -eval 'bench_cliring:main([plain]), halt().')")"
  record "erl in-program" "$(us_of "$(erl -noshell +S "$sched:$sched" -pa . -eval 'bench_cliring:main([inprogram]), halt().')")"
  record "beamlet untraced" "$(us_of "$("$beamlet" run -S "$sched" --pa . bench_cliring)")"
  record "beamlet in-program" "$(us_of "$(CLIRING=inprogram "$beamlet" run -S "$sched" --pa . bench_cliring)")"
  record "beamlet trace (text)" \
    "$(us_of "$("$beamlet" trace -S "$sched" --pa . bench_cliring 'bench_cliring:pass/1' -o /dev/null 2>/dev/null)")"
  record "beamlet trace (json)" \
    "$(us_of "$("$beamlet" trace -S "$sched" --pa . bench_cliring 'bench_cliring:pass/1' -f json -o ring.jsonl 2>/dev/null)")"
done

median() { tr ' ' '\n' <<<"$1" | grep . | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
echo "ring, 200k hops, pass/1 traced on every hop (-S $sched / +S $sched, $reps runs, medians):"
printf '  %-22s %10s %12s %14s\n' "" "ms" "ns/hop" "tracing ns/hop"
for erl_or_beamlet in erl beamlet; do
  base=$(median "${runs["$erl_or_beamlet untraced"]}")
  for name in "$erl_or_beamlet untraced" "$erl_or_beamlet in-program" "$erl_or_beamlet trace (text)" "$erl_or_beamlet trace (json)"; do
    [ -n "${runs[$name]:-}" ] || continue
    m=$(median "${runs[$name]}")
    printf '  %-22s %10.1f %12d %14d\n' "$name" "$(echo "$m / 1000" | bc -l)" $((m * 1000 / 200000)) $(((m - base) * 1000 / 200000))
  done
done

echo "Chrome trace of 1M events (500k calls of pass/1 and their returns):"
start=$(date +%s%N)
CLIRING="calls 500000" "$beamlet" trace -S "$sched" --pa . bench_cliring 'bench_cliring:pass/1' -f chrome -o million.json \
  >/dev/null 2>"$work/million.err"
end=$(date +%s%N)
printf '  beamlet trace -f chrome, whole command: %d ms; %s; file %d MB\n' $(((end - start) / 1000000)) \
  "$(cat "$work/million.err")" $(($(stat -c %s million.json) / 1048576))
[ -x "$check" ] && echo "  $("$check" chrome million.json)"
