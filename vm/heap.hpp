// vm/heap.hpp — heap fragments, off-heap binaries and the words-per-object arithmetic.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "vm/literal_area.hpp"  // Literals
#include "vm/term.hpp"

namespace beamlet::vm {

// A block of heap outside a process's main heap: built by BIFs that could not allocate on the
// heap without a GC, and by senders for messages. The owner's next GC copies the live data out
// of it and frees it (DESIGN.md §2).
struct HeapFragment {
    HeapFragment* next = nullptr;
    Word used_words = 0;
    Word size_words = 0;
    Term* off_heap_first = nullptr;  // ProcBins allocated in this fragment (chained by their link word)
    bool pooled = false;             // from the block caches (vm/block_cache.hpp), not malloc
    Term data[1];

    // A fragment of [size_words]. [pooled]: from the block caches, for fragments a receiver
    // takes by the thousand and frees in bulk (trace messages); others come from malloc, whose
    // placement keeps a process's received messages cheap to walk.
    static HeapFragment* create(Word size_words, bool pooled = false);
    static void destroy(HeapFragment* frag);
    Term* alloc(Word n) {
        Term* p = data + used_words;
        used_words += n;
        return p;
    }
    bool contains(const Term* p) const { return p >= data && p < data + size_words; }
};

// A copy of [t] in a new fragment (null for an immediate, or a shared literal, which [*out]
// holds as is).
HeapFragment* copy_to_fragment(Term t, Term* out, const Literals& literals = Literals::copied());
// Frees [f] (may be null) and drops the off-heap references its terms hold.
void free_fragment(HeapFragment* f);

// The shared payload of a reference-counted binary.
//
// A buffer made by an append (`<<Acc/binary, ...>>`) is *writable* (OTP's PB_IS_WRITABLE): it
// has room after its last version, [append_end_bits] bits long, and the next append to that
// version writes in place, while its owner's RefcBin is the only reference (refc 1). Bits below
// [append_end_bits] never change, so every older version (a sub-binary of fewer bits) stays
// what it was; an append to an older version copies. Only the owning process reads or writes
// [append_end_bits] and [append_active], and only when it holds the one reference.
struct BinaryBuf {
    static constexpr std::size_t NOT_WRITABLE = ~std::size_t(0);

    std::atomic<std::int64_t> refc;
    std::size_t size_bytes;                        // capacity
    std::size_t append_end_bits = NOT_WRITABLE;    // the last version's size, if writable
    bool append_active = false;                    // appended to since the owner's last GC
    std::uint8_t bytes[1];

    static BinaryBuf* create(std::size_t size_bytes);
    void add_ref() { refc.fetch_add(1, std::memory_order_relaxed); }
    void release() {
        if (refc.fetch_sub(1, std::memory_order_acq_rel) == 1) std::free(this);
    }
};

// Heap sizes in words, as OTP's erts_next_heap_size() sequence (Fibonacci, then +20%):
// the whole table, smallest first (erlang:system_info(heap_sizes)).
const std::vector<Word>& heap_sizes();
Word next_heap_size_words(Word at_least_words);
// The largest heap size of that sequence in [at_least_words, at_most_words]; if there is none,
// next_heap_size_words(at_least_words).
Word largest_heap_size_within(Word at_least_words, Word at_most_words);
inline constexpr Word MIN_HEAP_SIZE_WORDS = 233;

}  // namespace beamlet::vm
