#!/usr/bin/env bash
# samples/erl_msg_tracer/run.sh [BUILD_DIR] — the erl_tracer documentation's example on
# beamlet: builds the seed's NIF tracer exactly as the documentation shows (gcc against
# beamlet's include directory instead of erts-8.0's), compiles the module with erlc, and
# runs the example session (seed_session.erl) in a scratch directory.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
build="$(cd "${1:-$root/build}" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cp "$here/erl_msg_tracer.c" "$here/erl_msg_tracer.erl" "$here/seed_session.erl" "$work/"
cd "$work"
# A cross build (tools/aarch64.sh) names its C compiler and its emulated beamlet.
"${BEAMLET_NIF_CC:-gcc}" -I "$root/include" -fPIC -shared -o erl_msg_tracer.so erl_msg_tracer.c
erlc erl_msg_tracer.erl
erlc seed_session.erl
"${BEAMLET_BIN:-$build/beamlet}" run ${BEAMLET_ENGINE:+--engine "$BEAMLET_ENGINE"} -pa . seed_session
