// bif/term_text.hpp — what the three io_lib parts share (io_lib:write in term_write.cpp, which
// defines these; io_lib_pretty in term_pretty.cpp; io_lib_format in term_format.cpp): character
// helpers, atoms and quoted strings as io_lib writes them, bitstrings, atomic terms. Internal
// to bif/; the public interface is bif/term_format.hpp.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "bif/term_format.hpp"
#include "vm/binary.hpp"

namespace beamlet::bif::text {

using vm::Term;

// ---- characters
void append(Chars& out, std::string_view ascii);
Chars ascii_chars(std::string_view ascii);
void append_spaces(Chars& out, int n);
// Decodes strict UTF-8 (no overlong forms, surrogates or values above 0x10FFFF); false if invalid.
bool decode_utf8(const std::uint8_t* p, std::size_t n, Chars& out);
// The characters of [atom]'s name.
Chars atom_chars(Term atom);
// An integer in [base], as integer_to_list/2.
std::string integer_text(Term t, int base = 10);
// [v] in upper-case hexadecimal, as integer_to_list(V, 16).
std::string hex_upper(std::uint32_t v);

// ---- atoms and strings (io_lib:write_atom, io_lib:write_string)
// How string_char in io_lib.erl treats characters above 255.
enum class CharMode { Latin1, UnicodeAsLatin1, UnicodeAsUnicode };
// [s] between [quote]s, each character as io_lib:string_char/4 writes it.
void write_quoted(Chars& out, const Chars& s, char32_t quote, CharMode mode);
// io_lib:write_atom/1 (quoted when it must be); [unicode] keeps characters above 255.
void write_atom(Chars& out, Term atom, bool unicode);
bool is_printable_latin1(char32_t c);
// io_lib:printable_latin1_list/1.
bool printable_latin1_list(Term t);

// ---- bitstrings
struct Bits {
    vm::BitView view;

    std::size_t bit_size() const { return view.bit_size; }
    std::size_t byte_size() const { return view.bit_size / 8; }
    // [n] bits (n <= 8) starting [bit] bits into the bitstring, as an unsigned value.
    unsigned bits_at(std::size_t bit, unsigned n) const {
        unsigned v = 0;
        for (unsigned k = 0; k < n; ++k) {
            std::size_t pos = view.bit_offset + bit + k;
            v = (v << 1) | ((view.bytes[pos / 8] >> (7 - pos % 8)) & 1);
        }
        return v;
    }
    unsigned byte(std::size_t i) const {
        if (view.is_aligned()) return view.aligned_bytes()[i];
        return bits_at(i * 8, 8);
    }
};
// io_lib:write_binary/2: byte values, "..." where [depth] cuts it, and Value:Size for the bits
// after the last whole byte.
void write_binary(Chars& out, const Bits& b, int depth);

// ---- atomic terms
// Writes [t] if it is atomic (number, atom, pid, port, ref, fun); false otherwise.
bool write_atomic(Chars& out, Term t, bool unicode);

}  // namespace beamlet::bif::text
