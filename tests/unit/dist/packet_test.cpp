// tests/unit/dist/packet_test.cpp — a connection's packets (dist/packet.hpp): what the writer
// makes, the reader gives back — with the atom cache filling up across messages, fragments of
// a large message, messages written before the flags were known, pass-through for a peer
// without headers — and the reader refuses headers that lie. Against erl the same packets
// run end to end in tests/e2e/dist.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "dist/distribution.hpp"
#include "dist/packet.hpp"
#include "tools/boot.hpp"
#include "vm/atom_table.hpp"
#include "vm/binary.hpp"
#include "vm/heap.hpp"
#include "vm/process.hpp"
#include "vm/term_order.hpp"

namespace beamlet::dist {
namespace {

using vm::RuntimePacket;

struct PacketTest : ::testing::Test {
    static tools::Runtime& runtime() {
        static tools::Runtime* the_runtime = [] {
            tools::BootOptions options;
            options.schedulers = 1;
            return new tools::Runtime(options);
        }();
        return *the_runtime;
    }
    vm::Vm& vm = runtime().vm();
    std::unique_ptr<vm::Process> p = std::make_unique<vm::Process>(vm, 1);

    Term tuple(std::initializer_list<Term> elements) {
        Term* hp = p->alloc(elements.size() + 1);
        hp[0] = vm::make_arityval(elements.size());
        std::copy(elements.begin(), elements.end(), hp + 1);
        return vm::make_boxed(hp);
    }
    Term list(std::initializer_list<Term> elements) {
        Term l = vm::NIL;
        for (auto it = std::rbegin(elements); it != std::rend(elements); ++it) {
            Term* hp = p->alloc(2);
            l = vm::make_cons_on(hp, *it, l);
        }
        return l;
    }
    Term remote_pid() {
        Term* hp = p->alloc(vm::EXTERNAL_PID_WORDS);
        return vm::make_external_pid_on(hp, vm::atom("unit_packet_peer@host"), 7, 83, 0);
    }
    // SEND_SENDER from one of the peer's processes to [p].
    Term send_control() { return tuple({vm::make_small(SEND_SENDER), remote_pid(), p->id}); }

    static std::string bytes_of(const RuntimePacket& packet) {
        std::string bytes = packet.head;
        bytes.append(packet.body_bytes());
        return bytes;
    }
    // Reads [packets] in turn: every one but the last is a fragment, the last the message.
    PacketReader::Message read_all(PacketReader& reader, const std::vector<RuntimePacket>& packets) {
        PacketReader::Message m;
        std::string why;
        for (std::size_t i = 0; i < packets.size(); ++i) {
            std::string bytes = bytes_of(packets[i]);
            auto result = reader.read(std::span(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size()), &m, &why);
            EXPECT_EQ(result, i + 1 < packets.size() ? PacketReader::Result::Partial : PacketReader::Result::Message) << why;
        }
        return m;
    }
    void expect_round_trip(PacketWriter& writer, PacketReader& reader, Term control, Term payload,
                           std::size_t* packet_bytes = nullptr) {
        std::vector<RuntimePacket> out;
        writer.write(control, payload, &out);
        ASSERT_FALSE(out.empty());
        if (packet_bytes) *packet_bytes = out[0].size();
        PacketReader::Message m = read_all(reader, out);
        ASSERT_NE(m.control, vm::THE_NON_VALUE);
        EXPECT_TRUE(vm::terms_exact_equal(m.control, control));
        EXPECT_TRUE(payload == vm::THE_NON_VALUE ? m.payload == vm::THE_NON_VALUE
                                                 : vm::terms_exact_equal(m.payload, payload));
        vm::free_fragment(m.control_heap);
        vm::free_fragment(m.payload_heap);
    }
    PacketReader::Result read_bytes(PacketReader& reader, const std::string& bytes, std::string* why) {
        PacketReader::Message m;
        auto result = reader.read(std::span(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size()), &m, why);
        vm::free_fragment(m.control_heap);
        vm::free_fragment(m.payload_heap);
        return result;
    }
};

TEST_F(PacketTest, AtomsTheCacheHoldsCostTwoBytes) {
    PacketWriter writer;
    PacketReader reader(vm);
    std::vector<RuntimePacket> none;
    writer.start(dflag::DEFAULT, &none);
    reader.start(dflag::DEFAULT);
    Term payload = tuple({vm::atom("a_long_atom_for_the_atom_cache"), vm::atom("another_long_one_to_cache"),
                          list({vm::atom("x"), vm::make_small(1)})});
    std::size_t first = 0, second = 0;
    expect_round_trip(writer, reader, send_control(), payload, &first);
    expect_round_trip(writer, reader, send_control(), payload, &second);
    // The second time, the atoms (the peer's node name among them) are references only.
    EXPECT_LT(second + 50, first);
}

TEST_F(PacketTest, AtomsThatShareACacheIndexInOneMessage) {
    // Two atoms with the same index: the second is written out in full.
    Term a = vm::atom("unit_packet_collide_0");
    Term b = 0;
    for (int i = 1; !b; ++i) {
        Term t = vm::atom("unit_packet_collide_" + std::to_string(i));
        if (((t ^ a) >> vm::TAG_IMMED2_SIZE) % ATOM_CACHE_SIZE == 0) b = t;
    }
    PacketWriter writer;
    PacketReader reader(vm);
    std::vector<RuntimePacket> none;
    writer.start(dflag::DEFAULT, &none);
    reader.start(dflag::DEFAULT);
    expect_round_trip(writer, reader, send_control(), list({a, b, a, b}));
    expect_round_trip(writer, reader, send_control(), list({b, a}));
}

TEST_F(PacketTest, MoreAtomsThanAHeaderCanName) {
    PacketWriter writer;
    PacketReader reader(vm);
    std::vector<RuntimePacket> none;
    writer.start(dflag::DEFAULT, &none);
    reader.start(dflag::DEFAULT);
    Term l = vm::NIL;
    for (int i = 0; i < 600; ++i) {
        Term* hp = p->alloc(2);
        l = vm::make_cons_on(hp, vm::atom("unit_packet_many_" + std::to_string(i)), l);
    }
    expect_round_trip(writer, reader, send_control(), l);
    expect_round_trip(writer, reader, send_control(), l);
}

TEST_F(PacketTest, ALargeMessageGoesInFragments) {
    PacketWriter writer;
    PacketReader reader(vm);
    std::vector<RuntimePacket> none;
    writer.start(dflag::DEFAULT, &none);
    reader.start(dflag::DEFAULT);
    std::string data(5 * FRAGMENT_SIZE / 2, 'x');
    for (std::size_t i = 0; i < data.size(); ++i) data[i] = char(i * 131 % 251);
    Term payload = tuple({vm::atom("big"), vm::make_binary(p.get(), data)});
    std::vector<RuntimePacket> out;
    writer.write(send_control(), payload, &out);
    ASSERT_EQ(out.size(), 3u);
    EXPECT_EQ(out[0].head.substr(0, 2), "\x83" "E");
    EXPECT_EQ(out[1].head, std::string("\x83" "F", 2) + std::string("\0\0\0\0\0\0\0\1\0\0\0\0\0\0\0\2", 16));
    EXPECT_EQ(out[1].body, out[0].body);  // one buffer for all of them
    PacketReader::Message m = read_all(reader, out);
    EXPECT_EQ(reader.partial_messages(), 0u);
    EXPECT_TRUE(vm::terms_exact_equal(m.payload, payload));
    vm::free_fragment(m.control_heap);
    vm::free_fragment(m.payload_heap);
    // A peer without fragments gets it in one piece.
    PacketWriter whole;
    PacketReader whole_reader(vm);
    whole.start(dflag::DEFAULT & ~dflag::FRAGMENTS, &none);
    whole_reader.start(dflag::DEFAULT & ~dflag::FRAGMENTS);
    out.clear();
    whole.write(send_control(), payload, &out);
    EXPECT_EQ(out.size(), 1u);
    m = read_all(whole_reader, out);
    EXPECT_TRUE(vm::terms_exact_equal(m.payload, payload));
    vm::free_fragment(m.control_heap);
    vm::free_fragment(m.payload_heap);
}

TEST_F(PacketTest, FragmentsOfTwoMessagesInterleaved) {
    PacketWriter writer;
    PacketReader reader(vm);
    std::vector<RuntimePacket> none;
    writer.start(dflag::DEFAULT, &none);
    reader.start(dflag::DEFAULT);
    Term one = vm::make_binary(p.get(), std::string(2 * FRAGMENT_SIZE, '1'));
    Term two = vm::make_binary(p.get(), std::string(2 * FRAGMENT_SIZE, '2'));
    std::vector<RuntimePacket> a, b;
    writer.write(send_control(), one, &a);
    writer.write(send_control(), two, &b);
    ASSERT_EQ(a.size(), 3u);
    ASSERT_EQ(b.size(), 3u);
    std::vector<RuntimePacket> order = {a[0], b[0], a[1], b[1], b[2], a[2]};
    std::vector<Term> got;
    std::vector<vm::HeapFragment*> heaps;
    std::string why;
    for (const RuntimePacket& packet : order) {
        PacketReader::Message m;
        std::string bytes = bytes_of(packet);
        auto result = reader.read(std::span(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size()), &m, &why);
        ASSERT_NE(result, PacketReader::Result::Bad) << why;
        if (result == PacketReader::Result::Message) {
            got.push_back(m.payload);
            heaps.push_back(m.payload_heap);
            vm::free_fragment(m.control_heap);
        }
    }
    EXPECT_EQ(got.size(), 2u);
    if (got.size() == 2) {
        EXPECT_TRUE(vm::terms_exact_equal(got[0], two));
        EXPECT_TRUE(vm::terms_exact_equal(got[1], one));
    }
    for (vm::HeapFragment* h : heaps) vm::free_fragment(h);
}

TEST_F(PacketTest, MessagesWrittenBeforeTheHandshakeGetTheirHeadersAtStart) {
    for (std::uint64_t flags : {dflag::DEFAULT, dflag::DEFAULT & ~dflag::REJECTABLE}) {
        PacketWriter writer;
        PacketReader reader(vm);
        std::vector<RuntimePacket> out;
        Term payload = tuple({vm::atom("early"), vm::make_small(42)});
        writer.write(send_control(), payload, &out);
        writer.write(tuple({vm::make_small(LINK), remote_pid(), p->id}), vm::THE_NON_VALUE, &out);
        EXPECT_TRUE(out.empty());
        EXPECT_EQ(writer.waiting(), 2u);
        writer.start(flags, &out);
        reader.start(flags);
        ASSERT_EQ(out.size(), 2u);
        EXPECT_EQ(out[0].head[0], uses_headers(flags) ? '\x83' : 'p');
        PacketReader::Message m = read_all(reader, {out[0]});
        EXPECT_TRUE(vm::terms_exact_equal(m.payload, payload));
        vm::free_fragment(m.control_heap);
        vm::free_fragment(m.payload_heap);
        m = read_all(reader, {out[1]});
        EXPECT_EQ(m.op, LINK);
        EXPECT_EQ(m.payload, vm::THE_NON_VALUE);
        vm::free_fragment(m.control_heap);
        // And after start, as usual.
        expect_round_trip(writer, reader, send_control(), payload);
    }
}

TEST_F(PacketTest, HeadersThatLieAreRefused) {
    PacketReader reader(vm);
    reader.start(dflag::DEFAULT);
    std::string why;
    const std::string send_sender_to_pid = std::string("h\x03") + "a\x16";  // (the control's start)
    struct Case {
        const char* what;
        std::string bytes;
    } cases[] = {
        {"pass-through where headers were agreed", std::string("p\x83h\x01" "a\x01", 6)},
        {"a header that is cut", std::string("\x83" "D\x02", 3)},
        {"a reference to an empty cache entry", std::string("\x83" "D\x01\x00\x05" "R\x00", 7)},
        {"a reference past the header's", std::string("\x83" "D\x00" "R\x00", 5)},
        {"a new atom that is cut", std::string("\x83" "D\x01\x08\x05\x09" "abc", 8)},
        {"a version byte after the header", std::string("\x83" "D\x00\x83h\x01" "a\x01", 8)},
        {"a fragment of an unknown message", std::string("\x83" "F") + std::string(7, '\0') + "\x09" +
                                                 std::string(7, '\0') + "\x01" + send_sender_to_pid},
        {"fragment 0", std::string("\x83" "E") + std::string(7, '\0') + "\x09" + std::string(8, '\0') + std::string(1, '\0')},
    };
    for (const Case& c : cases) EXPECT_EQ(read_bytes(reader, c.bytes, &why), PacketReader::Result::Bad) << c.what;
    // A fragment that skips one; a first fragment with half a control message (OTP's nodes
    // read the control message from the first fragment).
    PacketWriter writer;
    std::vector<RuntimePacket> out;
    writer.start(dflag::DEFAULT, &out);
    writer.write(send_control(), vm::make_binary(p.get(), std::string(2 * FRAGMENT_SIZE + 1, 'z')), &out);
    ASSERT_EQ(out.size(), 3u);
    EXPECT_EQ(read_bytes(reader, bytes_of(out[0]), &why), PacketReader::Result::Partial);
    EXPECT_EQ(reader.partial_messages(), 1u);
    EXPECT_EQ(read_bytes(reader, bytes_of(out[2]), &why), PacketReader::Result::Bad);
    PacketReader fresh(vm);
    fresh.start(dflag::DEFAULT);
    std::string half = out[0].head + std::string(out[0].body_bytes().substr(0, 6));
    EXPECT_EQ(read_bytes(fresh, half, &why), PacketReader::Result::Bad);
    // Without fragments agreed, no fragment is one.
    PacketReader plain(vm);
    plain.start(dflag::DEFAULT & ~dflag::FRAGMENTS);
    EXPECT_EQ(read_bytes(plain, bytes_of(out[0]), &why), PacketReader::Result::Bad);
}

}  // namespace
}  // namespace beamlet::dist
