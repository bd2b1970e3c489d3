// vm/block_cache.hpp — per-thread caches of freed small blocks, by size class: every message
// is a heap fragment and a queue node, allocated by the sender's thread and freed by the
// receiver's, by the hundred thousand a second; the caches keep that churn off malloc's slow
// paths (its consolidation passes, triggered by the collector's large blocks).
#pragma once

#include <cstddef>

namespace beamlet::vm {

// A block of at least [bytes] (malloc's alignment); throws std::bad_alloc when out of memory.
void* cached_alloc(std::size_t bytes);
// Frees [block], allocated by cached_alloc([bytes]) on any thread.
void cached_free(void* block, std::size_t bytes);

}  // namespace beamlet::vm
