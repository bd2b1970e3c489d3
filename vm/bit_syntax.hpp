// vm/bit_syntax.hpp — bit syntax: match states and segment extraction, binary construction.
#pragma once

#include <cstdint>
#include <vector>

#include "vm/term.hpp"

namespace beamlet::vm {

struct Process;

// Segment flags as encoded in field_flags operands.
inline constexpr Word BSF_LITTLE = 0x02;
inline constexpr Word BSF_SIGNED = 0x04;
inline constexpr Word BSF_NATIVE = 0x10;

// A match state over bitstring [bin], allocated on [p]; THE_NON_VALUE if [bin] is not a bitstring.
Term bs_start_match(Process* p, Term bin);
inline Word& ms_position(Term ms) { return boxed_ptr(ms)[2]; }
inline Word ms_end(Term ms) { return boxed_ptr(ms)[3]; }
inline Word ms_remaining(Term ms) { return ms_end(ms) - ms_position(ms); }

// Each getter returns the value and advances, or returns THE_NON_VALUE and leaves the position.
Term bs_get_integer(Process* p, Term ms, Word bits, Word flags);
Term bs_get_float(Process* p, Term ms, Word bits, Word flags);
Term bs_get_binary(Process* p, Term ms, Word bits);
Term bs_get_utf8(Term ms);
Term bs_get_utf16(Term ms, Word flags);
Term bs_get_utf32(Term ms, Word flags);
// The rest of [ms] as a sub-binary (does not advance).
Term bs_get_tail(Process* p, Term ms);
bool bs_match_bytes(Term ms, const std::uint8_t* bytes, Word bits);

// One segment of bs_create_bin, with its operands already resolved.
struct BinSegment {
    Term type;       // atom: integer, float, binary, utf8, utf16, utf32, string, append, private_append
    Word segment = 0;  // its number in the expression (error_info names it)
    Word unit;
    Word flags;      // BSF_* bits
    Term value;      // the source term (for string: unused)
    Term size;       // integer, the atom all, or the atom undefined
    const std::uint8_t* string_bytes = nullptr;  // for string segments
};

// Builds the binary described by [segments] on [p]; THE_NON_VALUE with an exception on [p]
// if a segment is invalid: badarg or system_limit with erts's error_info (the segment, its
// type, what is wrong and the value), every size checked before anything is built, as erts.
Term bs_create_bin(Process* p, const std::vector<BinSegment>& segments);
// bs_init_writable: an empty binary that appends (a binary comprehension's private_append)
// fill in place, with room for [size] bytes (a non-negative small; else 1024), as OTP's
// erts_bs_init_writable: a comprehension whose size the compiler knows ends exactly full.
Term bs_init_writable(Process* p, Term size);

}  // namespace beamlet::vm
