// tests/unit/vm/binary_test.cpp — heap vs reference-counted binaries, sub-binaries, bit views and
// copy_bits at every bit alignment.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "vm/atom_table.hpp"
#include "vm/binary.hpp"
#include "vm/process.hpp"
#include "vm/vm.hpp"

namespace beamlet::vm {
namespace {

std::vector<std::uint8_t> byte_pattern(std::size_t size_bytes) {
    std::vector<std::uint8_t> bytes(size_bytes);
    for (std::size_t i = 0; i < size_bytes; ++i) bytes[i] = std::uint8_t(0x5A ^ (i * 37 + 11));
    return bytes;
}

// Bit [i] of [bytes], most significant bit first, as Erlang numbers a binary's bits.
int bit_at(const std::uint8_t* bytes, std::size_t i) { return (bytes[i / 8] >> (7 - i % 8)) & 1; }

// The reference copy_bits is checked against: one bit at a time.
void copy_bits_reference(const std::uint8_t* src, std::size_t src_offset, std::uint8_t* dst,
                         std::size_t dst_offset, std::size_t bit_size) {
    for (std::size_t i = 0; i < bit_size; ++i) {
        std::size_t d = dst_offset + i;
        auto mask = std::uint8_t(0x80 >> (d % 8));
        dst[d / 8] = std::uint8_t(bit_at(src, src_offset + i) ? dst[d / 8] | mask : dst[d / 8] & ~mask);
    }
}

std::vector<int> bits_of(const BitView& v) {
    std::vector<int> out;
    for (std::size_t i = 0; i < v.bit_size; ++i) out.push_back(bit_at(v.bytes, v.bit_offset + i));
    return out;
}

class Binary : public ::testing::Test {
protected:
    Vm m_vm;
    Process m_process{m_vm, 1};
    Process* p = &m_process;

    Term binary(const std::vector<std::uint8_t>& bytes) { return make_binary(p, bytes.data(), bytes.size()); }
    static Subtag subtag(Term t) { return header_subtag(boxed_header(t)); }
    static std::vector<std::uint8_t> bytes_of(Term t) {
        BitView v = bit_view(t);
        return {v.aligned_bytes(), v.aligned_bytes() + v.size_bytes()};
    }
};

TEST_F(Binary, UpToSixtyFourBytesAreHeapBinariesCopiedOntoTheHeap) {
    for (std::size_t size : {0u, 1u, 7u, 8u, 9u, 63u, 64u}) {
        std::vector<std::uint8_t> bytes = byte_pattern(size);
        Term* before = p->htop;
        Term bin = binary(bytes);
        EXPECT_EQ(subtag(bin), Subtag::HeapBin) << size;
        EXPECT_EQ(Word(p->htop - before), binary_words(size)) << size;
        EXPECT_EQ(binary_words(size), heap_bin_words(size)) << size;
        EXPECT_EQ(bytes_of(bin), bytes) << size;
        EXPECT_EQ(p->off_heap_first, nullptr) << size;
    }
}

TEST_F(Binary, MoreThanSixtyFourBytesAreRefcBinariesLinkedOffHeap) {
    Term* first_link = nullptr;
    for (std::size_t size : {65u, 100u, 4096u}) {
        std::vector<std::uint8_t> bytes = byte_pattern(size);
        Term* before = p->htop;
        Term bin = binary(bytes);
        ASSERT_EQ(subtag(bin), Subtag::RefcBin) << size;
        EXPECT_EQ(Word(p->htop - before), REFC_BIN_WORDS) << size;
        EXPECT_EQ(binary_words(size), REFC_BIN_WORDS) << size;
        EXPECT_EQ(bytes_of(bin), bytes) << size;
        auto* buf = reinterpret_cast<BinaryBuf*>(boxed_ptr(bin)[2]);
        EXPECT_EQ(buf->refc.load(), 1) << size;
        EXPECT_EQ(buf->size_bytes, size);
        EXPECT_EQ(bit_view(bin).bytes, buf->bytes);
        // Newest first, chained through the link word.
        EXPECT_EQ(p->off_heap_first, boxed_ptr(bin));
        EXPECT_EQ(reinterpret_cast<Term*>(boxed_ptr(bin)[4]), first_link);
        first_link = boxed_ptr(bin);
    }
}

TEST_F(Binary, HeapBinaryPaddingBytesAreZero) {
    Term bin = binary({0xFF, 0xFF, 0xFF});
    const auto* data = reinterpret_cast<const std::uint8_t*>(boxed_ptr(bin) + 2);
    for (int i = 3; i < 8; ++i) EXPECT_EQ(data[i], 0) << i;
}

TEST_F(Binary, MakeBinaryOnWithoutBytesHandsOutWritableData) {
    for (std::size_t size : {10u, 200u}) {
        std::uint8_t* data = nullptr;
        Term bin = make_binary_on(p, p->alloc(binary_words(size)), nullptr, size, &data);
        ASSERT_NE(data, nullptr);
        for (std::size_t i = 0; i < size; ++i) data[i] = std::uint8_t(i);
        BitView v = bit_view(bin);
        EXPECT_EQ(v.bit_size, size * 8);
        EXPECT_EQ(v.aligned_bytes()[size - 1], std::uint8_t(size - 1));
    }
}

TEST_F(Binary, SubBinaryStoresWholeBytesExtraBitsAndBitOffset) {
    Term owner = binary(byte_pattern(10));
    Term sub = make_sub_binary(p, owner, 3, 13);
    ASSERT_EQ(subtag(sub), Subtag::SubBin);
    const Term* obj = boxed_ptr(sub);
    EXPECT_EQ(obj[1], 1u);   // size_bytes
    EXPECT_EQ(obj[2], 3u);   // offset_bits
    EXPECT_EQ(obj[3], 5u);   // extra bits
    EXPECT_EQ(obj[4], owner);

    BitView v = bit_view(sub);
    EXPECT_EQ(v.bytes, bit_view(owner).bytes);
    EXPECT_EQ(v.bit_offset, 3u);
    EXPECT_EQ(v.bit_size, 13u);
    EXPECT_FALSE(v.is_aligned());
    EXPECT_FALSE(v.is_binary());
    std::vector<int> all = bits_of(bit_view(owner));
    EXPECT_EQ(bits_of(v), std::vector<int>(all.begin() + 3, all.begin() + 16));
}

TEST_F(Binary, SubBinaryOfASubBinaryAddsOffsetsAndKeepsTheOriginalOwner) {
    Term owner = binary(byte_pattern(100));  // refc
    Term outer = make_sub_binary(p, owner, 5, 8 * 50 + 3);
    Term inner = make_sub_binary(p, outer, 11, 8 * 4 + 1);
    EXPECT_EQ(boxed_ptr(inner)[4], owner);
    BitView v = bit_view(inner);
    EXPECT_EQ(v.bytes, bit_view(owner).bytes);
    EXPECT_EQ(v.bit_offset, 16u);
    EXPECT_EQ(v.bit_size, 33u);
    std::vector<int> all = bits_of(bit_view(owner));
    EXPECT_EQ(bits_of(v), std::vector<int>(all.begin() + 16, all.begin() + 16 + 33));
}

TEST_F(Binary, ByteAlignedSubBinaryExposesItsBytes) {
    std::vector<std::uint8_t> bytes = byte_pattern(20);
    Term sub = make_sub_binary(p, binary(bytes), 8 * 4, 8 * 6);
    BitView v = bit_view(sub);
    EXPECT_TRUE(v.is_aligned());
    EXPECT_TRUE(v.is_binary());
    EXPECT_EQ(v.size_bytes(), 6u);
    EXPECT_EQ(bytes_of(sub), std::vector<std::uint8_t>(bytes.begin() + 4, bytes.begin() + 10));
}

TEST_F(Binary, WholeBytesThatFitAHeapBinaryAreCopiedIntoOneAsErtsExtractsThem) {
    std::vector<std::uint8_t> bytes = byte_pattern(300);
    Term owner = binary(bytes);
    auto subtag = [](Term t) { return header_subtag(boxed_ptr(t)[0]); };
    Term small = make_sub_binary(p, owner, 8 * 7 + 3, 8 * 64);  // even from an odd bit
    EXPECT_EQ(subtag(small), Subtag::HeapBin);
    std::vector<int> all = bits_of(bit_view(owner));
    EXPECT_EQ(bits_of(bit_view(small)), std::vector<int>(all.begin() + 59, all.begin() + 59 + 512));
    EXPECT_EQ(subtag(make_sub_binary(p, owner, 8 * 7, 8 * 65)), Subtag::SubBin);  // past a heap binary
    EXPECT_EQ(subtag(make_sub_binary(p, owner, 8, 8 * 3 + 1)), Subtag::SubBin);   // not whole bytes
    EXPECT_EQ(subtag(make_sub_binary(p, owner, 8, 0)), Subtag::HeapBin);
}

TEST_F(Binary, IsBinaryNeedsAWholeNumberOfBytesWhileIsBitstringTakesAnyBitCount) {
    Term owner = binary(byte_pattern(30));
    for (std::size_t bit_size : {0u, 1u, 7u, 8u, 9u, 15u, 16u, 17u, 200u}) {
        for (std::size_t offset : {0u, 3u}) {
            Term sub = make_sub_binary(p, owner, offset, bit_size);
            EXPECT_TRUE(is_bitstring(sub)) << bit_size;
            EXPECT_EQ(is_binary(sub), bit_size % 8 == 0) << bit_size << " at " << offset;
        }
    }
    EXPECT_TRUE(is_binary(owner));
    EXPECT_TRUE(is_binary(binary({})));
    Term* hp = p->alloc(2);
    hp[0] = make_arityval(1);
    hp[1] = make_small(1);
    for (Term other : {make_boxed(hp), make_small(8), atoms::ok, NIL, make_cons_on(p->alloc(2), NIL, NIL)}) {
        EXPECT_FALSE(is_bitstring(other));
        EXPECT_FALSE(is_binary(other));
    }
}

TEST_F(Binary, CopyBitsMatchesABitByBitReferenceAtEveryAlignment) {
    std::vector<std::uint8_t> src = byte_pattern(16);
    for (std::size_t src_offset = 0; src_offset <= 16; ++src_offset) {
        for (std::size_t dst_offset = 0; dst_offset <= 16; ++dst_offset) {
            for (std::size_t bit_size = 0; bit_size <= 90; ++bit_size) {
                // Destination pre-filled so that bits outside the copied range are checked too.
                std::vector<std::uint8_t> expected(16, 0xA5), actual(16, 0xA5);
                copy_bits_reference(src.data(), src_offset, expected.data(), dst_offset, bit_size);
                copy_bits(src.data(), src_offset, actual.data(), dst_offset, bit_size);
                ASSERT_EQ(actual, expected)
                    << "src_offset " << src_offset << " dst_offset " << dst_offset << " bits " << bit_size;
            }
        }
    }
}

TEST_F(Binary, CopyBitsOutOfAnUnalignedSubBinaryReadsItsBits) {
    Term owner = binary(byte_pattern(80));
    Term sub = make_sub_binary(p, owner, 13, 8 * 40 + 6);
    BitView v = bit_view(sub);
    std::vector<std::uint8_t> out(42, 0);
    copy_bits(v.bytes, v.bit_offset, out.data(), 2, v.bit_size);
    std::vector<int> copied;
    for (std::size_t i = 0; i < v.bit_size; ++i) copied.push_back(bit_at(out.data(), 2 + i));
    EXPECT_EQ(copied, bits_of(v));
}

// The iolists of tests/e2e/drv/drv_port_trace, whose pieces erl 25 showed: a binary of more than
// 64 bytes is a piece of its own, bytes between them are copied into one, and a vector of 16
// pieces or more copies binaries under 256 bytes too.
TEST_F(Binary, IolistVectorCutsPiecesAsErtsPortOutputDoes) {
    auto list = [&](std::vector<Term> items) {
        Term l = NIL;
        for (auto it = items.rbegin(); it != items.rend(); ++it) l = make_cons_on(p->alloc(2), *it, l);
        return l;
    };
    auto pieces = [&](Term data) {
        std::string bytes;
        std::vector<std::size_t> ends;
        EXPECT_TRUE(iolist_vector(data, &bytes, &ends));
        std::vector<std::size_t> sizes;
        for (std::size_t i = 0, from = 0; i < ends.size(); from = ends[i++]) sizes.push_back(ends[i] - from);
        return sizes;
    };
    Term big = binary(std::vector<std::uint8_t>(512, 1));
    Term mid = binary(std::vector<std::uint8_t>(256, 2));
    Term small = binary(std::vector<std::uint8_t>(100, 3));
    Term one = binary({0});
    using Sizes = std::vector<std::size_t>;
    EXPECT_EQ(pieces(list({one, big, mid, one})), (Sizes{1, 512, 256, 1}));
    EXPECT_EQ(pieces(list({make_small(1), make_small(2), binary({'a', 'b', 'c'}), big,
                           make_cons_on(p->alloc(2), make_small(4), binary({5}))})),
              (Sizes{5, 512, 2}));
    EXPECT_EQ(pieces(NIL), Sizes{});
    EXPECT_EQ(pieces(list({small, small, big})), (Sizes{100, 100, 512}));
    std::vector<Term> twenty, eighteen;
    for (int i = 0; i < 10; ++i) twenty.insert(twenty.end(), {big, make_small(7)});
    for (int i = 0; i < 6; ++i) eighteen.insert(eighteen.end(), {small, big, make_small(9)});
    Sizes alternating;
    for (int i = 0; i < 10; ++i) alternating.insert(alternating.end(), {512, 1});
    EXPECT_EQ(pieces(list(twenty)), alternating);
    EXPECT_EQ(pieces(list(eighteen)), (Sizes{100, 512, 101, 512, 101, 512, 101, 512, 101, 512, 101, 512, 1}));
    // Not an iolist.
    std::string bytes;
    std::vector<std::size_t> ends;
    EXPECT_FALSE(iolist_vector(list({atom("x")}), &bytes, &ends));
}

}  // namespace
}  // namespace beamlet::vm
