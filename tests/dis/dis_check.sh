#!/usr/bin/env bash
# tests/dis/dis_check.sh BEAMLET SRC_DIR GOLDEN_DIR — golden `beamlet dis` outputs: each
# SRC_DIR/*.erl is compiled by erlc into a temporary directory and disassembled under both
# engines (`beamlet dis --engine interp|jit`); the output, normalised by normalise.sed (no
# addresses, no host architecture), must equal GOLDEN_DIR/NAME.ENGINE.dis. On a difference it
# prints `diff -u golden actual`. A refactoring of the loader, the instruction table or the JIT
# must not change what code is loaded; if a change is meant, tests/dis/regen.sh rewrites them.
# With DIS_CHECK_REGEN=1 (what regen.sh does) it writes the golden files instead, after checking
# that three runs per engine give the same output.
set -u
if [ $# -ne 3 ]; then
  echo "usage: $0 BEAMLET SRC_DIR GOLDEN_DIR" >&2
  exit 2
fi
beamlet=$1 src_dir=$2 golden_dir=$3
here=$(cd "$(dirname "$0")" && pwd)
case $beamlet in /*) ;; *) beamlet=$PWD/$beamlet ;; esac
regen=${DIS_CHECK_REGEN:-0}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0 checks=0

fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}

shopt -s nullglob
sources=("$src_dir"/*.erl)
if [ ${#sources[@]} -eq 0 ]; then
  echo "FAIL: no .erl files in $src_dir"
  exit 1
fi
if ! erlc -o "$work" "${sources[@]}"; then
  echo "FAIL: erlc failed"
  exit 1
fi

# disassemble MOD ENGINE OUT — beamlet dis, normalised, into OUT; non-zero on a failed run.
disassemble() {
  (cd "$work" && timeout 120 "$beamlet" dis --engine "$2" "$work/$1.beam" >"$work/raw" 2>"$work/stderr")
  local status=$?
  if [ $status -ne 0 ]; then
    fail "$1 ($2): beamlet dis exited with status $status: $(head -c 2000 "$work/stderr")"
    return 1
  fi
  sed -E -f "$here/normalise.sed" "$work/raw" >"$3"
}

[ "$regen" = 1 ] && mkdir -p "$golden_dir"
for src in "${sources[@]}"; do
  mod=$(basename "$src" .erl)
  for engine in interp jit; do
    checks=$((checks + 1))
    golden=$golden_dir/$mod.$engine.dis
    disassemble "$mod" "$engine" "$work/$mod.$engine.dis" || continue
    if [ "$regen" = 1 ]; then
      stable=1
      for run in 2 3; do
        disassemble "$mod" "$engine" "$work/again" || { stable=0; break; }
        if ! cmp -s "$work/$mod.$engine.dis" "$work/again"; then
          fail "$mod ($engine): run $run differs from run 1 (not written):"
          diff -u "$work/$mod.$engine.dis" "$work/again"
          stable=0
          break
        fi
      done
      [ $stable = 1 ] && cp "$work/$mod.$engine.dis" "$golden" && echo "wrote $golden ($(wc -l <"$golden") lines)"
    elif [ ! -f "$golden" ]; then
      fail "$mod ($engine): no golden file $golden (tests/dis/regen.sh writes it)"
    elif ! diff -u "$golden" "$work/$mod.$engine.dis" >"$work/diff"; then
      fail "$mod ($engine): beamlet dis output differs from $golden:"
      cat "$work/diff"
    fi
  done
done

# Golden files whose program is gone.
for golden in "$golden_dir"/*.dis; do
  name=$(basename "$golden" .dis)
  mod=${name%.*}
  if [ ! -f "$src_dir/$mod.erl" ]; then
    if [ "$regen" = 1 ]; then
      rm -f "$golden" && echo "removed $golden (no $mod.erl)"
    else
      checks=$((checks + 1))
      fail "$golden: no $src_dir/$mod.erl"
    fi
  fi
done

echo "$checks checks, $failures failed"
[ $failures -eq 0 ]
