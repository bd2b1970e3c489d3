// vm/term_hash.hpp — OTP's portable term hashes: erlang:phash/2 (make_hash) and
// erlang:phash2/1,2 (make_hash2), bit for bit, so that dict, sets and every other user of
// them order terms as on OTP.
#pragma once

#include <cstdint>

#include "vm/term.hpp"

namespace beamlet::vm {

// The hash value OTP's atom table keeps for [atom] (hashpjw over its latin-1 text).
std::uint32_t atom_hash_value(Term atom);
// erlang:phash/2 before the range is applied.
std::uint32_t make_hash(Term t);
// erlang:phash2/1,2 before the range is applied.
std::uint32_t make_hash2(Term t);
// erts's internal hash (erts_debug:get_internal_state({internal_hash, T})): as OTP 25's for
// numbers, lists, tuples, binaries; see InternalHash for the rest.
// [salt] is xored into the start value, as erts's make_internal_hash(Term, Salt).
std::uint32_t make_internal_hash(Term t, std::uint32_t salt = 0);

}  // namespace beamlet::vm
