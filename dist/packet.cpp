// dist/packet.cpp — a connection's packets as bytes, both ways (dist/packet.hpp).
#include "dist/packet.hpp"

#include <algorithm>

#include "dist/distribution.hpp"
#include "vm/atom_table.hpp"
#include "vm/heap.hpp"
#include "vm/utf8.hpp"

namespace beamlet::dist {

using namespace vm;

namespace {

constexpr char PASS_THROUGH = 'p';
constexpr std::uint8_t VERSION = 131;
constexpr std::uint8_t DIST_HEADER = 'D', DIST_FRAG_HEADER = 'E', DIST_FRAG_CONT = 'F';
// Of a reference's half-byte flags: the atom is new to the cache; the low three bits are the
// cache segment.
constexpr unsigned NEW_CACHE_ENTRY = 8;
// Of the half-byte after them: atom texts have two-byte lengths.
constexpr unsigned LONG_ATOMS = 1;

void put_u64(std::string& out, std::uint64_t v) {
    for (int shift = 56; shift >= 0; shift -= 8) out.push_back(char((v >> shift) & 0xFF));
}

std::uint64_t get_u64(const std::uint8_t* p) {
    std::uint64_t v = 0;
    for (int i = 0; i < 8; ++i) v = (v << 8) | p[i];
    return v;
}

// The cache index an atom goes to (any function of the atom will do: the index travels).
std::uint16_t cache_index(Term atom) { return std::uint16_t((atom >> TAG_IMMED2_SIZE) % ATOM_CACHE_SIZE); }

// Whether [control] (with [payload], THE_NON_VALUE when none) has the shape of a control
// message of operation [op] (OTP's table of DOP_* tuples): anything else is invalid data, and
// the connection goes, as OTP drops it.
bool well_formed(SWord op, Term control, Term payload) {
    Word arity = tuple_arity(control);
    auto el = [&](Word i) { return tuple_element(control, i); };
    bool has_payload = payload != THE_NON_VALUE;
    auto pids = [&](Word from, Word to) { return is_any_pid(el(from)) && is_any_pid(el(to)); };
    switch (op) {
    case LINK:
    case UNLINK:
    case GROUP_LEADER: return arity == 3 && pids(1, 2);
    case SEND: return arity == 3 && has_payload && is_any_pid(el(2));
    case SEND_TT: return arity == 4 && has_payload && is_any_pid(el(2));
    case SEND_SENDER:
    case PAYLOAD_EXIT:
    case PAYLOAD_EXIT2: return arity == 3 && has_payload && pids(1, 2);
    case SEND_SENDER_TT:
    case PAYLOAD_EXIT_TT:
    case PAYLOAD_EXIT2_TT: return arity == 4 && has_payload && pids(1, 2);
    case EXIT:
    case EXIT2: return arity == 4 && pids(1, 2);
    case EXIT_TT:
    case EXIT2_TT: return arity == 5 && pids(1, 2);
    case REG_SEND: return arity == 4 && has_payload && is_any_pid(el(1)) && is_atom(el(3));
    case REG_SEND_TT: return arity == 5 && has_payload && is_any_pid(el(1)) && is_atom(el(3));
    case MONITOR_P:
    case DEMONITOR_P:
        return arity == 4 && is_any_pid(el(1)) && (is_any_pid(el(2)) || is_atom(el(2))) && is_any_ref(el(3));
    case MONITOR_P_EXIT:
        return arity == 5 && (is_any_pid(el(1)) || is_atom(el(1))) && is_any_pid(el(2)) && is_any_ref(el(3));
    case PAYLOAD_MONITOR_P_EXIT:
        return arity == 4 && has_payload && (is_any_pid(el(1)) || is_atom(el(1))) && is_any_pid(el(2)) &&
               is_any_ref(el(3));
    case SPAWN_REQUEST:
    case SPAWN_REQUEST_TT:
        return arity == (op == SPAWN_REQUEST ? 6u : 7u) && has_payload && is_any_ref(el(1)) && is_any_pid(el(2)) &&
               is_any_pid(el(3)) && is_tuple(el(4)) && tuple_arity(el(4)) == 3;
    case SPAWN_REPLY: return arity == 5 && is_any_ref(el(1)) && is_any_pid(el(2)) && is_small(el(3));
    case SPAWN_REPLY_TT: return arity == 6 && is_any_ref(el(1)) && is_any_pid(el(2)) && is_small(el(3));
    case ALIAS_SEND: return arity == 3 && has_payload && is_any_pid(el(1)) && is_any_ref(el(2));
    case ALIAS_SEND_TT: return arity == 4 && has_payload && is_any_pid(el(1)) && is_any_ref(el(2));
    case UNLINK_ID:
    case UNLINK_ID_ACK: return arity == 4 && pids(2, 3);
    default: return false;
    }
}

}  // namespace

bool operation_of(Term control, SWord* op) {
    if (!is_tuple(control) || tuple_arity(control) < 1 || !is_small(tuple_element(control, 0))) return false;
    *op = small_value(tuple_element(control, 0));
    return true;
}

bool uses_headers(std::uint64_t flags) { return flags & (dflag::DIST_HDR_ATOM_CACHE | dflag::FRAGMENTS); }

// ---- writing ----

PacketWriter::PacketWriter() { m_ref_of.fill(-1); }

void PacketWriter::start(std::uint64_t flags, std::vector<RuntimePacket>* out) {
    m_started = true;
    m_headers = uses_headers(flags);
    m_fragments = flags & dflag::FRAGMENTS;
    for (Deferred& d : m_deferred) {
        if (m_headers) {
            // Encoded as terms after a header (no version bytes, no cached atoms): a header
            // with no references is all they need.
            packets(std::make_shared<const std::string>(std::move(d.body)), d.payload_at, out);
            continue;
        }
        RuntimePacket packet;
        packet.head.assign({PASS_THROUGH, char(VERSION)});
        std::string body = d.body.substr(0, d.payload_at);
        if (d.payload_at < d.body.size()) {
            body.push_back(char(VERSION));
            body.append(d.body, d.payload_at);
        }
        packet.to = body.size();
        packet.body = std::make_shared<const std::string>(std::move(body));
        out->push_back(std::move(packet));
    }
    m_deferred.clear();
}

int PacketWriter::ref(Term atom) {
    std::uint16_t index = cache_index(atom);
    if (std::int16_t r = m_ref_of[index]; r >= 0) return m_refs[std::size_t(r)].atom == atom ? r : -1;
    if (m_refs.size() == MAX_ATOM_CACHE_REFS) return -1;
    bool fresh = m_cache[index] != atom;
    m_cache[index] = atom;
    m_ref_of[index] = std::int16_t(m_refs.size());
    m_refs.push_back({atom, index, fresh});
    return int(m_refs.size() - 1);
}

std::string PacketWriter::header(std::uint64_t sequence, std::uint64_t fragments) const {
    std::string h;
    h.push_back(char(VERSION));
    if (fragments) {
        h.push_back(char(DIST_FRAG_HEADER));
        put_u64(h, sequence);
        put_u64(h, fragments);
    } else {
        h.push_back(char(DIST_HEADER));
    }
    std::size_t n = m_refs.size();
    h.push_back(char(n));
    if (n == 0) return h;
    bool long_atoms = std::any_of(m_refs.begin(), m_refs.end(), [](const Ref& r) {
        return r.fresh && atom_text(r.atom).size() > 255;
    });
    // A half byte per reference (new entry flag, segment), then the long-atoms one.
    std::size_t flags_at = h.size();
    h.append(n / 2 + 1, '\0');
    auto nibble = [&](std::size_t i, unsigned v) { h[flags_at + i / 2] = char(h[flags_at + i / 2] | (v << (4 * (i % 2)))); };
    for (std::size_t i = 0; i < n; ++i) nibble(i, (m_refs[i].fresh ? NEW_CACHE_ENTRY : 0) | unsigned(m_refs[i].index >> 8));
    nibble(n, long_atoms ? LONG_ATOMS : 0);
    for (const Ref& r : m_refs) {
        h.push_back(char(r.index & 0xFF));
        if (!r.fresh) continue;
        const std::string& text = atom_text(r.atom);
        if (long_atoms) h.push_back(char(text.size() >> 8));
        h.push_back(char(text.size() & 0xFF));
        h.append(text);
    }
    return h;
}

void PacketWriter::packets(std::shared_ptr<const std::string> body, std::size_t payload_at,
                           std::vector<RuntimePacket>* out) {
    std::size_t size = body->size();
    if (!m_fragments || size <= FRAGMENT_SIZE) {
        out->push_back({header(0, 0), std::move(body), 0, size});
        return;
    }
    // The first fragment holds the whole control message (the receiver reads it from there);
    // the rest go FRAGMENT_SIZE at a time.
    std::size_t first = std::max(FRAGMENT_SIZE, payload_at);
    std::uint64_t count = 1 + (size - first + FRAGMENT_SIZE - 1) / FRAGMENT_SIZE;
    std::uint64_t sequence = m_next_sequence++;
    out->push_back({header(sequence, count), body, 0, first});
    for (std::size_t from = first, left = count - 1; from < size; from += FRAGMENT_SIZE, --left) {
        RuntimePacket cont;
        cont.head.assign({char(VERSION), char(DIST_FRAG_CONT)});
        put_u64(cont.head, sequence);
        put_u64(cont.head, left);
        cont.body = body;
        cont.from = from;
        cont.to = std::min(size, from + FRAGMENT_SIZE);
        out->push_back(std::move(cont));
    }
}

void PacketWriter::write(Term control, Term payload, std::vector<RuntimePacket>* out) {
    if (m_started && !m_headers) {
        auto body = std::make_shared<std::string>();
        encode_external(control, EncodeOptions{}, body.get());
        if (payload != THE_NON_VALUE) encode_external(payload, EncodeOptions{}, body.get());
        out->push_back({std::string(1, PASS_THROUGH), body, 0, body->size()});
        return;
    }
    EncodeOptions options;
    options.version_byte = false;
    options.atom_refs = m_started ? this : nullptr;  // before start: no cache to refer to
    auto body = std::make_shared<std::string>();
    encode_external(control, options, body.get());
    std::size_t payload_at = body->size();
    if (payload != THE_NON_VALUE) encode_external(payload, options, body.get());
    if (!m_started) {
        m_deferred.push_back({std::move(*body), payload_at});
        return;
    }
    packets(std::move(body), payload_at, out);
    for (const Ref& r : m_refs) m_ref_of[r.index] = -1;
    m_refs.clear();
}

// ---- reading ----

void PacketReader::start(std::uint64_t flags) {
    m_headers = uses_headers(flags);
    m_fragments = flags & dflag::FRAGMENTS;
}

bool PacketReader::atom_cache_refs(std::span<const std::uint8_t> packet, std::size_t* at, std::vector<Term>* refs) {
    std::size_t i = *at;
    auto have = [&](std::size_t n) { return n <= packet.size() - i; };
    if (!have(1)) return false;
    std::size_t n = packet[i++];
    if (n == 0) {
        *at = i;
        return true;
    }
    std::size_t flag_bytes = n / 2 + 1;
    if (!have(flag_bytes)) return false;
    std::size_t flags_at = i;
    auto nibble = [&](std::size_t k) { return unsigned(packet[flags_at + k / 2] >> (4 * (k % 2))) & 0xF; };
    bool long_atoms = nibble(n) & LONG_ATOMS;
    i += flag_bytes;
    refs->reserve(n);
    for (std::size_t k = 0; k < n; ++k) {
        unsigned f = nibble(k);
        if (!have(1)) return false;
        std::size_t index = ((f & 7) << 8) | packet[i++];
        if (!(f & NEW_CACHE_ENTRY)) {
            if (!m_cache[index]) return false;  // nothing cached there
            refs->push_back(m_cache[index]);
            continue;
        }
        std::size_t len;
        if (long_atoms) {
            if (!have(2)) return false;
            len = (std::size_t(packet[i]) << 8) | packet[i + 1];
            i += 2;
        } else {
            if (!have(1)) return false;
            len = packet[i++];
        }
        if (!have(len) || !utf8_valid(packet.data() + i, len)) return false;
        std::optional<Term> a = AtomTable::global().intern(std::string_view(reinterpret_cast<const char*>(packet.data() + i), len));
        if (!a) return false;  // too long for an atom
        i += len;
        m_cache[index] = *a;
        refs->push_back(*a);
    }
    *at = i;
    return true;
}

PacketReader::~PacketReader() {
    for (auto& [sequence, p] : m_partial) free_fragment(p.control.fragment);
}

PacketReader::Result PacketReader::read(std::span<const std::uint8_t> packet, Message* message, std::string* why) {
    DecodeResult control;
    if (!m_headers) {
        if (packet.empty() || packet[0] != std::uint8_t(PASS_THROUGH)) {
            *why = "no pass-through byte";
            return Result::Bad;
        }
        if (!this->control(packet.subspan(1), {}, &control, why)) return Result::Bad;
        return this->message(control, packet.subspan(1 + control.used), {}, message, why);
    }
    if (packet.size() < 2 || packet[0] != VERSION) {
        *why = "no distribution header";
        return Result::Bad;
    }
    std::uint8_t kind = packet[1];
    std::size_t at = 2;
    std::vector<Term> refs;
    if (kind == DIST_HEADER) {
        if (!atom_cache_refs(packet, &at, &refs)) {
            *why = "a corrupted distribution header";
            return Result::Bad;
        }
        if (!this->control(packet.subspan(at), refs, &control, why)) return Result::Bad;
        return this->message(control, packet.subspan(at + control.used), refs, message, why);
    }
    if ((kind != DIST_FRAG_HEADER && kind != DIST_FRAG_CONT) || !m_fragments || packet.size() < 18) {
        *why = "a corrupted distribution header";
        return Result::Bad;
    }
    std::uint64_t sequence = get_u64(packet.data() + 2), fragment = get_u64(packet.data() + 10);
    at = 18;
    if (fragment == 0) {
        *why = "fragment 0";
        return Result::Bad;
    }
    if (kind == DIST_FRAG_HEADER) {
        if (m_partial.contains(sequence) || !atom_cache_refs(packet, &at, &refs)) {
            *why = "a corrupted distribution header";
            return Result::Bad;
        }
        if (!this->control(packet.subspan(at), refs, &control, why)) return Result::Bad;
        std::span<const std::uint8_t> rest = packet.subspan(at + control.used);
        if (fragment == 1) return this->message(control, rest, refs, message, why);
        Partial& p = m_partial[sequence];
        p.refs = std::move(refs);
        p.control = std::move(control);
        // Room for the fragments to come, at the size of this one (the usual case: one
        // copy each, no growing; capped, as the count is the peer's word).
        p.payload.reserve(std::min<std::uint64_t>(fragment, 1024) * (packet.size() - at));
        p.payload.assign(reinterpret_cast<const char*>(rest.data()), rest.size());
        p.left = fragment;
        return Result::Partial;
    }
    auto it = m_partial.find(sequence);
    if (it == m_partial.end() || fragment != it->second.left - 1) {
        *why = "a fragment out of sequence";
        return Result::Bad;
    }
    Partial& p = it->second;
    p.payload.append(reinterpret_cast<const char*>(packet.data() + at), packet.size() - at);
    p.left = fragment;
    if (fragment > 1) return Result::Partial;
    Partial whole = std::move(p);
    m_partial.erase(it);
    return this->message(whole.control, std::span(reinterpret_cast<const std::uint8_t*>(whole.payload.data()), whole.payload.size()),
                         whole.refs, message, why);
}

bool PacketReader::control(std::span<const std::uint8_t> bytes, std::span<const Term> refs, DecodeResult* control,
                           std::string* why) {
    *control = m_headers ? decode_dist_term(DecodeTarget::fragment(m_vm), bytes, refs)
                         : decode_external(DecodeTarget::fragment(m_vm), bytes, false);
    SWord op;
    if (control->status == DecodeStatus::Ok && operation_of(control->term, &op)) return true;
    *why = control->status != DecodeStatus::Ok ? "a corrupted control message: " + control->error
                                               : "a control message that is not one";
    free_fragment(control->fragment);
    control->fragment = nullptr;
    return false;
}

PacketReader::Result PacketReader::message(DecodeResult& control, std::span<const std::uint8_t> rest,
                                           std::span<const Term> refs, Message* message, std::string* why) {
    DecodeResult payload;
    payload.term = THE_NON_VALUE;
    if (!rest.empty()) {
        payload = m_headers ? decode_dist_term(DecodeTarget::fragment(m_vm), rest, refs)
                            : decode_external(DecodeTarget::fragment(m_vm), rest, false);
        if (payload.status != DecodeStatus::Ok) {
            free_fragment(control.fragment);
            free_fragment(payload.fragment);
            *why = "a corrupted payload: " + payload.error;
            return Result::Bad;
        }
    }
    SWord op = 0;
    operation_of(control.term, &op);
    if (!well_formed(op, control.term, payload.term)) {
        free_fragment(control.fragment);
        free_fragment(payload.fragment);
        *why = "a malformed control message";
        return Result::Bad;
    }
    message->control = control.term;
    message->payload = payload.term;
    message->op = op;
    message->control_heap = control.fragment;
    message->payload_heap = payload.fragment;
    return Result::Message;
}

}  // namespace beamlet::dist
