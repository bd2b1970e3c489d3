// vm/literal_area.hpp — the literal arena: module literals live in one reserved address range,
// so "is this pointer a literal?" is one range check and the GC never copies literals.
#pragma once

#include <cstddef>

#include "vm/term.hpp"

namespace beamlet::vm {

// Allocates [n] words of literal memory (never freed; modules are not purged yet).
Term* literal_alloc(Word n);
// True when [p] points into the literal arena.
bool is_literal_ptr(const Term* p);

}  // namespace beamlet::vm
