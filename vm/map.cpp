// vm/map.cpp — flatmaps and hashmaps: lookup, construction from pairs, put and remove.
#include "vm/map.hpp"

#include <algorithm>
#include <cstring>

#include "vm/assert.hpp"
#include "vm/process.hpp"
#include "vm/term_hash.hpp"
#include "vm/term_order.hpp"

namespace beamlet::vm {

namespace {

// Above this many keys lookups use binary search; below, a linear scan is cheaper.
constexpr Word LINEAR_SEARCH_MAX_KEYS = 8;

// ---- flatmaps ------------------------------------------------------------------------------------

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

// Allocates an [n]-key flatmap (n > 0) on [p]; [*keys_out] and [*values_out] receive the
// arrays the caller fills. The keys tuple follows the map's values in the same block.
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

// A flatmap of [pairs], sorted by key and distinct.
Term flatmap_of(Process* p, const std::vector<std::pair<Term, Term>>& pairs) {
    if (pairs.empty()) return empty_map();
    Term *keys, *values;
    Term map = alloc_map(p, pairs.size(), &keys, &values);
    for (std::size_t i = 0; i < pairs.size(); ++i) {
        keys[i] = pairs[i].first;
        values[i] = pairs[i].second;
    }
    return map;
}

void sort_by_key(std::vector<std::pair<Term, Term>>& pairs) {
    std::sort(pairs.begin(), pairs.end(),
              [](const auto& x, const auto& y) { return compare_terms_exact(x.first, y.first) < 0; });
}

// ---- hashmaps ------------------------------------------------------------------------------------

// The levels of the trie: each indexes its 16 slots with 4 bits of the key's 32-bit hash.
// Keys whose hashes are equal share a collision tuple below the last.
constexpr unsigned MAX_LEVEL = 8;

// A key and its hash.
struct KeyHash {
    Term key;
    std::uint32_t bits;

    explicit KeyHash(Term k) : key(k), bits(map_key_hash(k)) {}
    // The slot of the key at [level] (0..15).
    unsigned slot(unsigned level) const { return (bits >> (4 * level)) & 0xF; }
    // The order of the trie's depth-first walk: the hash's nibbles, level 0's the most
    // significant.
    std::uint32_t walk_order() const {
        std::uint32_t r = 0;
        for (unsigned level = 0; level < MAX_LEVEL; ++level) r = (r << 4) | slot(level);
        return r;
    }
};

Term leaf_on(Term* hp, Term key, Term value) { return make_cons_on(hp, key, value); }

bool same_key(Term a, Term b) { return terms_exact_equal(a, b); }

// A node of [k] children with [bitmap] at [hp]; the caller fills node[2..].
Term* node_on(Term* hp, std::uint32_t bitmap, Word k) {
    hp[0] = make_header(1 + k, Subtag::HashNode);
    hp[1] = make_small(SWord(bitmap));
    return hp;
}

// A hashmap built from all its pairs at once: the entries are sorted in the trie's walk
// order (a collision's keys in key order), so that each node's keys are a contiguous run.
struct Entry {
    KeyHash hash;
    Term value;
    std::uint32_t order;  // hash.walk_order()
};

std::vector<Entry> entries_of(const std::vector<std::pair<Term, Term>>& pairs) {
    std::vector<Entry> entries;
    entries.reserve(pairs.size());
    for (const auto& [k, v] : pairs) {
        KeyHash hash(k);
        entries.push_back({hash, v, hash.walk_order()});
    }
    return entries;
}

// Stable: of equal keys, the input's order is kept.
void sort_entries(std::vector<Entry>& entries) {
    std::stable_sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) {
        if (a.order != b.order) return a.order < b.order;
        return compare_terms_exact(a.hash.key, b.hash.key) < 0;
    });
}

// The end of the run of entries from [from] that share [from]'s slot at [level].
Entry* slot_run(Entry* from, Entry* to, unsigned level) {
    unsigned slot = from->hash.slot(level);
    Entry* end = from + 1;
    while (end != to && end->hash.slot(level) == slot) ++end;
    return end;
}

// Words the subtree of entries [from, to) (sorted) at [level] takes (a lone entry below the
// root is a leaf).
Word plan_subtree(Entry* from, Entry* to, unsigned level, bool root) {
    Word n = Word(to - from);
    if (n == 1 && !root) return 2;
    if (level == MAX_LEVEL) return 1 + 3 * n;  // collision tuple and its leaves
    Word words = 2;
    for (Entry* run = from; run != to;) {
        Entry* end = slot_run(run, to, level);
        words += 1 + plan_subtree(run, end, level + 1, false);
        run = end;
    }
    return words;
}

// Builds that subtree, planned, at [*hp], advancing it.
Term build_subtree(Entry* from, Entry* to, unsigned level, bool root, Term*& hp) {
    Word n = Word(to - from);
    if (n == 1 && !root) {
        Term leaf = leaf_on(hp, from->hash.key, from->value);
        hp += 2;
        return leaf;
    }
    if (level == MAX_LEVEL) {
        Term* tuple = hp;
        hp += 1 + n;
        tuple[0] = make_arityval(n);
        for (Word i = 0; i < n; ++i) {
            tuple[1 + i] = leaf_on(hp, from[i].hash.key, from[i].value);
            hp += 2;
        }
        return make_boxed(tuple);
    }
    std::uint32_t bitmap = 0;
    for (Entry* e = from; e != to; ++e) bitmap |= 1u << e->hash.slot(level);
    Word k = Word(std::popcount(bitmap));
    Term* node = node_on(hp, bitmap, k);
    hp += 2 + k;
    Word child = 0;
    for (Entry* run = from; run != to;) {
        Entry* end = slot_run(run, to, level);
        node[2 + child++] = build_subtree(run, end, level + 1, false, hp);
        run = end;
    }
    return make_boxed(node);
}

// The words the hashmap of [entries], sorted, takes.
Word plan_sorted(std::vector<Entry>& entries) {
    return MAP_HEADER_WORDS + plan_subtree(entries.data(), entries.data() + entries.size(), 0, true);
}

// Sorts [entries] and counts the words their hashmap takes.
Word plan_hashmap(std::vector<Entry>& entries) {
    sort_entries(entries);
    return plan_sorted(entries);
}

Term build_hashmap(Term* hp, std::vector<Entry>& entries) {
    Term* head = hp;
    hp += MAP_HEADER_WORDS;
    head[0] = make_header(MAP_HEADER_WORDS - 1, Subtag::Map);
    head[1] = entries.size();
    head[2] = build_subtree(entries.data(), entries.data() + entries.size(), 0, true, hp);
    return make_boxed(head);
}

// A hashmap of [pairs] (distinct keys, more than MAP_SMALL_MAP_LIMIT) on [p].
Term hashmap_of(Process* p, const std::vector<std::pair<Term, Term>>& pairs) {
    std::vector<Entry> entries = entries_of(pairs);
    return build_hashmap(p->alloc(plan_hashmap(entries)), entries);
}

// [node] with child [at] replaced by [child] (a copy).
Term with_child(Process* p, const Term* node, Word at, Term child) {
    Word words = 1 + header_arity(node[0]);
    Term* hp = p->alloc(words);
    std::memcpy(hp, node, words * sizeof(Term));
    hp[2 + at] = child;
    return make_boxed(hp);
}

// [node] with [child] inserted in the slot [bit] (not yet in its bitmap).
Term with_new_child(Process* p, const Term* node, std::uint32_t bit, Term child) {
    std::uint32_t bitmap = hash_node_bitmap(node);
    Word k = hash_node_children(node);
    Word at = Word(std::popcount(bitmap & (bit - 1)));
    Term* hp = node_on(p->alloc(3 + k), bitmap | bit, k + 1);
    std::copy(node + 2, node + 2 + at, hp + 2);
    hp[2 + at] = child;
    std::copy(node + 2 + at, node + 2 + k, hp + 3 + at);
    return make_boxed(hp);
}

// [node] without its child [at], whose slot is [bit].
Term without_child(Process* p, const Term* node, std::uint32_t bit, Word at) {
    Word k = hash_node_children(node);
    Term* hp = node_on(p->alloc(1 + k), hash_node_bitmap(node) & ~bit, k - 1);
    std::copy(node + 2, node + 2 + at, hp + 2);
    std::copy(node + 3 + at, node + 2 + k, hp + 2 + at);
    return make_boxed(hp);
}

// The subtree at [level] holding the two leaves (different keys) [a] and [b].
Term pair_subtree(Process* p, unsigned level, KeyHash& ha, Term a, KeyHash& hb, Term b) {
    if (level == MAX_LEVEL) {
        if (compare_terms_exact(car(a), car(b)) > 0) std::swap(a, b);
        Term* tuple = p->alloc(3);
        tuple[0] = make_arityval(2);
        tuple[1] = a;
        tuple[2] = b;
        return make_boxed(tuple);
    }
    unsigned sa = ha.slot(level), sb = hb.slot(level);
    if (sa == sb) {
        Term* node = node_on(p->alloc(3), 1u << sa, 1);
        node[2] = pair_subtree(p, level + 1, ha, a, hb, b);
        return make_boxed(node);
    }
    if (sa > sb) std::swap(a, b);
    Term* node = node_on(p->alloc(4), (1u << sa) | (1u << sb), 2);
    node[2] = a;
    node[3] = b;
    return make_boxed(node);
}

// The collision tuple [tuple] with [key] set to [value]; [*added] when the key is new.
Term collision_put(Process* p, Term tuple, Term key, Term value, bool* added) {
    Word n = tuple_arity(tuple);
    const Term* leaves = tuple_elements(tuple);
    Word at = 0;
    while (at < n && compare_terms_exact(car(leaves[at]), key) < 0) ++at;
    bool present = at < n && same_key(car(leaves[at]), key);
    if (present && cdr(leaves[at]) == value) return tuple;
    *added = !present;
    Word m = present ? n : n + 1;
    Term* hp = p->alloc(1 + m + 2);
    hp[0] = make_arityval(m);
    std::copy(leaves, leaves + at, hp + 1);
    hp[1 + at] = leaf_on(hp + 1 + m, key, value);
    std::copy(leaves + at + (present ? 1 : 0), leaves + n, hp + 2 + at);
    return make_boxed(hp);
}

// [node] (at [level]) with [kh]'s key set to [value]: the nodes on the key's path are
// copied, the rest shared. [node] itself when the value is already there.
Term node_put(Process* p, Term node_term, unsigned level, KeyHash& kh, Term value, bool* added) {
    const Term* node = boxed_ptr(node_term);
    std::uint32_t bit = 1u << kh.slot(level);
    std::uint32_t bitmap = hash_node_bitmap(node);
    if (!(bitmap & bit)) {
        *added = true;
        return with_new_child(p, node, bit, leaf_on(p->alloc(2), kh.key, value));
    }
    Word at = Word(std::popcount(bitmap & (bit - 1)));
    Term child = node[2 + at];
    Term replacement;
    if (is_list(child)) {
        Term old_key = car(child);
        if (same_key(old_key, kh.key)) {
            if (cdr(child) == value) return node_term;
            replacement = leaf_on(p->alloc(2), old_key, value);
        } else {
            *added = true;
            KeyHash old(old_key);
            replacement = pair_subtree(p, level + 1, old, child, kh, leaf_on(p->alloc(2), kh.key, value));
        }
    } else if (is_hash_node(child)) {
        replacement = node_put(p, child, level + 1, kh, value, added);
    } else {
        replacement = collision_put(p, child, kh.key, value, added);
    }
    return replacement == child ? node_term : with_child(p, node, at, replacement);
}

// [node] (at [level]) without [kh]'s key; [node] itself when the key is not there. A child
// left holding a single leaf is replaced by the leaf, so the trie stays canonical.
Term node_remove(Process* p, Term node_term, unsigned level, KeyHash& kh, bool* removed) {
    const Term* node = boxed_ptr(node_term);
    std::uint32_t bit = 1u << kh.slot(level);
    std::uint32_t bitmap = hash_node_bitmap(node);
    if (!(bitmap & bit)) return node_term;
    Word at = Word(std::popcount(bitmap & (bit - 1)));
    Term child = node[2 + at];
    Term replacement;
    if (is_list(child)) {
        if (!same_key(car(child), kh.key)) return node_term;
        *removed = true;
        return without_child(p, node, bit, at);
    }
    if (is_hash_node(child)) {
        replacement = node_remove(p, child, level + 1, kh, removed);
        if (!*removed) return node_term;
        const Term* sub = boxed_ptr(replacement);
        if (hash_node_children(sub) == 1 && is_list(sub[2])) replacement = sub[2];
    } else {
        Word n = tuple_arity(child);
        const Term* leaves = tuple_elements(child);
        Word i = 0;
        while (i < n && !same_key(car(leaves[i]), kh.key)) ++i;
        if (i == n) return node_term;
        *removed = true;
        if (n == 2) {
            replacement = leaves[1 - i];
        } else {
            Term* hp = p->alloc(n);
            hp[0] = make_arityval(n - 1);
            std::copy(leaves, leaves + i, hp + 1);
            std::copy(leaves + i + 1, leaves + n, hp + 1 + i);
            replacement = make_boxed(hp);
        }
    }
    return with_child(p, node, at, replacement);
}

Term hashmap_head(Process* p, Word size, Term root) {
    Term* hp = p->alloc(MAP_HEADER_WORDS);
    hp[0] = make_header(MAP_HEADER_WORDS - 1, Subtag::Map);
    hp[1] = size;
    hp[2] = root;
    return make_boxed(hp);
}

const Term* hashmap_lookup(Term map, Term key) {
    KeyHash kh(key);
    Term child = hashmap_root(map);
    for (unsigned level = 0;; ++level) {
        const Term* node = boxed_ptr(child);
        if (header_subtag(node[0]) == Subtag::Tuple) {  // collision leaves
            for (Word i = 1; i <= header_arity(node[0]); ++i)
                if (same_key(car(node[i]), key)) return list_ptr(node[i]) + 1;
            return nullptr;
        }
        std::uint32_t bit = 1u << kh.slot(level);
        std::uint32_t bitmap = hash_node_bitmap(node);
        if (!(bitmap & bit)) return nullptr;
        child = node[2 + std::popcount(bitmap & (bit - 1))];
        if (is_list(child)) return same_key(car(child), key) ? list_ptr(child) + 1 : nullptr;
    }
}

std::vector<std::pair<Term, Term>> pairs_of(Term map) {
    std::vector<std::pair<Term, Term>> pairs;
    pairs.reserve(map_size(map));
    map_for_each(map, [&](Term k, Term v) { pairs.emplace_back(k, v); });
    return pairs;
}

// The index of [key] among a flatmap's [n] keys, or n: as erts, a scan by exact equality,
// which rejects a different key at its first differing word (a binary search would order
// several keys against it in full: no cheaper over 32 keys, measured on OTP's compiler).
Word find_key(const Term* keys, Word n, Term key) {
    if (is_immediate(key)) return find_immediate(keys, n, key);
    Word i = 0;
    while (i < n && !terms_exact_equal(keys[i], key)) ++i;
    return i;
}

}  // namespace

std::uint32_t map_key_hash(Term key) { return make_internal_hash(key); }

const Term* map_lookup(Term map, Term key) {
    Word n = map_size(map);
    if (n > MAP_SMALL_MAP_LIMIT) return hashmap_lookup(map, key);
    Word i = find_key(keys_of(map), n, key);
    return i < n ? map_values(map) + i : nullptr;
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
    if (pairs.size() > MAP_SMALL_MAP_LIMIT) {
        // Sorted in walk order, where equal keys are neighbours too: the last of each run wins.
        std::vector<Entry> entries = entries_of(pairs);
        sort_entries(entries);
        std::size_t n = 0;
        for (std::size_t i = 0; i < entries.size(); ++i) {
            if (n != 0 && entries[n - 1].order == entries[i].order && same_key(entries[n - 1].hash.key, entries[i].hash.key))
                entries[n - 1].value = entries[i].value;
            else
                entries[n++] = entries[i];
        }
        entries.erase(entries.begin() + std::ptrdiff_t(n), entries.end());
        if (n > MAP_SMALL_MAP_LIMIT) return build_hashmap(p->alloc(plan_sorted(entries)), entries);
        pairs.clear();
        for (const Entry& e : entries) pairs.emplace_back(e.hash.key, e.value);
    }
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
    pairs.resize(n);
    return flatmap_of(p, pairs);
}

// 2 + 3n + 3N + 2C words for N nodes and C collision tuples (C <= n/2): fewer than n nodes
// branch (two children or more), and above each of them and each collision tuple a chain of
// single-child nodes is at most 8 long, so N <= 9n.
Word hashmap_words_at_most(Word n) { return 2 + 3 * n + 3 * 9 * n + n; }

namespace {
// [pairs]'s entries, sorted; false if a key is there twice.
bool distinct_entries(const std::vector<std::pair<Term, Term>>& pairs, std::vector<Entry>* entries) {
    *entries = entries_of(pairs);
    sort_entries(*entries);
    for (std::size_t i = 1; i < entries->size(); ++i)
        if ((*entries)[i - 1].order == (*entries)[i].order && same_key((*entries)[i - 1].hash.key, (*entries)[i].hash.key))
            return false;
    return true;
}
}  // namespace

Term hashmap_of_distinct(Process* p, const std::vector<std::pair<Term, Term>>& pairs) {
    std::vector<Entry> entries;
    if (!distinct_entries(pairs, &entries)) return THE_NON_VALUE;
    return build_hashmap(p->alloc(plan_sorted(entries)), entries);
}

Term hashmap_on(Term* hp, const std::vector<std::pair<Term, Term>>& pairs) {
    std::vector<Entry> entries;
    if (!distinct_entries(pairs, &entries)) return THE_NON_VALUE;
    Word room = hashmap_words_at_most(pairs.size()), used = plan_sorted(entries);
    BEAMLET_ASSERT(used <= room);
    Term map = build_hashmap(hp, entries);
    if (used < room) {
        hp[used] = make_arityval(room - used - 1);
        std::fill(hp + used + 1, hp + room, NIL);
    }
    return map;
}

Term map_put(Process* p, Term map, Term key, Term value) {
    Word n = map_size(map);
    if (n > MAP_SMALL_MAP_LIMIT) {
        bool added = false;
        KeyHash kh(key);
        Term root = node_put(p, hashmap_root(map), 0, kh, value, &added);
        if (root == hashmap_root(map)) return map;
        return hashmap_head(p, added ? n + 1 : n, root);
    }
    const Term* old_keys = keys_of(map);
    const Term* old_values = map_values(map);
    bool found;
    // An update of a key already there (the common case) needs no ordering compare.
    Word at = find_key(old_keys, n, key);
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
    if (n == MAP_SMALL_MAP_LIMIT) {  // the 33rd key: a hashmap from now on
        std::vector<std::pair<Term, Term>> pairs = pairs_of(map);
        pairs.emplace_back(key, value);
        return hashmap_of(p, pairs);
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
    if (n > MAP_SMALL_MAP_LIMIT) {
        if (n == MAP_SMALL_MAP_LIMIT + 1) {  // down to a flatmap, as erts
            if (!hashmap_lookup(map, key)) return map;
            std::vector<std::pair<Term, Term>> pairs;
            map_for_each(map, [&](Term k, Term v) {
                if (!same_key(k, key)) pairs.emplace_back(k, v);
            });
            sort_by_key(pairs);
            return flatmap_of(p, pairs);
        }
        bool removed = false;
        KeyHash kh(key);
        Term root = node_remove(p, hashmap_root(map), 0, kh, &removed);
        return removed ? hashmap_head(p, n - 1, root) : map;
    }
    const Term* old_keys = keys_of(map);
    const Term* old_values = map_values(map);
    Word at = find_key(old_keys, n, key);
    if (at == n) return map;
    if (n == 1) return empty_map();
    Term *keys, *values;
    Term result = alloc_map(p, n - 1, &keys, &values);
    std::copy(old_keys, old_keys + at, keys);
    std::copy(old_values, old_values + at, values);
    std::copy(old_keys + at + 1, old_keys + n, keys + at);
    std::copy(old_values + at + 1, old_values + n, values + at);
    return result;
}

std::vector<std::pair<Term, Term>> map_list_order(Term map) {
    std::vector<std::pair<Term, Term>> pairs = pairs_of(map);
    if (!is_flatmap(map)) std::reverse(pairs.begin(), pairs.end());
    return pairs;
}

}  // namespace beamlet::vm
