// vm/block_cache.hpp — per-thread caches of freed small blocks, by size class, for memory that
// churns by the hundred thousand a second between threads: message queue nodes, and trace
// messages (allocated by the tracee's thread, freed in bulk by the tracer's collections). The
// caches keep that churn off malloc's slow paths (its consolidation passes, triggered by the
// collector's large blocks, and cross-thread frees into another thread's arena).
#pragma once

#include <cstddef>

namespace beamlet::vm {

// Blocks above 1 KiB are aligned to this (they are cached up to 2 KiB).
inline constexpr std::size_t LARGE_ALIGNMENT = 64;

// A block of at least [bytes] (malloc's alignment; LARGE_ALIGNMENT above 1 KiB); throws
// std::bad_alloc when out of memory.
void* cached_alloc(std::size_t bytes);
// Frees [block], allocated by cached_alloc([bytes]) on any thread.
void cached_free(void* block, std::size_t bytes);

// An allocator over the caches, for std::allocate_shared of objects allocated and freed by
// the hundred thousand a second (processes).
template <typename T>
struct CachedAllocator {
    // Over-aligned objects (allocated one at a time) must fall in the 64-byte-aligned classes.
    static_assert(alignof(T) <= alignof(std::max_align_t) ||
                      (alignof(T) <= LARGE_ALIGNMENT && sizeof(T) > 1024 && sizeof(T) <= 2048),
                  "the caches align blocks of 1-2 KiB to 64 bytes, others as malloc does");
    using value_type = T;
    CachedAllocator() = default;
    template <typename U>
    CachedAllocator(const CachedAllocator<U>&) {}
    T* allocate(std::size_t n) { return static_cast<T*>(cached_alloc(n * sizeof(T))); }
    void deallocate(T* p, std::size_t n) { cached_free(p, n * sizeof(T)); }
    template <typename U>
    bool operator==(const CachedAllocator<U>&) const { return true; }
};

}  // namespace beamlet::vm
