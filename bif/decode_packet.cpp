// bif/decode_packet.cpp — erlang:decode_packet/3: io/packet_parser's results as terms
// (after decode_packet_3 and its callbacks in OTP's erl_bif_port.c).
#include <string>
#include <vector>

#include "bif/bifs.hpp"
#include "io/packet_parser.hpp"
#include "io/packet_terms.hpp"
#include "vm/binary.hpp"

namespace beamlet::bif {

using namespace vm;
using io::PacketLength;
using io::PacketType;

namespace {

// The packet type named by [t], or false.
bool packet_type_of(Term t, PacketType* type) {
    BEAMLET_CACHED_ATOM(am_raw, "raw");
    BEAMLET_CACHED_ATOM(am_asn1, "asn1");
    BEAMLET_CACHED_ATOM(am_sunrm, "sunrm");
    BEAMLET_CACHED_ATOM(am_cdr, "cdr");
    BEAMLET_CACHED_ATOM(am_fcgi, "fcgi");
    BEAMLET_CACHED_ATOM(am_line, "line");
    BEAMLET_CACHED_ATOM(am_tpkt, "tpkt");
    BEAMLET_CACHED_ATOM(am_http, "http");
    BEAMLET_CACHED_ATOM(am_httph, "httph");
    BEAMLET_CACHED_ATOM(am_http_bin, "http_bin");
    BEAMLET_CACHED_ATOM(am_httph_bin, "httph_bin");
    BEAMLET_CACHED_ATOM(am_ssl_tls, "ssl_tls");
    const std::pair<Term, PacketType> names[] = {
        {make_small(0), PacketType::Raw},  {am_raw, PacketType::Raw},           {make_small(1), PacketType::One},
        {make_small(2), PacketType::Two},  {make_small(4), PacketType::Four},   {am_asn1, PacketType::Asn1},
        {am_sunrm, PacketType::SunRm},     {am_cdr, PacketType::Cdr},           {am_fcgi, PacketType::Fcgi},
        {am_line, PacketType::Line},       {am_tpkt, PacketType::Tpkt},         {am_http, PacketType::Http},
        {am_httph, PacketType::HttpH},     {am_http_bin, PacketType::HttpBin},  {am_httph_bin, PacketType::HttpHBin},
        {am_ssl_tls, PacketType::SslTls},
    };
    for (const auto& [name, value] : names) {
        if (t == name) {
            *type = value;
            return true;
        }
    }
    return false;
}

// Reads the option list [opts] into [limits]; false for anything OTP refuses: an option other
// than {packet_size | line_length, 0..2^32-1}, or {line_delimiter, 0..255} for line packets.
bool read_options(Term opts, PacketType type, io::PacketLimits* limits) {
    BEAMLET_CACHED_ATOM(am_packet_size, "packet_size");
    BEAMLET_CACHED_ATOM(am_line_length, "line_length");
    BEAMLET_CACHED_ATOM(am_line_delimiter, "line_delimiter");
    for (; is_list(opts); opts = cdr(opts)) {
        Term opt = car(opts);
        if (!is_tuple(opt) || tuple_arity(opt) != 2) return false;
        Term key = tuple_element(opt, 0), value = tuple_element(opt, 1);
        if (!is_small(value) || small_value(value) < 0 || small_value(value) > SWord(UINT32_MAX)) return false;
        auto v = std::uint32_t(small_value(value));
        if (key == am_packet_size) {
            limits->max_packet_bytes = v;
        } else if (key == am_line_length) {
            limits->max_line_bytes = v;
        } else if (key == am_line_delimiter && type == PacketType::Line && v <= 255) {
            limits->line_delimiter = std::uint8_t(v);
        } else {
            return false;
        }
    }
    // OTP 25 crashes on an improper list; a badarg is kinder.
    return is_nil(opts);
}

// Builds the strings of one decoded packet: lists, or binaries for http_bin and httph_bin.
// A binary string that lies within the input is a sub-binary of it (OTP's http_bld_string).
class StringBuilder {
public:
    StringBuilder(Process* p, Term input, std::string_view bytes, bool as_binaries)
        : m_process(p), m_input(input), m_bytes(bytes), m_as_binaries(as_binaries) {}

    Term operator()(std::string_view s) const {
        if (!m_as_binaries) return bytes_to_list(m_process, s);
        if (s.data() >= m_bytes.data() && s.data() + s.size() <= m_bytes.data() + m_bytes.size()) {
            std::size_t offset = std::size_t(s.data() - m_bytes.data());
            return make_sub_binary(m_process, m_input, offset * 8, s.size() * 8);
        }
        return make_binary(m_process, s);
    }

private:
    Process* m_process;
    Term m_input;
    std::string_view m_bytes;
    bool m_as_binaries;
};

// decode_packet's heap for io::http_term: the process's, strings as StringBuilder makes them.
struct ProcessHeap {
    Process* p;
    const StringBuilder& str;
    Term tuple(std::initializer_list<Term> elements) { return make_tuple_on(p, elements); }
    Term string(std::string_view s) { return str(s); }
};

// {ssl_tls, [], ContentType, {Major, Minor}, Data} for one TLS record [packet].
Term tls_term(Process* p, std::string_view packet, Term input, std::string_view bytes) {
    BEAMLET_CACHED_ATOM(am_ssl_tls, "ssl_tls");
    io::TlsRecord r = io::parse_tls_record(packet);
    // An SSL 2 hello is framed as a handshake message of its own; a record's data is a
    // sub-binary of the input.
    Term data = r.is_ssl2_hello ? make_binary(p, r.body()) : StringBuilder(p, input, bytes, true)(r.data);
    Term version = make_tuple_on(p, {make_small(r.major), make_small(r.minor)});
    return make_tuple_on(p, {am_ssl_tls, NIL, make_small(r.content_type), version, data});
}

}  // namespace

// decode_packet(Type, Bin, Options) -> {ok, Packet, Rest} | {more, Length | undefined} |
// {error, invalid}. Bin may be any bitstring: its trailing bits stay in Rest.
Term bif_decode_packet(Process* p, Term* a) {
    BEAMLET_CACHED_ATOM(am_more, "more");
    BEAMLET_CACHED_ATOM(am_invalid, "invalid");
    PacketType type;
    io::PacketLimits limits;
    if (!packet_type_of(a[0], &type) || !is_bitstring(a[1]) || !read_options(a[2], type, &limits)) return p->badarg();

    // The parser reads whole bytes; a bitstring that does not start on a byte boundary is
    // copied first. Offsets into the copy are offsets into Bin all the same.
    BitView view = bit_view(a[1]);
    std::string copy;
    std::string_view bytes;
    if (view.is_aligned()) {
        bytes = std::string_view(reinterpret_cast<const char*>(view.aligned_bytes()), view.size_bytes());
    } else {
        copy.resize(view.size_bytes());
        copy_bits(view.bytes, view.bit_offset, reinterpret_cast<std::uint8_t*>(copy.data()), 0, view.size_bytes() * 8);
        bytes = copy;
    }

    PacketLength length = io::packet_length(type, bytes, limits);
    if (length.status == PacketLength::Status::Invalid) return make_tuple_on(p, {atoms::error, am_invalid});
    if (length.status == PacketLength::Status::NeedMore) {
        Term needed = length.size_bytes == 0 ? atoms::undefined : make_small(SWord(length.size_bytes));
        return make_tuple_on(p, {am_more, needed});
    }

    std::string_view packet = bytes.substr(0, length.size_bytes);
    Term decoded;
    if (io::is_http(type)) {
        bool in_headers = type == PacketType::HttpH || type == PacketType::HttpHBin;
        StringBuilder str(p, a[1], bytes, io::is_http_bin(type));
        ProcessHeap heap{p, str};
        decoded = io::http_term(heap, packet, in_headers);
    } else if (type == PacketType::SslTls) {
        decoded = tls_term(p, packet, a[1], bytes);
    } else {
        decoded = StringBuilder(p, a[1], bytes, true)(io::packet_body(type, packet));
    }
    Term rest = make_sub_binary(p, a[1], packet.size() * 8, view.bit_size - packet.size() * 8);
    return make_tuple_on(p, {atoms::ok, decoded, rest});
}

}  // namespace beamlet::bif
