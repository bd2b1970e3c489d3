// bif/prim_buffer_nifs.cpp — the NIFs of OTP's preloaded prim_buffer module (OTP's
// erts/emulator/nifs/common/prim_buffer_nif.c): a byte queue behind a magic reference, which
// prim_file keeps as the read-ahead buffer of a raw file (its r_buffer) and prim_file's users
// read lines from. OTP's prim_buffer.beam runs unmodified over these.
//
// As OTP's, the queue holds binaries: a written binary that lives off-heap is shared, not
// copied, and small writes are gathered into one accumulator so that many tiny writes do not
// make a long queue (the same 2 KiB accumulator and half-of-it limit as OTP, so read_iovec/2
// cuts the data where OTP's does). A buffer belongs to one process in OTP (debug builds assert
// it); here a mutex makes concurrent use safe anyway.
#include <atomic>
#include <cstring>
#include <deque>
#include <mutex>
#include <new>
#include <vector>

#include "bif/bifs.hpp"
#include "bif/process_bifs.hpp"
#include "vm/bignum.hpp"
#include "vm/binary.hpp"
#include "vm/magic.hpp"

namespace beamlet::bif {

using namespace vm;

namespace {

constexpr std::size_t ACCUMULATOR_SIZE_BYTES = 2048;

// [size_bytes] bytes of [buf] from [offset]; holds one reference to [buf].
struct Chunk {
    BinaryBuf* buf;
    std::size_t offset;
    std::size_t size_bytes;
};

struct PrimBuffer {
    std::mutex mutex;
    std::deque<Chunk> queue;             // guarded by [mutex]
    std::size_t queued_bytes = 0;        // the bytes in [queue]
    BinaryBuf* accumulator = nullptr;    // small writes, not yet queued (or null)
    std::size_t accumulated_bytes = 0;
    std::atomic<bool> external_lock{false};  // try_lock/1 and unlock/1

    ~PrimBuffer() {
        for (Chunk& c : queue) c.buf->release();
        if (accumulator) accumulator->release();
    }

    std::size_t size_bytes() const { return queued_bytes + accumulated_bytes; }

    // Queues what the accumulator holds (OTP: enqueue_write_accumulator).
    void flush_accumulator() {
        if (!accumulator) return;
        if (accumulated_bytes > 0) {
            queue.push_back(Chunk{accumulator, 0, accumulated_bytes});
            queued_bytes += accumulated_bytes;
        } else {
            accumulator->release();
        }
        accumulator = nullptr;
        accumulated_bytes = 0;
    }

    // Drops the first [n] queued bytes (n <= queued_bytes).
    void dequeue(std::size_t n) {
        queued_bytes -= n;
        while (n > 0) {
            Chunk& head = queue.front();
            if (head.size_bytes <= n) {
                n -= head.size_bytes;
                head.buf->release();
                queue.pop_front();
            } else {
                head.offset += n;
                head.size_bytes -= n;
                n = 0;
            }
        }
    }

    // Copies the first [n] queued bytes to [out] (n <= queued_bytes).
    void copy_head(std::size_t n, std::uint8_t* out) const {
        for (const Chunk& c : queue) {
            if (n == 0) break;
            std::size_t take = std::min(n, c.size_bytes);
            std::memcpy(out, c.buf->bytes + c.offset, take);
            out += take;
            n -= take;
        }
    }
};

void destroy_buffer(MagicHandle* h) { delete static_cast<PrimBuffer*>(h->data); }

PrimBuffer* buffer_of(Term t) {
    if (!is_magic_ref(t)) return nullptr;
    MagicHandle* h = magic_handle(t);
    return h->destructor == destroy_buffer ? static_cast<PrimBuffer*>(h->data) : nullptr;
}

// An unsigned 64-bit integer argument (enif_get_uint64).
bool uint64_arg(Term t, std::uint64_t* out) {
    if (is_small(t)) {
        if (small_value(t) < 0) return false;
        *out = std::uint64_t(small_value(t));
        return true;
    }
    if (is_big(t) && !bignum_is_negative(t) && bignum_limbs(t) == 1) {
        *out = boxed_ptr(t)[1];
        return true;
    }
    return false;
}

// The bytes of binary [t] as a chunk: the off-heap buffer it lies in, shared, or a copy.
Chunk chunk_of(Term t) {
    BitView v = bit_view(t);
    const Term* obj = boxed_ptr(t);
    std::size_t offset_bits = 0;
    if (header_subtag(obj[0]) == Subtag::SubBin) {
        offset_bits = obj[2];
        obj = boxed_ptr(obj[4]);
    }
    if (header_subtag(obj[0]) == Subtag::RefcBin && offset_bits % 8 == 0) {
        auto* buf = reinterpret_cast<BinaryBuf*>(obj[2]);
        const auto* data = reinterpret_cast<const std::uint8_t*>(obj[3]);
        buf->add_ref();
        return Chunk{buf, std::size_t(data - buf->bytes) + offset_bits / 8, v.size_bytes()};
    }
    BinaryBuf* buf = BinaryBuf::create(v.size_bytes());
    copy_bits(v.bytes, v.bit_offset, buf->bytes, 0, v.bit_size);
    return Chunk{buf, 0, v.size_bytes()};
}

// The binaries of iovec [t] (a proper list of binaries); false if it is not one.
bool iovec_arg(Term t, std::vector<Term>* out, std::size_t* total_bytes) {
    *total_bytes = 0;
    for (; is_list(t); t = cdr(t)) {
        Term b = car(t);
        if (!is_binary(b)) return false;
        out->push_back(b);
        *total_bytes += bit_view(b).size_bytes();
    }
    return is_nil(t);
}

// A binary term over [size_bytes] bytes of [buf] from [offset], sharing the buffer when the
// bytes are too many for a heap binary.
Term binary_over(Process* p, BinaryBuf* buf, std::size_t offset, std::size_t size_bytes) {
    if (size_bytes <= HEAP_BIN_LIMIT_BYTES) return make_binary(p, buf->bytes + offset, size_bytes);
    buf->add_ref();
    p->young_binary_words += size_bytes / sizeof(Word);
    Term whole = make_refc_binary_in(p->alloc(REFC_BIN_WORDS), &p->off_heap_first, buf, offset + size_bytes);
    return offset == 0 ? whole : make_sub_binary(p, whole, offset * 8, size_bytes * 8);
}

}  // namespace

// prim_buffer:new()
Term bif_prim_buffer_new(Process* p, Term*) {
    return new_magic_ref(p, new PrimBuffer(), destroy_buffer);
}

// prim_buffer:size(Buffer): the bytes it holds.
Term bif_prim_buffer_size(Process* p, Term* a) {
    PrimBuffer* b = buffer_of(a[0]);
    if (!b) return p->badarg();
    std::lock_guard guard(b->mutex);
    return make_integer_u64(p, b->size_bytes());
}

// prim_buffer:write(Buffer, IOVec): appends the binaries of IOVec (a list of binaries).
Term bif_prim_buffer_write(Process* p, Term* a) {
    PrimBuffer* b = buffer_of(a[0]);
    std::vector<Term> bins;
    std::size_t total_bytes;
    if (!b || !iovec_arg(a[1], &bins, &total_bytes)) return p->badarg();
    std::lock_guard guard(b->mutex);
    // OTP's combine_small_writes: into the accumulator unless it would overflow with a write of
    // at least half its size.
    bool combine = true;
    if (b->accumulated_bytes + total_bytes >= ACCUMULATOR_SIZE_BYTES) {
        if (total_bytes >= ACCUMULATOR_SIZE_BYTES / 2) combine = false;
        else b->flush_accumulator();
    }
    if (combine) {
        if (!b->accumulator) b->accumulator = BinaryBuf::create(ACCUMULATOR_SIZE_BYTES);
        for (Term bin : bins) {
            BitView v = bit_view(bin);
            copy_bits(v.bytes, v.bit_offset, b->accumulator->bytes + b->accumulated_bytes, 0, v.bit_size);
            b->accumulated_bytes += v.size_bytes();
        }
        return atoms::ok;
    }
    b->flush_accumulator();
    for (Term bin : bins) {
        Chunk c = chunk_of(bin);
        if (c.size_bytes == 0) {
            c.buf->release();
            continue;
        }
        b->queue.push_back(c);
        b->queued_bytes += c.size_bytes;
    }
    return atoms::ok;
}

// prim_buffer:copying_read(Buffer, Size): the first Size bytes, removed, as one new binary.
Term bif_prim_buffer_copying_read(Process* p, Term* a) {
    PrimBuffer* b = buffer_of(a[0]);
    std::uint64_t n;
    if (!b || !uint64_arg(a[1], &n)) return p->badarg();
    std::lock_guard guard(b->mutex);
    b->flush_accumulator();
    if (b->queued_bytes < n) return p->badarg();
    std::uint8_t* data;
    Term result = make_binary_on(p, p->alloc(binary_words(n)), nullptr, n, &data);
    b->copy_head(n, data);
    b->dequeue(n);
    return result;
}

// prim_buffer:peek_head(Buffer): the first queued binary, left in place (badarg when empty).
Term bif_prim_buffer_peek_head(Process* p, Term* a) {
    PrimBuffer* b = buffer_of(a[0]);
    if (!b) return p->badarg();
    std::lock_guard guard(b->mutex);
    b->flush_accumulator();
    if (b->queue.empty()) return p->badarg();
    const Chunk& head = b->queue.front();
    return binary_over(p, head.buf, head.offset, head.size_bytes);
}

// prim_buffer:skip(Buffer, Size): drops the first Size bytes.
Term bif_prim_buffer_skip(Process* p, Term* a) {
    PrimBuffer* b = buffer_of(a[0]);
    std::uint64_t n;
    if (!b || !uint64_arg(a[1], &n)) return p->badarg();
    std::lock_guard guard(b->mutex);
    b->flush_accumulator();
    if (b->queued_bytes < n) return p->badarg();
    b->dequeue(n);
    return atoms::ok;
}

// prim_buffer:find_byte_index(Buffer, Byte): {ok, Index} of its first occurrence, or not_found.
// OTP moves searches of a megabyte or more to a dirty scheduler; this one runs in place.
Term bif_prim_buffer_find_byte_index(Process* p, Term* a) {
    PrimBuffer* b = buffer_of(a[0]);
    if (!b || !is_small(a[1])) return p->badarg();
    SWord needle = small_value(a[1]);
    if (needle < INT32_MIN || needle > INT32_MAX) return p->badarg();
    std::lock_guard guard(b->mutex);
    b->flush_accumulator();
    if (needle < 0 || needle > 255) return p->badarg();
    std::size_t offset = 0;
    for (const Chunk& c : b->queue) {
        const std::uint8_t* start = c.buf->bytes + c.offset;
        if (const void* hit = std::memchr(start, int(needle), c.size_bytes)) {
            std::size_t index = offset + std::size_t(static_cast<const std::uint8_t*>(hit) - start);
            return make_tuple_on(p, {atoms::ok, make_integer_u64(p, index)});
        }
        offset += c.size_bytes;
    }
    BEAMLET_CACHED_ATOM(am_not_found, "not_found");
    return am_not_found;
}

// prim_buffer:try_lock(Buffer): acquired, or busy when another holder has it.
Term bif_prim_buffer_try_lock(Process* p, Term* a) {
    PrimBuffer* b = buffer_of(a[0]);
    if (!b) return p->badarg();
    bool expected = false;
    BEAMLET_CACHED_ATOM(am_acquired, "acquired");
    BEAMLET_CACHED_ATOM(am_busy, "busy");
    return b->external_lock.compare_exchange_strong(expected, true, std::memory_order_acquire) ? am_acquired : am_busy;
}

// prim_buffer:unlock(Buffer): ok; an error lock_order_violation when it was not locked.
Term bif_prim_buffer_unlock(Process* p, Term* a) {
    PrimBuffer* b = buffer_of(a[0]);
    if (!b) return p->badarg();
    bool expected = true;
    if (!b->external_lock.compare_exchange_strong(expected, false, std::memory_order_release))
        return p->error(atom("lock_order_violation"));
    return atoms::ok;
}

}  // namespace beamlet::bif
