// vm/block_cache.cpp — size-class free lists, one set per thread, bounded, over a shared depot.
//
// Messages flow one way between threads: a sender allocates, the receiver frees. So one
// thread's cache runs dry while another's overflows; the overflow goes to a shared depot in
// batches, and a dry cache takes a whole batch back, one lock per BATCH blocks (the shape of
// tcmalloc's central free lists). Blocks in the caches and the depot are never returned to
// malloc while the process runs, up to the depot's bound.
#include "vm/block_cache.hpp"

#include <cstdlib>
#include <mutex>
#include <new>
#include <vector>

namespace beamlet::vm {

namespace {

// Classes of 32 bytes up to 1 KiB, then of 64 bytes up to 2 KiB. Blocks of the larger classes
// are 64-byte aligned (a Process, vm/process.hpp, is; so is a fresh process's heap).
constexpr std::size_t SMALL_CLASS_BYTES = 32, SMALL_CLASSES = 32;
constexpr std::size_t LARGE_CLASS_BYTES = 64, LARGE_CLASSES = 16;
constexpr std::size_t SMALL_LIMIT = SMALL_CLASS_BYTES * SMALL_CLASSES;
constexpr std::size_t CLASSES = SMALL_CLASSES + LARGE_CLASSES;
constexpr std::size_t BATCH = 256;              // blocks moved to or from the depot at a time
constexpr std::size_t BLOCKS_PER_CLASS = 2 * BATCH;  // a thread keeps at most this many of a class
constexpr std::size_t DEPOT_BATCHES = 256;      // per class; beyond that, blocks go back to malloc

struct Depot {
    std::mutex mutex;
    std::vector<std::vector<void*>> batches[CLASSES];
};

Depot& depot() {
    static Depot* d = new Depot();  // never destroyed: threads may free blocks during exit
    return *d;
}

struct Cache {
    void* blocks[CLASSES][BLOCKS_PER_CLASS];
    std::size_t counts[CLASSES] = {};
};

// The calling thread's cache: created on first use, released when the thread ends. Pointer and
// flag are trivially destructible, so code that runs after the release (other thread-local
// destructors) still sees them, and falls back to malloc.
thread_local Cache* t_cache = nullptr;
thread_local bool t_released = false;

struct Releaser {
    ~Releaser() {
        if (Cache* c = t_cache) {
            for (std::size_t k = 0; k < CLASSES; ++k)
                for (std::size_t i = 0; i < c->counts[k]; ++i) std::free(c->blocks[k][i]);
            delete c;
        }
        t_cache = nullptr;
        t_released = true;
    }
};
thread_local Releaser t_releaser;

Cache* cache() {
    if (!t_cache && !t_released) {
        t_cache = new Cache();
        (void)&t_releaser;  // registers the releaser for this thread
    }
    return t_cache;
}

std::size_t class_of(std::size_t bytes) {
    if (bytes <= SMALL_LIMIT) return (bytes + SMALL_CLASS_BYTES - 1) / SMALL_CLASS_BYTES - 1;
    return SMALL_CLASSES + (bytes - SMALL_LIMIT + LARGE_CLASS_BYTES - 1) / LARGE_CLASS_BYTES - 1;
}

// The bytes of every block of class [k]: any thread can reuse a block for any size of its class.
std::size_t class_bytes(std::size_t k) {
    return k < SMALL_CLASSES ? (k + 1) * SMALL_CLASS_BYTES : SMALL_LIMIT + (k + 1 - SMALL_CLASSES) * LARGE_CLASS_BYTES;
}

// Refills class [k] of [c] (empty) with a batch from the depot; false if it has none.
bool refill(Cache* c, std::size_t k) {
    std::vector<void*> batch;
    {
        Depot& d = depot();
        std::lock_guard lock(d.mutex);
        if (d.batches[k].empty()) return false;
        batch = std::move(d.batches[k].back());
        d.batches[k].pop_back();
    }
    for (void* b : batch) c->blocks[k][c->counts[k]++] = b;
    return true;
}

// Moves a batch of class [k] of [c] (full) to the depot, or back to malloc if it is full too.
void spill(Cache* c, std::size_t k) {
    c->counts[k] -= BATCH;
    std::vector<void*> batch(c->blocks[k] + c->counts[k], c->blocks[k] + c->counts[k] + BATCH);
    {
        Depot& d = depot();
        std::lock_guard lock(d.mutex);
        if (d.batches[k].size() < DEPOT_BATCHES) {
            d.batches[k].push_back(std::move(batch));
            return;
        }
    }
    for (void* b : batch) std::free(b);
}

}  // namespace

void* cached_alloc(std::size_t bytes) {
    std::size_t k = class_of(bytes);
    if (k < CLASSES) {
        if (Cache* c = cache()) {
            if (c->counts[k] || refill(c, k)) return c->blocks[k][--c->counts[k]];
        }
        bytes = class_bytes(k);
        if (k >= SMALL_CLASSES) {
            void* block = std::aligned_alloc(LARGE_ALIGNMENT, bytes);  // bytes: a multiple of 64
            if (!block) throw std::bad_alloc();
            return block;
        }
    }
    void* block = std::malloc(bytes);
    if (!block) throw std::bad_alloc();
    return block;
}

void cached_free(void* block, std::size_t bytes) {
    std::size_t k = class_of(bytes);
    if (k < CLASSES) {
        if (Cache* c = cache()) {
            if (c->counts[k] == BLOCKS_PER_CLASS) spill(c, k);
            c->blocks[k][c->counts[k]++] = block;
            return;
        }
    }
    std::free(block);
}

}  // namespace beamlet::vm
