// vm/copy.hpp — measuring and copying terms between heaps (messages, exit reasons, literals).
#pragma once

#include "vm/heap.hpp"  // Literals
#include "vm/term.hpp"

namespace beamlet::vm {

struct Process;

// Heap words needed to copy [t] (0 for immediates).
Word term_size_words(Term t, const Literals& literals = Literals::copied());
// The words [t] takes on a heap with its sharing kept: a subterm reached twice counts once,
// a literal not at all (erts_debug:size_shared/1), unless [count_literals].
Word term_size_shared_words(Term t, bool count_literals = false);
// Copies [t] to the memory at [*hp], advancing [*hp]; copied RefcBins gain a buffer reference
// and are linked into [*off_heap_list] (when it is null, they are left unlinked for the caller).
// Uses no C++ recursion, whatever the depth of [t].
Term copy_term(Term t, Term** hp, Term** off_heap_list, const Literals& literals = Literals::copied());
// copy_term keeping [t]'s sharing: a subterm reached twice is copied once (literals included),
// so it takes term_size_shared_words(t, true) words.
Term copy_term_shared(Term t, Term** hp, Term** off_heap_list);

}  // namespace beamlet::vm
