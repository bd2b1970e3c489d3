// tests/unit/io/packet_parser_test.cpp — packet framing and HTTP parsing over bytes, as the
// inet driver will use them (decode_packet/3's terms are checked by tests/e2e/bif/decode_packet).
#include <gtest/gtest.h>

#include <string_view>

#include "io/packet_parser.hpp"

namespace beamlet::io {
namespace {

using Status = PacketLength::Status;

TEST(PacketParser, LengthHeaderGivesTheWholePacketOrWhatIsMissing) {
    PacketLimits none;
    PacketLength l = packet_length(PacketType::Two, std::string_view("\0\3abcd", 6), none);
    EXPECT_EQ(l.status, Status::Complete);
    EXPECT_EQ(l.size_bytes, 5u);
    EXPECT_EQ(packet_body(PacketType::Two, std::string_view("\0\3abc", 5)), "abc");

    l = packet_length(PacketType::Two, std::string_view("\0\3a", 3), none);
    EXPECT_EQ(l.status, Status::NeedMore);
    EXPECT_EQ(l.size_bytes, 5u);
    EXPECT_EQ(packet_length(PacketType::Two, std::string_view("\0", 1), none).size_bytes, 0u);
}

TEST(PacketParser, PacketSizeLimitsTheBody) {
    PacketLimits limits;
    limits.max_packet_bytes = 2;
    EXPECT_EQ(packet_length(PacketType::One, "\3abc", limits).status, Status::Invalid);
    limits.max_packet_bytes = 3;
    EXPECT_EQ(packet_length(PacketType::One, "\3abc", limits).status, Status::Complete);
}

TEST(PacketParser, LineLengthCutsLongLines) {
    PacketLimits limits;
    limits.max_line_bytes = 2;
    PacketLength l = packet_length(PacketType::Line, "abc\n", limits);
    EXPECT_EQ(l.status, Status::Complete);
    EXPECT_EQ(l.size_bytes, 2u);
    limits.line_delimiter = ',';
    limits.max_line_bytes = 0;
    EXPECT_EQ(packet_length(PacketType::Line, "a,b", limits).size_bytes, 2u);
}

TEST(PacketParser, HeaderLineWaitsForTheNextLineToSeeContinuations) {
    PacketLimits none;
    EXPECT_EQ(packet_length(PacketType::Http, "Host: x\r\n", none, true).status, Status::NeedMore);
    EXPECT_EQ(packet_length(PacketType::Http, "Host: x\r\n", none, false).status, Status::Complete);
    PacketLength l = packet_length(PacketType::HttpH, "A: x\r\n y\r\n\r\n", none);
    EXPECT_EQ(l.status, Status::Complete);
    EXPECT_EQ(l.size_bytes, 10u);
}

TEST(PacketParser, HttpLinesParseIntoRequestsHeadersAndEnd) {
    HttpMessage m = parse_http("GET http://example.com:8080/a?b HTTP/1.1\r\n", false);
    ASSERT_EQ(m.kind, HttpMessage::Kind::Request);
    EXPECT_EQ(http_method_names()[std::size_t(m.method_index)], "GET");
    EXPECT_EQ(m.uri.kind, HttpUri::Kind::AbsoluteUri);
    EXPECT_EQ(m.uri.text, "example.com");
    EXPECT_EQ(m.uri.port, 8080);
    EXPECT_EQ(m.uri.rest, "/a?b");
    EXPECT_EQ(m.major * 10 + m.minor, 11);

    m = parse_http("content-TYPE:  text/plain\r\n", true);
    ASSERT_EQ(m.kind, HttpMessage::Kind::Header);
    EXPECT_EQ(m.field, "Content-Type");
    EXPECT_EQ(http_header_names()[std::size_t(m.header_index - 1)], "Content-Type");
    EXPECT_EQ(m.original_field, "content-TYPE");
    EXPECT_EQ(m.value, "text/plain");

    EXPECT_EQ(parse_http("\r\n", true).kind, HttpMessage::Kind::EndOfHeaders);
    EXPECT_EQ(parse_http("Host : x\r\n", true).kind, HttpMessage::Kind::Error);
    m = parse_http("HTTP/1.0 404 Not Found\n", false);
    ASSERT_EQ(m.kind, HttpMessage::Kind::Response);
    EXPECT_EQ(m.status, 404);
    EXPECT_EQ(m.reason, "Not Found");
}

}  // namespace
}  // namespace beamlet::io
