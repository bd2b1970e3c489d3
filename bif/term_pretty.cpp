// bif/term_pretty.cpp — io_lib_pretty:print (`~p`) rewritten from OTP 25.
//
// It follows io_lib_pretty.erl closely: print_length() turns the term into an intermediate tree
// that knows the printed length of every subterm, cind() picks the indentation of tagged
// tuples, and pp() lays the tree out. Chars limits (chars_limit) and record printing are not
// needed by io_lib:format/2 and are left out; everything else keeps OTP's arithmetic, quirks
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
#include "bif/term_text.hpp"
#include "vm/atom_table.hpp"
#include "vm/binary.hpp"
#include "vm/bignum.hpp"
#include "vm/map.hpp"
#include "vm/module.hpp"

namespace beamlet::bif {

using vm::Word;
using namespace text;

namespace {

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

}  // namespace

// ---- public API ---------------------------------------------------------------------------------

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

std::string print_term(Term t, int column, int line_length, int depth, bool strings) {
    PrintOptions options;
    options.column = column;
    options.line_length = line_length;
    options.depth = depth;
    options.strings = strings;
    return chars_to_latin1_output(print_term_chars(t, options));
}

}  // namespace beamlet::bif
