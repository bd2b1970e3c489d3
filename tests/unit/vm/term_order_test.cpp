// tests/unit/vm/term_order_test.cpp — Erlang term order and exact order, checked against OTP 25.
#include <gtest/gtest.h>

#include <cmath>
#include <initializer_list>

#include "vm/arith.hpp"
#include "vm/atom_table.hpp"
#include "vm/binary.hpp"
#include "vm/bignum.hpp"
#include "vm/map.hpp"
#include "vm/module.hpp"
#include "vm/process.hpp"
#include "vm/term_order.hpp"
#include "vm/vm.hpp"

namespace beamlet::vm {
namespace {

class TermOrder : public ::testing::Test {
protected:
    Vm m_vm;
    Process m_process{m_vm, 1};
    Process* p = &m_process;

    Term num(const char* decimal) { return *parse_integer(p, decimal); }
    Term flt(double v) { return make_float_checked(p, v); }
    Term tuple(std::initializer_list<Term> elements) {
        Term* hp = p->alloc(1 + elements.size());
        hp[0] = make_arityval(elements.size());
        std::copy(elements.begin(), elements.end(), hp + 1);
        return make_boxed(hp);
    }
    Term list(std::initializer_list<Term> elements, Term tail = NIL) {
        Term result = tail;
        for (auto it = elements.end(); it != elements.begin();) result = make_cons_on(p->alloc(2), *--it, result);
        return result;
    }
    Term ref(Word id0, Word id1, Word id2) {
        Term* hp = p->alloc(REF_WORDS);
        hp[0] = make_header(REF_WORDS - 1, Subtag::Ref);
        hp[1] = id0;
        hp[2] = id1;
        hp[3] = id2;
        return make_boxed(hp);
    }
    Term local_fun(const FunEntry* entry, std::initializer_list<Term> free_vars) {
        Term* hp = p->alloc(3 + free_vars.size());
        hp[0] = make_header(2 + free_vars.size(), Subtag::Fun);
        hp[1] = reinterpret_cast<Word>(entry);
        hp[2] = p->id;
        std::copy(free_vars.begin(), free_vars.end(), hp + 3);
        return make_boxed(hp);
    }
    Term export_fun(const Export* e) {
        Term* hp = p->alloc(2);
        hp[0] = make_header(1, Subtag::Export);
        hp[1] = reinterpret_cast<Word>(e);
        return make_boxed(hp);
    }
    Term bin(std::initializer_list<std::uint8_t> bytes) { return make_binary(p, bytes.begin(), bytes.size()); }
    // The first [bit_size] bits of [bytes], starting [bit_offset] bits in.
    Term bits(std::initializer_list<std::uint8_t> bytes, std::size_t bit_offset, std::size_t bit_size) {
        return make_sub_binary(p, bin(bytes), bit_offset, bit_size);
    }
};

int sign(int c) { return c < 0 ? -1 : (c > 0 ? 1 : 0); }

TEST_F(TermOrder, TypeClassesFollowOtpOrder) {
    FunEntry entry;
    entry.module_name = atom("m");
    // number < atom < reference < fun < port < pid < tuple < map < nil < list < bitstring
    Term ordered[] = {make_small(1), flt(1.5),   atom("a"), ref(1, 2, 3), local_fun(&entry, {}), make_port(7),
                      make_pid(3),   tuple({}),  empty_map(), NIL,        list({atom("a")}),     bin({})};
    for (std::size_t i = 0; i < std::size(ordered); ++i) {
        for (std::size_t j = 0; j < std::size(ordered); ++j) {
            EXPECT_EQ(sign(compare_terms(ordered[i], ordered[j])), sign(int(i) - int(j))) << i << " vs " << j;
            EXPECT_EQ(sign(compare_terms_exact(ordered[i], ordered[j])), sign(int(i) - int(j))) << i << " vs " << j;
        }
    }
}

TEST_F(TermOrder, IntegerEqualsFloatOfTheSameValueOnlyInStandardOrder) {
    EXPECT_EQ(compare_terms(make_small(1), flt(1.0)), 0);
    EXPECT_TRUE(terms_equal(make_small(1), flt(1.0)));
    EXPECT_FALSE(terms_exact_equal(make_small(1), flt(1.0)));
    EXPECT_LT(compare_terms_exact(make_small(1), flt(1.0)), 0);
    EXPECT_GT(compare_terms_exact(flt(1.0), make_small(1)), 0);
    // Exact order (maps' key order): every integer sorts before every float.
    EXPECT_LT(compare_terms_exact(make_small(2), flt(1.0)), 0);
    EXPECT_GT(compare_terms(make_small(2), flt(1.0)), 0);
    EXPECT_EQ(compare_terms(flt(-0.0), flt(0.0)), 0);
    EXPECT_LT(compare_terms(make_small(0), flt(0.5)), 0);
    EXPECT_GT(compare_terms(make_small(0), flt(-0.5)), 0);
    EXPECT_LT(compare_terms(make_small(-1), flt(-0.5)), 0);
}

TEST_F(TermOrder, BignumsCompareExactlyWithFloats) {
    Term two_53_plus_1 = make_integer(p, (std::int64_t(1) << 53) + 1);
    EXPECT_GT(compare_terms(two_53_plus_1, flt(9007199254740992.0)), 0);
    EXPECT_LT(compare_terms(make_small(MAX_SMALL), flt(std::ldexp(1.0, 59))), 0);
    Term two_59 = num("576460752303423488");
    ASSERT_TRUE(is_big(two_59));
    EXPECT_EQ(compare_terms(two_59, flt(std::ldexp(1.0, 59))), 0);
    EXPECT_LT(compare_terms_exact(two_59, flt(std::ldexp(1.0, 59))), 0);
    Term two_1024 = arith_bsl(p, make_small(1), make_small(1024));
    EXPECT_GT(compare_terms(two_1024, flt(1.0e308)), 0);
    EXPECT_LT(compare_terms(arith_negate(p, two_1024), flt(-1.0e308)), 0);
    Term two_100_plus_1 = num("1267650600228229401496703205377");
    EXPECT_GT(compare_terms(two_100_plus_1, flt(std::ldexp(1.0, 100))), 0);
    EXPECT_LT(compare_terms(flt(std::ldexp(1.0, 100)), two_100_plus_1), 0);
    EXPECT_LT(compare_terms(num("-1267650600228229401496703205377"), flt(-std::ldexp(1.0, 100))), 0);
}

TEST_F(TermOrder, IntegersCompareBySignThenMagnitude) {
    Term big = num("1267650600228229401496703205376");
    Term bigger = num("1267650600228229401496703205377");
    Term huge = num("1606938044258990275541962092341162602522202993782792835301376");
    EXPECT_LT(compare_terms(make_small(MAX_SMALL), big), 0);
    EXPECT_LT(compare_terms(big, bigger), 0);
    EXPECT_LT(compare_terms(bigger, huge), 0);
    EXPECT_LT(compare_terms(arith_negate(p, huge), arith_negate(p, big)), 0);
    EXPECT_LT(compare_terms(arith_negate(p, big), make_small(MIN_SMALL)), 0);
    EXPECT_EQ(compare_terms(big, num("1267650600228229401496703205376")), 0);
}

TEST_F(TermOrder, AtomsCompareByTheirText) {
    EXPECT_LT(compare_terms(atom("abc"), atom("abd")), 0);
    EXPECT_LT(compare_terms(atom("ab"), atom("abc")), 0);
    EXPECT_LT(compare_terms(atom("Z"), atom("a")), 0);
    EXPECT_GT(compare_terms(atom("\xC3\xA9"), atom("z")), 0);  // 'é' after 'z'
    EXPECT_EQ(compare_terms(atom("same"), atom("same")), 0);
}

TEST_F(TermOrder, ListsCompareElementWiseWithNilFirst) {
    EXPECT_LT(compare_terms(NIL, list({atom("a")})), 0);
    EXPECT_LT(compare_terms(list({make_small(1), make_small(2)}), list({make_small(1), make_small(3)})), 0);
    EXPECT_LT(compare_terms(list({make_small(1)}), list({make_small(1), make_small(2)})), 0);
    EXPECT_EQ(compare_terms(list({make_small(1), flt(2.0)}), list({flt(1.0), make_small(2)})), 0);
    EXPECT_NE(compare_terms_exact(list({make_small(1)}), list({flt(1.0)})), 0);
    // Improper tails compare as terms: [1|a] < [1|b], and an atom tail sorts before nil.
    EXPECT_LT(compare_terms(list({make_small(1)}, atom("a")), list({make_small(1)}, atom("b"))), 0);
    EXPECT_LT(compare_terms(list({make_small(1)}, atom("a")), list({make_small(1)})), 0);
}

TEST_F(TermOrder, TuplesCompareByArityFirst) {
    EXPECT_LT(compare_terms(tuple({atom("b")}), tuple({atom("a"), atom("a")})), 0);
    EXPECT_LT(compare_terms(tuple({atom("a"), atom("b")}), tuple({atom("a"), atom("c")})), 0);
    EXPECT_EQ(compare_terms(tuple({}), tuple({})), 0);
    EXPECT_EQ(compare_terms(tuple({make_small(1), tuple({flt(2.0)})}), tuple({flt(1.0), tuple({make_small(2)})})), 0);
}

TEST_F(TermOrder, MapsCompareBySizeThenKeysThenValues) {
    auto map = [&](std::vector<std::pair<Term, Term>> pairs) { return map_from_pairs(p, std::move(pairs)); };
    Term a = atom("a"), b = atom("b");
    EXPECT_LT(compare_terms(map({{b, make_small(1)}}), map({{a, make_small(1)}, {b, make_small(1)}})), 0);
    EXPECT_LT(compare_terms(map({{a, make_small(2)}}), map({{b, make_small(1)}})), 0);
    EXPECT_LT(compare_terms(map({{a, make_small(1)}}), map({{a, make_small(2)}})), 0);
    // Keys compare exactly even under ==: #{1 => a} /= #{1.0 => a}, but #{a => 1} == #{a => 1.0}.
    EXPECT_NE(compare_terms(map({{make_small(1), a}}), map({{flt(1.0), a}})), 0);
    EXPECT_EQ(compare_terms(map({{a, make_small(1)}}), map({{a, flt(1.0)}})), 0);
    EXPECT_NE(compare_terms_exact(map({{a, make_small(1)}}), map({{a, flt(1.0)}})), 0);
    EXPECT_EQ(compare_terms(empty_map(), map({})), 0);
}

TEST_F(TermOrder, BitstringsCompareBitByBit) {
    EXPECT_LT(compare_terms(bin({1, 2}), bin({1, 3})), 0);
    EXPECT_LT(compare_terms(bin({1}), bin({1, 0})), 0);
    EXPECT_LT(compare_terms(bin({}), bin({0})), 0);
    // From erl: <<1:3>> > <<1:4>>, <<0:3>> < <<0:4>>, <<1:1>> > <<1>>, <<2:2>> < <<128>>.
    EXPECT_GT(compare_terms(bits({0x20}, 0, 3), bits({0x10}, 0, 4)), 0);
    EXPECT_LT(compare_terms(bits({0x00}, 0, 3), bits({0x00}, 0, 4)), 0);
    EXPECT_GT(compare_terms(bits({0x80}, 0, 1), bin({1})), 0);
    EXPECT_LT(compare_terms(bits({0x80}, 0, 2), bin({128})), 0);
    // Unaligned views compare by their bits, not their storage.
    EXPECT_EQ(compare_terms(bits({0x0F, 0xF0}, 4, 8), bin({0xFF})), 0);
    EXPECT_EQ(compare_terms(bits({0x01, 0x23, 0x45, 0x60}, 4, 20), bits({0x12, 0x34, 0x50}, 0, 20)), 0);
    EXPECT_LT(compare_terms(bits({0x01, 0x23, 0x45, 0x60}, 4, 20), bits({0x12, 0x34, 0x58}, 0, 21)), 0);
    EXPECT_GT(compare_terms(bits({0x01, 0x23, 0x47}, 4, 20), bits({0x12, 0x34, 0x60}, 0, 20)), 0);
    std::vector<std::uint8_t> large(200, 7);
    Term refc = make_binary(p, large.data(), large.size());
    large.back() = 8;
    EXPECT_LT(compare_terms(refc, make_binary(p, large.data(), large.size())), 0);
}

TEST_F(TermOrder, RefsPidsAndPortsCompareByTheirIds) {
    EXPECT_LT(compare_terms(ref(9, 9, 1), ref(0, 0, 2)), 0);
    EXPECT_LT(compare_terms(ref(1, 2, 3), ref(2, 2, 3)), 0);
    EXPECT_EQ(compare_terms(ref(1, 2, 3), ref(1, 2, 3)), 0);
    EXPECT_LT(compare_terms(make_pid(2), make_pid(10)), 0);
    EXPECT_LT(compare_terms(make_port(2), make_port(10)), 0);
}

TEST_F(TermOrder, FunsCompareLocalBeforeExportThenByIdentity) {
    FunEntry a0, a1, b0;
    a0.module_name = a1.module_name = atom("alpha");
    b0.module_name = atom("beta");
    a1.index = 1;
    Export map2, map3, foldl3;
    map2.module = map3.module = foldl3.module = atom("lists");
    map2.function = map3.function = atom("map");
    foldl3.function = atom("foldl");
    map2.arity = 2;
    map3.arity = foldl3.arity = 3;
    // From erl: fun lists:map/2 > fun() -> ok end.
    EXPECT_LT(compare_terms(local_fun(&b0, {}), export_fun(&map2)), 0);
    EXPECT_LT(compare_terms(local_fun(&a1, {}), local_fun(&b0, {})), 0);
    EXPECT_LT(compare_terms(local_fun(&a0, {}), local_fun(&a1, {})), 0);
    EXPECT_LT(compare_terms(local_fun(&a0, {make_small(1)}), local_fun(&a0, {make_small(2)})), 0);
    EXPECT_LT(compare_terms(local_fun(&a0, {make_small(9)}), local_fun(&a0, {make_small(1), make_small(1)})), 0);
    EXPECT_EQ(compare_terms(local_fun(&a0, {make_small(1)}), local_fun(&a0, {flt(1.0)})), 0);
    EXPECT_LT(compare_terms(export_fun(&foldl3), export_fun(&map2)), 0);
    EXPECT_LT(compare_terms(export_fun(&map2), export_fun(&map3)), 0);
    EXPECT_EQ(compare_terms(export_fun(&map2), export_fun(&map2)), 0);
}

TEST_F(TermOrder, ExactEqualityAgreesWithTheExactOrderOnEveryPair) {
    // =:= walks tuples and lists itself and leaves other boxed terms to the exact order; over
    // every pair of this pool (equal copies built apart, near misses in each position and type)
    // it must answer exactly what compare_terms_exact(...) == 0 does.
    Term a = atom("a"), b = atom("b");
    std::vector<Term> pool = {
        make_small(1), a, NIL, flt(0.0), flt(-0.0), flt(1.0), num("123456789012345678901234567890"),
        num("123456789012345678901234567890"), num("-123456789012345678901234567890"),
        bin({1, 2, 3}), bits({0x01, 0x02, 0x03, 0x00}, 0, 24), bits({0x10, 0x20, 0x30}, 4, 16),
        tuple({}), tuple({}), tuple({a}), tuple({b}), tuple({a, make_small(1)}), tuple({a, make_small(2)}),
        tuple({a, flt(1.0)}), tuple({a, make_small(1), b}), tuple({a, tuple({b, flt(0.0)})}),
        tuple({a, tuple({b, flt(-0.0)})}), tuple({a, tuple({b, make_small(0)})}),
        tuple({a, list({make_small(1), make_small(2)})}), tuple({a, list({make_small(1), make_small(2)})}),
        tuple({a, list({make_small(1)}, make_small(2))}), list({a, b}), list({a, b}), list({a, b, a}),
        list({a}, b), list({tuple({a}), bin({1, 2, 3})}), list({tuple({a}), bits({0x01, 0x02, 0x03, 0x00}, 0, 24)}),
        map_put(p, empty_map(), tuple({a}), flt(1.0)), map_put(p, empty_map(), tuple({a}), flt(1.0)),
        map_put(p, empty_map(), tuple({a}), make_small(1)), ref(1, 2, 3), ref(1, 2, 3), ref(1, 2, 4),
    };
    for (Term x : pool)
        for (Term y : pool)
            EXPECT_EQ(terms_exact_equal(x, y), compare_terms_exact(x, y) == 0) << x << " " << y;
    // The two distinct copies of the bignum, of the tuples with lists, and of the maps are equal.
    EXPECT_TRUE(terms_exact_equal(pool[6], pool[7]));
    EXPECT_TRUE(terms_exact_equal(pool[23], pool[24]));
    EXPECT_TRUE(terms_exact_equal(pool[32], pool[33]));
    EXPECT_FALSE(terms_exact_equal(pool[22], pool[20]));  // {a,{b,0}} =/= {a,{b,0.0}}
}

TEST_F(TermOrder, MillionElementListsDoNotExhaustTheStack) {
    constexpr int N = 1'000'000;
    constexpr int DEPTH = 200'000;
    // One block per list: a cons per allocation would make millions of heap fragments.
    Term* xs = p->alloc(2 * N);
    Term* ys = p->alloc(2 * N + FLOAT_WORDS);
    Term* nested = p->alloc(4 * DEPTH);
    Term x = NIL, y = NIL, nested_x = NIL, nested_y = NIL;
    Term last = make_float_on(ys + 2 * N, double(N));
    for (int i = N; i > 0; --i) {
        x = make_cons_on(xs + 2 * (i - 1), make_small(i), x);
        y = make_cons_on(ys + 2 * (i - 1), i == N ? last : make_small(i), y);
    }
    for (int i = 0; i < DEPTH; ++i) {
        nested_x = make_cons_on(nested + 4 * i, nested_x, NIL);
        nested_y = make_cons_on(nested + 4 * i + 2, nested_y, NIL);
    }
    EXPECT_EQ(compare_terms(x, y), 0);
    EXPECT_LT(compare_terms_exact(x, y), 0);
    EXPECT_EQ(compare_terms(nested_x, nested_y), 0);
}

}  // namespace
}  // namespace beamlet::vm
