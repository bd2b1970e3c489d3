// tests/fuzz/fuzz_dist_packet.cpp — what another node sends on an established connection
// (dist/packet.hpp's reader): the input's first byte picks the flags the handshake agreed
// (bit 0: distribution headers, bit 1: fragments), the rest is packets, each a two-byte
// length and its bytes. The reader reads them in turn until one is bad (the connection would
// go). A message it accepts must survive the way out: written by a writer with the same
// flags and read back by a fresh reader, it is the same control message and payload.
#include <cstdint>
#include <span>
#include <vector>

#include "dist/distribution.hpp"
#include "dist/packet.hpp"
#include "tests/fuzz/fuzz_support.hpp"
#include "vm/heap.hpp"
#include "vm/term_order.hpp"

namespace {

using namespace beamlet;

void round_trip(vm::Vm& vm, std::uint64_t flags, const dist::PacketReader::Message& m) {
    dist::PacketWriter writer;
    std::vector<vm::RuntimePacket> out;
    writer.start(flags, &out);
    writer.write(m.control, m.payload, &out);
    dist::PacketReader reader(vm);
    reader.start(flags);
    dist::PacketReader::Message again;
    std::string why;
    for (std::size_t i = 0; i < out.size(); ++i) {
        std::string bytes = out[i].head;
        bytes.append(out[i].body_bytes());
        auto result = reader.read(std::span(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size()), &again, &why);
        auto expected = i + 1 < out.size() ? dist::PacketReader::Result::Partial : dist::PacketReader::Result::Message;
        if (result != expected) fuzz::fail("the reader refused what the writer wrote");
    }
    bool same = vm::terms_exact_equal(again.control, m.control) &&
                (m.payload == vm::THE_NON_VALUE ? again.payload == vm::THE_NON_VALUE
                                                : vm::terms_exact_equal(again.payload, m.payload));
    vm::free_fragment(again.control_heap);
    vm::free_fragment(again.payload_heap);
    if (!same) fuzz::fail("a control message changed on its way out and back");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    vm::Vm& vm = fuzz::runtime().vm();
    if (size < 1) return 0;
    std::uint64_t flags = dist::dflag::MANDATORY;
    if (data[0] & 1) flags |= dist::dflag::DIST_HDR_ATOM_CACHE;
    if (data[0] & 2) flags |= dist::dflag::FRAGMENTS;
    dist::PacketReader reader(vm);
    reader.start(flags);
    for (std::size_t at = 1; at + 2 <= size;) {
        std::size_t n = (std::size_t(data[at]) << 8) | data[at + 1];
        at += 2;
        if (n > size - at || n == 0) break;  // (an empty packet is a tick, not the reader's)
        dist::PacketReader::Message m;
        std::string why;
        auto result = reader.read(std::span(data + at, n), &m, &why);
        at += n;
        if (result == dist::PacketReader::Result::Bad) break;
        if (result == dist::PacketReader::Result::Partial) continue;
        round_trip(vm, flags, m);
        vm::free_fragment(m.control_heap);
        vm::free_fragment(m.payload_heap);
    }
    return 0;
}
