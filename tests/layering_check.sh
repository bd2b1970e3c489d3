#!/usr/bin/env bash
# tests/layering_check.sh [ROOT] — checks the layering rules of ROOT/layers.txt: every
# `#include "folder/..."` in a folder's sources names that folder or one it may depend on, and
# every CMake link between beamlet's own libraries (beamlet_<folder>) follows the same arrows.
# Prints each violation (file:line and the rule) and exits 1 if there is any.
set -u
root=${1:-$(cd "$(dirname "$0")/.." && pwd)}
rules=$root/layers.txt
[ -f "$rules" ] || { echo "layering_check: $rules not found"; exit 2; }

declare -A allowed
while IFS= read -r line; do
    line=${line%%#*}
    [[ $line =~ ^[[:space:]]*([a-z_]+):(.*)$ ]] || continue
    allowed[${BASH_REMATCH[1]}]=" ${BASH_REMATCH[1]} $(echo ${BASH_REMATCH[2]}) "
done <"$rules"

violations=0
checked=0
for folder in "${!allowed[@]}"; do
    [ -d "$root/$folder" ] || { echo "layering_check: layers.txt names $folder/, which does not exist"; violations=$((violations + 1)); continue; }
    while IFS=: read -r file lineno text; do
        target=$(sed -E 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"([a-z_]+)\/.*/\1/' <<<"$text")
        checked=$((checked + 1))
        [ -d "$root/$target" ] || continue  # a header beside the file, or a library's own
        if [[ ${allowed[$folder]} != *" $target "* ]]; then
            echo "${file#$root/}:$lineno: $folder/ may not include $target/ (layers.txt: $folder:${allowed[$folder]% })"
            violations=$((violations + 1))
        fi
    done < <(grep -rnE '^[[:space:]]*#[[:space:]]*include[[:space:]]*"[a-z_]+/' "$root/$folder" \
                 --include='*.cpp' --include='*.hpp' --include='*.h' --include='*.def' --include='*.inc' || true)
done

# Every folder with sources has a rule.
for dir in "$root"/*/; do
    folder=$(basename "$dir")
    case $folder in build*|tests|samples|bench|docs|include) continue ;; esac
    if [ -z "${allowed[$folder]+x}" ] && [ -n "$(find "$dir" -name '*.cpp' -print -quit)" ]; then
        echo "layering_check: $folder/ has sources but no rule in layers.txt"
        violations=$((violations + 1))
    fi
done

# CMake: target_link_libraries(beamlet_<a> ... beamlet_<b> ...) needs a -> b.
while IFS= read -r line; do
    [[ $line =~ target_link_libraries\(beamlet_([a-z_]+)[[:space:]](.*)\) ]] || continue
    from=${BASH_REMATCH[1]}
    [ -n "${allowed[$from]+x}" ] || continue  # not a layer's library (jit_vm, tools' helpers)
    for lib in $(grep -oE 'beamlet_[a-z_]+' <<<"${BASH_REMATCH[2]}"); do
        to=${lib#beamlet_}
        [ -n "${allowed[$to]+x}" ] || continue
        if [[ ${allowed[$from]} != *" $to "* ]]; then
            echo "CMakeLists.txt: beamlet_$from may not link beamlet_$to (layers.txt: $from:${allowed[$from]% })"
            violations=$((violations + 1))
        fi
    done
done <"$root/CMakeLists.txt"

echo "layering_check: $checked includes checked, $violations violations"
[ "$violations" -eq 0 ]
