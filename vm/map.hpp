// vm/map.hpp — maps as OTP keeps them: flatmaps up to 32 keys, hashmaps (HAMTs) above.
//
// A flatmap holds its keys sorted by compare_terms_exact in a keys tuple, the values after:
//   [header arity=N+2, Map][N][keys tuple][v1]...[vN]
// A map of more than MAP_SMALL_MAP_LIMIT keys is a hash array mapped trie, as erts's, so that
// an insert or an update copies one path of nodes, not the whole map:
//   head:      [header arity=2, Map][N][root node]
//   node:      [header arity=1+k, HashNode][bitmap (small)][child]...   k = popcount(bitmap)
//   child:     a leaf, the cons [Key | Value]; a node one level down; or, below the last
//              level (all 32 bits of the hash used), a collision tuple {[K1|V1], [K2|V2], ...}
//              of leaves sorted by key.
// Level L indexes its 16 slots with bits 4L..4L+3 of the key's hash, erts's map hash (the
// internal hash with salt 0), and the trie is canonical: a node exists at a level exactly when
// two or more keys share the hash bits above it, a lone key is a leaf in its parent. So equal
// maps have the same shape, and iteration follows erts's: depth first, slots in bitmap order
// (maps:iterator/next, io:format). (Only keys whose 32-bit hashes collide, a few pairs in a
// map of 100000 integers, may come in another order than erl's.) A hashmap that shrinks to 32
// keys becomes a flatmap again.
//
// Every word of a node after its header is a term, so the collector, copy and the heap
// walkers treat a HashNode as a tuple.
#pragma once

#include <bit>
#include <cstdint>
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
// The hash that places [key] in a hashmap (erts's make_map_hash).
std::uint32_t map_key_hash(Term key);
// The hashmap of [pairs] (more than MAP_SMALL_MAP_LIMIT, any order) on [p]; THE_NON_VALUE if
// a key is there twice.
Term hashmap_of_distinct(Process* p, const std::vector<std::pair<Term, Term>>& pairs);
// The most words a hashmap of [n] keys takes (its trie's shape follows from the keys' hashes).
Word hashmap_words_at_most(Word n);
// As hashmap_of_distinct, built at [hp], which has hashmap_words_at_most words: those it
// leaves become a tuple of []s.
Term hashmap_on(Term* hp, const std::vector<std::pair<Term, Term>>& pairs);

inline bool is_hash_node(Term t) { return is_boxed_of(t, Subtag::HashNode); }
inline std::uint32_t hash_node_bitmap(const Term* node) { return std::uint32_t(small_value(node[1])); }
inline Word hash_node_children(const Term* node) { return header_arity(node[0]) - 1; }

namespace map_detail {
// Calls [fn(key, value)] for each pair under [child] (a leaf, a node or a collision tuple).
template <typename Fn>
void for_each_under(Term child, Fn& fn) {
    if (is_list(child)) {
        const Term* leaf = list_ptr(child);
        fn(leaf[0], leaf[1]);
        return;
    }
    const Term* obj = boxed_ptr(child);
    Word n = header_arity(obj[0]);
    if (header_subtag(obj[0]) == Subtag::Tuple) {  // collision leaves
        for (Word i = 1; i <= n; ++i) fn(list_ptr(obj[i])[0], list_ptr(obj[i])[1]);
        return;
    }
    for (Word i = 2; i <= n; ++i) for_each_under(obj[i], fn);
}
}  // namespace map_detail

// Calls [fn(key, value)] for each pair in the map's iteration order, erts's: key order for a
// flatmap, the trie's depth-first order for a hashmap (what maps:iterator/1 and maps:next/1
// give; maps:to_list/1, keys/1, values/1 and term_to_binary/1 give a hashmap's the other way
// round).
template <typename Fn>
void map_for_each(Term map, Fn&& fn) {
    Word n = map_size(map);
    if (n == 0) return;
    if (!is_flatmap(map)) return map_detail::for_each_under(hashmap_root(map), fn);
    const Term* keys = tuple_elements(map_keys(map));
    const Term* values = map_values(map);
    for (Word i = 0; i < n; ++i) fn(keys[i], values[i]);
}

// A position in a hashmap's depth-first walk: the child taken at each level down to the next
// leaf. It is only indices (the nodes are found again from the root), so it outlives a
// garbage collection, and it packs into a small integer, erts_internal:map_next/3's path:
// 4 bits a level for levels 0-7, a collision tuple's index above bit 32. Path 0 is the start.
class HashmapCursor {
public:
    explicit HashmapCursor(Word path = 0) {
        for (unsigned level = 0; level < MAX_LEVELS; ++level) m_index[level] = Word((path >> (4 * level)) & 0xF);
        m_index[MAX_LEVELS] = path >> 32;
    }
    Word path() const {
        Word path = Word(m_index[MAX_LEVELS]) << 32;
        for (unsigned level = 0; level < MAX_LEVELS; ++level) path |= m_index[level] << (4 * level);
        return path;
    }
    bool at_end() const { return m_end; }
    // Finds the position in [map]; false when it is not one (a path made up).
    bool locate(Term map) {
        m_depth = 0;
        m_nodes[0] = boxed_ptr(hashmap_root(map));
        for (;;) {
            if (m_index[m_depth] >= children(m_nodes[m_depth])) return false;
            Term c = child(m_nodes[m_depth], m_index[m_depth]);
            if (is_list(c)) return true;
            if (m_depth == MAX_LEVELS) return false;
            m_nodes[++m_depth] = boxed_ptr(c);
        }
    }
    // After locate: calls [fn(key, value)] for up to [limit] pairs from the position on, and
    // moves past them; returns how many.
    template <typename Fn>
    Word walk(Word limit, Fn&& fn) {
        Word visited = 0;
        while (visited < limit && !m_end) {
            const Term* leaf = list_ptr(child(m_nodes[m_depth], m_index[m_depth]));
            fn(leaf[0], leaf[1]);
            ++visited;
            advance();
        }
        return visited;
    }

private:
    static constexpr unsigned MAX_LEVELS = 8;
    static Word children(const Term* node) {
        return header_subtag(node[0]) == Subtag::Tuple ? header_arity(node[0]) : header_arity(node[0]) - 1;
    }
    static Term child(const Term* node, Word i) {
        return header_subtag(node[0]) == Subtag::Tuple ? node[1 + i] : node[2 + i];
    }
    void advance() {
        ++m_index[m_depth];
        while (m_index[m_depth] >= children(m_nodes[m_depth])) {
            m_index[m_depth] = 0;
            if (m_depth == 0) {
                m_end = true;
                return;
            }
            ++m_index[--m_depth];
        }
        for (Term c; !is_list(c = child(m_nodes[m_depth], m_index[m_depth]));) {
            m_nodes[++m_depth] = boxed_ptr(c);
            m_index[m_depth] = 0;
        }
    }

    Word m_index[MAX_LEVELS + 1];
    const Term* m_nodes[MAX_LEVELS + 1] = {};
    unsigned m_depth = 0;
    bool m_end = false;
};

// The map's pairs in the order maps:to_list/1 gives them (and term_to_binary/1 writes them):
// a flatmap's in key order, a hashmap's in reverse iteration order.
std::vector<std::pair<Term, Term>> map_list_order(Term map);

}  // namespace beamlet::vm
