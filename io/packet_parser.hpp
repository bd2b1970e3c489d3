// io/packet_parser.hpp — packet framing (finding where a packet ends) and HTTP and TLS record
// parsing over plain bytes, after OTP's packet_parser.c.
//
// Shared by erlang:decode_packet/3 (bif/decode_packet.cpp, which turns the results into
// terms) and the inet driver's {packet, Type} option. Nothing here knows about terms or
// processes: every function reads a byte string, and the strings it returns are views into
// those bytes, except where a comment says otherwise.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace beamlet::io {

// The packet types of decode_packet/3 and of inet's {packet, Type} (OTP's PacketParseType).
enum class PacketType {
    Raw,       // raw | 0: whatever is there
    One,       // 1: a 1-byte big-endian length, then the body
    Two,       // 2: a 2-byte length
    Four,      // 4: a 4-byte length
    Asn1,      // asn1: a BER tag and length
    SunRm,     // sunrm: a 4-byte length whose top bit marks the last fragment
    Cdr,       // cdr: a CORBA GIOP header
    Fcgi,      // fcgi: a FastCGI record header, the padding dropped from the body
    Line,      // line: up to and including the line delimiter
    Tpkt,      // tpkt: a TPKT header (RFC 1006)
    Http,      // http: one HTTP line, the first being a request or status line
    HttpH,     // httph: one HTTP header line
    SslTls,    // ssl_tls: one TLS record (or an SSL 2 client hello)
    HttpBin,   // http_bin: http, strings as binaries
    HttpHBin,  // httph_bin: httph, strings as binaries
};

// True for the four HTTP types.
bool is_http(PacketType type);
// True for http_bin and httph_bin (strings are returned as binaries).
bool is_http_bin(PacketType type);

// The limits decode_packet/3 takes as options.
struct PacketLimits {
    // {packet_size, N}: the longest body accepted (0: no limit). For the HTTP types it
    // applies to the whole line, and when 0 the line length limit stands in for it.
    std::uint32_t max_packet_bytes = 0;
    // {line_length, N}: line packets longer than this are cut at this length (0: no limit).
    std::uint32_t max_line_bytes = 0;
    // {line_delimiter, C}: the byte that ends a line packet.
    std::uint8_t line_delimiter = '\n';
};

// Where the first packet of some bytes ends.
struct PacketLength {
    enum class Status {
        Complete,  // the bytes hold a whole packet of [size_bytes]
        NeedMore,  // the packet is [size_bytes] long, or of unknown length when 0
        Invalid,   // a malformed header, or a packet over the limit
    };
    Status status;
    std::size_t size_bytes;
};

// Finds the length of the first packet of [type] at the start of [bytes] under [limits]
// (OTP's packet_get_length). [in_http_headers] says whether an HTTP line is a header line
// (which may continue on the next line) rather than a start line; httph and httph_bin are
// always in the headers.
PacketLength packet_length(PacketType type, std::string_view bytes, const PacketLimits& limits,
                           bool in_http_headers = false);

// The part of complete [packet] of [type] that decode_packet/3 returns as the packet: without
// the length header for 1, 2 and 4, without the padding for fcgi, the whole packet otherwise.
std::string_view packet_body(PacketType type, std::string_view packet);

// The request methods decode_packet returns as atoms, in OTP's order ('OPTIONS' ... 'TRACE').
std::span<const std::string_view> http_method_names();
// The header field names decode_packet returns as atoms, in OTP's order: a header's index in
// {http_header, Index, ...} is its position here plus 1 ('Cache-Control' is 1).
std::span<const std::string_view> http_header_names();

// A request URI (OTP's PacketHttpURI).
struct HttpUri {
    enum class Kind {
        Star,         // '*'
        AbsPath,      // {abs_path, [text]}
        AbsoluteUri,  // {absoluteURI, http | https, [host], Port | undefined, [path]}
        Scheme,       // {scheme, [text], [rest]}
        String,       // [text], a form none of the others fit
    };
    Kind kind = Kind::String;
    bool https = false;     // AbsoluteUri: https rather than http
    std::string_view text;  // the path, host, scheme or whole URI
    // AbsoluteUri: the path ("/" when the URI has none: a static string, not in the packet);
    // Scheme: what follows the colon.
    std::string_view rest;
    std::int32_t port = 0;  // AbsoluteUri: 0 when absent (undefined)
};

// One parsed HTTP line (OTP's packet_parse_http and its callbacks).
struct HttpMessage {
    enum class Kind {
        Request,       // {http_request, Method, Uri, {Major, Minor}}
        Response,      // {http_response, {Major, Minor}, Status, Reason}
        Header,        // {http_header, Index, Field, OriginalField, Value}
        EndOfHeaders,  // http_eoh
        Error,         // {http_error, Line}: the whole packet
    };
    Kind kind = Kind::Error;
    std::int32_t major = 0, minor = 0;  // Request, Response: the version ({0,9} when absent)
    int method_index = -1;              // Request: index in http_method_names(), or -1
    std::string_view method;            // Request: the method as written
    HttpUri uri;                        // Request
    std::int32_t status = 0;            // Response
    std::string_view reason;            // Response
    int header_index = 0;               // Header: 1 + index in http_header_names(), or 0
    // Header: the field name with each word capitalised (Content-Type), or as written when it
    // is longer than OTP's 50 characters. Owned: it is not a part of the packet.
    std::string field;
    std::string_view original_field;  // Header: the field name as written
    std::string_view value;           // Header: the value, continuation lines included
};

// Parses complete HTTP [packet] (one line, with continuation lines for a header). A start
// line is expected unless [in_headers]; after a start line a connection is in its headers,
// after EndOfHeaders out of them again. Malformed lines give Kind::Error.
HttpMessage parse_http(std::string_view packet, bool in_headers);

// One TLS record, or an SSL 2 client hello (OTP's packet_parse_ssl).
struct TlsRecord {
    std::uint8_t content_type;
    std::uint8_t major, minor;
    // The record's data. For an SSL 2 client hello, its body() prefixes it with
    // <<1, Length:24>> (content type 22, a handshake).
    std::string_view data;
    bool is_ssl2_hello;

    // The body decode_packet/3 and inet's {ssl_tls, ...} packets carry.
    std::string body() const;
};

// Parses complete ssl_tls [packet] (at least the 5 bytes of a header).
TlsRecord parse_tls_record(std::string_view packet);

}  // namespace beamlet::io
