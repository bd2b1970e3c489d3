// tests/unit/vm/numbers_test.cpp — integers, bignums and arithmetic against values from real erl.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include "vm/arith.hpp"
#include "vm/atom_table.hpp"
#include "vm/bignum.hpp"
#include "vm/process.hpp"
#include "vm/vm.hpp"

namespace beamlet::vm {
namespace {

class Numbers : public ::testing::Test {
protected:
    Vm m_vm;
    Process m_process{m_vm, 1};
    Process* p = &m_process;

    Term num(const char* decimal) { return *parse_integer(p, decimal); }
    Term flt(double v) { return make_float_checked(p, v); }
    static std::string str(Term t) { return integer_to_string(t); }
    // Asserts that the last operation raised error:[reason].
    void expect_error(Term result, Term reason) {
        EXPECT_EQ(result, THE_NON_VALUE);
        EXPECT_EQ(p->exception.cls, atoms::error);
        EXPECT_EQ(p->exception.reason, reason);
        p->exception = PendingException{};
    }
};

TEST_F(Numbers, IntegersThatFitASmallAreNeverBignums) {
    EXPECT_TRUE(is_small(make_integer(p, MAX_SMALL)));
    EXPECT_TRUE(is_big(make_integer(p, MAX_SMALL + 1)));
    EXPECT_TRUE(is_small(make_integer(p, MIN_SMALL)));
    EXPECT_TRUE(is_big(make_integer(p, MIN_SMALL - 1)));
    EXPECT_TRUE(is_big(make_integer_u64(p, std::numeric_limits<std::uint64_t>::max())));
    EXPECT_EQ(str(make_integer_u64(p, std::numeric_limits<std::uint64_t>::max())), "18446744073709551615");
    // -2^59 as a bignum negated from 2^59 comes back as a small.
    Term two_59 = arith_plus(p, make_small(MAX_SMALL), make_small(1));
    ASSERT_TRUE(is_big(two_59));
    EXPECT_EQ(str(two_59), "576460752303423488");
    EXPECT_EQ(arith_negate(p, two_59), make_small(MIN_SMALL));
    EXPECT_EQ(arith_minus(p, make_small(MIN_SMALL), make_small(0)), make_small(MIN_SMALL));
}

TEST_F(Numbers, Int64RoundTripsThroughBignums) {
    for (std::int64_t v : {std::numeric_limits<std::int64_t>::min(), std::numeric_limits<std::int64_t>::max(),
                           std::int64_t(MIN_SMALL) - 1, std::int64_t(0), std::int64_t(-42)}) {
        EXPECT_EQ(integer_to_int64(make_integer(p, v)), v);
    }
    EXPECT_EQ(integer_to_int64(num("9223372036854775808")), std::nullopt);
    EXPECT_EQ(integer_to_int64(num("-9223372036854775809")), std::nullopt);
}

TEST_F(Numbers, PowersOfTwoMultiplyExactly) {
    Term two_100 = arith_bsl(p, make_small(1), make_small(100));
    EXPECT_EQ(str(two_100), "1267650600228229401496703205376");
    EXPECT_EQ(str(arith_times(p, two_100, two_100)),
              "1606938044258990275541962092341162602522202993782792835301376");
    // A small product that overflows 64 bits promotes to a bignum.
    EXPECT_EQ(str(arith_times(p, make_small(MAX_SMALL), make_small(MAX_SMALL))),
              "332306998946228967073030260463239169");
    EXPECT_EQ(arith_minus(p, two_100, two_100), make_small(0));
}

TEST_F(Numbers, RemFollowsTheDividendAndDivTruncates) {
    EXPECT_EQ(arith_rem(p, make_small(-7), make_small(3)), make_small(-1));
    EXPECT_EQ(arith_rem(p, make_small(7), make_small(-3)), make_small(1));
    EXPECT_EQ(arith_int_div(p, make_small(-7), make_small(2)), make_small(-3));
    EXPECT_EQ(arith_int_div(p, make_small(7), make_small(-2)), make_small(-3));
    Term minus_big = num("-1267650600228229401496703205383");  // -(2^100) - 7
    EXPECT_EQ(arith_rem(p, minus_big, make_small(3)), make_small(-2));
    EXPECT_EQ(str(arith_int_div(p, minus_big, make_small(1000000007))), "-1267650591354675262013");
    EXPECT_EQ(arith_rem(p, num("1267650600228229401496703217721"), num("-1180591620717411303424")),
              make_small(12345));
    // MIN_SMALL div -1 leaves the small range.
    EXPECT_EQ(str(arith_int_div(p, make_small(MIN_SMALL), make_small(-1))), "576460752303423488");
}

TEST_F(Numbers, DivisionByZeroIsBadarith) {
    expect_error(arith_int_div(p, make_small(1), make_small(0)), atoms::badarith);
    expect_error(arith_rem(p, num("1267650600228229401496703205376"), make_small(0)), atoms::badarith);
    expect_error(arith_divide(p, make_small(1), make_small(0)), atoms::badarith);
    expect_error(arith_divide(p, make_small(1), flt(0.0)), atoms::badarith);
    expect_error(arith_divide(p, flt(0.0), flt(-0.0)), atoms::badarith);
}

TEST_F(Numbers, DivAndRemRejectFloats) {
    expect_error(arith_int_div(p, make_small(1), flt(1.0)), atoms::badarith);
    expect_error(arith_rem(p, flt(1.0), make_small(1)), atoms::badarith);
    expect_error(arith_band(p, make_small(1), flt(1.0)), atoms::badarith);
    expect_error(arith_bnot(p, flt(1.0)), atoms::badarith);
    expect_error(arith_plus(p, make_small(1), atoms::ok), atoms::badarith);
}

TEST_F(Numbers, MixedOperandsPromoteToFloat) {
    Term sum = arith_plus(p, make_small(1), flt(2.5));
    ASSERT_TRUE(is_float(sum));
    EXPECT_EQ(float_value(sum), 3.5);
    Term quotient = arith_divide(p, make_small(4), make_small(2));
    ASSERT_TRUE(is_float(quotient));
    EXPECT_EQ(float_value(quotient), 2.0);
    EXPECT_EQ(float_value(arith_times(p, num("1267650600228229401496703205376"), flt(0.5))), std::ldexp(1.0, 99));
}

TEST_F(Numbers, NonFiniteFloatResultsAreBadarith) {
    expect_error(arith_times(p, flt(1.0e308), make_small(10)), atoms::badarith);
    Term two_2000 = arith_bsl(p, make_small(1), make_small(2000));
    // An integer too large for a double cannot take part in float arithmetic.
    expect_error(arith_plus(p, two_2000, flt(1.0)), atoms::badarith);
    expect_error(arith_divide(p, make_small(1), two_2000), atoms::badarith);
    expect_error(make_float_checked(p, std::nan("")), atoms::badarith);
}

TEST_F(Numbers, BitwiseOperationsOnNegativeBignumsUseTwosComplement) {
    Term two_100 = num("1267650600228229401496703205376");
    Term two_70 = num("1180591620717411303424");
    Term lhs = arith_bnot(p, two_100);
    EXPECT_EQ(str(lhs), "-1267650600228229401496703205377");
    Term rhs = arith_minus(p, arith_negate(p, two_70), make_small(12345));
    EXPECT_EQ(str(arith_band(p, lhs, rhs)), "-1267650601408821022214114521145");
    EXPECT_EQ(str(arith_bor(p, arith_negate(p, two_100), make_small(12345))), "-1267650600228229401496703193031");
    Term ones_64 = num("18446744073709551615");
    EXPECT_EQ(str(arith_bxor(p, arith_negate(p, two_100), ones_64)), "-1267650600209782657422993653761");
    EXPECT_EQ(arith_bnot(p, make_small(0)), make_small(-1));
    EXPECT_EQ(arith_band(p, make_small(-6), make_small(7)), make_small(2));
}

TEST_F(Numbers, BsrOfNegativeRoundsTowardMinusInfinity) {
    Term minus_two_100_minus_1 = num("-1267650600228229401496703205377");
    EXPECT_EQ(arith_bsr(p, minus_two_100_minus_1, make_small(99)), make_small(-3));
    EXPECT_EQ(arith_bsr(p, num("-1267650600228229401496703205376"), make_small(200)), make_small(-1));
    EXPECT_EQ(arith_bsr(p, make_small(-5), make_small(1)), make_small(-3));
    EXPECT_EQ(arith_bsr(p, make_small(-1), make_small(1000)), make_small(-1));
    Term huge = num("18446744073709551616");
    EXPECT_EQ(arith_bsr(p, make_small(-1), huge), make_small(-1));
    EXPECT_EQ(arith_bsr(p, make_small(1), huge), make_small(0));
}

TEST_F(Numbers, BslByNegativeCountShiftsRight) {
    EXPECT_EQ(arith_bsl(p, make_small(5), make_small(-1)), make_small(2));
    EXPECT_EQ(arith_bsl(p, make_small(-5), make_small(-1)), make_small(-3));
    Term minus_huge = num("-18446744073709551616");
    EXPECT_EQ(arith_bsl(p, make_small(1), minus_huge), make_small(0));
    EXPECT_EQ(arith_bsl(p, make_small(-5), minus_huge), make_small(-1));
    EXPECT_EQ(str(arith_bsl(p, make_small(1), make_small(59))), "576460752303423488");
    EXPECT_EQ(str(arith_bsl(p, make_small(-1), make_small(63))), "-9223372036854775808");
}

TEST_F(Numbers, BslBeyondTheBignumLimitIsSystemLimit) {
    Term huge = num("18446744073709551616");
    expect_error(arith_bsl(p, make_small(1), huge), atoms::system_limit);
    EXPECT_EQ(arith_bsl(p, make_small(0), huge), make_small(0));
    // OTP's largest integer has 33554368 bits.
    Term largest = arith_bsl(p, make_small(1), make_small(33554367));
    ASSERT_TRUE(is_big(largest));
    EXPECT_EQ(bignum_limbs(largest), Word(524287));
    expect_error(arith_bsl(p, make_small(1), make_small(33554368)), atoms::system_limit);
    expect_error(arith_times(p, largest, make_small(2)), atoms::system_limit);
}

TEST_F(Numbers, AbsAndUnaryOperators) {
    EXPECT_EQ(arith_abs(p, make_small(-3)), make_small(3));
    EXPECT_EQ(str(arith_abs(p, make_small(MIN_SMALL))), "576460752303423488");
    EXPECT_EQ(str(arith_abs(p, num("-1267650600228229401496703205376"))), "1267650600228229401496703205376");
    EXPECT_EQ(float_value(arith_abs(p, flt(-2.5))), 2.5);
    expect_error(arith_abs(p, atoms::ok), atoms::badarg);
    expect_error(arith_unary_plus(p, atoms::ok), atoms::badarith);
    expect_error(arith_negate(p, NIL), atoms::badarith);
    EXPECT_EQ(arith_unary_plus(p, make_small(4)), make_small(4));
}

TEST_F(Numbers, IntegerToStringOf100Factorial) {
    Term f = make_small(1);
    for (int i = 2; i <= 100; ++i) f = arith_times(p, f, make_small(i));
    EXPECT_EQ(str(f),
              "93326215443944152681699238856266700490715968264381621468592963895217599993229915608941463976"
              "156518286253697920827223758251185210916864000000000000000000000000");
    std::string minus_text = integer_to_string(arith_negate(p, f));
    EXPECT_EQ(minus_text, "-" + str(f));
    EXPECT_EQ(str(*parse_integer(p, minus_text)), minus_text);
    EXPECT_EQ(integer_to_string(make_small(-255), 16), "-FF");
    EXPECT_EQ(integer_to_string(make_small(0), 2), "0");
    EXPECT_EQ(integer_to_string(make_small(MIN_SMALL), 10), "-576460752303423488");
}

TEST_F(Numbers, ParseIntegerAcceptsSignsAndBases) {
    EXPECT_EQ(parse_integer(p, "+ff", 16), make_small(255));
    EXPECT_EQ(parse_integer(p, "-FF", 16), make_small(-255));
    EXPECT_EQ(parse_integer(p, "zz", 36), make_small(1295));
    EXPECT_EQ(parse_integer(p, "1_0"), std::nullopt);
    EXPECT_EQ(parse_integer(p, " 10"), std::nullopt);
    EXPECT_EQ(parse_integer(p, ""), std::nullopt);
    EXPECT_EQ(parse_integer(p, "-"), std::nullopt);
    EXPECT_EQ(parse_integer(p, "12", 2), std::nullopt);
    Term big = *parse_integer(p, "-1000000000000000000000000000000000000000000000000000000000000000000000000001", 16);
    ASSERT_TRUE(is_big(big));
    EXPECT_TRUE(bignum_is_negative(big));
    EXPECT_EQ(integer_to_string(big, 16),
              "-1000000000000000000000000000000000000000000000000000000000000000000000000001");
    EXPECT_EQ(str(*parse_integer(p, "-9223372036854775808")), "-9223372036854775808");
    EXPECT_EQ(str(*parse_integer(p, "18446744073709551616")), "18446744073709551616");
}

TEST_F(Numbers, IntegerAsDoubleRoundsToNearest) {
    // 2^80 + 2^27 + 1 is just above half an ulp: it rounds up, as float/1 does in OTP.
    Term t = num("1208925819614629308923905");
    EXPECT_EQ(integer_to_double(t), std::ldexp(1.0, 80) + std::ldexp(1.0, 28));
    EXPECT_EQ(integer_to_double(num("-9007199254740995")), -9007199254740996.0);
    EXPECT_EQ(integer_to_double(arith_bsl(p, make_small(1), make_small(1024))), std::nullopt);
    EXPECT_EQ(integer_to_double(arith_bsl(p, make_small(1), make_small(1023))), std::ldexp(1.0, 1023));
}

}  // namespace
}  // namespace beamlet::vm
