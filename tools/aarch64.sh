#!/usr/bin/env bash
# tools/aarch64.sh — beamlet cross-built for aarch64-linux-gnu and run under qemu-user.
#
#   tools/aarch64.sh setup               cross compiler, qemu-user and the arm64 sysroot (idempotent)
#   tools/aarch64.sh build [TARGET]...   setup, configure build-aarch64/, build (all by default)
#   tools/aarch64.sh test [CTEST ARG]... build, then the whole suite under qemu (ctest)
#   tools/aarch64.sh ci [CTEST ARG]...   build, then CI's subset: the JIT unit tests and the
#                                        tracing programs under the JIT (-S 1 and -S 2, patched,
#                                        flag and lazy breakpoints), plus the trace stress
#   tools/aarch64.sh run ARG...          build/beamlet under qemu: tools/aarch64.sh run run samples/hello.erl
#
# Every step runs each time and does nothing when already done. The compiler is Debian's
# g++-aarch64-linux-gnu; LLVM 19, GMP, zlib, fmt/spdlog, GoogleTest, CLI11, PCRE2, expat and
# nlohmann/json come from Debian's arm64 packages, downloaded with apt-get download and
# extracted (dpkg -x) into a sysroot: installing them as multiarch packages would remove the
# host's llvm-19-dev and clang-19. erlc and erl run on the host; beamlet and the test
# executables run under qemu-aarch64 -L SYSROOT (there is no binfmt_misc in containers).
#
# Environment: BEAMLET_AARCH64_SYSROOT (default /opt/beamlet-aarch64-sysroot),
# BEAMLET_AARCH64_BUILD (default build-aarch64 in the checkout), JOBS (ninja and ctest
# parallelism, default 1: everything runs under nice -n 19), BEAMLET_AARCH64_DEBUG_INFO (the
# debug information of a new build-aarch64: -g0 by default, half the compile time of -g).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
sysroot="${BEAMLET_AARCH64_SYSROOT:-/opt/beamlet-aarch64-sysroot}"
build="${BEAMLET_AARCH64_BUILD:-$root/build-aarch64}"
jobs="${JOBS:-1}"
debs="${BEAMLET_AARCH64_DEBS:-/var/cache/beamlet-aarch64/debs}"

# The arm64 packages the build needs; their dependency closure is computed by apt.
ARM64_PKGS="libc6-dev libstdc++-12-dev libgcc-12-dev llvm-19-dev libgmp-dev libgtest-dev zlib1g-dev
            libzstd-dev libfmt-dev libspdlog-dev libpcre2-dev libexpat1-dev"
# Architecture-independent header packages (apt's arm64 closure leaves them out).
ALL_PKGS="nlohmann-json3-dev libcli11-dev googletest"
# Programs in the closure that the sysroot does not need (interpreters, package tools).
SKIP_RE='^(python|libpython|perl|dpkg|tar|ncurses-bin|install-info|icu-devtools|libc-dev-bin|rpcsvc-proto)'

SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"

log() { echo "aarch64.sh: $*" >&2; }

host_packages() {
    local missing="" p
    for p in g++-aarch64-linux-gnu qemu-user cmake ninja-build erlang-base erlang-runtime-tools; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
    done
    local need_update=0
    if ! dpkg --print-foreign-architectures | grep -qx arm64; then
        log "adding the arm64 architecture to dpkg"
        $SUDO dpkg --add-architecture arm64
        need_update=1
    fi
    apt-cache show libc6:arm64 >/dev/null 2>&1 || need_update=1
    [ $need_update -eq 1 ] && $SUDO apt-get update -qq
    if [ -n "$missing" ]; then
        log "installing$missing"
        DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $missing
    fi
}

# Every arm64 package name in the closure of ARM64_PKGS, minus SKIP_RE.
arm64_closure() {
    local p args=()
    for p in $ARM64_PKGS; do args+=("$p:arm64"); done
    apt-cache depends --recurse --no-recommends --no-suggests --no-conflicts --no-breaks \
        --no-replaces --no-enhances "${args[@]}" 2>/dev/null |
        grep -v '^ ' | grep ':arm64$' | sed 's/:arm64$//' | grep -Ev "$SKIP_RE" | sort -u
}

sysroot_setup() {
    local names=() p
    for p in $(arm64_closure); do names+=("$p:arm64"); done
    for p in $ALL_PKGS; do names+=("$p"); done
    # The .deb file names (with their versions) of the current candidates: the stamp records
    # them, so a point release or a package added here rebuilds the sysroot from scratch.
    local files
    files=$(apt-get download --print-uris "${names[@]}" | awk '{print $2}' | sort)
    [ -n "$files" ] || { log "apt-get download --print-uris found nothing"; exit 1; }
    local stamp="$sysroot/.beamlet-sysroot"
    if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$files" ]; then return; fi
    log "downloading ${#names[@]} arm64 packages into $debs"
    $SUDO mkdir -p "$debs"
    (cd "$debs" && $SUDO apt-get download -qq "${names[@]}" 2>&1 | grep -v 'Download is performed unsandboxed' || true)
    log "extracting them into $sysroot"
    $SUDO rm -rf "$sysroot"
    $SUDO mkdir -p "$sysroot"
    local deb
    for deb in $files; do
        # apt escapes ':' in versions (1:1.10.0) as %3a in file names.
        [ -f "$debs/$deb" ] || deb=${deb//%3a/:}
        [ -f "$debs/$deb" ] || { log "missing $debs/$deb"; exit 1; }
        $SUDO dpkg -x "$debs/$deb" "$sysroot"
    done
    # Absolute symlinks (libz.so -> /lib/aarch64-linux-gnu/libz.so.1...) would point into the
    # host: make them relative, inside the sysroot.
    local link target
    while IFS= read -r link; do
        target=$(readlink "$link")
        $SUDO ln -sfn "$(realpath -m --relative-to="$(dirname "$link")" "$sysroot$target")" "$link"
    done < <(find "$sysroot" -type l -lname '/*')
    echo "$files" | $SUDO tee "$stamp" >/dev/null
}

setup() {
    host_packages
    sysroot_setup
}

configure() {
    if [ ! -f "$build/build.ninja" ]; then
        nice -n 19 cmake -S "$root" -B "$build" -G Ninja \
            -DCMAKE_TOOLCHAIN_FILE="$root/tools/aarch64-toolchain.cmake" \
            -DBEAMLET_AARCH64_SYSROOT="$sysroot" -DBEAMLET_DEBUG_INFO="${BEAMLET_AARCH64_DEBUG_INFO:--g0}"
    fi
}

build() {
    setup
    configure
    nice -n 19 ninja -j"$jobs" -C "$build" "$@"
}

# CI's subset: the JIT's unit tests, the tracing programs under the JIT at two schedulers
# (the call-tracing ones, trace, mspec and otp_trace, with patched and with flag-byte
# breakpoints; events, sessions and port_trace, whose events do not pass breakpoints, with
# patched ones) and the trace stress at -S 2. The one-scheduler and lazy-JIT runs of the same
# programs (and the stress at -S 1) exercise the same AArch64 code; they are in `test`, not in
# CI's hour.
CI_TESTS='^(unit_jit|e2e_jit(flag)?_S2_(trace|mspec|otp_trace)_.*|e2e_jit_S2_(sessions|events|port_trace)_.*|stress_jit_S2_trace_patterns|cli_trace_jit)$'

cmd=${1:-build}
[ $# -gt 0 ] && shift
case "$cmd" in
setup) setup ;;
build) build "$@" ;;
test)
    build
    cd "$build" && nice -n 19 ctest -j"$jobs" --output-on-failure "$@"
    ;;
ci)
    # Only what the subset runs: the VM, its libraries, the programs, unit_jit and trace_check.
    build beamlet beamlet_jit_library beamlet_stdlib e2e_programs stress_programs unit_jit trace_check
    cd "$build" && nice -n 19 ctest -j"$jobs" --output-on-failure -R "$CI_TESTS" "$@"
    ;;
run)
    build beamlet
    # The wrapper the tests use (tests/CMakeLists.txt): qemu-aarch64 -L SYSROOT beamlet, and
    # BEAMLET_SELF for beamlet compare, which runs beamlet again.
    exec "$build/beamlet-emulated" "$@"
    ;;
*)
    sed -n '2,9p' "$0" >&2
    exit 2
    ;;
esac
