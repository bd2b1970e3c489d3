#!/usr/bin/env bash
# tests/dis/regen.sh [BEAMLET] — rewrites tests/dis/golden/*.dis from `beamlet dis` of
# tests/dis/*.erl under both engines (default BEAMLET: build/beamlet). Each output is written only
# if three runs agree. Review the diff (git diff tests/dis/golden) before committing it.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
beamlet=${1:-$here/../../build/beamlet}
DIS_CHECK_REGEN=1 exec "$here/dis_check.sh" "$beamlet" "$here" "$here/golden"
