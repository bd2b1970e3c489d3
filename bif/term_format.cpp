// bif/term_format.cpp — io_lib_format (io_lib:format/2, `~e` `~f` `~g` floats, field widths,
// padding, modifiers) rewritten from OTP 25, over io_lib:write (term_write.cpp) and
// io_lib_pretty (term_pretty.cpp); float_to_list(F, [short]).
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

}  // namespace beamlet::bif
