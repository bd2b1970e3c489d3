#!/usr/bin/env bash
# bench/tmod.sh [REPS] — tracer-module call tracing (bench_tmod) on erl and beamlet (JIT and
# interpreter), alternating, REPS runs each (default 5); prints the median of every metric.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"
reps=${1:-5}
out="$here/build-tmod"
mkdir -p "$out"
gcc -O2 -I "$root/include" -fPIC -shared -o "$out/tmod_nif_beamlet.so" "$here/tmod_nif.c"
gcc -O2 -I /usr/lib/erlang/usr/include -fPIC -shared -o "$out/tmod_nif_otp.so" "$here/tmod_nif.c"
erlc -o "$out" "$here/bench_tmod.erl" "$here/tmod_nif.erl" "$here/tmod_erl.erl"
raw=$(mktemp)
trap 'rm -f "$raw"' EXIT
for ((i = 0; i < reps; i++)); do
    erl -noshell +S 1:1 -pa "$out" -eval 'bench_tmod:main(), halt().' | sed 's/^/otp /' >>"$raw"
    for engine in jit interp; do
        "$root/build/beamlet" run --engine $engine -S 1 -pa "$out" bench_tmod | sed "s/^/$engine /" >>"$raw"
    done
done
grep ' result ' "$raw" | sort -u
awk '$2 == "metric" { v[$1 " " $3] = v[$1 " " $3] " " $4 }
     END { for (k in v) print k, v[k] }' "$raw" | sort | while read -r vm name values; do
    median=$(tr ' ' '\n' <<<"$values" | grep . | sort -n | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}')
    printf '%-7s %-26s %8.1f ns/call\n' "$vm" "$name" "$(echo "$median / 1000" | bc -l)"
done
