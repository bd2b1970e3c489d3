// vm/binary.hpp — binaries and bitstrings: heap, reference-counted and sub binaries; match states.
//
// Layouts (arity counts the words after the header):
//   HeapBin  [hdr arity=1+data_words][size_bytes][data...]                     (<= 64 bytes)
//   RefcBin  [hdr arity=4][size_bytes][BinaryBuf*][bytes*][next RefcBin (Term*)]  (ProcBin)
//   SubBin   [hdr arity=4][size_bytes][offset_bits][bit_size extra (0..7)][orig HeapBin/RefcBin]
//   MatchState [hdr arity=3][owner HeapBin/RefcBin][position_bits][end_bits]
// A SubBin's total size is size_bytes*8 + extra bits; offset_bits is relative to the owner's data.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "vm/heap.hpp"
#include "vm/term.hpp"

namespace beamlet::vm {

struct Process;

inline constexpr std::size_t HEAP_BIN_LIMIT_BYTES = 64;
inline constexpr Word REFC_BIN_WORDS = 5;
inline constexpr Word SUB_BIN_WORDS = 5;
inline constexpr Word MATCH_STATE_WORDS = 4;

inline constexpr Word heap_bin_words(std::size_t size_bytes) { return 2 + (size_bytes + 7) / 8; }

// Where a bitstring's bits are: [bytes] + [bit_offset] bits, [bit_size] bits long.
struct BitView {
    const std::uint8_t* bytes = nullptr;
    std::size_t bit_offset = 0;
    std::size_t bit_size = 0;

    bool is_binary() const { return bit_size % 8 == 0; }
    bool is_aligned() const { return bit_offset % 8 == 0; }
    std::size_t size_bytes() const { return bit_size / 8; }
    // The bytes when the bitstring is byte-aligned and a whole number of bytes.
    const std::uint8_t* aligned_bytes() const { return bytes + bit_offset / 8; }
};

// The bits of bitstring [t] (HeapBin, RefcBin or SubBin).
BitView bit_view(Term t);
// True for a bitstring whose size is a whole number of bytes.
bool is_binary(Term t);

// Heap words needed by make_binary for [size_bytes].
inline constexpr Word binary_words(std::size_t size_bytes) {
    return size_bytes <= HEAP_BIN_LIMIT_BYTES ? heap_bin_words(size_bytes) : REFC_BIN_WORDS;
}
// Builds a binary of [size_bytes] at [hp] (binary_words() words), copying [bytes] if not null;
// [data_out] receives the writable data pointer. RefcBins are linked into [p]'s off-heap list.
Term make_binary_on(Process* p, Term* hp, const std::uint8_t* bytes, std::size_t size_bytes,
                    std::uint8_t** data_out = nullptr);
// make_binary_on for memory that is not a process heap (a heap fragment): RefcBins are linked
// into the list at [off_heap_first].
Term make_binary_in(Term* hp, Term** off_heap_first, const std::uint8_t* bytes, std::size_t size_bytes,
                    std::uint8_t** data_out = nullptr);
// A RefcBin at [hp] (REFC_BIN_WORDS words) over the first [size_bytes] of [buf], taking the
// caller's reference to [buf]; linked into the list at [off_heap_first].
Term make_refc_binary_in(Term* hp, Term** off_heap_first, BinaryBuf* buf, std::size_t size_bytes);
// Allocates on [p]'s heap (or a fragment) and builds a binary.
Term make_binary(Process* p, const std::uint8_t* bytes, std::size_t size_bytes);
// A binary of the first [used] bytes of [buf] (a read's buffer), taking the caller's reference
// to it: the buffer itself when that wastes little, else a copy (and [buf] is released).
Term binary_from_buffer(Process* p, BinaryBuf* buf, std::size_t used);
inline Term make_binary(Process* p, std::string_view s) {
    return make_binary(p, reinterpret_cast<const std::uint8_t*>(s.data()), s.size());
}
// A sub-binary (or bitstring) of [bit_size] bits starting [bit_offset] bits into [t]'s bits;
// a heap binary holding a copy when they are whole bytes that fit one (as erts).
Term make_sub_binary(Process* p, Term t, std::size_t bit_offset, std::size_t bit_size);

// Appends the bytes of iolist (or binary) [t] to [out]; false if [t] is not one. Nesting uses
// no C++ stack.
bool iolist_bytes(Term t, std::string* out);
// Like iolist_bytes, and [ends] gets where the pieces of the I/O vector OTP makes of [t] for a
// driver that takes vectors end (erts_port_output: each binary of more than
// HEAP_BIN_LIMIT_BYTES is a piece of its own, the bytes between them are copied into one; a
// vector of 16 pieces or more copies those under 256 bytes too). Offsets into [out]; none for
// no bytes.
bool iolist_vector(Term t, std::string* out, std::vector<std::size_t>* ends);
// The number of bytes in iolist (or binary) [t], counted without copying them (a list may
// share one sublist many times over: iolist_size/1 of terabytes); nullopt if [t] is not one.
// [cells], if given, gets the number of list cells walked.
std::optional<std::size_t> iolist_byte_count(Term t, std::size_t* cells = nullptr);

// Copies [bit_size] bits from [src]+[src_offset] bits to [dst]+[dst_offset] bits.
void copy_bits(const std::uint8_t* src, std::size_t src_offset, std::uint8_t* dst,
               std::size_t dst_offset, std::size_t bit_size);

}  // namespace beamlet::vm
