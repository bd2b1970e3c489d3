// vm/block_cache.cpp — size-class free lists, one set per thread, bounded.
#include "vm/block_cache.hpp"

#include <cstdlib>
#include <new>

namespace beamlet::vm {

namespace {

constexpr std::size_t CLASS_BYTES = 32;
constexpr std::size_t CLASSES = 32;           // blocks up to 1 KiB
constexpr std::size_t BLOCKS_PER_CLASS = 1024;  // a thread keeps at most this many of a class

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

std::size_t class_of(std::size_t bytes) { return (bytes + CLASS_BYTES - 1) / CLASS_BYTES - 1; }

}  // namespace

void* cached_alloc(std::size_t bytes) {
    std::size_t k = class_of(bytes);
    if (k < CLASSES) {
        if (Cache* c = cache(); c && c->counts[k]) return c->blocks[k][--c->counts[k]];
        bytes = (k + 1) * CLASS_BYTES;  // a whole class, so that any thread can reuse it
    }
    void* block = std::malloc(bytes);
    if (!block) throw std::bad_alloc();
    return block;
}

void cached_free(void* block, std::size_t bytes) {
    std::size_t k = class_of(bytes);
    if (k < CLASSES) {
        if (Cache* c = cache(); c && c->counts[k] < BLOCKS_PER_CLASS) {
            c->blocks[k][c->counts[k]++] = block;
            return;
        }
    }
    std::free(block);
}

}  // namespace beamlet::vm
