// vm/heap.cpp — heap fragments, binary buffers and the heap size sequence.
#include "vm/heap.hpp"

#include "vm/block_cache.hpp"

#include <new>
#include <vector>

namespace beamlet::vm {

namespace {
std::size_t fragment_bytes(Word size_words) {
    return sizeof(HeapFragment) + (size_words ? size_words - 1 : 0) * sizeof(Term);
}
}  // namespace

HeapFragment* HeapFragment::create(Word size_words, bool pooled) {
    std::size_t bytes = fragment_bytes(size_words);
    void* mem = pooled ? cached_alloc(bytes) : std::malloc(bytes);
    if (!mem) throw std::bad_alloc();
    auto* frag = new (mem) HeapFragment();
    frag->size_words = size_words;
    frag->pooled = pooled;
    return frag;
}

void HeapFragment::destroy(HeapFragment* frag) {
    Word size_words = frag->size_words;
    bool pooled = frag->pooled;
    frag->~HeapFragment();
    if (pooled) cached_free(frag, fragment_bytes(size_words));
    else std::free(frag);
}

BinaryBuf* BinaryBuf::create(std::size_t size_bytes) {
    void* mem = std::malloc(sizeof(BinaryBuf) + size_bytes);
    if (!mem) throw std::bad_alloc();
    auto* buf = static_cast<BinaryBuf*>(mem);
    new (&buf->refc) std::atomic<std::int64_t>(1);
    buf->size_bytes = size_bytes;
    buf->append_end_bits = NOT_WRITABLE;
    buf->append_active = false;
    return buf;
}

const std::vector<Word>& heap_sizes() {
    static const std::vector<Word> sizes = [] {
        // OTP's table (erl_gc.c): Fibonacci + 1 from 12 and 38 for 23 sizes (233, 376, 610,
        // ..., 196650, ...), then 20% growth, 137 sizes in all on a 64-bit machine (the
        // largest, 885767171276247 words, is what system_info(heap_sizes) ends with on erl).
        std::vector<Word> v{12, 38};
        while (v.size() < 23) v.push_back(v[v.size() - 1] + v[v.size() - 2] + 1);
        while (v.size() < 137) v.push_back(v.back() + v.back() / 5);
        return v;
    }();
    return sizes;
}

Word next_heap_size_words(Word at_least_words) {
    for (Word s : heap_sizes())
        if (s >= at_least_words) return s;
    return at_least_words;
}

Word largest_heap_size_within(Word at_least_words, Word at_most_words) {
    Word best = 0;
    for (Word s : heap_sizes()) {
        if (s > at_most_words) break;
        if (s >= at_least_words) best = s;
    }
    return best ? best : next_heap_size_words(at_least_words);
}

}  // namespace beamlet::vm
