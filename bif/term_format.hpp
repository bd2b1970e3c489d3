// bif/term_format.hpp — Erlang term printing (~w, ~p) and io_lib:format/2, as OTP 25 prints them
// (bif/term_write.cpp, term_pretty.cpp, term_format.cpp: the three parts of io_lib).
//
// Text is produced as Chars: Unicode code points, exactly the characters of the chars() list
// io_lib returns. Without the `t` modifier every character is <= 255 (Latin-1); the helpers at
// the end turn Chars into bytes for a Latin-1 device (what `erl -noshell` writes) or UTF-8.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "vm/term.hpp"

namespace beamlet::bif {

using vm::Term;

// A sequence of characters (code points), like the chars() lists io_lib returns.
using Chars = std::u32string;

// Options of print_term_chars (io_lib_pretty:print/2 options).
struct PrintOptions {
    int column = 1;           // the column the term starts at (1 = line start)
    int line_length = 80;     // 0 prints everything on one line
    int depth = -1;           // -1 is unlimited; 0 prints "..."
    bool strings = true;      // false (the `l` modifier) never prints lists/binaries as strings
    bool unicode = false;     // the `t` modifier: atoms and binaries keep non-Latin-1 characters
};

// io_lib:write/2 (`~w`/`~W`): [t] on one line, cut at [depth] (-1 unlimited); [unicode] as `~tw`.
Chars write_term_chars(Term t, int depth = -1, bool unicode = false);
// io_lib_pretty:print/2 (`~p`/`~P`): [t] laid out over lines as OTP 25 does.
Chars print_term_chars(Term t, const PrintOptions& options);

// `~w` output of [t] as Latin-1 bytes (every character of `~w` is <= 255).
std::string write_term(Term t, int depth = -1);
// The printed form of a pid, port or reference, this node's or another's (<0.80.0>).
std::string identifier_text(Term t);
// `~p` output of [t] as Latin-1 bytes, starting at [column] with lines of [line_length].
std::string print_term(Term t, int column = 1, int line_length = 80, int depth = -1,
                       bool strings = true);

// float_to_list(F, [short]): the shortest text that reads back as [v] ("0.1", "1.0e-10").
std::string float_to_shortest(double v);

// io_lib:format(Format, Args) where [format] is a list of characters (or a binary or an atom,
// as io_lib accepts) and [args] a proper list of terms. Returns nullopt when the format is bad
// or does not match the arguments, where OTP raises badarg; [error_reason] (if not null) then
// says why, for diagnostics only.
std::optional<Chars> format_chars(Term format, Term args, std::string* error_reason = nullptr);
// The same with the format given as characters.
std::optional<Chars> format_chars(std::u32string_view format, Term args,
                                  std::string* error_reason = nullptr);
// io:format-style convenience: [format] is read as Latin-1 bytes and the result is encoded by
// chars_to_latin1_output(), i.e. the bytes `erl -noshell` writes to stdout.
std::optional<std::string> format(std::string_view format, Term args,
                                  std::string* error_reason = nullptr);

// Bytes for a Latin-1 io device: characters <= 255 as one byte, others as "\x{HEX}" (as OTP's
// standard_io does when its encoding is latin1).
std::string chars_to_latin1_output(std::u32string_view chars);
// The characters encoded as UTF-8.
std::string chars_to_utf8(std::u32string_view chars);

}  // namespace beamlet::bif
