#!/usr/bin/env bash
# bench/run_here.sh [BENCH ...] — runs this folder's benchmarks (bench_NAME.erl, e.g. port,
# ets) with ../shared/bench/run.sh, next to erl in the same run: run.sh compiles the modules
# of its own folder, so it runs from a copy beside ours. Environment as for run.sh (REPS,
# SCHEDS, VM_CMD; VM_CMD defaults to this build's beamlet, JIT engine).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"
shared="${BEAMLET_SHARED_BENCH:-$root/../shared/bench}"
[ -f "$shared/run.sh" ] || { echo "run_here: $shared/run.sh not found (set BEAMLET_SHARED_BENCH)" >&2; exit 1; }
work="$here/build-run"
mkdir -p "$work/results"
cp "$shared/run.sh" "$shared/gen_funs.sh" "$work/"
cp "$here"/bench_*.erl "$work/"
default_vm="$root/build/beamlet run -S {sched} -pa {dir} {mod}"
export VM_CMD="${VM_CMD:-$default_vm}"
export OUT="${OUT:-$work/results/raw-$(date +%Y%m%d-%H%M%S).tsv}"
cd "$work"
exec ./run.sh "${@:-port}"
