// vm/literal_area.hpp — the literal arena: module literals live in one reserved address range,
// so "is this pointer a literal?" is one range check and the GC never copies literals.
#pragma once

#include <cstddef>
#include <cstdint>

#include "vm/term.hpp"

namespace beamlet::vm {

// Allocates [n] words of literal memory (never freed once a module holds them: purged code
// stays mapped).
Term* literal_alloc(Word n);
// Gives back [from, to), the unused end of the arena's latest allocation (a no-op otherwise).
void literal_trim(Term* from, Term* to);

// The arena's state before a load: literal_rollback frees everything allocated since, when the
// calling thread made all of those allocations (a load that failed, or whose module is
// dropped); otherwise it keeps them (another load's literals may sit in between).
struct LiteralMark {
    Term* top;
    std::uint64_t allocations;      // the arena's, since it was made
    std::uint64_t own_allocations;  // this thread's
};
LiteralMark literal_mark();
void literal_rollback(const LiteralMark& mark);
// True when [p] points into the literal arena.
bool is_literal_ptr(const Term* p);

}  // namespace beamlet::vm
