// vm/bignum.hpp — integers of any size: small/bignum construction and conversion (GMP limbs).
//
// A bignum is [header arity=N, PosBig|NegBig][limb0]...[limbN-1], limbs least significant
// first, magnitude normalised (top limb non-zero); an integer that fits a small is never a bignum.
#pragma once

#include <gmp.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "vm/term.hpp"

namespace beamlet::vm {

struct Process;

// OTP refuses integers whose magnitude needs more limbs than this (BIG_ARITY_MAX on 64-bit,
// so 1 bsl 33554367 is the largest power of two): arithmetic raises system_limit, a binary
// match of a larger integer fails.
inline constexpr Word MAX_BIG_LIMBS = (Word(1) << 19) - 1;

// Heap words of a bignum with [limbs] limbs.
constexpr Word bignum_words(Word limbs) { return 1 + limbs; }
inline Word bignum_limbs(Term big) { return header_arity(boxed_header(big)); }
inline bool bignum_is_negative(Term big) { return header_subtag(boxed_header(big)) == Subtag::NegBig; }

// [v] as a small, or a bignum allocated on [p].
Term make_integer(Process* p, std::int64_t v);
Term make_integer_u64(Process* p, std::uint64_t v);
// [z] as a normalised integer term allocated on [p] (small when it fits).
Term mpz_to_integer(Process* p, const mpz_t z);
// Writes integer [t] (small or big) into [out], which the caller has initialised.
void integer_to_mpz(Term t, mpz_t out);
// [t] as int64 if it is an integer that fits.
std::optional<std::int64_t> integer_to_int64(Term t);
// Integer [t] as a double; nullopt when it is too big for a finite double.
std::optional<double> integer_to_double(Term t);
// Digits of integer [t] in [base] (2..36), upper-case letters, with a leading '-' if negative.
std::string integer_to_string(Term t, int base = 10);
// Parses an optional sign then digits in [base]; nullopt unless the whole text is valid.
std::optional<Term> parse_integer(Process* p, std::string_view text, int base = 10);

}  // namespace beamlet::vm
