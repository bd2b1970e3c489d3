// io/packet_parser.cpp — packet framing, HTTP and TLS record parsing (after OTP's
// packet_parser.c, whose quirks decode_packet_SUITE and its users rely on).
#include "io/packet_parser.hpp"

#include <array>
#include <climits>

namespace beamlet::io {

namespace {

constexpr std::array<std::string_view, 7> METHOD_NAMES = {"OPTIONS", "GET", "HEAD", "POST", "PUT", "DELETE", "TRACE"};

constexpr std::array<std::string_view, 52> HEADER_NAMES = {
    "Cache-Control",    "Connection",        "Date",           "Pragma",
    "Transfer-Encoding", "Upgrade",          "Via",            "Accept",
    "Accept-Charset",   "Accept-Encoding",   "Accept-Language", "Authorization",
    "From",             "Host",              "If-Modified-Since", "If-Match",
    "If-None-Match",    "If-Range",          "If-Unmodified-Since", "Max-Forwards",
    "Proxy-Authorization", "Range",          "Referer",        "User-Agent",
    "Age",              "Location",          "Proxy-Authenticate", "Public",
    "Retry-After",      "Server",            "Vary",           "Warning",
    "Www-Authenticate", "Allow",             "Content-Base",   "Content-Encoding",
    "Content-Language", "Content-Length",    "Content-Location", "Content-Md5",
    "Content-Range",    "Content-Type",      "Etag",           "Expires",
    "Last-Modified",    "Accept-Ranges",     "Set-Cookie",     "Set-Cookie2",
    "X-Forwarded-For",  "Cookie",            "Keep-Alive",     "Proxy-Connection",
};

// OTP keeps at most this many characters of a header name; longer names are not looked up.
constexpr std::size_t MAX_HEADER_NAME_CHARS = 50;

std::uint32_t read_be(std::string_view b, std::size_t at, int size_bytes) {
    std::uint32_t v = 0;
    for (int i = 0; i < size_bytes; ++i) v = (v << 8) | std::uint8_t(b[at + i]);
    return v;
}

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_space(char c) { return c == ' ' || c == '\t'; }
bool is_lower(char c) { return c >= 'a' && c <= 'z'; }
bool is_upper(char c) { return c >= 'A' && c <= 'Z'; }

// A byte that cannot be part of a method or header name: RFC 2616 separators, controls,
// space and anything outside ASCII. Not DEL (127), which OTP's table leaves out.
bool is_tspecial(char c) {
    unsigned char u = static_cast<unsigned char>(c);
    if (u <= 32 || u >= 128) return true;
    return std::string_view("()<>@,;:\\\"/[]?={}").find(c) != std::string_view::npos;
}

bool starts_with_ignoring_case(std::string_view s, std::string_view prefix) {
    if (s.size() < prefix.size()) return false;
    for (std::size_t i = 0; i < prefix.size(); ++i) {
        char a = s[i], b = prefix[i];
        if (is_upper(a)) a = char(a - 'A' + 'a');
        if (a != b) return false;
    }
    return true;
}

// Reads decimal digits at the front of [s] into [value], with C's int wrap-around (OTP keeps
// ports and versions in an int). Returns how many digits were read.
std::size_t read_decimal(std::string_view s, std::int32_t* value) {
    std::uint32_t v = 0;
    std::size_t i = 0;
    while (i < s.size() && is_digit(s[i])) v = v * 10 + std::uint32_t(s[i++] - '0');
    *value = std::int32_t(v);
    return i;
}

std::size_t skip_spaces(std::string_view s, std::size_t i) {
    while (i < s.size() && is_space(s[i])) ++i;
    return i;
}

// "Major.Minor" at [i] of [s]: at least one digit on each side. Returns the index after it, or
// npos.
std::size_t read_version(std::string_view s, std::size_t i, std::int32_t* major, std::int32_t* minor) {
    std::size_t digits = read_decimal(s.substr(i), major);
    if (digits == 0) return std::string_view::npos;
    i += digits;
    if (i == s.size() || s[i] != '.') return std::string_view::npos;
    ++i;
    digits = read_decimal(s.substr(i), minor);
    if (digits == 0) return std::string_view::npos;
    return i + digits;
}

// The length of a packet whose [header_bytes] header announces [body_bytes] more
// (OTP's "remain"). The body is checked against the limit, the whole against INT_MAX.
PacketLength announced(std::size_t header_bytes, std::uint32_t body_bytes, const PacketLimits& limits,
                       std::size_t available) {
    std::uint64_t total = std::uint64_t(header_bytes) + body_bytes;
    if ((limits.max_packet_bytes != 0 && body_bytes > limits.max_packet_bytes) || total > std::uint64_t(INT_MAX))
        return {PacketLength::Status::Invalid, 0};
    if (total > available) return {PacketLength::Status::NeedMore, std::size_t(total)};
    return {PacketLength::Status::Complete, std::size_t(total)};
}

constexpr PacketLength NEED_MORE{PacketLength::Status::NeedMore, 0};
constexpr PacketLength INVALID{PacketLength::Status::Invalid, 0};

PacketLength line_length(std::string_view b, const PacketLimits& limits) {
    std::size_t max = limits.max_packet_bytes, cut = limits.max_line_bytes;
    std::size_t at = b.find(char(limits.line_delimiter));
    if (at == std::string_view::npos) {
        if (max != 0 && b.size() > max) return INVALID;
        if (cut != 0 && b.size() >= cut) return {PacketLength::Status::Complete, cut};
        return NEED_MORE;
    }
    std::size_t len = at + 1;
    if (max != 0 && len > max) return INVALID;
    if (cut != 0 && len > cut) return {PacketLength::Status::Complete, cut};
    return {PacketLength::Status::Complete, len};
}

// An HTTP line ends at a newline; a header line also takes the lines after it that start
// with a space or tab, so its end is known only when the next line's first byte is there.
PacketLength http_length(std::string_view b, const PacketLimits& limits, bool in_headers) {
    if (b == "\n" || b == "\r\n") return {PacketLength::Status::Complete, b.size()};
    // Older users of decode_packet limit HTTP lines with line_length.
    std::size_t max = limits.max_packet_bytes != 0 ? limits.max_packet_bytes : limits.max_line_bytes;
    std::size_t from = 0;
    for (;;) {
        std::size_t nl = b.find('\n', from);
        if (nl == std::string_view::npos) return max != 0 && b.size() >= max ? INVALID : NEED_MORE;
        std::size_t len = nl + 1;
        bool over = max != 0 && len > max;
        if (!in_headers) return over ? INVALID : PacketLength{PacketLength::Status::Complete, len};
        if (len == b.size()) return over ? INVALID : NEED_MORE;
        if (!(is_space(b[len]) && len > 2)) return over ? INVALID : PacketLength{PacketLength::Status::Complete, len};
        from = len;
    }
}

PacketLength asn1_length(std::string_view b, const PacketLimits& limits) {
    if (b.size() < 2) return NEED_MORE;
    std::size_t i = 1;
    if ((std::uint8_t(b[0]) & 0x1f) == 0x1f) {  // a long tag: more tag bytes while the top bit is set
        while (i < b.size() && (std::uint8_t(b[i]) & 0x80)) ++i;
        if (b.size() - i < 2) return NEED_MORE;
        ++i;
    }
    std::uint8_t first = std::uint8_t(b[i++]);
    std::uint32_t body;
    if (first & 0x80) {  // the long form: the low bits count the length bytes
        int count = first & 0x7f;
        if (b.size() - i < std::size_t(count)) return NEED_MORE;
        if (count > 4) return INVALID;
        body = read_be(b, i, count);
        i += count;
    } else {
        body = first;
    }
    return announced(i, body, limits, b.size());
}

}  // namespace

bool is_http(PacketType type) {
    return type == PacketType::Http || type == PacketType::HttpH || type == PacketType::HttpBin ||
           type == PacketType::HttpHBin;
}

bool is_http_bin(PacketType type) { return type == PacketType::HttpBin || type == PacketType::HttpHBin; }

PacketLength packet_length(PacketType type, std::string_view b, const PacketLimits& limits, bool in_http_headers) {
    std::size_t n = b.size();
    switch (type) {
        case PacketType::Raw:
            return n == 0 ? NEED_MORE : PacketLength{PacketLength::Status::Complete, n};
        case PacketType::One:
            return n < 1 ? NEED_MORE : announced(1, read_be(b, 0, 1), limits, n);
        case PacketType::Two:
            return n < 2 ? NEED_MORE : announced(2, read_be(b, 0, 2), limits, n);
        case PacketType::Four:
            return n < 4 ? NEED_MORE : announced(4, read_be(b, 0, 4), limits, n);
        case PacketType::SunRm:
            return n < 4 ? NEED_MORE : announced(4, read_be(b, 0, 4) & 0x7fffffff, limits, n);
        case PacketType::Line:
            return line_length(b, limits);
        case PacketType::Asn1:
            return asn1_length(b, limits);
        case PacketType::Cdr: {
            // "GIOP", major, minor, flags (bit 0: little-endian), message type, size.
            if (n < 12) return NEED_MORE;
            if (b.substr(0, 4) != "GIOP") return INVALID;
            std::uint32_t size = read_be(b, 8, 4);
            if (std::uint8_t(b[6]) & 1)
                size = (size >> 24) | ((size >> 8) & 0xff00) | ((size << 8) & 0xff0000) | (size << 24);
            return announced(12, size, limits, n);
        }
        case PacketType::Fcgi:
            // version 1, type, request id (2), content length (2), padding length, reserved.
            if (n < 8) return NEED_MORE;
            if (b[0] != 1) return INVALID;
            return announced(8, read_be(b, 4, 2) + std::uint8_t(b[6]), limits, n);
        case PacketType::Tpkt:
            // version 3, reserved, length (2) of the whole packet.
            if (n < 4) return NEED_MORE;
            if (b[0] != 3) return INVALID;
            return announced(4, read_be(b, 2, 2) - 4, limits, n);
        case PacketType::SslTls:
            if (n < 5) return NEED_MORE;
            if ((std::uint8_t(b[0]) & 0x80) && b[2] == 1)  // SSL 2 client hello: <<1:1, Len:15, 1, Version:16>>
                return announced(5, (read_be(b, 0, 2) & 0x7fff) - 3, limits, n);
            return announced(5, read_be(b, 3, 2), limits, n);  // <<Type, Version:16, Length:16>>
        case PacketType::Http:
        case PacketType::HttpBin:
            return http_length(b, limits, in_http_headers);
        case PacketType::HttpH:
        case PacketType::HttpHBin:
            return http_length(b, limits, true);
    }
    return INVALID;
}

std::string_view packet_body(PacketType type, std::string_view packet) {
    switch (type) {
        case PacketType::One: return packet.substr(1);
        case PacketType::Two: return packet.substr(2);
        case PacketType::Four: return packet.substr(4);
        case PacketType::Fcgi: return packet.substr(0, packet.size() - std::uint8_t(packet[6]));
        default: return packet;
    }
}

std::span<const std::string_view> http_method_names() { return METHOD_NAMES; }
std::span<const std::string_view> http_header_names() { return HEADER_NAMES; }

namespace {

// http://host[:port][/path] after the scheme (OTP 25 does not know IPv6 literals: the host
// ends at the first colon).
void parse_absolute_uri(std::string_view s, HttpUri* uri) {
    uri->kind = HttpUri::Kind::AbsoluteUri;
    std::size_t slash = s.find('/');
    std::string_view host_port = s;
    if (slash == std::string_view::npos) {
        uri->rest = "/";
    } else {
        uri->rest = s.substr(slash);
        host_port = s.substr(0, slash);
    }
    std::size_t colon = host_port.find(':');
    if (colon == std::string_view::npos) {
        uri->text = host_port;
        return;
    }
    uri->text = host_port.substr(0, colon);
    std::string_view port = host_port.substr(colon + 1);
    std::int32_t value;
    if (read_decimal(port, &value) == port.size() && value != 0) uri->port = value;
}

HttpUri parse_uri(std::string_view s) {
    HttpUri uri;
    if (s == "*") {
        uri.kind = HttpUri::Kind::Star;
    } else if (s.size() <= 1 || s[0] == '/') {
        uri.kind = HttpUri::Kind::AbsPath;
        uri.text = s;
    } else if (starts_with_ignoring_case(s, "http://")) {
        parse_absolute_uri(s.substr(7), &uri);
    } else if (starts_with_ignoring_case(s, "https://")) {
        uri.https = true;
        parse_absolute_uri(s.substr(8), &uri);
    } else if (std::size_t colon = s.find(':'); colon != std::string_view::npos) {
        uri.kind = HttpUri::Kind::Scheme;
        uri.text = s.substr(0, colon);
        uri.rest = s.substr(colon + 1);
    } else {
        uri.kind = HttpUri::Kind::String;
        uri.text = s;
    }
    return uri;
}

// Status-Line = "HTTP/" Major "." Minor SP+ Status [SP+ Reason]; [s] starts after "HTTP/".
HttpMessage parse_status_line(std::string_view s) {
    HttpMessage m;
    std::size_t i = read_version(s, 0, &m.major, &m.minor);
    if (i == std::string_view::npos) return m;
    std::size_t after = skip_spaces(s, i);
    if (after == i) return m;
    i = after + read_decimal(s.substr(after), &m.status);
    after = skip_spaces(s, i);
    if (after == i && after < s.size()) return m;  // digits run into the reason
    m.kind = HttpMessage::Kind::Response;
    m.reason = s.substr(after);
    return m;
}

// Request-Line = Method SP+ Request-URI [SP+ "HTTP/" Major "." Minor]; without a version the
// request is HTTP/0.9.
HttpMessage parse_request_line(std::string_view s) {
    HttpMessage m;
    std::size_t i = 0;
    while (i < s.size() && !is_tspecial(s[i])) ++i;
    if (i == 0 || i == s.size() || !is_space(s[i])) return m;
    std::string_view method = s.substr(0, i);
    i = skip_spaces(s, i);
    std::size_t uri_start = i;
    while (i < s.size() && !is_space(s[i])) ++i;
    if (i == uri_start) return m;
    std::string_view uri = s.substr(uri_start, i - uri_start);
    i = skip_spaces(s, i);
    if (i == s.size()) {
        m.major = 0;
        m.minor = 9;
    } else {
        if (s.size() - i < 8 || s.substr(i, 5) != "HTTP/") return m;
        if (read_version(s, i + 5, &m.major, &m.minor) == std::string_view::npos) return m;  // trailing bytes are ignored
    }
    m.kind = HttpMessage::Kind::Request;
    m.method = method;
    for (std::size_t k = 0; k < METHOD_NAMES.size(); ++k)
        if (METHOD_NAMES[k] == method) m.method_index = int(k);
    m.uri = parse_uri(uri);
    return m;
}

// Field ":" SP* Value, the field name capitalised word by word. Like OTP, a letter right after
// a '-' that itself follows a '-' is not capitalised ("Content--type").
HttpMessage parse_header_line(std::string_view s) {
    HttpMessage m;
    std::size_t i = 0;
    bool upper_next = true;
    std::string name;
    while (!is_tspecial(s[i])) {
        char c = s[i];
        if (upper_next) {
            if (is_lower(c)) c = char(c - 'a' + 'A');
            upper_next = false;
        } else if (is_upper(c)) {
            c = char(c - 'A' + 'a');
        } else if (c == '-') {
            upper_next = true;
        }
        if (name.size() < MAX_HEADER_NAME_CHARS) name += c;
        if (++i == s.size()) return m;
    }
    if (s[i] != ':') return m;
    m.kind = HttpMessage::Kind::Header;
    m.original_field = s.substr(0, i);
    if (i <= MAX_HEADER_NAME_CHARS) {
        for (std::size_t k = 0; k < HEADER_NAMES.size(); ++k)
            if (HEADER_NAMES[k] == name) m.header_index = int(k) + 1;
        m.field = std::move(name);
    } else {
        m.field = std::string(m.original_field);
    }
    m.value = s.substr(skip_spaces(s, i + 1));
    return m;
}

}  // namespace

HttpMessage parse_http(std::string_view packet, bool in_headers) {
    // Drop the line end: CR LF (only the CR is looked at, as OTP does) or a lone LF.
    std::string_view s = packet;
    if (s.size() >= 2 && s[s.size() - 2] == '\r')
        s.remove_suffix(2);
    else if (!s.empty() && s.back() == '\n')
        s.remove_suffix(1);

    if (in_headers) {
        if (s.empty()) {
            HttpMessage m;
            m.kind = HttpMessage::Kind::EndOfHeaders;
            return m;
        }
        return parse_header_line(s);
    }
    if (s.starts_with("HTTP/")) return parse_status_line(s.substr(5));
    return parse_request_line(s);
}

std::string TlsRecord::body() const {
    if (!is_ssl2_hello) return std::string(data);
    std::string framed(4 + data.size(), '\0');  // <<1, Length:24, Data/binary>>
    framed[0] = 1;
    framed[1] = char(data.size() >> 16);
    framed[2] = char(data.size() >> 8);
    framed[3] = char(data.size());
    framed.replace(4, data.size(), data);
    return framed;
}

TlsRecord parse_tls_record(std::string_view packet) {
    auto byte = [&](std::size_t i) { return std::uint8_t(packet[i]); };
    if ((byte(0) & 0x80) && byte(2) == 1) return TlsRecord{22, byte(3), byte(4), packet.substr(3), true};
    return TlsRecord{byte(0), byte(1), byte(2), packet.substr(5), false};
}

}  // namespace beamlet::io
