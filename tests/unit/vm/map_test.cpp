// tests/unit/vm/map_test.cpp — flatmaps and hashmaps: key order, duplicate keys, lookup, put and
// remove, the 32-key boundary both ways, and the trie's canonical shape.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "vm/arith.hpp"
#include "vm/atom_table.hpp"
#include "vm/bignum.hpp"
#include "vm/map.hpp"
#include "vm/process.hpp"
#include "vm/term_order.hpp"
#include "vm/vm.hpp"

namespace beamlet::vm {
namespace {

class Map : public ::testing::Test {
protected:
    Vm m_vm;
    Process m_process{m_vm, 1};
    Process* p = &m_process;

    Term flt(double v) { return make_float_checked(p, v); }
    Term pair_tuple(Term a, Term b) {
        Term* hp = p->alloc(3);
        hp[0] = make_arityval(2);
        hp[1] = a;
        hp[2] = b;
        return make_boxed(hp);
    }
    static std::vector<Term> keys(Term map) {
        std::vector<Term> out;
        map_for_each(map, [&](Term k, Term) { out.push_back(k); });
        return out;
    }
};

TEST_F(Map, EmptyMapIsAStaticLiteral) {
    Word used = p->heap_used_words();
    Term m = empty_map();
    EXPECT_EQ(m, empty_map());
    EXPECT_EQ(p->heap_used_words(), used);
    ASSERT_TRUE(is_map(m));
    EXPECT_EQ(map_size(m), Word(0));
    ASSERT_TRUE(is_tuple(map_keys(m)));
    EXPECT_EQ(tuple_arity(map_keys(m)), Word(0));
    EXPECT_EQ(map_lookup(m, atoms::ok), nullptr);
    EXPECT_EQ(map_from_pairs(p, {}), m);
}

TEST_F(Map, FromPairsSortsAndKeepsTheLastDuplicate) {
    Term a = atom("a"), b = atom("b");
    Term m = map_from_pairs(p, {{b, make_small(1)}, {a, make_small(2)}, {b, make_small(3)}, {a, make_small(4)}});
    ASSERT_EQ(map_size(m), Word(2));
    EXPECT_EQ(keys(m), (std::vector<Term>{a, b}));
    EXPECT_EQ(*map_lookup(m, a), make_small(4));
    EXPECT_EQ(*map_lookup(m, b), make_small(3));
    // Header arity and word count follow the documented layout.
    EXPECT_EQ(header_arity(boxed_header(m)), Word(4));
}

TEST_F(Map, KeysFollowTheExactOrderIntegersBeforeFloats) {
    // From erl: maps:keys(#{1.0 => a, 2 => b, 1 => c}) =:= [1, 2, 1.0].
    Term one_float = flt(1.0);
    Term m = map_from_pairs(p, {{one_float, atom("a")}, {make_small(2), atom("b")}, {make_small(1), atom("c")}});
    EXPECT_EQ(keys(m), (std::vector<Term>{make_small(1), make_small(2), one_float}));
    EXPECT_EQ(*map_lookup(m, make_small(1)), atom("c"));
    EXPECT_EQ(*map_lookup(m, flt(1.0)), atom("a"));
    // 1 and 1.0 are distinct keys.
    Term only_int = map_from_pairs(p, {{make_small(1), atom("x")}});
    EXPECT_EQ(map_lookup(only_int, flt(1.0)), nullptr);
}

TEST_F(Map, LookupFindsCompoundKeysInLargeMaps) {
    std::vector<std::pair<Term, Term>> pairs;
    for (int i = 0; i < 100; ++i) {
        pairs.emplace_back(make_small(i * 7 % 100), make_small(i));
        pairs.emplace_back(pair_tuple(atom("k"), make_small(i)), make_small(-i));
    }
    Term big_key = *parse_integer(p, "123456789012345678901234567890");
    pairs.emplace_back(big_key, atoms::ok);
    Term m = map_from_pairs(p, pairs);
    ASSERT_EQ(map_size(m), Word(201));
    for (int i = 0; i < 100; ++i) {
        const Term* v = map_lookup(m, make_small(i * 7 % 100));
        ASSERT_NE(v, nullptr);
        EXPECT_EQ(*v, make_small(i));
        // A fresh copy of the key: found by value, not by pointer.
        v = map_lookup(m, pair_tuple(atom("k"), make_small(i)));
        ASSERT_NE(v, nullptr);
        EXPECT_EQ(*v, make_small(-i));
    }
    EXPECT_EQ(*map_lookup(m, *parse_integer(p, "123456789012345678901234567890")), atoms::ok);
    EXPECT_EQ(map_lookup(m, make_small(100)), nullptr);
    EXPECT_EQ(map_lookup(m, pair_tuple(atom("k"), make_small(100))), nullptr);
    // A hashmap: every key once, in the trie's order, not key order.
    std::vector<Term> ks = keys(m);
    ASSERT_EQ(ks.size(), std::size_t(201));
    std::sort(ks.begin(), ks.end(), [](Term x, Term y) { return compare_terms_exact(x, y) < 0; });
    for (std::size_t i = 1; i < ks.size(); ++i) EXPECT_LT(compare_terms_exact(ks[i - 1], ks[i]), 0);
}

TEST_F(Map, PutReplacesOrInsertsWithoutChangingTheOriginal) {
    Term a = atom("a"), b = atom("b"), c = atom("c");
    Term m = map_from_pairs(p, {{a, make_small(1)}, {c, make_small(3)}});
    Term replaced = map_put(p, m, a, make_small(10));
    EXPECT_EQ(*map_lookup(replaced, a), make_small(10));
    EXPECT_EQ(*map_lookup(m, a), make_small(1));
    // Replacing a value keeps the key set, so the keys tuple is shared.
    EXPECT_EQ(map_keys(replaced), map_keys(m));
    EXPECT_EQ(map_put(p, m, c, make_small(3)), m);
    Term inserted = map_put(p, m, b, make_small(2));
    EXPECT_EQ(keys(inserted), (std::vector<Term>{a, b, c}));
    EXPECT_EQ(*map_lookup(inserted, b), make_small(2));
    EXPECT_EQ(map_size(m), Word(2));
    Term first = map_put(p, empty_map(), c, NIL);
    EXPECT_EQ(keys(first), (std::vector<Term>{c}));
}

TEST_F(Map, RemoveDropsOnlyThatKey) {
    Term a = atom("a"), b = atom("b");
    Term m = map_from_pairs(p, {{a, make_small(1)}, {b, make_small(2)}});
    EXPECT_EQ(map_remove(p, m, atom("absent")), m);
    Term without_a = map_remove(p, m, a);
    EXPECT_EQ(keys(without_a), (std::vector<Term>{b}));
    EXPECT_EQ(*map_lookup(without_a, b), make_small(2));
    EXPECT_EQ(map_size(m), Word(2));
    EXPECT_EQ(map_remove(p, without_a, b), empty_map());
    EXPECT_EQ(map_remove(p, empty_map(), a), empty_map());
}

TEST_F(Map, TheThirtyThirdKeyMakesAHashmapAndRemovingItAFlatmapAgain) {
    Term m = empty_map();
    for (int i = 0; i < 32; ++i) m = map_put(p, m, make_small(i), make_small(i * 2));
    EXPECT_TRUE(is_flatmap(m));
    Term big = map_put(p, m, make_small(32), make_small(64));
    EXPECT_FALSE(is_flatmap(big));
    EXPECT_TRUE(is_hash_node(hashmap_root(big)));
    EXPECT_EQ(map_size(big), Word(33));
    for (int i = 0; i <= 32; ++i) EXPECT_EQ(*map_lookup(big, make_small(i)), make_small(i * 2));
    EXPECT_EQ(map_lookup(big, make_small(33)), nullptr);
    EXPECT_EQ(map_remove(p, big, make_small(99)), big);
    Term back = map_remove(p, big, make_small(5));
    EXPECT_TRUE(is_flatmap(back));
    EXPECT_EQ(map_size(back), Word(32));
    EXPECT_EQ(map_lookup(back, make_small(5)), nullptr);
    std::vector<Term> ks = keys(back);  // a flatmap's keys are in key order again
    for (std::size_t i = 1; i < ks.size(); ++i) EXPECT_LT(compare_terms_exact(ks[i - 1], ks[i]), 0);
}

TEST_F(Map, AHashmapHasOneShapeWhateverTheOrderOfItsMaking) {
    std::vector<std::pair<Term, Term>> pairs;
    for (int i = 0; i < 2000; ++i) pairs.emplace_back(make_small(i), make_small(i + 1));
    Term built = map_from_pairs(p, pairs);
    Term grown = empty_map();
    for (int i = 1999; i >= 0; --i) grown = map_put(p, grown, make_small(i), make_small(i + 1));
    // Grown past the target and removed again: the emptied nodes fold back into leaves.
    Term shrunk = grown;
    for (int i = 2000; i < 3000; ++i) shrunk = map_put(p, shrunk, make_small(i), NIL);
    for (int i = 2000; i < 3000; ++i) shrunk = map_remove(p, shrunk, make_small(i));
    EXPECT_EQ(keys(built), keys(grown));
    EXPECT_EQ(keys(built), keys(shrunk));
    EXPECT_EQ(compare_terms_exact(built, grown), 0);
    EXPECT_EQ(compare_terms_exact(built, shrunk), 0);
    EXPECT_EQ(map_size(shrunk), Word(2000));
    // Putting a value that is already there returns the map itself.
    EXPECT_EQ(map_put(p, built, make_small(7), make_small(8)), built);
    Term changed = map_put(p, built, make_small(7), make_small(0));
    EXPECT_EQ(*map_lookup(changed, make_small(7)), make_small(0));
    EXPECT_EQ(*map_lookup(built, make_small(7)), make_small(8));
    EXPECT_LT(compare_terms_exact(changed, built), 0);  // same keys: the values decide
}

TEST_F(Map, KeysWhoseHashesCollideShareACollisionTuple) {
    // 40660 and 59671 have the same 32-bit map hash (on erl too).
    Term a = make_small(40660), b = make_small(59671);
    ASSERT_EQ(map_key_hash(a), map_key_hash(b));
    std::vector<std::pair<Term, Term>> pairs;
    for (int i = 0; i < 40; ++i) pairs.emplace_back(make_small(i), make_small(i));
    Term base = map_from_pairs(p, pairs);
    Term with_a = map_put(p, base, a, atom("a"));
    Term both = map_put(p, with_a, b, atom("b"));
    pairs.emplace_back(b, atom("b"));
    pairs.emplace_back(a, atom("a"));
    EXPECT_EQ(compare_terms_exact(both, map_from_pairs(p, pairs)), 0);
    EXPECT_EQ(*map_lookup(both, a), atom("a"));
    EXPECT_EQ(*map_lookup(both, b), atom("b"));
    EXPECT_EQ(map_size(both), Word(42));
    Term only_b = map_remove(p, both, a);
    EXPECT_EQ(map_lookup(only_b, a), nullptr);
    EXPECT_EQ(*map_lookup(only_b, b), atom("b"));
    EXPECT_EQ(compare_terms_exact(map_remove(p, only_b, b), base), 0);
}

TEST_F(Map, ACursorResumesTheWalkFromItsPath) {
    std::vector<std::pair<Term, Term>> pairs;
    for (int i = 0; i < 1000; ++i) pairs.emplace_back(make_small(i), make_small(-i));
    Term m = map_from_pairs(p, pairs);
    std::vector<Term> resumed;
    Word path = 0;
    for (bool end = false; !end;) {
        HashmapCursor cursor(path);  // a new cursor each slice, as a trapped BIF has
        ASSERT_TRUE(cursor.locate(m));
        cursor.walk(7, [&](Term k, Term) { resumed.push_back(k); });
        end = cursor.at_end();
        path = cursor.path();
    }
    EXPECT_EQ(resumed, keys(m));
    // A path that names no child is refused: the root of 40 keys has fewer than 16.
    pairs.resize(40);
    Term small = map_from_pairs(p, pairs);
    EXPECT_LT(hash_node_children(boxed_ptr(hashmap_root(small))), Word(16));
    EXPECT_FALSE(HashmapCursor(15).locate(small));
}

}  // namespace
}  // namespace beamlet::vm
