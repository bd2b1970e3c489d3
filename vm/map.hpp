// vm/map.hpp — maps as flatmaps: keys sorted by compare_terms_exact in a keys tuple, values after.
//
//   [header arity=N+2, Map][N][keys tuple][v1]...[vN]
// OTP switches to a HAMT above 32 keys; beamlet keeps the flat layout at every size, so
// iteration order is always key order. Inserting into a large map costs O(N) (a HAMT would
// make it O(log N); not needed by the programs beamlet runs so far).
#pragma once

#include <utility>
#include <vector>

#include "vm/term.hpp"

namespace beamlet::vm {

struct Process;

inline constexpr Word map_words(Word n) { return MAP_HEADER_WORDS + n + (n ? 1 + n : 0); }

// The value stored under [key] in [map], or null.
const Term* map_lookup(Term map, Term key);
// The empty map (a literal; no allocation).
Term empty_map();
// A new map with the given pairs; later duplicates of a key win. Allocated on [p].
Term map_from_pairs(Process* p, std::vector<std::pair<Term, Term>> pairs);
// [map] with [key] set to [value] (a copy; [map] unchanged).
Term map_put(Process* p, Term map, Term key, Term value);
// [map] without [key]; [map] itself if the key is absent.
Term map_remove(Process* p, Term map, Term key);
// Calls [fn(key, value)] for each pair in key order.
template <typename Fn>
void map_for_each(Term map, Fn&& fn) {
    Word n = map_size(map);
    if (n == 0) return;
    const Term* keys = tuple_elements(map_keys(map));
    const Term* values = map_values(map);
    for (Word i = 0; i < n; ++i) fn(keys[i], values[i]);
}

}  // namespace beamlet::vm
