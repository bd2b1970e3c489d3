// dist/packet.hpp — the packets of a connection to another node: a control message and its
// payload (a message, an exit reason) as bytes, both ways (erl_dist_protocol's "Protocol
// between Connected Nodes", erl_ext_dist's distribution header).
//
// Two formats, chosen by the flags the handshake agreed:
// - pass-through: 'p', then the control message and the payload as term_to_binary writes them;
// - with a distribution header (DFLAG_DIST_HDR_ATOM_CACHE or DFLAG_FRAGMENTS, which OTP's
//   nodes offer): 131 'D', the message's atom cache references, then both terms without their
//   version bytes, atoms written as ATOM_CACHE_REF where the header names them. Each side keeps
//   a cache of 2048 atoms for the connection: an atom the peer has cached costs two bytes. A
//   message larger than FRAGMENT_SIZE goes as fragments: 131 'E' (sequence, count, the atom
//   cache part) with the control message and the start of the payload, then 131 'F'
//   (sequence, count left) with the rest, count down to 1.
//
// This is where bytes from another node are read: the reader answers a well-formed control
// message (a tuple of the shape its operation has) with its payload, or says the packet is
// bad — and the connection goes. tests/fuzz/fuzz_dist_packet.cpp feeds it garbage.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "vm/external_term.hpp"
#include "vm/port_driver.hpp"
#include "vm/term.hpp"

namespace beamlet::vm {
struct HeapFragment;
struct Vm;
}  // namespace beamlet::vm

namespace beamlet::dist {

using vm::SWord;
using vm::Term;

// The control messages' operations (OTP's DOP_*, erts/emulator/beam/dist.h).
enum Op : SWord {
    LINK = 1,
    SEND = 2,
    EXIT = 3,
    UNLINK = 4,
    REG_SEND = 6,
    GROUP_LEADER = 7,
    EXIT2 = 8,
    SEND_TT = 12,
    EXIT_TT = 13,
    REG_SEND_TT = 16,
    EXIT2_TT = 18,
    MONITOR_P = 19,
    DEMONITOR_P = 20,
    MONITOR_P_EXIT = 21,
    SEND_SENDER = 22,
    SEND_SENDER_TT = 23,
    PAYLOAD_EXIT = 24,
    PAYLOAD_EXIT_TT = 25,
    PAYLOAD_EXIT2 = 26,
    PAYLOAD_EXIT2_TT = 27,
    PAYLOAD_MONITOR_P_EXIT = 28,
    SPAWN_REQUEST = 29,
    SPAWN_REQUEST_TT = 30,
    SPAWN_REPLY = 31,
    SPAWN_REPLY_TT = 32,
    ALIAS_SEND = 33,
    ALIAS_SEND_TT = 34,
    UNLINK_ID = 35,
    UNLINK_ID_ACK = 36,
};

// The operation of control message [control], false if it is not a tuple that starts with one.
bool operation_of(Term control, SWord* op);

inline constexpr std::size_t ATOM_CACHE_SIZE = 2048;        // 8 segments of 256
inline constexpr std::size_t MAX_ATOM_CACHE_REFS = 255;     // per message
inline constexpr std::size_t FRAGMENT_SIZE = 64 * 1024;     // bytes of a message per fragment

// Whether [flags] (the connection's) call for distribution headers rather than pass-through.
bool uses_headers(std::uint64_t flags);

// Writes a connection's control messages (under the connection's lock: one writer, in order).
// Before the handshake's flags are known the messages wait in the writer, encoded without
// version bytes or atom cache; start() gives them their headers.
class PacketWriter final : public vm::AtomCacheRefs {
public:
    PacketWriter();

    // The connection is up with [flags]: the messages written before go to [out] first.
    void start(std::uint64_t flags, std::vector<vm::RuntimePacket>* out);
    bool started() const { return m_started; }
    // Messages waiting for start().
    std::size_t waiting() const { return m_deferred.size(); }

    // The packets of [control] with [payload] (THE_NON_VALUE: none), appended to [out]
    // (kept in the writer until start()).
    void write(Term control, Term payload, std::vector<vm::RuntimePacket>* out);

    int ref(Term atom) override;

private:
    // The distribution header of the message just encoded: 'D', or 'E' with [sequence] and
    // [fragments], then its atom cache references.
    std::string header(std::uint64_t sequence, std::uint64_t fragments) const;
    // [body] (its payload at [payload_at]) as packets with headers.
    void packets(std::shared_ptr<const std::string> body, std::size_t payload_at, std::vector<vm::RuntimePacket>* out);

    struct Ref {
        Term atom;
        std::uint16_t index;  // in the cache
        bool fresh;           // the peer learns it with this message
    };
    struct Deferred {
        std::string body;
        std::size_t payload_at;
    };

    bool m_started = false;
    bool m_headers = false;    // distribution headers rather than pass-through
    bool m_fragments = false;  // large messages in fragments
    std::uint64_t m_next_sequence = 1;
    std::array<Term, ATOM_CACHE_SIZE> m_cache{};          // what the peer caches at each index (0: nothing)
    std::array<std::int16_t, ATOM_CACHE_SIZE> m_ref_of;   // the current message's ref at each index, or -1
    std::vector<Ref> m_refs;                              // the current message's references
    std::vector<Deferred> m_deferred;
};

// Reads a connection's packets (in the port's turn: one reader at a time).
class PacketReader {
public:
    explicit PacketReader(vm::Vm& vm) : m_vm(vm) {}
    ~PacketReader();
    PacketReader(const PacketReader&) = delete;
    PacketReader& operator=(const PacketReader&) = delete;

    // The connection is up with [flags].
    void start(std::uint64_t flags);

    struct Message {
        Term control = vm::THE_NON_VALUE;
        Term payload = vm::THE_NON_VALUE;  // none: THE_NON_VALUE
        SWord op = 0;
        vm::HeapFragment* control_heap = nullptr;  // the caller's to free
        vm::HeapFragment* payload_heap = nullptr;  // the caller's to free or hand over
    };
    enum class Result {
        Message,  // [*message] is a well-formed control message
        Partial,  // a fragment: the message is not complete yet
        Bad,      // garbage ([*why] says what): the connection is to go
    };
    // Reads one packet (not empty: an empty packet is a tick).
    Result read(std::span<const std::uint8_t> packet, Message* message, std::string* why);

    // Fragmented messages being put together.
    std::size_t partial_messages() const { return m_partial.size(); }

private:
    // The atom cache part of a header at [at]: its references into [refs], the cache
    // updated. False: it is not one.
    bool atom_cache_refs(std::span<const std::uint8_t> packet, std::size_t* at, std::vector<Term>* refs);
    // The control message at the start of [bytes] (a message's after its header, or its
    // first fragment's: OTP's nodes read the control message from there).
    bool control(std::span<const std::uint8_t> bytes, std::span<const Term> refs, vm::DecodeResult* control,
                 std::string* why);
    // The message of [control] with the payload in [rest] (none if it is empty).
    Result message(vm::DecodeResult& control, std::span<const std::uint8_t> rest, std::span<const Term> refs,
                   Message* message, std::string* why);

    // A fragmented message: its control message, and its payload's bytes so far.
    struct Partial {
        std::vector<Term> refs;
        vm::DecodeResult control;
        std::string payload;
        std::uint64_t left;  // the id of the last fragment in (the next one is left - 1)
    };

    vm::Vm& m_vm;
    bool m_headers = false;
    bool m_fragments = false;
    std::array<Term, ATOM_CACHE_SIZE> m_cache{};
    std::unordered_map<std::uint64_t, Partial> m_partial;
};

}  // namespace beamlet::dist
