// bif/term_write.cpp — io_lib:write (`~w`) rewritten from OTP 25, and the character, atom,
// string and bitstring helpers the pretty printer and io_lib:format share (bif/term_text.hpp);
// the bytes a device gets (Latin-1 or UTF-8).
#include "bif/term_format.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "bif/bifs.hpp"
#include "bif/term_text.hpp"
#include "vm/node.hpp"
#include "vm/atom_table.hpp"
#include "vm/binary.hpp"
#include "vm/bignum.hpp"
#include "vm/map.hpp"
#include "vm/module.hpp"

namespace beamlet::bif {

using vm::Word;

namespace text {

// ---- small text helpers -----------------------------------------------------------------------

void append(Chars& out, std::string_view ascii) {
    for (unsigned char c : ascii) out.push_back(c);
}

Chars ascii_chars(std::string_view ascii) {
    Chars out;
    append(out, ascii);
    return out;
}

void append_spaces(Chars& out, int n) {
    if (n > 0) out.append(std::size_t(n), U' ');
}

// Decodes strict UTF-8 (no overlong forms, surrogates or values above 0x10FFFF); false if invalid.
bool decode_utf8(const std::uint8_t* p, std::size_t n, Chars& out) {
    std::size_t i = 0;
    while (i < n) {
        std::uint8_t b = p[i];
        char32_t c;
        int extra;
        if (b < 0x80) {
            c = b;
            extra = 0;
        } else if (b >= 0xC2 && b <= 0xDF) {
            c = b & 0x1F;
            extra = 1;
        } else if (b >= 0xE0 && b <= 0xEF) {
            c = b & 0x0F;
            extra = 2;
        } else if (b >= 0xF0 && b <= 0xF4) {
            c = b & 0x07;
            extra = 3;
        } else {
            return false;
        }
        if (extra > 0 && i + std::size_t(extra) >= n) return false;
        for (int k = 1; k <= extra; ++k) {
            std::uint8_t cb = p[i + k];
            if ((cb & 0xC0) != 0x80) return false;
            c = (c << 6) | (cb & 0x3F);
        }
        if ((extra == 2 && c < 0x800) || (extra == 3 && (c < 0x10000 || c > 0x10FFFF)) ||
            (c >= 0xD800 && c <= 0xDFFF))
            return false;
        out.push_back(c);
        i += std::size_t(extra) + 1;
    }
    return true;
}

// The characters of [atom]'s name.
Chars atom_chars(Term atom) {
    const std::string& text = vm::atom_text(atom);
    Chars out;
    if (!decode_utf8(reinterpret_cast<const std::uint8_t*>(text.data()), text.size(), out)) {
        out.clear();
        for (unsigned char c : text) out.push_back(c);
    }
    return out;
}

std::string integer_text(Term t, int base) {
    if (vm::is_small(t) && base == 10) return std::to_string(vm::small_value(t));
    return vm::integer_to_string(t, base);
}

// ---- atoms and strings (io_lib:write_atom, io_lib:write_string) -------------------------------


// [v] in upper-case hexadecimal, as integer_to_list(V, 16).
std::string hex_upper(std::uint32_t v) {
    char buf[16];
    auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v, 16);
    std::string out(buf, end);
    for (char& c : out) c = char(std::toupper(static_cast<unsigned char>(c)));
    return out;
}

// Mirrors io_lib:string_char/4: one character inside a quoted string or atom.
void string_char(Chars& out, CharMode mode, char32_t c, char32_t quote) {
    if (c == quote) {
        out.push_back(U'\\');
        out.push_back(c);
    } else if (c == U'\\') {
        append(out, "\\\\");
    } else if (c >= 0x20 && c <= 0x7E) {
        out.push_back(c);
    } else if (mode != CharMode::UnicodeAsUnicode && c >= 0xA0 && c <= 0xFF) {
        out.push_back(c);
    } else if (mode == CharMode::UnicodeAsUnicode && c >= 0xA0) {
        out.push_back(c);
    } else if (mode == CharMode::UnicodeAsLatin1 && c > 0xFF) {
        append(out, "\\x{" + hex_upper(c) + "}");
    } else {
        const char* escape = nullptr;
        switch (c) {
        case U'\n': escape = "\\n"; break;
        case U'\r': escape = "\\r"; break;
        case U'\t': escape = "\\t"; break;
        case U'\v': escape = "\\v"; break;
        case U'\b': escape = "\\b"; break;
        case U'\f': escape = "\\f"; break;
        case 0x1B: escape = "\\e"; break;
        case 0x7F: escape = "\\d"; break;
        default: break;
        }
        if (escape) {
            append(out, escape);
        } else {
            out.push_back(U'\\');
            out.push_back(U'0' + ((c >> 6) & 7));
            out.push_back(U'0' + ((c >> 3) & 7));
            out.push_back(U'0' + (c & 7));
        }
    }
}

void write_quoted(Chars& out, const Chars& s, char32_t quote, CharMode mode) {
    out.push_back(quote);
    for (char32_t c : s) string_char(out, mode, c, quote);
    out.push_back(quote);
}

bool is_lower_start(char32_t c) { return (c >= U'a' && c <= U'z') || (c >= 0xDF && c <= 0xFF && c != 0xF7); }

bool is_name_char(char32_t c) {
    return is_lower_start(c) || (c >= U'A' && c <= U'Z') || (c >= 0xC0 && c <= 0xDE && c != 0xD7) ||
           (c >= U'0' && c <= U'9') || c == U'_' || c == U'@';
}

// erl_scan:reserved_word/1 of OTP 25 (the maybe_expr feature is off by default).
bool is_reserved_word(const Chars& s) {
    static const char* const words[] = {"after", "begin", "case",  "try",  "cond", "catch", "andalso",
                                        "orelse", "end",  "fun",   "if",   "let",  "of",    "receive",
                                        "when",  "bnot",  "not",   "div",  "rem",  "band",  "and",
                                        "bor",   "bxor",  "bsl",   "bsr",  "or",   "xor"};
    for (const char* w : words)
        if (s == ascii_chars(w)) return true;
    return false;
}

// Mirrors io_lib:quote_atom/2.
bool atom_needs_quotes(const Chars& s) {
    if (is_reserved_word(s)) return true;
    if (s.empty() || !is_lower_start(s[0])) return true;
    return !std::all_of(s.begin() + 1, s.end(), is_name_char);
}

// io_lib:write_atom/1 ([unicode]) or io_lib:write_atom_as_latin1/1.
void write_atom(Chars& out, Term atom, bool unicode) {
    Chars s = atom_chars(atom);
    if (atom_needs_quotes(s))
        write_quoted(out, s, U'\'', unicode ? CharMode::UnicodeAsUnicode : CharMode::UnicodeAsLatin1);
    else
        out += s;
}

// io_lib:printable_latin1_list/1 (the default printable range, +pc latin1).
bool is_printable_latin1(char32_t c) {
    return (c >= 0x20 && c <= 0x7E) || (c >= 0xA0 && c <= 0xFF) || c == U'\n' || c == U'\r' ||
           c == U'\t' || c == U'\v' || c == U'\b' || c == U'\f' || c == 0x1B;
}

bool printable_latin1_list(Term t) {
    for (; vm::is_list(t); t = vm::cdr(t)) {
        Term c = vm::car(t);
        if (!vm::is_small(c) || vm::small_value(c) < 0 || !is_printable_latin1(char32_t(vm::small_value(c))))
            return false;
    }
    return vm::is_nil(t);
}

// ---- bits of bitstrings ------------------------------------------------------------------------


// io_lib:write_binary/2: byte values, "..." where [depth] cuts it, and Value:Size for the bits
// after the last whole byte.
void write_binary(Chars& out, const Bits& b, int depth) {
    append(out, "<<");
    std::size_t bit = 0, size = b.bit_size();
    for (int d = depth; bit < size; --d) {
        if (bit > 0) out.push_back(U',');
        if (d == 1) {
            append(out, "...");
            break;
        }
        if (size - bit < 8) {
            unsigned n = unsigned(size - bit);
            append(out, std::to_string(b.bits_at(bit, n)) + ":" + std::to_string(n));
            break;
        }
        append(out, std::to_string(b.bits_at(bit, 8)));
        bit += 8;
    }
    append(out, ">>");
}

// ---- other atomic terms -------------------------------------------------------------------------

void write_fun(Chars& out, Term t, bool unicode) {
    const Term* obj = vm::boxed_ptr(t);
    if (vm::is_export_fun(t)) {
        const auto* e = reinterpret_cast<const vm::Export*>(obj[1]);
        append(out, "fun ");
        write_atom(out, e->module, unicode);
        out.push_back(U':');
        write_atom(out, e->function, unicode);
        out.push_back(U'/');
        append(out, std::to_string(e->arity));
        return;
    }
    const auto* fe = reinterpret_cast<const vm::FunEntry*>(obj[1]);
    append(out, "#Fun<");
    write_atom(out, fe->module_name, unicode);
    append(out, "." + std::to_string(fe->index) + "." + std::to_string(fe->old_uniq) + ">");
}

// ---- io_lib:write/2 -----------------------------------------------------------------------------

// Writes terms on one line, cut at a depth.
class Writer {
public:
    Writer(Chars& out, bool unicode) : m_out(out), m_unicode(unicode) {}

    void write(Term t, int d);

private:
    void write_map(Term t, int d);

    Chars& m_out;
    bool m_unicode;
};

// OTP's printed forms: <Channel.Number.Serial>, #Port<Channel.Id>, #Ref<Channel.N...> (the
// most significant number first). The channel is 0 for this node's name (an earlier
// incarnation too), and for another node the atom index of its name, as erts numbers a
// dist entry by its sysname's atom.
std::string identifier_text(Term t) {
    auto channel = [&] {
        bool other = vm::is_external(t) && vm::external_node(t) != vm::this_node().name;
        return std::to_string(other ? vm::atom_index(vm::external_node(t)) : 0);
    };
    if (vm::is_pid(t))
        return "<0." + std::to_string(vm::pid_printed_number(t)) + "." + std::to_string(vm::pid_serial(t)) + ">";
    if (vm::is_external_pid(t))
        return "<" + channel() + "." + std::to_string(vm::external_pid_number(t)) + "." +
               std::to_string(vm::external_pid_serial(t)) + ">";
    if (vm::is_any_port(t))
        return "#Port<" + channel() + "." +
               std::to_string(vm::is_port(t) ? vm::port_number(t) : vm::external_port_id(t)) + ">";
    std::string text = "#Ref<" + channel();
    if (vm::is_ref(t)) {
        const Term* ids = vm::boxed_ptr(t) + 1;
        for (int i = 2; i >= 0; --i) text += "." + std::to_string(ids[i]);
    } else {
        for (Word i = vm::external_ref_count(t); i-- > 0;) text += "." + std::to_string(vm::external_ref_number(t, i));
    }
    return text + ">";
}

// Writes [t] if it is atomic (number, atom, pid, port, ref, fun); false otherwise.
bool write_atomic(Chars& out, Term t, bool unicode) {
    if (vm::is_small(t) || vm::is_big(t)) {
        append(out, integer_text(t));
    } else if (vm::is_float(t)) {
        append(out, float_to_shortest(vm::float_value(t)));
    } else if (vm::is_atom(t)) {
        write_atom(out, t, unicode);
    } else if (vm::is_any_pid(t) || vm::is_any_port(t) || vm::is_any_ref(t)) {
        append(out, identifier_text(t));
    } else if (vm::is_fun(t)) {
        write_fun(out, t, unicode);
    } else {
        return false;
    }
    return true;
}

// Mirrors io_lib:write1/3.
void Writer::write(Term t, int d) {
    if (d == 0) {
        append(m_out, "...");
    } else if (write_atomic(m_out, t, m_unicode)) {
    } else if (vm::is_bitstring(t)) {
        write_binary(m_out, Bits{vm::bit_view(t)}, d);
    } else if (vm::is_nil(t)) {
        append(m_out, "[]");
    } else if (vm::is_list(t)) {
        if (d == 1) {
            append(m_out, "[...]");
            return;
        }
        m_out.push_back(U'[');
        write(vm::car(t), d - 1);
        // write_tail/3, iteratively.
        Term tail = vm::cdr(t);
        for (int dd = d - 1;; --dd) {
            if (vm::is_nil(tail)) break;
            if (dd == 1) {
                append(m_out, "|...");
                break;
            }
            if (!vm::is_list(tail)) {
                m_out.push_back(U'|');
                write(tail, dd - 1);
                break;
            }
            m_out.push_back(U',');
            write(vm::car(tail), dd - 1);
            tail = vm::cdr(tail);
        }
        m_out.push_back(U']');
    } else if (vm::is_map(t)) {
        write_map(t, d);
    } else if (vm::is_tuple(t)) {
        Word n = vm::tuple_arity(t);
        if (n == 0) {
            append(m_out, "{}");
            return;
        }
        if (d == 1) {
            append(m_out, "{...}");
            return;
        }
        m_out.push_back(U'{');
        write(vm::tuple_element(t, 0), d - 1);
        int dd = d - 1;
        for (Word i = 1; i < n; ++i, --dd) {
            if (dd == 1) {
                append(m_out, ",...");
                break;
            }
            m_out.push_back(U',');
            write(vm::tuple_element(t, i), dd - 1);
        }
        m_out.push_back(U'}');
    } else {
        append(m_out, "<unknown>");
    }
}

// Mirrors io_lib:write_map/3: depth 1 prints "#{}", and the body is cut at the depth even when
// no pair is left (#{a => 1} at depth 2 is "#{a => 1,...}").
void Writer::write_map(Term t, int d) {
    if (d == 1 || vm::map_size(t) == 0) {
        append(m_out, "#{}");
        return;
    }
    append(m_out, "#{");
    int d0 = d - 1, dd = d - 1;
    bool first = true, cut = false;
    vm::map_for_each(t, [&](Term k, Term v) {
        if (cut) return;
        if (!first) {
            if (dd == 1) {
                cut = true;
                return;
            }
            m_out.push_back(U',');
            --dd;
        }
        first = false;
        write(k, d0);
        append(m_out, " => ");
        write(v, d0);
    });
    if (cut || dd == 1) append(m_out, ",...");
    m_out.push_back(U'}');
}

}  // namespace text

using namespace text;

// ---- public API ---------------------------------------------------------------------------------

Chars write_term_chars(Term t, int depth, bool unicode) {
    Chars out;
    Writer(out, unicode).write(t, depth);
    return out;
}

std::string write_term(Term t, int depth) { return chars_to_latin1_output(write_term_chars(t, depth)); }

std::string identifier_text(Term t) { return text::identifier_text(t); }

std::string chars_to_latin1_output(std::u32string_view chars) {
    std::string out;
    out.reserve(chars.size());
    for (char32_t c : chars) {
        if (c <= 0xFF) {
            out.push_back(char(c));
        } else {
            out += "\\x{" + hex_upper(c) + "}";
        }
    }
    return out;
}

std::string chars_to_utf8(std::u32string_view chars) {
    std::string out;
    out.reserve(chars.size());
    for (char32_t c : chars) vm::put_utf8(std::uint32_t(c), out);
    return out;
}

}  // namespace beamlet::bif
