// bif/term_format.cpp — io_lib:write, io_lib_pretty:print and io_lib_format, rewritten from OTP 25.
//
// The pretty printer follows io_lib_pretty.erl closely: print_length() turns the term into an
// intermediate tree that knows the printed length of every subterm, cind() picks the indentation
// of tagged tuples, and pp() lays the tree out. Chars limits (chars_limit) and record printing are
// not needed by io_lib:format/2 and are left out; everything else keeps OTP's arithmetic, quirks
// included, because e2e output is compared byte for byte with the real erl.
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
#include "vm/atom_table.hpp"
#include "vm/binary.hpp"
#include "vm/bignum.hpp"
#include "vm/map.hpp"
#include "vm/module.hpp"

namespace beamlet::bif {

using vm::Word;

namespace {

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

std::string integer_text(Term t, int base = 10) {
    if (vm::is_small(t) && base == 10) return std::to_string(vm::small_value(t));
    return vm::integer_to_string(t, base);
}

// ---- atoms and strings (io_lib:write_atom, io_lib:write_string) -------------------------------

// How string_char in io_lib.erl treats characters above 255.
enum class CharMode { Latin1, UnicodeAsLatin1, UnicodeAsUnicode };

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

// Writes [t] if it is atomic (number, atom, pid, port, ref, fun); false otherwise.
bool write_atomic(Chars& out, Term t, bool unicode) {
    if (vm::is_small(t) || vm::is_big(t)) {
        append(out, integer_text(t));
    } else if (vm::is_float(t)) {
        append(out, float_to_shortest(vm::float_value(t)));
    } else if (vm::is_atom(t)) {
        write_atom(out, t, unicode);
    } else if (vm::is_pid(t)) {
        append(out, "<0." + std::to_string(vm::pid_number(t)) + ".0>");
    } else if (vm::is_port(t)) {
        append(out, "#Port<0." + std::to_string(vm::port_number(t)) + ">");
    } else if (vm::is_ref(t)) {
        // erts prints the most significant id word first.
        const Term* ids = vm::boxed_ptr(t) + 1;
        append(out, "#Ref<0." + std::to_string(ids[2]) + "." + std::to_string(ids[1]) + "." + std::to_string(ids[0]) +
                        ">");
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

// ---- io_lib_pretty: the intermediate form -------------------------------------------------------

// One subterm with its printed length (io_lib_pretty's {What, Len, Dots, More} tuple). The text of
// Text and Bin nodes lives in a pool shared by the whole tree, [len] characters from [text].
struct Node {
    enum class Kind : std::uint8_t { Text, List, Tuple, Map, Pair, Bin, Dots };
    enum class Tail : std::uint8_t { None, Dots, Improper };

    Kind kind = Kind::Text;
    Tail tail = Tail::None;  // List/Tuple/Map: whether items.back() is "..." or an improper tail
    bool tagged = false;     // Tuple: first element an atom and size > 1
    int len = 0;
    std::size_t text = 0;     // Text: the characters; Bin: the whole "<<...>>"
    std::vector<Node> items;  // List/Tuple/Map elements; Pair: key and value

    std::size_t proper_count() const { return items.size() - (tail == Tail::None ? 0 : 1); }
    bool is_tail(std::size_t i) const { return tail != Tail::None && i + 1 == items.size(); }
    bool is_atomic() const { return kind == Kind::Text; }  // io_lib_pretty's ?ATM
};

Node dots_node() {
    Node n;
    n.kind = Node::Kind::Dots;
    n.len = 3;
    return n;
}

// io_lib_pretty:list_length/3.
int list_length(const std::vector<Node>& items, int acc) {
    for (std::size_t i = 0; i < items.size(); ++i) acc += items[i].len + (i > 0 ? 1 : 0);
    return acc;
}

// Builds the intermediate form (io_lib_pretty:print_length/6 with no chars limit).
class Measurer {
public:
    Measurer(Chars& pool, bool unicode, bool strings) : m_pool(pool), m_unicode(unicode), m_strings(strings) {}

    Node measure(Term t, int d);

private:
    Node measure_list(Term t, int d);
    Node measure_tuple(Term t, int d);
    Node measure_map(Term t, int d);
    Node measure_binary(Term t, int d);
    // A Text node for what was appended to the pool since [start].
    Node text_since(std::size_t start, Node::Kind kind = Node::Kind::Text) {
        Node n;
        n.kind = kind;
        n.text = start;
        n.len = int(m_pool.size() - start);
        return n;
    }
    Node text(std::string_view ascii) {
        std::size_t start = m_pool.size();
        append(m_pool, ascii);
        return text_since(start);
    }

    Chars& m_pool;
    bool m_unicode;
    bool m_strings;
};

Node Measurer::measure(Term t, int d) {
    std::size_t start = m_pool.size();
    if (vm::is_nil(t)) return text("[]");
    if (vm::is_atom(t)) {
        write_atom(m_pool, t, m_unicode);
        return text_since(start);
    }
    if (vm::is_list(t)) {
        if (m_strings && d != 1 && printable_latin1_list(t)) {
            Chars s;
            for (Term l = t; vm::is_list(l); l = vm::cdr(l)) s.push_back(char32_t(vm::small_value(vm::car(l))));
            write_quoted(m_pool, s, U'"', CharMode::Latin1);
            return text_since(start);
        }
        return measure_list(t, d);
    }
    if (vm::is_tuple(t)) {
        if (vm::tuple_arity(t) == 0) return text("{}");
        return measure_tuple(t, d);
    }
    if (vm::is_map(t)) {
        if (vm::map_size(t) == 0) return text("#{}");
        return measure_map(t, d);
    }
    if (vm::is_bitstring(t)) {
        if (vm::bit_view(t).bit_size == 0) return text("<<>>");
        if (d == 1) return text("<<...>>");
        return measure_binary(t, d);
    }
    write_atomic(m_pool, t, false);
    return text_since(start);
}

Node Measurer::measure_list(Term t, int d) {
    Node n;
    n.kind = Node::Kind::List;
    for (int dd = d;; --dd) {
        if (vm::is_nil(t)) break;
        if (dd == 1) {
            n.items.push_back(dots_node());
            n.tail = Node::Tail::Dots;
            break;
        }
        if (!vm::is_list(t)) {
            n.items.push_back(measure(t, dd - 1));
            n.tail = Node::Tail::Improper;
            break;
        }
        n.items.push_back(measure(vm::car(t), dd - 1));
        t = vm::cdr(t);
    }
    n.len = list_length(n.items, 2);
    return n;
}

Node Measurer::measure_tuple(Term t, int d) {
    if (d == 1) return text("{...}");
    Node n;
    n.kind = Node::Kind::Tuple;
    Word size = vm::tuple_arity(t);
    n.tagged = vm::is_atom(vm::tuple_element(t, 0)) && size > 1;
    n.items.reserve(size);
    int dd = d;
    for (Word i = 0; i < size; ++i, --dd) {
        if (dd == 1) {
            n.items.push_back(dots_node());
            n.tail = Node::Tail::Dots;
            break;
        }
        n.items.push_back(measure(vm::tuple_element(t, i), dd - 1));
    }
    n.len = list_length(n.items, 2);
    return n;
}

Node Measurer::measure_map(Term t, int d) {
    if (d == 1) return text("#{...}");
    Node n;
    n.kind = Node::Kind::Map;
    int d0 = d - 1, dd = d;
    vm::map_for_each(t, [&](Term k, Term v) {
        if (n.tail == Node::Tail::Dots) return;
        if (dd == 1) {
            n.items.push_back(dots_node());
            n.tail = Node::Tail::Dots;
            return;
        }
        Node pair;
        pair.kind = Node::Kind::Pair;
        pair.items.push_back(measure(k, d0));
        pair.items.push_back(measure(v, d0));
        pair.len = pair.items[0].len + 4 + pair.items[1].len;
        n.items.push_back(std::move(pair));
        --dd;
    });
    n.len = list_length(n.items, 3);
    return n;
}

// Whether the first bytes of a binary print as a string: the characters, whether they are all of
// the binary, and whether "/utf8" is needed (printable_bin0/4 and printable_bin/4).
struct PrintableBin {
    bool found = false;
    bool whole = false;
    bool utf8 = false;
    Chars chars;
};

// The unicode branch of printable_bin/4; false when the first [len] characters are not UTF-8.
bool printable_utf8_bin(const std::vector<std::uint8_t>& all, std::size_t len, int d1, PrintableBin* r) {
    std::size_t pos = 0, count = 0, consumed = 0;
    bool stopped = false;  // a non-printable character ended the scan
    while (pos < all.size() && count < len) {
        std::uint8_t c0 = all[pos];
        std::size_t l = c0 < 0x80 ? 1 : (c0 >= 0xC2 && c0 <= 0xDF) ? 2 : (c0 >= 0xE0 && c0 <= 0xEF) ? 3
                      : (c0 >= 0xF0 && c0 <= 0xF4) ? 4 : 0;
        Chars one;
        if (l == 0 || pos + l > all.size() || !decode_utf8(&all[pos], l, one)) return false;
        if (!stopped && is_printable_latin1(one[0])) {
            r->chars.push_back(one[0]);
            consumed += l;
        } else {
            stopped = true;
        }
        pos += l;
        ++count;
    }
    std::size_t printable = r->chars.size();
    bool ascii = consumed == printable;
    if (consumed == all.size()) {
        r->found = r->whole = true;
        r->utf8 = !ascii;
    } else if (d1 > 0 && printable >= std::size_t(d1)) {
        r->found = true;
        r->utf8 = !ascii;
    }
    return true;
}

Node Measurer::measure_binary(Term t, int d) {
    Bits b{vm::bit_view(t)};
    int d1 = d - 1;
    std::size_t start = m_pool.size();
    if (m_strings && b.bit_size() % 8 == 0) {
        std::size_t size = b.byte_size();
        std::size_t len = d1 >= 0 ? std::min(std::size_t(4) * std::size_t(d1), size) : size;
        PrintableBin r;
        bool utf8_checked = false;
        if (m_unicode && len > 0) {
            std::vector<std::uint8_t> all(size);
            for (std::size_t i = 0; i < size; ++i) all[i] = std::uint8_t(b.byte(i));
            utf8_checked = printable_utf8_bin(all, len, d1, &r);
            if (!utf8_checked) r = PrintableBin{};
        }
        if (!utf8_checked && len > 0) {
            std::size_t k = 0;
            while (k < len && is_printable_latin1(b.byte(k))) r.chars.push_back(b.byte(k++));
            if (k == len) {
                r.found = true;
                r.whole = len == size;
            } else if (d1 > 0 && k >= std::size_t(d1)) {
                r.found = true;
            }
        }
        if (r.found) {
            append(m_pool, "<<");
            write_quoted(m_pool, r.chars, U'"', CharMode::UnicodeAsUnicode);
            append(m_pool, r.utf8 ? "/utf8" : "");
            append(m_pool, r.whole ? ">>" : "...>>");
            return text_since(start);
        }
    }
    write_binary(m_pool, b, d);
    return text_since(start, Node::Kind::Bin);
}

// ---- io_lib_pretty: layout ----------------------------------------------------------------------

// Thrown by the indentation check when a tagged-tuple indentation does not fit (OTP's no_good).
struct NoGood {};

// Lays an intermediate tree out into [out] (io_lib_pretty's pp and cind families). Parameters keep
// OTP's names: col is the current column, ind the indentation in spaces, ld the characters that
// must still fit after the node (closing brackets), w the characters already on the line.
class Layout {
public:
    Layout(Chars& out, const Chars& pool, int line_length, int max_chars)
        : m_out(out), m_pool(pool), m_ll(line_length), m_m(max_chars) {}

    // Writes [n] on one line.
    void write(const Node& n);
    // Picks the tagged tuple indentation as io_lib_pretty:print/9 does with while_fail/3.
    void choose_tuple_indent(const Node& root, int col);
    // Writes [n] over as many lines as needed.
    void pp(const Node& n, int col, int ind, int ld, int w);

private:
    void write_items(const Node& n, char32_t sep);
    void write_pair(const Node& p);
    bool fits_in_tail(const Node& e, int col, int ld1, int w) const;

    void pp_list(const Node& n, std::size_t start, int col0, int ind, int ld, char32_t sep, int w);
    void pp_tail(const Node& n, std::size_t i, int col0, int col, int ind, int ld, char32_t sep, int w);
    int pp_element(const Node& e, int col, int ind, int ld, int w);
    void pp_tag_tuple(const Node& n, int col, int ind, int ld, int w);
    void pp_map(const Node& n, int col, int ind, int ld, int w);
    int pp_pair(const Node& p, int col, int ind0, int ld, int w);
    void pp_binary(const Node& n, int col, int ind, int ld, int w);
    void newline(int ind);

    void cind(const Node& n, int col, int ld, int w);
    void cind_tag_tuple(const Node& n, int col, int ld, int w);
    void cind_list(const Node& n, std::size_t start, int col0, int ld, int w);
    void cind_tail(const Node& n, std::size_t i, int col0, int col, int ld, int w);
    int cind_element(const Node& e, int col, int ld, int w);
    void cind_map(const Node& n, int col, int ld, int w);
    int cind_pair(const Node& p, int col, int ld, int w);

    // io_lib_pretty:last_depth/2: 0 while another proper element follows item [i].
    static int last_depth(const Node& n, std::size_t i, int ld) {
        return i + 1 < n.proper_count() ? 0 : ld + 1;
    }
    int map_value_indent() const { return m_tind > 0 ? m_tind : 4; }

    Chars& m_out;
    const Chars& m_pool;  // the text of Text and Bin nodes
    int m_ll;             // line length
    int m_m;              // maximum characters (the whole term's length)
    int m_tind = 1;       // tagged tuple indentation
};

void Layout::write(const Node& n) {
    switch (n.kind) {
    case Node::Kind::Text:
    case Node::Kind::Bin:
        m_out.append(m_pool, n.text, std::size_t(n.len));
        break;
    case Node::Kind::Dots:
        append(m_out, "...");
        break;
    case Node::Kind::List:
        m_out.push_back(U'[');
        write_items(n, U'|');
        m_out.push_back(U']');
        break;
    case Node::Kind::Tuple:
        m_out.push_back(U'{');
        write_items(n, U',');
        m_out.push_back(U'}');
        break;
    case Node::Kind::Map:
        append(m_out, "#{");
        write_items(n, U',');
        m_out.push_back(U'}');
        break;
    case Node::Kind::Pair:
        write_pair(n);
        break;
    }
}

void Layout::write_items(const Node& n, char32_t sep) {
    for (std::size_t i = 0; i < n.items.size(); ++i) {
        if (i > 0) m_out.push_back(n.is_tail(i) ? sep : U',');
        write(n.items[i]);
    }
}

void Layout::write_pair(const Node& p) {
    write(p.items[0]);
    append(m_out, " => ");
    write(p.items[1]);
}

void Layout::newline(int ind) {
    m_out.push_back(U'\n');
    append_spaces(m_out, ind);
}

// The test pp_tail/pp_pairs_tail (and their cind twins) use to keep an element on the line.
bool Layout::fits_in_tail(const Node& e, int col, int ld1, int w) const {
    int elen = 1 + e.len;
    if (ld1 == 0) return elen + 1 < m_ll - col && w + elen + 1 <= m_m;
    return elen < m_ll - col - ld1 && w + elen + ld1 <= m_m;
}

void Layout::pp(const Node& n, int col, int ind, int ld, int w) {
    if (n.len < m_ll - col - ld && n.len + w + ld <= m_m) {
        write(n);
        return;
    }
    switch (n.kind) {
    case Node::Kind::List:
        m_out.push_back(U'[');
        pp_list(n, 0, col + 1, ind + 1, ld, U'|', w + 1);
        m_out.push_back(U']');
        break;
    case Node::Kind::Tuple:
        m_out.push_back(U'{');
        if (n.tagged)
            pp_tag_tuple(n, col, ind, ld, w + 1);
        else
            pp_list(n, 0, col + 1, ind + 1, ld, U',', w + 1);
        m_out.push_back(U'}');
        break;
    case Node::Kind::Map:
        append(m_out, "#{");
        pp_map(n, col + 2, ind + 2, ld, w + 1);  // OTP adds 1 to W here, 2 in cind
        m_out.push_back(U'}');
        break;
    case Node::Kind::Bin:
        pp_binary(n, col + 2, ind + 2, ld, w);
        break;
    default:
        write(n);
        break;
    }
}

void Layout::pp_list(const Node& n, std::size_t start, int col0, int ind, int ld, char32_t sep, int w) {
    if (n.is_tail(start) && n.tail == Node::Tail::Dots) {
        append(m_out, "...");
        return;
    }
    int we = pp_element(n.items[start], col0, ind, last_depth(n, start, ld), w);
    pp_tail(n, start + 1, col0, col0 + we, ind, ld, sep, w + we);
}

void Layout::pp_tail(const Node& n, std::size_t i, int col0, int col, int ind, int ld, char32_t sep, int w) {
    for (; i < n.items.size(); ++i) {
        const Node& e = n.items[i];
        if (n.is_tail(i)) {
            m_out.push_back(sep);
            if (n.tail == Node::Tail::Dots) {
                append(m_out, "...");
            } else if (e.len + 1 < m_ll - col - (ld + 1) && e.len + 1 + w + (ld + 1) <= m_m && e.is_atomic()) {
                write(e);
            } else {
                newline(ind);
                pp(e, col0, ind, ld + 1, 0);
            }
            return;
        }
        int ld1 = last_depth(n, i, ld);
        if (fits_in_tail(e, col, ld1, w) && e.is_atomic()) {
            m_out.push_back(U',');
            write(e);
            col += 1 + e.len;
            w += 1 + e.len;
        } else {
            m_out.push_back(U',');
            newline(ind);
            int we = pp_element(e, col0, ind, ld1, 0);
            col = col0 + we;
            w = we;
        }
    }
}

int Layout::pp_element(const Node& e, int col, int ind, int ld, int w) {
    if (e.len < m_ll - col - ld && e.len + w + ld <= m_m && e.is_atomic()) {
        write(e);
        return e.len;
    }
    pp(e, col, ind, ld, w);
    return m_ll;  // forces a new line after it
}

// A tuple whose first element is an atom: the other elements are indented after the tag, or by
// the tagged tuple indentation on the following lines when the tag is long.
void Layout::pp_tag_tuple(const Node& n, int col, int ind, int ld, int w) {
    const Node& tag = n.items[0];
    int tag_ind = tag.len + 2;
    int tcol = col + tag_ind;
    write(tag);
    if (m_tind > 0 && tag_ind > m_tind) {
        pp_tail(n, 1, col + m_tind, tcol, ind + m_tind, ld, U',', w + tag.len);
    } else {
        m_out.push_back(U',');
        pp_list(n, 1, tcol, ind + tag_ind, ld, U',', w + tag.len + 1);
    }
}

void Layout::pp_map(const Node& n, int col, int ind, int ld, int w) {
    if (n.items.empty()) return;
    if (n.is_tail(0)) {
        append(m_out, "...");
        return;
    }
    int pw = pp_pair(n.items[0], col, ind, last_depth(n, 0, ld), w);
    int c = col + pw;
    w = pw;
    for (std::size_t i = 1; i < n.items.size(); ++i) {
        const Node& p = n.items[i];
        if (n.is_tail(i)) {
            append(m_out, ",...");
            return;
        }
        int ld1 = last_depth(n, i, ld);
        if (fits_in_tail(p, c, ld1, w) && p.items[0].is_atomic() && p.items[1].is_atomic()) {
            m_out.push_back(U',');
            write_pair(p);
            c += 1 + p.len;
            w += 1 + p.len;
        } else {
            m_out.push_back(U',');
            newline(ind);
            pw = pp_pair(p, col, ind, ld1, 0);
            c = col + pw;
            w = pw;
        }
    }
}

int Layout::pp_pair(const Node& p, int col, int ind0, int ld, int w) {
    if (p.len < m_ll - col - ld && p.len + w + ld <= m_m) {
        write_pair(p);
        return p.items[0].is_atomic() && p.items[1].is_atomic() ? p.len : m_ll;
    }
    int i = map_value_indent();
    pp(p.items[0], col, ind0, ld, w);
    append(m_out, " =>");
    newline(ind0 + i);
    pp(p.items[1], col + i, ind0 + i, ld, 0);
    return m_ll;
}

// Breaks the bytes of a non-printable binary over lines (io_lib_pretty:pp_binary/7,4); the pieces
// are the comma-separated parts of the "<<...>>" text.
void Layout::pp_binary(const Node& n, int col, int ind, int ld, int w) {
    int n0 = std::max(8, std::min(m_ll - col, m_m - 4 - w) - ld);
    int room = n0;
    std::u32string_view inner(m_pool.data() + n.text + 2, std::size_t(n.len) - 4);
    append(m_out, "<<");
    for (;;) {
        std::size_t comma = inner.find(U',');
        std::u32string_view piece = inner.substr(0, comma);
        int len = int(piece.size());
        if (comma == std::u32string_view::npos) {
            if (len > room) newline(ind);
            m_out += piece;
            break;
        }
        if (room - (len + 1) < 0) {
            newline(ind);
            room = n0 - (len + 1);
        } else {
            room -= len + 1;
        }
        m_out += piece;
        m_out.push_back(U',');
        inner.remove_prefix(comma + 1);
    }
    append(m_out, ">>");
}

void Layout::choose_tuple_indent(const Node& root, int col) {
    for (int candidate : {-1, 4}) {
        m_tind = candidate;
        try {
            cind(root, col, 0, 0);
            return;
        } catch (const NoGood&) {
        }
    }
    m_tind = 1;
}

void Layout::cind(const Node& n, int col, int ld, int w) {
    if (n.len < m_ll - col - ld && n.len + w + ld <= m_m) return;
    switch (n.kind) {
    case Node::Kind::List:
        cind_list(n, 0, col + 1, ld, w + 1);
        break;
    case Node::Kind::Tuple:
        if (n.tagged)
            cind_tag_tuple(n, col, ld, w + 1);
        else
            cind_list(n, 0, col + 1, ld, w + 1);
        break;
    case Node::Kind::Map:
        cind_map(n, col + 2, ld, w + 2);
        break;
    default:
        break;
    }
}

void Layout::cind_tag_tuple(const Node& n, int col, int ld, int w) {
    int tlen = n.items[0].len;
    int tag_ind = tlen + 2;
    int tcol = col + tag_ind;
    if (m_tind > 0 && tag_ind > m_tind) {
        int col1 = col + m_tind;
        if (!(m_m + col1 <= m_ll || col1 <= m_ll / 2)) throw NoGood{};
        cind_tail(n, 1, col1, tcol, ld, w + tlen);
    } else {
        if (!(m_m + tcol < m_ll || tcol < m_ll / 2)) throw NoGood{};
        cind_list(n, 1, tcol, ld, w + tlen + 1);
    }
}

void Layout::cind_list(const Node& n, std::size_t start, int col0, int ld, int w) {
    if (n.is_tail(start) && n.tail == Node::Tail::Dots) return;
    int we = cind_element(n.items[start], col0, last_depth(n, start, ld), w);
    cind_tail(n, start + 1, col0, col0 + we, ld, w + we);
}

void Layout::cind_tail(const Node& n, std::size_t i, int col0, int col, int ld, int w) {
    for (; i < n.items.size(); ++i) {
        const Node& e = n.items[i];
        if (n.is_tail(i)) {
            if (n.tail == Node::Tail::Dots) return;
            if (e.len + 1 < m_ll - col - (ld + 1) && e.len + 1 + w + (ld + 1) <= m_m && e.is_atomic()) return;
            cind(e, col, ld + 1, 0);  // OTP passes Col here where pp_tail passes Col0
            return;
        }
        int ld1 = last_depth(n, i, ld);
        if (fits_in_tail(e, col, ld1, w) && e.is_atomic()) {
            col += 1 + e.len;
            w += 1 + e.len;
        } else {
            int we = cind_element(e, col0, ld1, 0);
            col = col0 + we;
            w = we;
        }
    }
}

int Layout::cind_element(const Node& e, int col, int ld, int w) {
    if (e.len < m_ll - col - ld && e.len + w + ld <= m_m && e.is_atomic()) return e.len;
    cind(e, col, ld, w);
    return m_ll;
}

void Layout::cind_map(const Node& n, int col, int ld, int w) {
    if (n.items.empty() || n.is_tail(0)) return;
    int pw = cind_pair(n.items[0], col, last_depth(n, 0, ld), w);
    int c = col + pw;
    w += pw;  // OTP's cind_map passes W + PW where pp_map passes PW
    for (std::size_t i = 1; i < n.items.size(); ++i) {
        const Node& p = n.items[i];
        if (n.is_tail(i)) return;
        int ld1 = last_depth(n, i, ld);
        if (fits_in_tail(p, c, ld1, w) && p.items[0].is_atomic() && p.items[1].is_atomic()) {
            c += 1 + p.len;
            w += 1 + p.len;
        } else {
            pw = cind_pair(p, col, ld1, 0);
            c = col + pw;
            w = pw;
        }
    }
}

int Layout::cind_pair(const Node& p, int col, int ld, int w) {
    if (p.len < m_ll - col - ld && p.len + w + ld <= m_m)
        return p.items[0].is_atomic() && p.items[1].is_atomic() ? p.len : m_ll;
    cind(p.items[0], col, ld, w);
    cind(p.items[1], col + map_value_indent(), ld, 0);
    return m_ll;
}

// ---- floats: ~e, ~f, ~g -------------------------------------------------------------------------

// float_data/1: the 21 significant digits of float_to_list/1 ("%.20e") and the exponent + 1.
void float_data(double v, std::string* digits, int* exponent) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.20e", std::fabs(v));
    digits->clear();
    const char* p = buf;
    for (; *p && *p != 'e'; ++p)
        if (*p >= '0' && *p <= '9') digits->push_back(*p);
    *exponent = std::atoi(p + 1) + 1;
}

// float_man/3: [ints] integer digits and [decimals] decimals of [digits], rounded half up on the
// next digit; [carry] is set when the rounding carries out of the first digit.
std::string float_man(const std::string& digits, int ints, int decimals, bool* carry) {
    std::size_t total = std::size_t(ints) + std::size_t(decimals);
    std::string s(total, '0');
    for (std::size_t k = 0; k < total && k < digits.size(); ++k) s[k] = digits[k];
    bool c = total < digits.size() && digits[total] >= '5';
    for (std::size_t k = total; c && k-- > 0;) {
        if (s[k] == '9') {
            s[k] = '0';
        } else {
            ++s[k];
            c = false;
        }
    }
    *carry = c;
    s.insert(std::size_t(ints), 1, '.');
    return s;
}

std::string float_e(double v, int precision) {
    std::string digits;
    int e;
    float_data(v, &digits, &e);
    bool carry;
    std::string s = float_man(digits, 1, precision - 1, &carry);
    if (carry)
        s[0] = '1';
    else
        e -= 1;
    return std::string(std::signbit(v) ? "-" : "") + s + (e >= 0 ? "e+" : "e") + std::to_string(e);
}

std::string float_f(double v, int precision) {
    std::string digits;
    int e;
    float_data(v, &digits, &e);
    if (e <= 0) {
        digits.insert(0, std::size_t(1 - e), '0');
        e = 1;
    }
    bool carry;
    std::string s = float_man(digits, e, precision, &carry);
    if (carry) s.insert(0, 1, '1');
    return std::string(std::signbit(v) ? "-" : "") + s;
}

// ---- io_lib_format ------------------------------------------------------------------------------

struct FormatError {
    std::string reason;
};

[[noreturn]] void fail(std::string reason) { throw FormatError{std::move(reason)}; }

// One control sequence: ~F.P.PadModC
struct Spec {
    char32_t control = 0;
    std::optional<long> width;
    bool left = false;
    std::optional<long> precision;
    char32_t pad = U' ';
    bool unicode = false;
    bool strings = true;
    Term args[2] = {0, 0};
};

constexpr long MAX_FIELD = 1 << 24;

Chars repeat(char32_t c, long n) { return n > 0 ? Chars(std::size_t(n), c) : Chars(); }

// adjust/3: [pad] on the side opposite to the alignment.
Chars adjust(Chars data, const Chars& pad, bool left) {
    if (pad.empty()) return data;
    return left ? data + pad : pad + data;
}

// term/5: [t] in a field of [width]; stars when it does not fit.
Chars term_field(Chars t, std::optional<long> width, bool left, std::optional<long> precision, char32_t pad) {
    if (!width && !precision) return t;
    long f = width ? *width : *precision;
    long p0 = width ? (precision ? std::min(*precision, f) : f) : *precision;
    long len = long(t.size());
    long p = std::min(len, p0);
    if (p < 0) fail("negative field");
    if (len > p) return adjust(repeat(U'*', p), repeat(pad, f - p), left);
    return adjust(std::move(t), repeat(pad, f - len), left);
}

Chars flat_trunc(const Chars& s, long n) { return s.substr(0, std::size_t(std::max(0L, n))); }

Chars string_field(Chars s, long f, bool left, char32_t pad) {
    long n = long(s.size());
    if (f < 0) fail("negative field");
    if (n > f) return flat_trunc(s, f);
    if (n < f) return adjust(std::move(s), repeat(pad, f - n), left);
    return s;
}

// string/6.
Chars string_control(Chars s, const Spec& spec) {
    if (!spec.width && !spec.precision) return s;
    if (!spec.precision) return string_field(std::move(s), *spec.width, spec.left, spec.pad);
    if (!spec.width) return string_field(std::move(s), *spec.precision, true, spec.pad);
    long f = *spec.width, p = *spec.precision;
    if (f < p || p < 0) fail("precision larger than field");
    if (f == p) return string_field(std::move(s), f, spec.left, spec.pad);
    long n = long(s.size());
    if (n > p) return adjust(flat_trunc(s, p), repeat(spec.pad, f - p), spec.left);
    if (n < p) return adjust(s + repeat(spec.pad, p - n), repeat(spec.pad, f - p), spec.left);
    return adjust(std::move(s), repeat(spec.pad, f - p), spec.left);
}

// char/5.
Chars char_control(char32_t c, const Spec& spec) {
    if (!spec.width && !spec.precision) return Chars(1, c);
    if (!spec.precision) return repeat(c, *spec.width);
    if (!spec.width) return repeat(c, *spec.precision);
    if (*spec.width < *spec.precision) fail("precision larger than field");
    return adjust(repeat(c, *spec.precision), repeat(spec.pad, *spec.width - *spec.precision), spec.left);
}

// iolist_to_chars/1 (latin1, bytes 0..255) or cdata_to_chars/1 (unicode) of a ~s argument.
void string_arg_chars(Term t, bool unicode, Chars& out, bool top) {
    if (vm::is_bitstring(t)) {
        Bits b{vm::bit_view(t)};
        if (b.bit_size() % 8 != 0) fail("~s: bitstring");
        std::vector<std::uint8_t> bytes(b.byte_size());
        for (std::size_t i = 0; i < bytes.size(); ++i) bytes[i] = std::uint8_t(b.byte(i));
        if (unicode) {
            Chars decoded;
            if (decode_utf8(bytes.data(), bytes.size(), decoded)) {
                out += decoded;
                return;
            }
        }
        for (std::uint8_t c : bytes) out.push_back(c);
        return;
    }
    if (top && vm::is_atom(t)) {
        Chars s = atom_chars(t);
        if (!unicode && std::any_of(s.begin(), s.end(), [](char32_t c) { return c > 0xFF; }))
            fail("~s: atom is not latin1");
        out += s;
        return;
    }
    if (!vm::is_list(t) && !vm::is_nil(t)) fail("~s: not a string");
    for (; vm::is_list(t); t = vm::cdr(t)) {
        Term c = vm::car(t);
        if (vm::is_small(c)) {
            auto v = vm::small_value(c);
            if (v < 0 || v > (unicode ? 0x10FFFF : 0xFF)) fail("~s: bad character");
            out.push_back(char32_t(v));
        } else if (vm::is_list(c) || vm::is_nil(c) || vm::is_bitstring(c)) {
            string_arg_chars(c, unicode, out, false);
        } else {
            fail("~s: bad element");
        }
    }
    if (!vm::is_nil(t)) {
        if (!vm::is_bitstring(t)) fail("~s: improper list");
        string_arg_chars(t, unicode, out, false);
    }
}

// io_lib:deep_char_list/1 flattened, for the ~x prefix.
void deep_char_list(Term t, Chars& out) {
    for (; vm::is_list(t); t = vm::cdr(t)) {
        Term c = vm::car(t);
        if (vm::is_small(c)) {
            auto v = vm::small_value(c);
            if (v < 0 || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF) || v == 0xFFFE || v == 0xFFFF)
                fail("~x: bad prefix");
            out.push_back(char32_t(v));
        } else if (vm::is_list(c) || vm::is_nil(c)) {
            deep_char_list(c, out);
        } else {
            fail("~x: bad prefix");
        }
    }
    if (!vm::is_nil(t)) fail("~x: bad prefix");
}

Chars integer_control(const Spec& spec, const Chars& prefix, bool lowercase) {
    long base = spec.precision ? *spec.precision : 10;
    if (base < 2 || base > 36) fail("bad base");
    std::string digits = integer_text(spec.args[0], int(base));
    bool negative = !digits.empty() && digits[0] == '-';
    if (negative) digits.erase(0, 1);
    if (lowercase)
        for (char& c : digits) c = char(std::tolower(static_cast<unsigned char>(c)));
    Chars s;
    if (negative) s.push_back(U'-');
    s += prefix;
    append(s, digits);
    return term_field(std::move(s), spec.width, spec.left, std::nullopt, spec.pad);
}

Chars float_control(const Spec& spec) {
    Term a = spec.args[0];
    if (!vm::is_float(a)) fail("float expected");
    double v = vm::float_value(a);
    char32_t c = spec.control;
    long p = spec.precision ? *spec.precision : 6;
    if (c == U'g') {
        if (p < 1) fail("bad precision");
        // fwrite_g/5: the decimal exponent of |v|, none at 1.0e4 and above, where OTP compares P
        // with the atom fwrite_f and both ~f tests fail.
        double x = std::fabs(v);
        std::optional<int> e;
        if (x < 1.0e4) e = x < 0.1 ? -2 : x < 1.0 ? -1 : x < 10.0 ? 0 : x < 100.0 ? 1 : x < 1.0e3 ? 2 : 3;
        if ((p <= 1 && e == -1) || (e && p - 1 > *e && *e >= -1)) {
            p = p - 1 - *e;
            c = U'f';
        } else {
            p = p <= 1 ? 2 : p;
            c = U'e';
        }
    }
    if (p > MAX_FIELD) fail("precision too large");
    std::string text;
    if (c == U'e') {
        if (p < 2) fail("bad precision");
        text = float_e(v, int(p));
    } else {
        if (p < 1) fail("bad precision");
        text = float_f(v, int(p));
    }
    if (!spec.width) return ascii_chars(text);
    return term_field(ascii_chars(text), spec.width, spec.left, spec.width, spec.pad);
}

// The depth argument of ~W and ~P; every negative depth, like a huge one, means no limit.
int depth_arg(Term t) {
    if (!vm::is_integer(t)) fail("depth must be an integer");
    auto d = vm::integer_to_int64(t);
    if (!d || *d < 0 || *d > (1 << 30)) return -1;
    return int(*d);
}

// Runs one io_lib:format: scans the control sequences and builds the output in one pass (OTP
// scans everything first, but both fail on the same inputs and the output is then unused).
class Formatter {
public:
    Formatter(std::u32string_view fmt, std::vector<Term> args) : m_fmt(fmt), m_args(std::move(args)) {}

    Chars run();

private:
    std::optional<long> field_value();
    Chars control(const Spec& spec);
    void emit(const Chars& s);

    std::u32string_view m_fmt;
    std::size_t m_pos = 0;
    std::vector<Term> m_args;
    std::size_t m_arg = 0;
    Chars m_out;
    int m_column = 0;  // io_lib_format's indentation: characters since the last newline
};

std::optional<long> Formatter::field_value() {
    if (m_pos < m_fmt.size() && m_fmt[m_pos] == U'*') {
        if (m_arg < m_args.size() && vm::is_integer(m_args[m_arg])) {
            auto v = vm::integer_to_int64(m_args[m_arg]);
            if (!v || *v > MAX_FIELD || *v < -MAX_FIELD) fail("field too large");
            ++m_arg;
            ++m_pos;
            return long(*v);
        }
        return std::nullopt;
    }
    if (m_pos < m_fmt.size() && m_fmt[m_pos] >= U'0' && m_fmt[m_pos] <= U'9') {
        long v = 0;
        while (m_pos < m_fmt.size() && m_fmt[m_pos] >= U'0' && m_fmt[m_pos] <= U'9') {
            v = v * 10 + long(m_fmt[m_pos++] - U'0');
            if (v > MAX_FIELD) fail("field too large");
        }
        return v;
    }
    return std::nullopt;
}

Chars Formatter::run() {
    for (m_pos = 0; m_pos < m_fmt.size();) {
        char32_t c = m_fmt[m_pos++];
        if (c != U'~') {
            emit(Chars(1, c));
            continue;
        }
        // collect_cseq/2: field width, precision, pad character, modifiers, control character.
        Spec spec;
        if (m_pos < m_fmt.size() && m_fmt[m_pos] == U'-') {
            ++m_pos;
            auto v = field_value();
            if (!v) fail("'-' without a field width");
            spec.width = -*v;
        } else {
            spec.width = field_value();
        }
        if (spec.width && *spec.width < 0) {
            spec.width = -*spec.width;
            spec.left = true;
        }
        if (m_pos < m_fmt.size() && m_fmt[m_pos] == U'.') {
            ++m_pos;
            spec.precision = field_value();
        }
        if (m_pos + 1 < m_fmt.size() && m_fmt[m_pos] == U'.' && m_fmt[m_pos + 1] == U'*' && m_arg < m_args.size()) {
            Term pad = m_args[m_arg++];
            if (!vm::is_small(pad) || vm::small_value(pad) < 0 || vm::small_value(pad) > 0x10FFFF)
                fail("bad pad character");
            spec.pad = char32_t(vm::small_value(pad));
            m_pos += 2;
        } else if (m_pos + 1 < m_fmt.size() && m_fmt[m_pos] == U'.') {
            spec.pad = m_fmt[m_pos + 1];
            m_pos += 2;
        }
        for (; m_pos < m_fmt.size(); ++m_pos) {
            if (m_fmt[m_pos] == U't')
                spec.unicode = true;
            else if (m_fmt[m_pos] == U'l')
                spec.strings = false;
            else
                break;
        }
        if (m_pos >= m_fmt.size()) fail("format ends inside a control sequence");
        spec.control = m_fmt[m_pos++];
        int needed;
        switch (spec.control) {
        case U'w': case U'p': case U's': case U'e': case U'f': case U'g': case U'b': case U'B':
        case U'+': case U'#': case U'c': case U'i':
            needed = 1;
            break;
        case U'W': case U'P': case U'x': case U'X':
            needed = 2;
            break;
        case U'~': case U'n':
            needed = 0;
            break;
        default:
            fail("unknown control ~" + std::string(1, char(spec.control < 128 ? spec.control : '?')));
        }
        if (m_arg + std::size_t(needed) > m_args.size()) fail("too few arguments");
        for (int k = 0; k < needed; ++k) spec.args[k] = m_args[m_arg++];
        emit(control(spec));
    }
    if (m_arg != m_args.size()) fail("too many arguments");
    return std::move(m_out);
}

// Appends [s], tracking the column as io_lib_format:indentation/2 (tabs stop every 8 columns).
void Formatter::emit(const Chars& s) {
    for (char32_t c : s) {
        if (c == U'\n')
            m_column = 0;
        else if (c == U'\t')
            m_column = (m_column + 8) / 8 * 8;
        else
            ++m_column;
    }
    m_out += s;
}

// control_small/7 and control_limited/10.
Chars Formatter::control(const Spec& spec) {
    Term a = spec.args[0];
    switch (spec.control) {
    case U'w':
    case U'W': {
        int depth = spec.control == U'W' ? depth_arg(spec.args[1]) : -1;
        return term_field(write_term_chars(a, depth, spec.unicode), spec.width, spec.left, spec.precision,
                          spec.pad);
    }
    case U'p':
    case U'P': {
        PrintOptions options;
        if (spec.control == U'P') options.depth = depth_arg(spec.args[1]);
        if (spec.left) fail("~p cannot be left-adjusted");
        options.line_length = spec.width ? int(*spec.width) : 80;
        options.column = spec.precision ? int(*spec.precision) : m_column + 1;
        options.unicode = spec.unicode;
        options.strings = spec.strings;
        return print_term_chars(a, options);
    }
    case U's': {
        Chars s;
        string_arg_chars(a, spec.unicode, s, true);
        return string_control(std::move(s), spec);
    }
    case U'e':
    case U'f':
    case U'g':
        return float_control(spec);
    case U'b':
    case U'B':
        if (!vm::is_integer(a)) fail("integer expected");
        return integer_control(spec, Chars(), spec.control == U'b');
    case U'x':
    case U'X': {
        if (!vm::is_integer(a)) fail("integer expected");
        Chars prefix;
        if (vm::is_atom(spec.args[1]))
            prefix = atom_chars(spec.args[1]);
        else
            deep_char_list(spec.args[1], prefix);
        return integer_control(spec, prefix, spec.control == U'x');
    }
    case U'+':
    case U'#': {
        if (!vm::is_integer(a)) fail("integer expected");
        long base = spec.precision ? *spec.precision : 10;
        Chars prefix = ascii_chars(std::to_string(base) + "#");
        return integer_control(spec, prefix, spec.control == U'+');
    }
    case U'c': {
        if (!vm::is_integer(a)) fail("integer expected");
        char32_t c;
        if (spec.unicode) {
            auto v = vm::integer_to_int64(a);
            if (!v || *v < 0 || *v > 0x10FFFF) fail("~tc: not a character");
            c = char32_t(*v);
        } else if (vm::is_small(a)) {
            c = char32_t(vm::small_value(a) & 0xFF);
        } else {
            // A band 255 of a bignum: the low byte of its two's complement.
            mpz_t z;
            mpz_init(z);
            vm::integer_to_mpz(a, z);
            c = char32_t(mpz_fdiv_ui(z, 256));
            mpz_clear(z);
        }
        return char_control(c, spec);
    }
    case U'~':
        return char_control(U'~', spec);
    case U'n':
        if (!spec.width) return Chars(1, U'\n');
        if (spec.left) fail("~n cannot be left-adjusted");
        return repeat(U'\n', *spec.width);
    case U'i':
        return Chars();
    default:
        fail("unknown control");
    }
}

// The format as characters: a flat list of characters, a binary (bytes) or an atom. Elements
// that are themselves lists are copied verbatim, as io_lib_format passes them through.
void format_term_chars(Term t, Chars& out, bool nested) {
    if (!nested && vm::is_atom(t)) {
        out += atom_chars(t);
        return;
    }
    if (vm::is_bitstring(t)) {
        Bits b{vm::bit_view(t)};
        if (b.bit_size() % 8 != 0) fail("format is a bitstring");
        for (std::size_t i = 0; i < b.byte_size(); ++i) out.push_back(char32_t(b.byte(i)));
        return;
    }
    for (; vm::is_list(t); t = vm::cdr(t)) {
        Term c = vm::car(t);
        if (vm::is_small(c) && vm::small_value(c) >= 0 && vm::small_value(c) <= 0x10FFFF) {
            out.push_back(char32_t(vm::small_value(c)));
        } else if (!nested && (vm::is_list(c) || vm::is_nil(c))) {
            Chars verbatim;
            format_term_chars(c, verbatim, true);
            // Literal text must not be read as control sequences: mark it by doubling tildes.
            for (char32_t v : verbatim) {
                out.push_back(v);
                if (v == U'~') out.push_back(U'~');
            }
        } else {
            fail("bad format");
        }
    }
    if (!vm::is_nil(t)) fail("format is not a proper list");
}

}  // namespace

// ---- public API ---------------------------------------------------------------------------------

Chars write_term_chars(Term t, int depth, bool unicode) {
    Chars out;
    Writer(out, unicode).write(t, depth);
    return out;
}

Chars print_term_chars(Term t, const PrintOptions& options) {
    Chars out;
    if (options.depth == 0) return ascii_chars("...");
    int col = std::max(1, options.column);
    if (vm::is_atom(t)) {
        write_atom(out, t, options.unicode);
        return out;
    }
    if (!(vm::is_tuple(t) || vm::is_list(t) || vm::is_nil(t) || vm::is_map(t) || vm::is_bitstring(t))) {
        write_atomic(out, t, false);
        return out;
    }
    Chars pool;
    Node root = Measurer(pool, options.unicode, options.strings).measure(t, options.depth);
    Layout layout(out, pool, options.line_length, root.len);
    if (options.line_length == 0 || root.len < options.line_length - col) {
        layout.write(root);
        return out;
    }
    layout.choose_tuple_indent(root, col);
    layout.pp(root, col, col - 1, 0, 0);
    return out;
}

std::string write_term(Term t, int depth) { return chars_to_latin1_output(write_term_chars(t, depth)); }

std::string print_term(Term t, int column, int line_length, int depth, bool strings) {
    PrintOptions options;
    options.column = column;
    options.line_length = line_length;
    options.depth = depth;
    options.strings = strings;
    return chars_to_latin1_output(print_term_chars(t, options));
}

// The shortest round-trip digits come from std::to_chars; the choice between fixed and
// scientific notation mirrors to_chars() in OTP's erts/emulator/ryu/to_chars.h.
std::string float_to_shortest(double v) {
    if (!std::isfinite(v)) return std::isnan(v) ? "nan" : (v < 0 ? "-inf" : "inf");  // never made by Erlang code
    char buf[64];
    auto [end, ec] = std::to_chars(buf, buf + sizeof buf, std::fabs(v), std::chars_format::scientific);
    std::string_view sci(buf, std::size_t(end - buf));
    std::size_t epos = sci.find('e');
    std::string digits;
    for (char c : sci.substr(0, epos))
        if (c != '.') digits.push_back(c);
    int sci_exp = std::atoi(std::string(sci.substr(epos + 1)).c_str());
    int olength = int(digits.size());
    int exp = sci_exp - (olength - 1);  // value = digits * 10^exp
    std::uint64_t mantissa = std::stoull(digits);
    int lower = olength == 1 ? -4 : -(olength + 2);
    int upper = (olength == 1 || sci_exp >= 10) ? 2 : 1;
    bool fixed = lower <= exp && exp <= upper;
    // Integers beyond 2^53 are printed in scientific notation.
    if ((mantissa >= (1ULL << 53) && exp == 0) || (mantissa > (1ULL << 52) / 5 && exp == 1) ||
        (mantissa > (1ULL << 51) / 25 && exp == 2))
        fixed = false;
    std::string out = std::signbit(v) ? "-" : "";
    if (fixed) {
        int whole = olength + exp;
        if (exp >= 0) {
            out += digits + std::string(std::size_t(exp), '0') + ".0";
        } else if (whole > 0) {
            out += digits.substr(0, std::size_t(whole)) + "." + digits.substr(std::size_t(whole));
        } else {
            out += "0." + std::string(std::size_t(-whole), '0') + digits;
        }
    } else {
        out += digits.substr(0, 1) + "." + (olength > 1 ? digits.substr(1) : "0") + "e" + std::to_string(sci_exp);
    }
    return out;
}

std::optional<Chars> format_chars(std::u32string_view format, Term args, std::string* error_reason) {
    std::vector<Term> list;
    for (; vm::is_list(args); args = vm::cdr(args)) list.push_back(vm::car(args));
    if (!vm::is_nil(args)) {
        if (error_reason) *error_reason = "arguments are not a proper list";
        return std::nullopt;
    }
    try {
        return Formatter(format, std::move(list)).run();
    } catch (const FormatError& e) {
        if (error_reason) *error_reason = e.reason;
        return std::nullopt;
    }
}

std::optional<Chars> format_chars(Term format, Term args, std::string* error_reason) {
    Chars fmt;
    try {
        format_term_chars(format, fmt, false);
    } catch (const FormatError& e) {
        if (error_reason) *error_reason = e.reason;
        return std::nullopt;
    }
    return format_chars(std::u32string_view(fmt), args, error_reason);
}

std::optional<std::string> format(std::string_view format, Term args, std::string* error_reason) {
    Chars fmt;
    for (unsigned char c : format) fmt.push_back(c);
    auto out = format_chars(std::u32string_view(fmt), args, error_reason);
    if (!out) return std::nullopt;
    return chars_to_latin1_output(*out);
}

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
