// vm/block_cache.hpp — per-thread caches of freed small blocks, by size class, for memory that
// churns by the hundred thousand a second between threads: message queue nodes, and trace
// messages (allocated by the tracee's thread, freed in bulk by the tracer's collections). The
// caches keep that churn off malloc's slow paths (its consolidation passes, triggered by the
// collector's large blocks, and cross-thread frees into another thread's arena).
#pragma once

#include <cstddef>

namespace beamlet::vm {

// A block of at least [bytes] (malloc's alignment); throws std::bad_alloc when out of memory.
void* cached_alloc(std::size_t bytes);
// Frees [block], allocated by cached_alloc([bytes]) on any thread.
void cached_free(void* block, std::size_t bytes);

}  // namespace beamlet::vm
