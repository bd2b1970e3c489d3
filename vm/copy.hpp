// vm/copy.hpp — measuring and copying terms between heaps (messages, exit reasons, literals).
#pragma once

#include "vm/term.hpp"

namespace beamlet::vm {

struct Process;

// Heap words needed to copy [t] (0 for immediates). Literals are copied too.
Word term_size_words(Term t);
// Copies [t] to the memory at [*hp], advancing [*hp]; RefcBins are linked into [owner]'s
// off-heap list (null: the caller links them) and their buffers gain a reference.
Term copy_term(Term t, Term** hp, Term** off_heap_list);

}  // namespace beamlet::vm
