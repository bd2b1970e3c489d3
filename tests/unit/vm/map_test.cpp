// tests/unit/vm/map_test.cpp — flatmaps: key order, duplicate keys, lookup, put and remove.
#include <gtest/gtest.h>

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
    std::vector<Term> ks = keys(m);
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

}  // namespace
}  // namespace beamlet::vm
