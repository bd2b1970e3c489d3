// vm/map.cpp — flatmaps: lookup, construction from pairs, put and remove.
#include "vm/map.hpp"

#include <algorithm>
#include <cstring>

#include "vm/process.hpp"
#include "vm/term_order.hpp"

namespace beamlet::vm {

namespace {

// Above this many keys lookups use binary search; below, a linear scan is cheaper.
constexpr Word LINEAR_SEARCH_MAX_KEYS = 8;
// An immediate key (an atom, a small, a pid) is found by word equality: up to this many keys
// (OTP's flatmap limit) a scan of words beats a binary search whose probes order atoms by name.
constexpr Word IMMEDIATE_SCAN_MAX_KEYS = 32;

// The index of the immediate [key] among [n] keys, or n.
Word find_immediate(const Term* keys, Word n, Term key) {
    Word i = 0;
    while (i < n && keys[i] != key) ++i;
    return i;
}

const Term* keys_of(Term map) { return tuple_elements(map_keys(map)); }

// Where [key] is among the [n] sorted [keys]: its index if present ([*found] set), else the
// index where it would be inserted.
Word locate(const Term* keys, Word n, Term key, bool* found) {
    if (n <= LINEAR_SEARCH_MAX_KEYS) {
        for (Word i = 0; i < n; ++i) {
            // Immediates are equal only when their words are.
            int c = keys[i] == key ? 0 : compare_terms_exact(keys[i], key);
            if (c >= 0) {
                *found = c == 0;
                return i;
            }
        }
        *found = false;
        return n;
    }
    Word lo = 0, hi = n;
    while (lo < hi) {
        Word mid = lo + (hi - lo) / 2;
        int c = keys[mid] == key ? 0 : compare_terms_exact(keys[mid], key);
        if (c == 0) {
            *found = true;
            return mid;
        }
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    *found = false;
    return lo;
}

// Allocates an [n]-key map (n > 0) on [p]; [*keys_out] and [*values_out] receive the arrays
// the caller fills. The keys tuple follows the map's values in the same block.
Term alloc_map(Process* p, Word n, Term** keys_out, Term** values_out) {
    Term* hp = p->alloc(map_words(n));
    Term* tuple = hp + MAP_HEADER_WORDS + n;
    tuple[0] = make_arityval(n);
    hp[0] = make_header(MAP_HEADER_WORDS - 1 + n, Subtag::Map);
    hp[1] = n;
    hp[2] = make_boxed(tuple);
    *keys_out = tuple + 1;
    *values_out = hp + MAP_HEADER_WORDS;
    return make_boxed(hp);
}

}  // namespace

const Term* map_lookup(Term map, Term key) {
    Word n = map_size(map);
    const Term* keys = keys_of(map);
    if (n <= IMMEDIATE_SCAN_MAX_KEYS && is_immediate(key)) {
        Word i = find_immediate(keys, n, key);
        return i < n ? map_values(map) + i : nullptr;
    }
    bool found;
    Word i = locate(keys, n, key, &found);
    return found ? map_values(map) + i : nullptr;
}

Term empty_map() {
    // A literal outside any heap, as OTP's empty map: [hdr][0][{}], with {} static too.
    struct EmptyMap {
        alignas(8) Word tuple[1];
        alignas(8) Word map[MAP_HEADER_WORDS];
        EmptyMap() {
            tuple[0] = make_arityval(0);
            map[0] = make_header(MAP_HEADER_WORDS - 1, Subtag::Map);
            map[1] = 0;
            map[2] = make_boxed(tuple);
        }
    };
    static const EmptyMap literal;
    return make_boxed(literal.map);
}

Term map_from_pairs(Process* p, std::vector<std::pair<Term, Term>> pairs) {
    std::stable_sort(pairs.begin(), pairs.end(),
                     [](const auto& x, const auto& y) { return compare_terms_exact(x.first, y.first) < 0; });
    // Keeps the last pair of each run of equal keys: stable sorting kept their input order.
    std::size_t n = 0;
    for (std::size_t i = 0; i < pairs.size(); ++i) {
        if (n != 0 && terms_exact_equal(pairs[n - 1].first, pairs[i].first))
            pairs[n - 1].second = pairs[i].second;
        else
            pairs[n++] = pairs[i];
    }
    if (n == 0) return empty_map();
    Term *keys, *values;
    Term map = alloc_map(p, n, &keys, &values);
    for (std::size_t i = 0; i < n; ++i) {
        keys[i] = pairs[i].first;
        values[i] = pairs[i].second;
    }
    return map;
}

Term map_put(Process* p, Term map, Term key, Term value) {
    Word n = map_size(map);
    const Term* old_keys = keys_of(map);
    const Term* old_values = map_values(map);
    bool found;
    // An update of a key already there (the common case) needs no ordering compare.
    Word at = n <= IMMEDIATE_SCAN_MAX_KEYS && is_immediate(key) ? find_immediate(old_keys, n, key) : n;
    found = at < n;
    if (!found) at = locate(old_keys, n, key, &found);
    if (found) {
        if (old_values[at] == value) return map;
        // Same keys: the new map shares the keys tuple.
        Term* hp = p->alloc(MAP_HEADER_WORDS + n);
        std::memcpy(hp, boxed_ptr(map), (MAP_HEADER_WORDS + n) * sizeof(Term));
        hp[MAP_HEADER_WORDS + at] = value;
        return make_boxed(hp);
    }
    Term *keys, *values;
    Term result = alloc_map(p, n + 1, &keys, &values);
    std::copy(old_keys, old_keys + at, keys);
    std::copy(old_values, old_values + at, values);
    keys[at] = key;
    values[at] = value;
    std::copy(old_keys + at, old_keys + n, keys + at + 1);
    std::copy(old_values + at, old_values + n, values + at + 1);
    return result;
}

Term map_remove(Process* p, Term map, Term key) {
    Word n = map_size(map);
    const Term* old_keys = keys_of(map);
    const Term* old_values = map_values(map);
    bool found;
    Word at = locate(old_keys, n, key, &found);
    if (!found) return map;
    if (n == 1) return empty_map();
    Term *keys, *values;
    Term result = alloc_map(p, n - 1, &keys, &values);
    std::copy(old_keys, old_keys + at, keys);
    std::copy(old_values, old_values + at, values);
    std::copy(old_keys + at + 1, old_keys + n, keys + at);
    std::copy(old_values + at + 1, old_values + n, values + at);
    return result;
}

}  // namespace beamlet::vm
