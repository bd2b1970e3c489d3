// vm/heap_blocks.hpp — the blocks of process heaps (young and old). A large heap is collected
// into a fresh block and its old block freed, over and over; from malloc a large block is a
// new mapping each time, and every page of it a fault on first touch (binary-trees: 13% of its
// time in the kernel). Large blocks are mapped here instead, and the last few freed stay
// mapped, to be reused (resized with mremap, keeping the pages they have) by the next
// collection: OTP's segment cache (erts_mseg) does the same for its carriers. Small blocks are
// malloc's.
#pragma once

#include <cstddef>

namespace beamlet::vm {

// A heap block of at least [bytes]; throws std::bad_alloc when out of memory.
void* heap_block_alloc(std::size_t bytes);
// Frees [block], from heap_block_alloc([bytes]) (null: nothing).
void heap_block_free(void* block, std::size_t bytes);

}  // namespace beamlet::vm
