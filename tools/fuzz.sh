#!/usr/bin/env bash
# tools/fuzz.sh — libFuzzer on beamlet's input readers (tests/fuzz): the .beam loader,
# binary_to_term, the match-spec compiler, the command-line trace-pattern parser, a
# distribution connection's packets.
#
#   tools/fuzz.sh build                       configure and build build-fuzz (clang-19, ASan+UBSan)
#   tools/fuzz.sh run [SECONDS] [TARGET...]   fuzz each target SECONDS (default 600) in turn,
#                                             keeping its corpus in build-fuzz/fuzz-work/TARGET
#   tools/fuzz.sh run-one BINARY TARGET WORKDIR SECONDS   one target (what ctest fuzz_short_* runs)
#
# A finding leaves its input in WORKDIR/TARGET/findings/ and makes the run fail; copy it to
# tests/fuzz/regressions/TARGET/ (replayed by ctest fuzz_replay_TARGET in every build) once fixed.
# Each run ends with a line "fuzz TARGET: N executions in S s, F findings".
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$ROOT/build-fuzz}
TARGETS="loader binary_to_term match_spec trace_pattern dist_packet"

setup() {
    "$ROOT/tools/setup.sh"
    local missing=""
    for p in clang-19 libclang-rt-19-dev; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
    done
    if [ -n "$missing" ]; then
        local sudo=""; [ "$(id -u)" -ne 0 ] && sudo="sudo"
        $sudo apt-get update -qq
        DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq $missing
    fi
}

build() {
    setup
    cmake -S "$ROOT" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
        -DCMAKE_C_COMPILER=clang-19 -DCMAKE_CXX_COMPILER=clang++-19 \
        -DBEAMLET_SANITIZE=address -DBEAMLET_FUZZ=ON ${CMAKE_ARGS:-} >/dev/null
    ninja -C "$BUILD" ${NINJA_TARGETS:-}
}

# The starting corpus of [target] in [dir]: its committed seeds, and for the loader the .beam
# files of beamlet's library (in [build]) and of OTP's stdlib and kernel.
seed() {
    local target=$1 dir=$2 build=$3
    mkdir -p "$dir"
    cp -n "$ROOT/tests/fuzz/seeds/$target/"* "$dir/" 2>/dev/null || true
    if [ "$target" = loader ]; then
        for d in "$build/lib" /usr/lib/erlang/lib/stdlib-*/ebin /usr/lib/erlang/lib/kernel-*/ebin; do
            [ -d "$d" ] && cp -n "$d"/*.beam "$dir/" 2>/dev/null || true
        done
    fi
}

run_one() {
    local binary=$1 target=$2 work=$3 seconds=$4
    local dir=$work/$target
    mkdir -p "$dir/corpus" "$dir/findings"
    seed "$target" "$dir/corpus" "$(dirname "$work")"
    local log=$dir/last.log status=0
    # -rss_limit_mb: the VM keeps one runtime (and its atom table) for the whole run.
    ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0:allocator_may_return_null=1} \
    "$binary" "$dir/corpus" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=4096 \
        -max_len=${FUZZ_MAX_LEN:-65536} -artifact_prefix="$dir/findings/" -print_final_stats=1 \
        ${FUZZ_ARGS:-} >"$log" 2>&1 || status=$?
    local execs
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    local findings
    findings=$(find "$dir/findings" -type f | wc -l)
    echo "fuzz $target: ${execs:-0} executions in $seconds s, $findings findings (log: $log)"
    if [ "$status" -ne 0 ] || [ "$findings" -ne 0 ]; then
        grep -E "ERROR|SUMMARY|fuzz:|Test unit written" "$log" | head -20 >&2 || true
        return 1
    fi
}

case "${1:-}" in
    build) build ;;
    run)
        shift
        seconds=${1:-600}; [ $# -gt 0 ] && shift
        targets=${*:-$TARGETS}
        NINJA_TARGETS="$(for t in $targets; do printf 'fuzz_%s ' "$t"; done)" build
        failed=0
        for t in $targets; do run_one "$BUILD/tests/fuzz/fuzz_$t" "$t" "$BUILD/fuzz-work" "$seconds" || failed=1; done
        exit $failed ;;
    run-one) shift; run_one "$@" ;;
    *) sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
esac
