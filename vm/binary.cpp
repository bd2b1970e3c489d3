// vm/binary.cpp — building, slicing and viewing binaries.
#include "vm/binary.hpp"

#include <string>
#include <vector>

#include <cstring>

#include "vm/assert.hpp"
#include "vm/process.hpp"

namespace beamlet::vm {

namespace {
// The data of a HeapBin or RefcBin.
const std::uint8_t* owner_bytes(const Term* obj) {
    if (header_subtag(obj[0]) == Subtag::HeapBin) return reinterpret_cast<const std::uint8_t*>(obj + 2);
    return reinterpret_cast<const std::uint8_t*>(obj[3]);
}
}  // namespace

BitView bit_view(Term t) {
    const Term* obj = boxed_ptr(t);
    switch (header_subtag(obj[0])) {
    case Subtag::HeapBin:
    case Subtag::RefcBin:
        return {owner_bytes(obj), 0, std::size_t(obj[1]) * 8};
    case Subtag::SubBin: {
        const Term* orig = boxed_ptr(obj[4]);
        return {owner_bytes(orig), std::size_t(obj[2]), std::size_t(obj[1]) * 8 + std::size_t(obj[3])};
    }
    default:
        BEAMLET_UNREACHABLE();
    }
}

bool is_binary(Term t) { return is_bitstring(t) && bit_view(t).bit_size % 8 == 0; }

Term make_binary_on(Process* p, Term* hp, const std::uint8_t* bytes, std::size_t size_bytes,
                    std::uint8_t** data_out) {
    if (size_bytes > HEAP_BIN_LIMIT_BYTES) p->young_binary_words += size_bytes / sizeof(Word);
    return make_binary_in(hp, &p->off_heap_first, bytes, size_bytes, data_out);
}

Term make_binary_in(Term* hp, Term** off_heap_first, const std::uint8_t* bytes, std::size_t size_bytes,
                    std::uint8_t** data_out) {
    std::uint8_t* data;
    if (size_bytes <= HEAP_BIN_LIMIT_BYTES) {
        Word data_words = (size_bytes + 7) / 8;
        hp[0] = make_header(1 + data_words, Subtag::HeapBin);
        hp[1] = size_bytes;
        if (data_words) hp[1 + data_words] = 0;  // no uninitialised padding bytes
        data = reinterpret_cast<std::uint8_t*>(hp + 2);
    } else {
        BinaryBuf* buf = BinaryBuf::create(size_bytes);
        make_refc_binary_in(hp, off_heap_first, buf, size_bytes);
        data = buf->bytes;
    }
    if (bytes && size_bytes) std::memcpy(data, bytes, size_bytes);
    if (data_out) *data_out = data;
    return make_boxed(hp);
}

Term make_refc_binary_in(Term* hp, Term** off_heap_first, BinaryBuf* buf, std::size_t size_bytes) {
    hp[0] = make_header(REFC_BIN_WORDS - 1, Subtag::RefcBin);
    hp[1] = size_bytes;
    hp[2] = reinterpret_cast<Word>(buf);
    hp[3] = reinterpret_cast<Word>(buf->bytes);
    hp[4] = reinterpret_cast<Word>(*off_heap_first);
    *off_heap_first = hp;
    return make_boxed(hp);
}

Term make_binary(Process* p, const std::uint8_t* bytes, std::size_t size_bytes) {
    return make_binary_on(p, p->alloc(binary_words(size_bytes)), bytes, size_bytes);
}

Term binary_from_buffer(Process* p, BinaryBuf* buf, std::size_t used) {
    if (used <= HEAP_BIN_LIMIT_BYTES || used < buf->size_bytes / 2) {
        Term copy = make_binary(p, buf->bytes, used);
        buf->release();
        return copy;
    }
    p->young_binary_words += used / sizeof(Word);
    return make_refc_binary_in(p->alloc(REFC_BIN_WORDS), &p->off_heap_first, buf, used);
}

Term make_sub_binary(Process* p, Term t, std::size_t bit_offset, std::size_t bit_size) {
    // As erts_extract_sub_binary: whole bytes that fit a heap binary are copied into one.
    if (bit_size % 8 == 0 && bit_size / 8 <= HEAP_BIN_LIMIT_BYTES) {
        BitView v = bit_view(t);
        std::uint8_t* data;
        Term bin = make_binary_in(p->alloc(heap_bin_words(bit_size / 8)), nullptr, nullptr, bit_size / 8, &data);
        copy_bits(v.bytes, v.bit_offset + bit_offset, data, 0, bit_size);
        return bin;
    }
    const Term* obj = boxed_ptr(t);
    Term owner = t;
    std::size_t base = 0;
    if (header_subtag(obj[0]) == Subtag::SubBin) {
        owner = obj[4];
        base = obj[2];
    }
    Term* hp = p->alloc(SUB_BIN_WORDS);
    hp[0] = make_header(SUB_BIN_WORDS - 1, Subtag::SubBin);
    hp[1] = bit_size / 8;
    hp[2] = base + bit_offset;
    hp[3] = bit_size % 8;
    hp[4] = owner;
    return make_boxed(hp);
}

void copy_bits(const std::uint8_t* src, std::size_t src_offset, std::uint8_t* dst,
               std::size_t dst_offset, std::size_t bit_size) {
    // Bit by bit up to a byte boundary of the destination, then a byte at a time: a shifted
    // source byte pair makes each destination byte (a 2 GB bitstring in term_to_binary).
    for (; bit_size && dst_offset % 8; ++src_offset, ++dst_offset, --bit_size) {
        int bit = (src[src_offset / 8] >> (7 - src_offset % 8)) & 1;
        std::uint8_t m = std::uint8_t(1u << (7 - dst_offset % 8));
        if (bit) dst[dst_offset / 8] |= m;
        else dst[dst_offset / 8] &= std::uint8_t(~m);
    }
    if (bit_size == 0) return;
    const std::uint8_t* s = src + src_offset / 8;
    std::uint8_t* d = dst + dst_offset / 8;
    unsigned shift = unsigned(src_offset % 8);
    std::size_t whole = bit_size / 8, rest = bit_size % 8;
    if (shift == 0) {
        std::memcpy(d, s, whole);
    } else {
        for (std::size_t j = 0; j < whole; ++j) d[j] = std::uint8_t((s[j] << shift) | (s[j + 1] >> (8 - shift)));
    }
    if (rest) {  // the last bits: from s[whole], and s[whole + 1] when they reach into it
        unsigned window = (unsigned(s[whole]) << 8) | (shift + rest > 8 ? s[whole + 1] : 0u);
        std::uint8_t bits = std::uint8_t((window << shift) >> 8);
        std::uint8_t mask = std::uint8_t(0xFF << (8 - rest));
        d[whole] = std::uint8_t((d[whole] & ~mask) | (bits & mask));
    }
}

namespace {

// Takes in the bytes of an iolist: appends them ([out]) or only counts them.
struct IolistSink {
    std::string* out = nullptr;
    std::size_t count = 0;
    std::size_t cells = 0;  // list cells walked
    // Where the binaries of more than HEAP_BIN_LIMIT_BYTES lie in the bytes (iolist_vector):
    // OTP's refc binaries, which an I/O vector references instead of copying.
    std::vector<std::pair<std::size_t, std::size_t>>* shared = nullptr;

    void byte(char c) {
        ++count;
        if (out) out->push_back(c);
    }
    bool binary(Term t) {  // false unless a whole number of bytes
        BitView v = bit_view(t);
        if (v.bit_size % 8) return false;
        if (shared && v.is_aligned() && v.size_bytes() > HEAP_BIN_LIMIT_BYTES)
            shared->emplace_back(count, v.size_bytes());
        count += v.size_bytes();
        if (!out) return true;
        if (v.is_aligned()) {
            out->append(reinterpret_cast<const char*>(v.aligned_bytes()), v.size_bytes());
        } else {
            std::string tmp(v.size_bytes(), '\0');
            copy_bits(v.bytes, v.bit_offset, reinterpret_cast<std::uint8_t*>(tmp.data()), 0, v.bit_size);
            out->append(tmp);
        }
        return true;
    }
};

// Walks an iolist with an explicit stack of the terms still to visit (the next one last), so
// that deeply nested iolists use no C++ stack.
bool iolist_walk(Term root, IolistSink& sink) {
    std::vector<Term> pending{root};
    while (!pending.empty()) {
        Term t = pending.back();
        pending.pop_back();
        if (is_nil(t)) continue;
        if (is_bitstring(t)) {
            if (!sink.binary(t)) return false;
            continue;
        }
        if (!is_list(t)) return false;  // a tail or element that is neither list nor binary
        Term head = car(t);
        pending.push_back(cdr(t));
        ++sink.cells;
        if (is_small(head)) {
            if (small_value(head) < 0 || small_value(head) > 255) return false;
            sink.byte(char(small_value(head)));
        } else if (is_list(head) || is_nil(head) || is_bitstring(head)) {
            pending.push_back(head);
        } else {
            return false;
        }
    }
    return true;
}

}  // namespace

bool iolist_bytes(Term t, std::string* out) {
    IolistSink sink{out};
    return iolist_walk(t, sink);
}

bool iolist_vector(Term t, std::string* out, std::vector<std::size_t>* ends) {
    std::vector<std::pair<std::size_t, std::size_t>> shared;
    std::size_t start = out->size();
    IolistSink sink{out};
    sink.shared = &shared;
    if (!iolist_walk(t, sink)) return false;
    // erts_port_output: a vector of fewer than 16 pieces keeps every refc binary a piece of its
    // own; a longer one copies those under ERL_SMALL_IO_BIN_LIMIT too (it packs).
    constexpr std::size_t SMALL_WRITE_VEC = 16, SMALL_IO_BIN_LIMIT = 4 * HEAP_BIN_LIMIT_BYTES;
    auto pieces_with = [&](std::size_t limit, std::vector<std::size_t>* cuts) {
        std::size_t n = 0, at = 0;
        auto cut = [&](std::size_t end) {
            ++n;
            if (cuts) cuts->push_back(start + end);
            at = end;
        };
        for (auto [from, size] : shared) {
            if (size < limit) continue;
            if (from > at) cut(from);  // the bytes copied since the last piece
            cut(from + size);
        }
        if (sink.count > at) cut(sink.count);
        return n;
    };
    std::size_t limit = pieces_with(0, nullptr) < SMALL_WRITE_VEC ? 0 : SMALL_IO_BIN_LIMIT;
    pieces_with(limit, ends);
    return true;
}

std::optional<std::size_t> iolist_byte_count(Term t, std::size_t* cells) {
    IolistSink sink;
    bool ok = iolist_walk(t, sink);
    if (cells) *cells = sink.cells;
    if (!ok) return std::nullopt;
    return sink.count;
}


}  // namespace beamlet::vm
