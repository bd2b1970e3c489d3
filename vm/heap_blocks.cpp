// vm/heap_blocks.cpp — large heap blocks from mmap, a few freed ones kept mapped.
#include "vm/heap_blocks.hpp"

#include <sys/mman.h>

#include <cstdlib>
#include <mutex>
#include <new>

namespace beamlet::vm {

namespace {

constexpr std::size_t PAGE = 4096;
// Blocks from this size on are mapped (malloc's own mmap threshold starts at 128 KiB).
constexpr std::size_t LARGE_BYTES = 256 * 1024;
// The freed blocks kept: a few (a collection frees one block and the next takes one), and
// not more memory than a few large heaps.
constexpr std::size_t KEPT_BLOCKS = 4;
constexpr std::size_t KEPT_BYTES = std::size_t(256) << 20;

std::size_t mapped_size(std::size_t bytes) { return (bytes + PAGE - 1) & ~(PAGE - 1); }

struct Kept {
    void* block;
    std::size_t bytes;  // mapped
};

struct Cache {
    std::mutex lock;
    Kept kept[KEPT_BLOCKS] = {};
    std::size_t count = 0;
    std::size_t total = 0;

    // The kept block nearest in size to [bytes] (the smallest that fits, else the largest),
    // taken out of the cache; {null, 0} when none is kept.
    Kept take(std::size_t bytes) {
        std::lock_guard guard(lock);
        std::size_t best = count;
        for (std::size_t i = 0; i < count; ++i) {
            bool fits = kept[i].bytes >= bytes;
            if (best == count) {
                best = i;
                continue;
            }
            bool best_fits = kept[best].bytes >= bytes;
            if (fits ? (!best_fits || kept[i].bytes < kept[best].bytes) : (!best_fits && kept[i].bytes > kept[best].bytes))
                best = i;
        }
        if (best == count) return {nullptr, 0};
        Kept k = kept[best];
        kept[best] = kept[--count];
        total -= k.bytes;
        return k;
    }

    // Keeps [k] if there is room; false to have it unmapped.
    bool keep(Kept k) {
        std::lock_guard guard(lock);
        if (count == KEPT_BLOCKS || total + k.bytes > KEPT_BYTES) return false;
        kept[count++] = k;
        total += k.bytes;
        return true;
    }
};

Cache& cache() {
    static Cache* c = new Cache;  // never destroyed: heaps are freed until the very end
    return *c;
}

}  // namespace

void* heap_block_alloc(std::size_t bytes) {
    if (bytes < LARGE_BYTES) {
        void* block = std::malloc(bytes);
        if (!block) throw std::bad_alloc();
        return block;
    }
    std::size_t want = mapped_size(bytes);
    Kept k = cache().take(want);
    if (k.block) {
        if (k.bytes == want) return k.block;
        // Grown or shrunk in place where the address space allows, else moved; the pages it
        // keeps are not faulted in again.
        void* block = mremap(k.block, k.bytes, want, MREMAP_MAYMOVE);
        if (block != MAP_FAILED) return block;
        munmap(k.block, k.bytes);
    }
    void* block = mmap(nullptr, want, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (block == MAP_FAILED) throw std::bad_alloc();
    return block;
}

void heap_block_free(void* block, std::size_t bytes) {
    if (!block) return;
    if (bytes < LARGE_BYTES) {
        std::free(block);
        return;
    }
    Kept k{block, mapped_size(bytes)};
    if (!cache().keep(k)) munmap(k.block, k.bytes);
}

}  // namespace beamlet::vm
