// vm/arith.cpp — Erlang arithmetic: small fast paths, GMP for bignums, doubles for floats.
#include "vm/arith.hpp"

#include <cmath>
#include <limits>

#include "vm/atom_table.hpp"
#include "vm/bignum.hpp"
#include "vm/process.hpp"

namespace beamlet::vm {

namespace {

constexpr Word MAX_BIG_BITS = MAX_BIG_LIMBS * 64;

// A read-only GMP view of an integer term: no copy of a bignum's limbs.
class IntegerView {
public:
    explicit IntegerView(Term t) {
        if (is_small(t)) {
            SWord v = small_value(t);
            m_limb = v < 0 ? mp_limb_t(0) - mp_limb_t(v) : mp_limb_t(v);
            mpz_roinit_n(m_z, &m_limb, v < 0 ? -1 : (v == 0 ? 0 : 1));
        } else {
            auto n = mp_size_t(bignum_limbs(t));
            mpz_roinit_n(m_z, reinterpret_cast<const mp_limb_t*>(boxed_ptr(t) + 1),
                         bignum_is_negative(t) ? -n : n);
        }
    }
    IntegerView(const IntegerView&) = delete;
    IntegerView& operator=(const IntegerView&) = delete;

    mpz_srcptr get() const { return m_z; }

private:
    mpz_t m_z;
    mp_limb_t m_limb = 0;
};

// An owned GMP integer, cleared on scope exit.
class Mpz {
public:
    Mpz() { mpz_init(m_z); }
    ~Mpz() { mpz_clear(m_z); }
    Mpz(const Mpz&) = delete;
    Mpz& operator=(const Mpz&) = delete;

    mpz_ptr get() { return m_z; }

private:
    mpz_t m_z;
};

// [z] as an integer term on [p], or system_limit when it is larger than OTP allows.
Term finish_integer(Process* p, Mpz& z) {
    if (mpz_size(z.get()) > MAX_BIG_LIMBS) return p->error(atoms::system_limit);
    return mpz_to_integer(p, z.get());
}

template <typename Op>
Term big_binary_op(Process* p, Term a, Term b, Op op) {
    IntegerView va(a), vb(b);
    Mpz r;
    op(r.get(), va.get(), vb.get());
    return finish_integer(p, r);
}

// Both operands as doubles for a float operation; false (badarith raised) if impossible.
bool float_operands(Process* p, Term a, Term b, double* x, double* y) {
    if (number_to_double(a, x) && number_to_double(b, y)) return true;
    p->badarith();
    return false;
}

// Shifts integer [a] left by [shift] bits (right when negative); [a] is an integer.
Term shift_left(Process* p, Term a, SWord shift) {
    if (a == make_small(0)) return a;
    if (shift >= 0) {
        if (is_small(a) && shift < 64) {
            SWord v = small_value(a);
            // The shift is exact when v fits in (63 - shift) bits including the sign.
            if (shift == 0) return a;
            SWord bound = SWord(1) << (63 - shift);
            if (v < bound && v >= -bound) return make_integer(p, v << shift);
        }
        IntegerView va(a);
        if (mpz_sizeinbase(va.get(), 2) + Word(shift) > MAX_BIG_BITS)
            return p->error(atoms::system_limit);
        Mpz r;
        mpz_mul_2exp(r.get(), va.get(), mp_bitcnt_t(shift));
        return finish_integer(p, r);
    }
    // An arithmetic right shift rounds toward minus infinity.
    Word count = shift == std::numeric_limits<SWord>::min() ? Word(1) << 63 : Word(-shift);
    if (is_small(a)) {
        SWord v = small_value(a);
        return make_small(count >= 63 ? (v < 0 ? -1 : 0) : v >> count);
    }
    IntegerView va(a);
    Mpz r;
    mpz_fdiv_q_2exp(r.get(), va.get(), mp_bitcnt_t(count));
    return finish_integer(p, r);
}

// The shift count [b] as a signed word, saturated: counts beyond any possible integer size
// behave identically.
SWord shift_count(Term b) {
    if (is_small(b)) return small_value(b);
    return bignum_is_negative(b) ? std::numeric_limits<SWord>::min() + 1
                                 : std::numeric_limits<SWord>::max();
}

}  // namespace

Term make_float_checked(Process* p, double v) {
    if (!std::isfinite(v)) return p->badarith();
    return make_float_on(p->alloc(FLOAT_WORDS), v);
}

bool number_to_double(Term t, double* out) {
    if (is_small(t)) {
        *out = double(small_value(t));
        return true;
    }
    if (is_float(t)) {
        *out = float_value(t);
        return true;
    }
    if (is_big(t)) {
        std::optional<double> d = integer_to_double(t);
        if (!d) return false;
        *out = *d;
        return true;
    }
    return false;
}

Term arith_plus(Process* p, Term a, Term b) {
    if (is_small(a) && is_small(b)) return make_integer(p, small_value(a) + small_value(b));
    if (is_integer(a) && is_integer(b)) return big_binary_op(p, a, b, mpz_add);
    double x, y;
    if (!float_operands(p, a, b, &x, &y)) return THE_NON_VALUE;
    return make_float_checked(p, x + y);
}

Term arith_minus(Process* p, Term a, Term b) {
    if (is_small(a) && is_small(b)) return make_integer(p, small_value(a) - small_value(b));
    if (is_integer(a) && is_integer(b)) return big_binary_op(p, a, b, mpz_sub);
    double x, y;
    if (!float_operands(p, a, b, &x, &y)) return THE_NON_VALUE;
    return make_float_checked(p, x - y);
}

Term arith_times(Process* p, Term a, Term b) {
    if (is_small(a) && is_small(b)) {
        SWord r;
        if (!__builtin_mul_overflow(small_value(a), small_value(b), &r)) return make_integer(p, r);
    }
    if (is_integer(a) && is_integer(b)) {
        IntegerView va(a), vb(b);
        if (mpz_size(va.get()) + mpz_size(vb.get()) > MAX_BIG_LIMBS + 1)
            return p->error(atoms::system_limit);
        Mpz r;
        mpz_mul(r.get(), va.get(), vb.get());
        return finish_integer(p, r);
    }
    double x, y;
    if (!float_operands(p, a, b, &x, &y)) return THE_NON_VALUE;
    return make_float_checked(p, x * y);
}

Term arith_divide(Process* p, Term a, Term b) {
    double x, y;
    if (!float_operands(p, a, b, &x, &y)) return THE_NON_VALUE;
    if (y == 0.0) return p->badarith();
    return make_float_checked(p, x / y);
}

Term arith_int_div(Process* p, Term a, Term b) {
    if (!is_integer(a) || !is_integer(b) || b == make_small(0)) return p->badarith();
    // C++ division truncates toward zero, as div does; MIN_SMALL div -1 leaves the small range.
    if (is_small(a) && is_small(b)) return make_integer(p, small_value(a) / small_value(b));
    return big_binary_op(p, a, b, mpz_tdiv_q);
}

Term arith_rem(Process* p, Term a, Term b) {
    if (!is_integer(a) || !is_integer(b) || b == make_small(0)) return p->badarith();
    // The sign of C++'s % follows the dividend, as rem's does.
    if (is_small(a) && is_small(b)) return make_small(small_value(a) % small_value(b));
    return big_binary_op(p, a, b, mpz_tdiv_r);
}

// Bitwise operations on smalls act on the sign-extended values, so the results stay smalls.
Term arith_band(Process* p, Term a, Term b) {
    if (is_small(a) && is_small(b)) return make_small(small_value(a) & small_value(b));
    if (!is_integer(a) || !is_integer(b)) return p->badarith();
    return big_binary_op(p, a, b, mpz_and);
}

Term arith_bor(Process* p, Term a, Term b) {
    if (is_small(a) && is_small(b)) return make_small(small_value(a) | small_value(b));
    if (!is_integer(a) || !is_integer(b)) return p->badarith();
    return big_binary_op(p, a, b, mpz_ior);
}

Term arith_bxor(Process* p, Term a, Term b) {
    if (is_small(a) && is_small(b)) return make_small(small_value(a) ^ small_value(b));
    if (!is_integer(a) || !is_integer(b)) return p->badarith();
    return big_binary_op(p, a, b, mpz_xor);
}

Term arith_bsl(Process* p, Term a, Term b) {
    if (!is_integer(a) || !is_integer(b)) return p->badarith();
    return shift_left(p, a, shift_count(b));
}

Term arith_bsr(Process* p, Term a, Term b) {
    if (!is_integer(a) || !is_integer(b)) return p->badarith();
    return shift_left(p, a, -shift_count(b));
}

Term arith_bnot(Process* p, Term a) {
    if (is_small(a)) return make_small(~small_value(a));
    if (!is_big(a)) return p->badarith();
    IntegerView va(a);
    Mpz r;
    mpz_com(r.get(), va.get());
    return finish_integer(p, r);
}

Term arith_negate(Process* p, Term a) {
    if (is_small(a)) return make_integer(p, -small_value(a));
    // erlang:'-'/1 flips the sign: -(0.0) is -0.0 (the fnegate instruction on a float register is
    // 0.0 - X in OTP 25, which keeps 0.0: vm/interpreter/floats.inc).
    if (is_float(a)) return make_float_checked(p, -float_value(a));
    if (!is_big(a)) return p->badarith();
    IntegerView va(a);
    Mpz r;
    mpz_neg(r.get(), va.get());
    return finish_integer(p, r);
}

Term arith_unary_plus(Process* p, Term a) {
    if (!is_number(a)) return p->badarith();
    return a;
}

Term arith_abs(Process* p, Term a) {
    if (is_small(a)) {
        SWord v = small_value(a);
        return v < 0 ? make_integer(p, -v) : a;
    }
    if (is_float(a)) {
        double v = float_value(a);
        return v < 0 ? make_float_checked(p, -v) : a;  // abs(-0.0) is -0.0, as in OTP
    }
    if (!is_big(a)) return p->badarg();
    if (!bignum_is_negative(a)) return a;
    IntegerView va(a);
    Mpz r;
    mpz_abs(r.get(), va.get());
    return finish_integer(p, r);
}

}  // namespace beamlet::vm
