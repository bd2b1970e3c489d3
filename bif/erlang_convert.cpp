// bif/erlang_convert.cpp — conversions between atoms, lists, integers, floats and binaries.
#include <cctype>
#include <cstdio>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <vector>

#include "bif/bifs.hpp"
#include "bif/term_format.hpp"
#include "vm/arith.hpp"
#include "vm/atom_table.hpp"
#include "vm/bignum.hpp"
#include "vm/binary.hpp"

namespace beamlet::bif {

using namespace vm;

namespace {

// The characters of a char list encoded as UTF-8, for atom names (no surrogates, as OTP).
bool chars_to_utf8(Term t, std::string* out) {
    for (; is_list(t); t = cdr(t)) {
        Term c = car(t);
        if (!is_small(c) || small_value(c) < 0 || small_value(c) > 0x10FFFF) return false;
        if (small_value(c) >= 0xD800 && small_value(c) <= 0xDFFF) return false;
        put_utf8(std::uint32_t(small_value(c)), *out);
    }
    return is_nil(t);
}

// An atom's name from binary_to_atom's or binary_to_existing_atom's arguments, as UTF-8:
// latin1 bytes converted, utf8 (or unicode) checked. As OTP: more than 255 characters is too
// long (system_limit for binary_to_atom), even when a bad UTF-8 sequence comes later; a bad
// one before that is badarg. Null with [*too_long] set or not.
std::optional<std::string> atom_name_of_binary(Term bin, Term encoding, bool* too_long) {
    *too_long = false;
    std::string bytes;
    if (!is_binary(bin) || !iolist_to_bytes(bin, &bytes)) return std::nullopt;
    constexpr std::size_t MAX_ATOM_CHARACTERS = 255;
    if (encoding == atoms::latin1) {
        if (bytes.size() > MAX_ATOM_CHARACTERS) return *too_long = true, std::nullopt;
        std::string utf8;
        for (unsigned char c : bytes) put_utf8(c, utf8);
        return utf8;
    }
    if (encoding != atoms::utf8 && encoding != atoms::unicode) return std::nullopt;
    const auto* b = reinterpret_cast<const std::uint8_t*>(bytes.data());
    std::size_t characters = 0;
    for (std::size_t i = 0; i < bytes.size(); ++characters) {
        if (characters == MAX_ATOM_CHARACTERS) return *too_long = true, std::nullopt;
        std::uint32_t c;
        int len = utf8_decode(b + i, bytes.size() - i, &c);
        if (len <= 0) return std::nullopt;
        i += std::size_t(len);
    }
    return bytes;
}

bool binary_bytes(Term t, std::string* out) {
    if (!is_binary(t)) return false;
    return iolist_to_bytes(t, out);
}

Term make_atom_or_error(Process* p, const std::string& name) {
    auto a = AtomTable::global().intern(name);
    if (!a) return p->error(atoms::system_limit);
    return *a;
}

bool valid_base(Term b) { return is_small(b) && small_value(b) >= 2 && small_value(b) <= 36; }

// Erlang's list_to_float syntax: digits, '.', digits, optional exponent; no leading '+'? (OTP
// accepts a sign) and a fraction is required.
bool parse_erlang_float(const std::string& s, double* out) {
    std::size_t i = 0;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
    std::size_t digits = i;
    while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i;
    if (i == digits || i >= s.size() || s[i] != '.') return false;
    ++i;
    std::size_t frac = i;
    while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i;
    if (i == frac) return false;
    if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
        ++i;
        if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
        std::size_t exp = i;
        while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) ++i;
        if (i == exp) return false;
    }
    if (i != s.size()) return false;
    *out = std::strtod(s.c_str(), nullptr);
    return std::isfinite(*out);
}

// [d] with [decimals] digits after the point, rounding exact ties away from zero as OTP does
// (printf rounds them to even: 0.5 -> "0" where OTP gives "1").
std::string fixed_ties_away(double d, int decimals);

// float_to_list(F, [{decimals, N}]) as OTP's sys_double_to_chars_fast: the integer and
// fractional parts apart, the fraction scaled by 10^N in double arithmetic and rounded half
// up (so 0.15 gives "0.2" and 2.675 gives "2.67", as on OTP); exact printing beyond its range.
std::string fixed_decimals(double d, int decimals) {
    double a = std::fabs(d);
    if (decimals > 18 || a >= 9007199254740992.0) return fixed_ties_away(d, decimals);
    std::uint64_t int_part = std::uint64_t(a);
    std::uint64_t scale = 1;
    for (int i = 0; i < decimals; ++i) scale *= 10;
    double scaled = (a - double(int_part)) * double(scale);
    std::uint64_t frac = std::uint64_t(scaled);
    if (scaled - double(frac) >= 0.5) ++frac;
    if (frac >= scale) {
        ++int_part;
        frac -= scale;
    }
    std::string out = std::signbit(d) ? "-" : "";
    out += std::to_string(int_part);
    if (decimals > 0) {
        std::string f = std::to_string(frac);
        out += "." + std::string(std::size_t(decimals) - f.size(), '0') + f;
    }
    return out;
}

std::string fixed_ties_away(double d, int decimals) {
    std::vector<char> wide(std::size_t(decimals) + 400);
    std::snprintf(wide.data(), wide.size(), "%.*f", decimals + 41, d);
    std::string w = wide.data();
    std::size_t point = w.find('.');
    std::string tail = w.substr(point + 1 + std::size_t(decimals));
    bool tie = tail[0] == '5' && tail.find_first_not_of('0', 1) == std::string::npos;
    std::vector<char> out(std::size_t(decimals) + 400);
    if (tie) {
        // Nudge away from zero so that printf's rounding goes the same way.
        double nudged = std::nextafter(d, d < 0 ? -INFINITY : INFINITY);
        std::snprintf(out.data(), out.size(), "%.*f", decimals, nudged);
    } else {
        std::snprintf(out.data(), out.size(), "%.*f", decimals, d);
    }
    return out.data();
}

// float_to_list/2 options: [{decimals, N}], [{scientific, N}], [short], [compact].
bool format_float_opts(double d, Term opts, std::string* out) {
    int decimals = -1, scientific = -1;
    bool compact = false, shortest = false;
    for (Term l = opts; !is_nil(l); l = cdr(l)) {
        if (!is_list(l)) return false;
        Term o = car(l);
        if (o == atoms::compact) compact = true;
        else if (o == atoms::short_) shortest = true;
        else if (is_tuple(o) && tuple_arity(o) == 2 && is_small(tuple_element(o, 1))) {
            SWord n = small_value(tuple_element(o, 1));
            if (tuple_element(o, 0) == atoms::decimals && n >= 0 && n <= 253) { decimals = int(n); scientific = -1; shortest = false; }
            else if (tuple_element(o, 0) == atoms::scientific && n >= 0 && n <= 249) { scientific = int(n); decimals = -1; shortest = false; }
            else return false;
        } else return false;
    }
    char buf[512];
    if (shortest) {
        *out = float_to_shortest(d);
        return true;
    }
    if (decimals >= 0) {
        std::string s = fixed_decimals(d, decimals);
        if (s.size() > 255) return false;  // OTP formats into a 256-byte buffer: badarg beyond
        if (compact && s.find('.') != std::string::npos) {
            while (s.size() > 1 && s.back() == '0' && s[s.size() - 2] != '.') s.pop_back();
        }
        *out = s;
        return true;
    }
    std::snprintf(buf, sizeof buf, "%.*e", scientific >= 0 ? scientific : 20, d);
    *out = buf;
    return true;
}

}  // namespace

Term bif_atom_to_list(Process* p, Term* a) {
    if (!is_atom(a[0])) return p->badarg();
    return utf8_to_list(p, atom_text(a[0]));
}
// pid_to_list/1, ref_to_list/1, fun_to_list/1: the printed form, as ~w shows it.
Term bif_pid_to_list(Process* p, Term* a) {
    if (!is_any_pid(a[0])) return p->badarg();
    return bytes_to_list(p, identifier_text(a[0]));
}
Term bif_ref_to_list(Process* p, Term* a) {
    if (!is_any_ref(a[0])) return p->badarg();
    return bytes_to_list(p, identifier_text(a[0]));
}
Term bif_fun_to_list(Process* p, Term* a) {
    if (!is_fun(a[0])) return p->badarg();
    return bytes_to_list(p, write_term(a[0]));
}

// list_to_pid("<0.Number.Serial>"): this node's pid (whether or not it exists). Another
// node's channel is badarg while not connected to it, as in OTP.
Term bif_list_to_pid(Process* p, Term* a) {
    std::string s;
    if (!list_to_bytes(a[0], &s)) return p->badarg();
    // Exactly <Digits.Digits.Digits>.
    Word parts[3] = {};
    std::size_t at = 0;
    auto expect = [&](char c) { return at < s.size() && s[at++] == c; };
    auto digits = [&](Word* out) {
        std::size_t start = at;
        while (at < s.size() && std::isdigit(static_cast<unsigned char>(s[at])) && at - start < 12)
            *out = *out * 10 + Word(s[at++] - '0');
        return at > start;
    };
    bool ok = expect('<') && digits(&parts[0]) && expect('.') && digits(&parts[1]) && expect('.') &&
              digits(&parts[2]) && expect('>') && at == s.size();
    if (!ok || parts[0] != 0 || parts[1] > MAX_PID_NUMBER || parts[2] > MAX_PID_SERIAL) return p->badarg();
    return make_pid(pid_data(parts[1], parts[2]));
}

// list_to_ref("#Ref<0.A.B.C>").
Term bif_list_to_ref(Process* p, Term* a) {
    std::string s;
    if (!list_to_bytes(a[0], &s)) return p->badarg();
    unsigned long long node = 0, i2 = 0, i1 = 0, i0 = 0;
    if (std::sscanf(s.c_str(), "#Ref<%llu.%llu.%llu.%llu>", &node, &i2, &i1, &i0) != 4 || node != 0) return p->badarg();
    const Word ids[3] = {Word(i0), Word(i1), Word(i2)};
    if (Term tid = ets_tid_of_ref(p, ids); tid != THE_NON_VALUE) return tid;
    Term* hp = p->alloc(REF_WORDS);
    hp[0] = make_header(REF_WORDS - 1, Subtag::Ref);
    hp[1] = Word(i0);
    hp[2] = Word(i1);
    hp[3] = Word(i2);
    return make_boxed(hp);
}

Term bif_list_to_atom(Process* p, Term* a) {
    std::string name;
    if (!chars_to_utf8(a[0], &name)) return p->badarg();
    return make_atom_or_error(p, name);
}
Term bif_list_to_existing_atom(Process* p, Term* a) {
    std::string name;
    if (!chars_to_utf8(a[0], &name)) return p->badarg();
    auto t = AtomTable::global().find(name);
    return t ? *t : p->badarg();
}
Term bif_atom_to_binary1(Process* p, Term* a) {
    if (!is_atom(a[0])) return p->badarg();
    return make_binary(p, atom_text(a[0]));
}
Term bif_atom_to_binary2(Process* p, Term* a) {
    if (!is_atom(a[0]) || (a[1] != atoms::utf8 && a[1] != atoms::latin1 && a[1] != atoms::unicode)) return p->badarg();
    const std::string& text = atom_text(a[0]);
    if (a[1] != atoms::latin1) return make_binary(p, text);
    // Latin-1: one byte per character; an atom with a character above 255 has no such form.
    std::string bytes;
    const auto* s = reinterpret_cast<const std::uint8_t*>(text.data());
    for (std::size_t i = 0; i < text.size();) {
        std::uint32_t c;
        int n = utf8_decode(s + i, text.size() - i, &c);
        if (n <= 0 || c > 255) return p->badarg();
        bytes.push_back(char(c));
        i += std::size_t(n);
    }
    return make_binary(p, bytes);
}
Term bif_binary_to_atom2(Process* p, Term* a) {
    bool too_long;
    std::optional<std::string> name = atom_name_of_binary(a[0], a[1], &too_long);
    if (!name) return too_long ? p->error(atoms::system_limit) : p->badarg();
    return make_atom_or_error(p, *name);
}
Term bif_binary_to_atom1(Process* p, Term* a) {
    Term args[2] = {a[0], atoms::utf8};
    return bif_binary_to_atom2(p, args);
}
Term bif_binary_to_existing_atom2(Process* p, Term* a) {
    bool too_long;  // no such atom can exist: badarg too
    std::optional<std::string> name = atom_name_of_binary(a[0], a[1], &too_long);
    if (!name) return p->badarg();
    auto t = AtomTable::global().find(*name);
    return t ? *t : p->badarg();
}
Term bif_binary_to_existing_atom1(Process* p, Term* a) {
    Term args[2] = {a[0], atoms::utf8};
    return bif_binary_to_existing_atom2(p, args);
}

Term bif_integer_to_list1(Process* p, Term* a) {
    if (!is_integer(a[0])) return p->badarg();
    return bytes_to_list(p, integer_to_string(a[0], 10));
}
Term bif_integer_to_list2(Process* p, Term* a) {
    if (!is_integer(a[0]) || !valid_base(a[1])) return p->badarg();
    return bytes_to_list(p, integer_to_string(a[0], int(small_value(a[1]))));
}
Term bif_integer_to_binary1(Process* p, Term* a) {
    if (!is_integer(a[0])) return p->badarg();
    return make_binary(p, integer_to_string(a[0], 10));
}
Term bif_integer_to_binary2(Process* p, Term* a) {
    if (!is_integer(a[0]) || !valid_base(a[1])) return p->badarg();
    return make_binary(p, integer_to_string(a[0], int(small_value(a[1]))));
}
Term bif_list_to_integer1(Process* p, Term* a) {
    std::string s;
    if (!list_to_bytes(a[0], &s)) return p->badarg();
    auto t = parse_integer(p, s, 10);
    return t ? *t : p->badarg();
}
Term bif_list_to_integer2(Process* p, Term* a) {
    std::string s;
    if (!list_to_bytes(a[0], &s) || !valid_base(a[1])) return p->badarg();
    auto t = parse_integer(p, s, int(small_value(a[1])));
    return t ? *t : p->badarg();
}
namespace {

// The characters of proper list [l] as a byte string (only bytes are meaningful to the number
// parsers; anything larger stops them), and the list cells, so the rest can be returned.
bool list_prefix_chars(Term l, std::string* out, std::vector<Term>* cells) {
    for (; is_list(l); l = cdr(l)) {
        Term c = car(l);
        if (!is_small(c) || small_value(c) < 0) return false;
        out->push_back(small_value(c) < 256 ? char(small_value(c)) : '\0');
        cells->push_back(l);
    }
    return is_nil(l);
}

Term rest_at(const std::vector<Term>& cells, std::size_t i) { return i < cells.size() ? cells[i] : NIL; }

}  // namespace

// string:list_to_integer/1: {Integer, Rest} for a leading [+-]digits, or {error, Reason}.
Term bif_string_list_to_integer(Process* p, Term* a) {
    std::string s;
    std::vector<Term> cells;
    if (!list_prefix_chars(a[0], &s, &cells)) return make_tuple_on(p, {atoms::error, atom("not_a_list")});
    std::size_t i = (!s.empty() && (s[0] == '+' || s[0] == '-')) ? 1 : 0;
    std::size_t j = i;
    while (j < s.size() && s[j] >= '0' && s[j] <= '9') ++j;
    if (j == i) return make_tuple_on(p, {atoms::error, atom("no_integer")});
    auto v = parse_integer(p, s.substr(0, j), 10);
    if (!v) return make_tuple_on(p, {atoms::error, atom("no_integer")});
    return make_tuple_on(p, {*v, rest_at(cells, j)});
}

// string:list_to_float/1: {Float, Rest} for a leading [+-]digits.digits[e[+-]digits].
Term bif_string_list_to_float(Process* p, Term* a) {
    std::string s;
    std::vector<Term> cells;
    if (!list_prefix_chars(a[0], &s, &cells)) return make_tuple_on(p, {atoms::error, atom("not_a_list")});
    auto digits = [&](std::size_t k) {
        while (k < s.size() && s[k] >= '0' && s[k] <= '9') ++k;
        return k;
    };
    std::size_t i = (!s.empty() && (s[0] == '+' || s[0] == '-')) ? 1 : 0;
    std::size_t j = digits(i);
    // A comma works as the decimal point too, as in OTP.
    if (j == i || j >= s.size() || (s[j] != '.' && s[j] != ',')) return make_tuple_on(p, {atoms::error, atom("no_float")});
    s[j] = '.';
    std::size_t k = digits(j + 1);
    if (k == j + 1) return make_tuple_on(p, {atoms::error, atom("no_float")});
    if (k < s.size() && (s[k] == 'e' || s[k] == 'E')) {
        std::size_t e = k + 1;
        if (e < s.size() && (s[e] == '+' || s[e] == '-')) ++e;
        std::size_t f = digits(e);
        if (f > e) k = f;
    }
    double d;
    if (!parse_erlang_float(s.substr(0, k), &d)) return make_tuple_on(p, {atoms::error, atom("no_float")});
    return make_tuple_on(p, {make_float_on(p->alloc(FLOAT_WORDS), d), rest_at(cells, k)});
}

Term bif_binary_to_integer1(Process* p, Term* a) {
    std::string s;
    if (!binary_bytes(a[0], &s)) return p->badarg();
    auto t = parse_integer(p, s, 10);
    return t ? *t : p->badarg();
}
Term bif_binary_to_integer2(Process* p, Term* a) {
    std::string s;
    if (!binary_bytes(a[0], &s) || !valid_base(a[1])) return p->badarg();
    auto t = parse_integer(p, s, int(small_value(a[1])));
    return t ? *t : p->badarg();
}

Term bif_float_to_list1(Process* p, Term* a) {
    if (!is_float(a[0])) return p->badarg();
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.20e", float_value(a[0]));
    return bytes_to_list(p, buf);
}
Term bif_float_to_list2(Process* p, Term* a) {
    if (!is_float(a[0])) return p->badarg();
    std::string s;
    if (!format_float_opts(float_value(a[0]), a[1], &s)) return p->badarg();
    return bytes_to_list(p, s);
}
Term bif_float_to_binary1(Process* p, Term* a) {
    if (!is_float(a[0])) return p->badarg();
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.20e", float_value(a[0]));
    return make_binary(p, buf);
}
Term bif_float_to_binary2(Process* p, Term* a) {
    if (!is_float(a[0])) return p->badarg();
    std::string s;
    if (!format_float_opts(float_value(a[0]), a[1], &s)) return p->badarg();
    return make_binary(p, s);
}
Term bif_list_to_float(Process* p, Term* a) {
    std::string s;
    double d;
    if (!list_to_bytes(a[0], &s)) return p->badarg();
    // OTP's conversion takes a comma for the decimal point too ("1,5" is 1.5).
    if (std::size_t comma = s.find(','); comma != std::string::npos && s.find('.') == std::string::npos) s[comma] = '.';
    if (!parse_erlang_float(s, &d)) return p->badarg();
    return make_float_on(p->alloc(FLOAT_WORDS), d);
}
Term bif_binary_to_float(Process* p, Term* a) {
    std::string s;
    double d;
    if (!binary_bytes(a[0], &s) || !parse_erlang_float(s, &d)) return p->badarg();
    return make_float_on(p->alloc(FLOAT_WORDS), d);
}

Term bif_binary_to_list1(Process* p, Term* a) {
    std::string s;
    if (!binary_bytes(a[0], &s)) return p->badarg();
    charge_work(p, s.size(), 256);
    return bytes_to_list(p, s);
}
Term bif_binary_to_list3(Process* p, Term* a) {
    std::string s;
    if (!binary_bytes(a[0], &s) || !is_small(a[1]) || !is_small(a[2])) return p->badarg();
    SWord from = small_value(a[1]), to = small_value(a[2]);
    if (from < 1 || to < from || std::size_t(to) > s.size()) return p->badarg();
    charge_work(p, std::size_t(to - from + 1), 256);
    return bytes_to_list(p, std::string_view(s).substr(std::size_t(from - 1), std::size_t(to - from + 1)));
}
Term bif_bitstring_to_list(Process* p, Term* a) {
    if (!is_bitstring(a[0])) return p->badarg();
    BitView v = bit_view(a[0]);
    Word whole = v.bit_size / 8, rest = v.bit_size % 8;
    std::string s(whole, '\0');
    copy_bits(v.bytes, v.bit_offset, reinterpret_cast<std::uint8_t*>(s.data()), 0, whole * 8);
    charge_work(p, whole, 6);
    Term tail = NIL;
    if (rest) tail = make_sub_binary(p, a[0], whole * 8, rest);
    if (rest) {
        Term* hp = p->alloc(2);
        tail = make_cons_on(hp, tail, NIL);
    }
    return bytes_to_list(p, s, tail);
}
Term bif_list_to_binary(Process* p, Term* a) {
    std::string s;
    // A list: a binary alone is badarg, as on OTP (iolist_to_binary/1 takes one).
    if (!(is_list(a[0]) || is_nil(a[0])) || !iolist_to_bytes(a[0], &s)) return p->badarg();
    charge_work(p, s.size(), 4);
    return make_binary(p, s);
}
Term bif_iolist_to_binary(Process* p, Term* a) {
    if (is_binary(a[0])) return a[0];
    return bif_list_to_binary(p, a);
}
namespace {
// Appends the bits of bitstring list [root] (bytes, bitstrings, nested lists) to [out]/[bits],
// with an explicit stack of the terms still to visit (no C++ recursion).
bool bitlist_append(Term root, std::vector<std::uint8_t>& out, std::size_t& bits) {
    auto put = [&](const std::uint8_t* src, std::size_t offset, std::size_t n) {
        out.resize((bits + n + 7) / 8 + 1, 0);
        copy_bits(src, offset, out.data(), bits, n);
        bits += n;
    };
    std::vector<Term> pending{root};
    while (!pending.empty()) {
        Term t = pending.back();
        pending.pop_back();
        if (is_nil(t)) continue;
        if (is_bitstring(t)) {
            BitView v = bit_view(t);
            put(v.bytes, v.bit_offset, v.bit_size);
            continue;
        }
        if (!is_list(t)) return false;
        Term head = car(t);
        pending.push_back(cdr(t));
        if (is_small(head) && small_value(head) >= 0 && small_value(head) <= 255) {
            std::uint8_t byte = std::uint8_t(small_value(head));
            put(&byte, 0, 8);
        } else if (is_list(head) || is_nil(head) || is_bitstring(head)) {
            pending.push_back(head);
        } else {
            return false;
        }
    }
    return true;
}
}  // namespace

Term bif_list_to_bitstring(Process* p, Term* a) {
    std::vector<std::uint8_t> bytes;
    std::size_t bits = 0;
    if (!(is_list(a[0]) || is_nil(a[0])) || !bitlist_append(a[0], bytes, bits))  // a list, not a bitstring
        return p->badarg();
    charge_work(p, bits / 8, 4);
    Term bin = make_binary(p, bytes.data(), (bits + 7) / 8);
    if (bits % 8 == 0) return bin;
    return make_sub_binary(p, bin, 0, bits);
}
Term bif_iolist_size(Process* p, Term* a) {
    std::size_t cells = 0;
    std::optional<std::size_t> n = iolist_byte_count(a[0], &cells);
    if (!n) return p->badarg();
    charge_work(p, cells, 16);
    return make_integer_u64(p, *n);
}

}  // namespace beamlet::bif
