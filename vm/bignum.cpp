// vm/bignum.cpp — integers of any size: conversions between terms, GMP integers and text.
#include "vm/bignum.hpp"

#include <cmath>
#include <cstring>
#include <limits>

#include "vm/process.hpp"

namespace beamlet::vm {

static_assert(sizeof(mp_limb_t) == sizeof(Word), "bignum limbs are heap words");

namespace {

const mp_limb_t* bignum_limb_ptr(Term big) {
    return reinterpret_cast<const mp_limb_t*>(boxed_ptr(big) + 1);
}

// A bignum with magnitude [limbs] ([n] limbs, top one non-zero) allocated on [p].
Term make_bignum(Process* p, const mp_limb_t* limbs, Word n, bool negative) {
    Term* hp = p->alloc(bignum_words(n));
    hp[0] = make_header(n, negative ? Subtag::NegBig : Subtag::PosBig);
    std::memcpy(hp + 1, limbs, n * sizeof(Word));
    return make_boxed(hp);
}

int digit_value(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'z') return c - 'a' + 10;
    if (c >= 'A' && c <= 'Z') return c - 'A' + 10;
    return 99;
}

}  // namespace

Term make_integer(Process* p, std::int64_t v) {
    if (fits_small(v)) return make_small(v);
    // The magnitude of INT64_MIN is 2^63, representable as uint64.
    mp_limb_t magnitude = v < 0 ? mp_limb_t(0) - mp_limb_t(v) : mp_limb_t(v);
    return make_bignum(p, &magnitude, 1, v < 0);
}

Term make_integer_u64(Process* p, std::uint64_t v) {
    if (v <= std::uint64_t(MAX_SMALL)) return make_small(SWord(v));
    mp_limb_t magnitude = v;
    return make_bignum(p, &magnitude, 1, false);
}

Term mpz_to_integer(Process* p, const mpz_t z) {
    std::size_t n = mpz_size(z);
    if (n == 0) return make_small(0);
    const mp_limb_t* limbs = mpz_limbs_read(z);
    bool negative = mpz_sgn(z) < 0;
    if (n == 1) {
        mp_limb_t m = limbs[0];
        if (!negative && m <= mp_limb_t(MAX_SMALL)) return make_small(SWord(m));
        if (negative && m <= mp_limb_t(MAX_SMALL) + 1) return make_small(-SWord(m));
    }
    return make_bignum(p, limbs, n, negative);
}

void integer_to_mpz(Term t, mpz_t out) {
    if (is_small(t)) {
        mpz_set_si(out, small_value(t));
        return;
    }
    Word n = bignum_limbs(t);
    mp_limb_t* dst = mpz_limbs_write(out, mp_size_t(n));
    std::memcpy(dst, bignum_limb_ptr(t), n * sizeof(Word));
    mpz_limbs_finish(out, bignum_is_negative(t) ? -mp_size_t(n) : mp_size_t(n));
}

std::optional<std::int64_t> integer_to_int64(Term t) {
    if (is_small(t)) return small_value(t);
    if (!is_big(t) || bignum_limbs(t) != 1) return std::nullopt;
    mp_limb_t m = bignum_limb_ptr(t)[0];
    constexpr mp_limb_t limit = mp_limb_t(std::numeric_limits<std::int64_t>::max());
    if (!bignum_is_negative(t)) {
        if (m > limit) return std::nullopt;
        return std::int64_t(m);
    }
    if (m > limit + 1) return std::nullopt;
    return std::int64_t(mp_limb_t(0) - m);
}

std::optional<double> integer_to_double(Term t) {
    if (is_small(t)) return double(small_value(t));
    const mp_limb_t* limbs = bignum_limb_ptr(t);
    Word n = bignum_limbs(t);
    double sign = bignum_is_negative(t) ? -1.0 : 1.0;
    if (n == 1) return sign * double(limbs[0]);
    // Correct rounding: take the top 64 bits and fold every lower bit into a sticky bit, so
    // the one hardware conversion from uint64 rounds to nearest-even exactly once.
    mpz_t z;
    mpz_roinit_n(z, limbs, mp_size_t(n));
    std::size_t bits = mpz_sizeinbase(z, 2);
    std::size_t shift = bits - 64;
    Word limb_shift = shift / 64;
    unsigned bit_shift = unsigned(shift % 64);
    mp_limb_t top = limbs[limb_shift] >> bit_shift;
    if (bit_shift != 0) top |= limbs[limb_shift + 1] << (64 - bit_shift);
    bool sticky = bit_shift != 0 && (limbs[limb_shift] & ((mp_limb_t(1) << bit_shift) - 1)) != 0;
    for (Word i = 0; i < limb_shift && !sticky; ++i) sticky = limbs[i] != 0;
    if (sticky) top |= 1;
    double d = std::ldexp(double(top), int(std::min<std::size_t>(shift, 4096)));
    if (!std::isfinite(d)) return std::nullopt;
    return sign * d;
}

std::string integer_to_string(Term t, int base) {
    if (is_small(t)) {
        SWord v = small_value(t);
        bool negative = v < 0;
        std::uint64_t m = negative ? std::uint64_t(0) - std::uint64_t(v) : std::uint64_t(v);
        char buf[72];
        char* end = buf + sizeof(buf);
        char* s = end;
        do {
            int d = int(m % unsigned(base));
            *--s = char(d < 10 ? '0' + d : 'A' + d - 10);
            m /= unsigned(base);
        } while (m != 0);
        if (negative) *--s = '-';
        return std::string(s, end);
    }
    mpz_t z;
    Word n = bignum_limbs(t);
    mpz_roinit_n(z, bignum_limb_ptr(t), bignum_is_negative(t) ? -mp_size_t(n) : mp_size_t(n));
    std::string out(mpz_sizeinbase(z, base) + 2, '\0');
    // A negative base asks GMP for upper-case letters.
    mpz_get_str(out.data(), -base, z);
    out.resize(std::strlen(out.c_str()));
    return out;
}

std::optional<Term> parse_integer(Process* p, std::string_view text, int base) {
    if (base < 2 || base > 36) return std::nullopt;
    bool negative = false;
    if (!text.empty() && (text[0] == '+' || text[0] == '-')) {
        negative = text[0] == '-';
        text.remove_prefix(1);
    }
    if (text.empty()) return std::nullopt;
    for (char c : text)
        if (digit_value(c) >= base) return std::nullopt;
    // Fast path: the magnitude fits 63 bits.
    std::uint64_t m = 0;
    bool overflow = false;
    for (char c : text) {
        overflow = overflow || __builtin_mul_overflow(m, std::uint64_t(base), &m) ||
                   __builtin_add_overflow(m, std::uint64_t(digit_value(c)), &m);
    }
    if (!overflow && m <= std::uint64_t(std::numeric_limits<std::int64_t>::max()))
        return make_integer(p, negative ? -std::int64_t(m) : std::int64_t(m));
    std::string digits(text);
    mpz_t z;
    mpz_init(z);
    mpz_set_str(z, digits.c_str(), base);
    if (negative) mpz_neg(z, z);
    Term result = mpz_to_integer(p, z);
    mpz_clear(z);
    return result;
}

}  // namespace beamlet::vm
