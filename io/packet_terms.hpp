// io/packet_terms.hpp — the terms of parsed HTTP lines, shared by erlang:decode_packet/3
// (bif/decode_packet.cpp) and the inet driver's {packet, http | httph | ...}
// (io/drivers/inet_driver.cpp), after OTP's http_*_erl callbacks and inet_drv's http_*_inetdrv.
//
// The builder is the caller's: [Heap] gives Term tuple(std::initializer_list<Term>) and
// Term string(std::string_view) (a list, or a binary for http_bin and httph_bin).
#pragma once

#include <initializer_list>
#include <span>
#include <string_view>
#include <vector>

#include "io/packet_parser.hpp"
#include "vm/atom_table.hpp"
#include "vm/term.hpp"

namespace beamlet::io {

namespace packet_terms_detail {

// The atoms of [names], made once per table.
inline std::vector<vm::Term> atoms_of(std::span<const std::string_view> names) {
    std::vector<vm::Term> out;
    for (std::string_view name : names) out.push_back(vm::atom(name));
    return out;
}

template <typename Heap>
vm::Term uri_term(Heap& heap, const HttpUri& uri) {
    using vm::atom;
    switch (uri.kind) {
        case HttpUri::Kind::Star:
            return atom("*");
        case HttpUri::Kind::AbsPath:
            return heap.tuple({atom("abs_path"), heap.string(uri.text)});
        case HttpUri::Kind::AbsoluteUri: {
            vm::Term port = uri.port == 0 ? vm::atoms::undefined : vm::make_small(uri.port);
            return heap.tuple({atom("absoluteURI"), atom(uri.https ? "https" : "http"), heap.string(uri.text), port,
                               heap.string(uri.rest)});
        }
        case HttpUri::Kind::Scheme:
            return heap.tuple({atom("scheme"), heap.string(uri.text), heap.string(uri.rest)});
        case HttpUri::Kind::String:
            break;
    }
    return heap.string(uri.text);
}

}  // namespace packet_terms_detail

// The term of one HTTP line [packet] (parsed as a header line when [in_headers]):
// {http_request, Method, Uri, {Major, Minor}}, {http_response, {Major, Minor}, Status, Reason},
// {http_header, Index, Field, OriginalField, Value}, http_eoh, or {http_error, Line}. [*kind]
// (if given) receives what the line was, for a connection that tracks whether it is in the
// headers.
template <typename Heap>
vm::Term http_term(Heap& heap, std::string_view packet, bool in_headers, HttpMessage::Kind* kind = nullptr) {
    using vm::atom;
    using vm::make_small;
    static const std::vector<vm::Term> method_atoms = packet_terms_detail::atoms_of(http_method_names());
    static const std::vector<vm::Term> header_atoms = packet_terms_detail::atoms_of(http_header_names());

    HttpMessage m = parse_http(packet, in_headers);
    if (kind) *kind = m.kind;
    auto version = [&] { return heap.tuple({make_small(m.major), make_small(m.minor)}); };
    switch (m.kind) {
        case HttpMessage::Kind::Request: {
            vm::Term method = m.method_index >= 0 ? method_atoms[std::size_t(m.method_index)] : heap.string(m.method);
            vm::Term uri = packet_terms_detail::uri_term(heap, m.uri);
            return heap.tuple({atom("http_request"), method, uri, version()});
        }
        case HttpMessage::Kind::Response:
            return heap.tuple({atom("http_response"), version(), make_small(m.status), heap.string(m.reason)});
        case HttpMessage::Kind::Header: {
            vm::Term field = m.header_index > 0 ? header_atoms[std::size_t(m.header_index - 1)] : heap.string(m.field);
            return heap.tuple({atom("http_header"), make_small(m.header_index), field, heap.string(m.original_field),
                               heap.string(m.value)});
        }
        case HttpMessage::Kind::EndOfHeaders:
            return atom("http_eoh");
        case HttpMessage::Kind::Error:
            break;
    }
    return heap.tuple({atom("http_error"), heap.string(packet)});
}

}  // namespace beamlet::io
