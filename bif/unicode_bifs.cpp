// bif/unicode_bifs.cpp — the BIFs of OTP's unicode module: characters_to_binary/2,
// characters_to_list/2 (for latin1, unicode and utf8 input; unicode.beam handles UTF-16/32 in
// Erlang through them) and bin_is_7bit/1.
//
// Chardata is walked as erts walks it (erl_unicode.c): first a pass that only checks the shape
// (anything but integers, lists and whole binaries is badarg, wherever it is), then the
// conversion. A UTF-8 sequence cut by the end of a binary is kept aside (at most 3 bytes) and
// completed by the next binary; an integer while one is kept aside is an error. On a bad
// character the result is {error, Converted, Rest}: Rest starts at the bad element (for a
// binary, a sub-binary from the bad byte) consed onto the tail of its list, then onto each
// enclosing list's tail in turn, and the kept-aside bytes, if any, come first as a binary of
// their own. A sequence still kept aside at the very end is {incomplete, Converted, Bytes} if
// what is there could begin a character, else an error.
#include <string>
#include <vector>

#include "bif/bifs.hpp"
#include "vm/binary.hpp"
#include "vm/utf8.hpp"

namespace beamlet::bif {

using namespace vm;

namespace {

enum class Status { Ok, Error, Incomplete, Badarg };

bool valid_code_point(std::int64_t c) { return c >= 0 && c <= 0x10FFFF && !(c >= 0xD800 && c <= 0xDFFF); }
bool continuation(std::uint8_t b) { return (b & 0xC0) == 0x80; }

// How many bytes a sequence starting with [first] has, by its bit pattern alone (-1: none).
int sequence_length(std::uint8_t first) {
    if ((first & 0x80) == 0) return 1;
    if ((first & 0xE0) == 0xC0) return 2;
    if ((first & 0xF0) == 0xE0) return 3;
    if ((first & 0xF8) == 0xF0) return 4;
    return -1;
}

// Decodes the [len]-byte sequence at [s] as erts accepts it: no overlong forms, no
// surrogates, nothing past U+10FFFF.
bool decode_sequence(const std::uint8_t* s, int len, std::uint32_t* c) {
    for (int i = 1; i < len; ++i)
        if (!continuation(s[i])) return false;
    switch (len) {
    case 1: *c = s[0]; return true;
    case 2:
        if (s[0] < 0xC2) return false;
        *c = (std::uint32_t(s[0] & 0x1F) << 6) | (s[1] & 0x3F);
        return true;
    case 3:
        if (s[0] == 0xE0 && s[1] < 0xA0) return false;
        if ((s[0] & 0xF) == 0xD && (s[1] & 0x20)) return false;
        *c = (std::uint32_t(s[0] & 0xF) << 12) | (std::uint32_t(s[1] & 0x3F) << 6) | (s[2] & 0x3F);
        return true;
    case 4:
        if (s[0] == 0xF0 && s[1] < 0x90) return false;
        if ((s[0] & 7) > 4 || ((s[0] & 7) == 4 && (s[1] & 0x3F) > 0xF)) return false;
        *c = (std::uint32_t(s[0] & 7) << 18) | (std::uint32_t(s[1] & 0x3F) << 12) |
             (std::uint32_t(s[2] & 0x3F) << 6) | (s[3] & 0x3F);
        return true;
    default: return false;
    }
}

// Whether bytes left at the end of the input could still begin a character.
bool could_begin_character(const std::string& b) {
    auto u = [&](std::size_t i) { return std::uint8_t(b[i]); };
    switch (sequence_length(u(0))) {
    case 2: return true;
    case 3: return b.size() < 2 || (b.size() < 3 && continuation(u(1)));
    case 4:
        return b.size() < 2 || (b.size() < 3 && continuation(u(1))) ||
               (b.size() < 4 && continuation(u(1)) && continuation(u(2)));
    default: return false;
    }
}

// The shape check: integers, lists (a binary may end one) and whole binaries only.
bool well_formed(Term data) {
    std::vector<Term> pending{data};
    while (!pending.empty()) {
        Term t = pending.back();
        pending.pop_back();
        for (;;) {
            if (is_nil(t)) break;
            if (is_binary(t)) {
                if (bit_view(t).bit_size % 8) return false;
                break;
            }
            if (!is_list(t)) return false;
            Term e = car(t);
            if (is_list(e) || is_binary(e)) pending.push_back(e);
            else if (!is_small(e) && !is_big(e) && !is_nil(e)) return false;
            t = cdr(t);
        }
    }
    return true;
}

// Converts chardata [data] in encoding [latin1 ? latin-1 : UTF-8] to code points in [out].
class Converter {
public:
    Converter(Process* p, bool latin1) : m_p(p), m_latin1(latin1) {}

    Status run(Term data, std::vector<std::uint32_t>& out) {
        if (!well_formed(data)) return Status::Badarg;
        m_out = &out;
        bool error = false;
        Term rest = chardata(data, &error);
        if (error) {
            if (!m_pending.empty()) {
                Term* hp = m_p->alloc(4);
                rest = make_cons_on(hp, make_binary(m_p, m_pending), make_cons_on(hp + 2, rest, NIL));
            }
            m_rest = rest;
            return Status::Error;
        }
        if (m_pending.empty()) return Status::Ok;
        m_rest = make_binary(m_p, m_pending);
        return could_begin_character(m_pending) ? Status::Incomplete : Status::Error;
    }

    // What is left after an error or an unfinished character.
    Term rest() const { return m_rest; }

private:
    // Converts [io]; on an error sets [*error] and returns the rest of the input.
    Term chardata(Term io, bool* error) {
        if (is_binary(io)) return binary(io, error);
        std::vector<Term> tails{io};
        while (!tails.empty() && !*error) {
            io = tails.back();
            tails.pop_back();
            while (is_list(io) && !*error) {
                Term e = car(io);
                if (is_list(e)) {
                    tails.push_back(cdr(io));
                    io = e;
                } else if (is_binary(e)) {
                    Term r = binary(e, error);
                    io = *error ? make_cons_on(m_p->alloc(2), r, cdr(io)) : cdr(io);
                } else if (is_nil(e)) {
                    io = cdr(io);
                } else if (character(e)) {
                    io = cdr(io);
                } else {
                    *error = true;
                }
            }
            if (!*error && is_binary(io)) io = binary(io, error);  // an improper tail
        }
        for (std::size_t i = tails.size(); i-- > 0;) io = make_cons_on(m_p->alloc(2), io, tails[i]);
        return io;
    }

    bool character(Term e) {
        if (!m_pending.empty() || !is_small(e)) return false;
        SWord c = small_value(e);
        if (m_latin1 ? (c < 0 || c > 255) : !valid_code_point(c)) return false;
        m_out->push_back(std::uint32_t(c));
        return true;
    }

    // Converts a binary; on an error returns the binary from the bad byte on.
    Term binary(Term bin, bool* error) {
        BitView v = bit_view(bin);
        std::string copy;
        const std::uint8_t* bytes = v.aligned_bytes();
        std::size_t n = v.size_bytes();
        if (!v.is_aligned()) {
            copy.resize(n);
            copy_bits(v.bytes, v.bit_offset, reinterpret_cast<std::uint8_t*>(copy.data()), 0, v.bit_size);
            bytes = reinterpret_cast<const std::uint8_t*>(copy.data());
        }
        if (m_latin1) {
            for (std::size_t i = 0; i < n; ++i) m_out->push_back(bytes[i]);
            return NIL;
        }
        std::size_t i = 0;
        if (!m_pending.empty()) {
            // Complete the sequence the last binary ended with.
            std::size_t from = std::size_t(sequence_length(std::uint8_t(m_pending[0]))) - m_pending.size();
            if (n < from) {
                m_pending.append(reinterpret_cast<const char*>(bytes), n);
                return NIL;
            }
            m_pending.append(reinterpret_cast<const char*>(bytes), from);
            std::uint32_t c;
            if (!decode_sequence(reinterpret_cast<const std::uint8_t*>(m_pending.data()), int(m_pending.size()), &c)) {
                m_pending.resize(m_pending.size() - from);
                *error = true;
                return bin;
            }
            m_out->push_back(c);
            m_pending.clear();
            i = from;
        }
        while (i < n) {
            int len = sequence_length(bytes[i]);
            if (len > 1 && n - i < std::size_t(len)) {
                m_pending.assign(reinterpret_cast<const char*>(bytes + i), n - i);
                return NIL;
            }
            std::uint32_t c;
            if (len < 0 || !decode_sequence(bytes + i, len, &c)) {
                *error = true;
                return make_sub_binary(m_p, bin, i * 8, (n - i) * 8);
            }
            m_out->push_back(c);
            i += std::size_t(len);
        }
        return NIL;
    }

    Process* m_p;
    bool m_latin1;
    std::vector<std::uint32_t>* m_out = nullptr;
    std::string m_pending;  // an unfinished UTF-8 sequence at the end of the last binary
    Term m_rest = NIL;
};

bool input_encoding(Term enc, bool* latin1) {
    if (enc == atoms::latin1) *latin1 = true;
    else if (enc == atoms::unicode || enc == atom("utf8")) *latin1 = false;
    else return false;
    return true;
}

Term utf8_binary(Process* p, const std::vector<std::uint32_t>& chars) {
    std::string s;
    s.reserve(chars.size());
    for (std::uint32_t c : chars) put_utf8(c, s);
    return make_binary(p, s);
}

Term char_list(Process* p, const std::vector<std::uint32_t>& chars) {
    Term* hp = p->alloc(2 * chars.size());
    Term l = NIL;
    for (std::size_t i = chars.size(); i-- > 0;) l = make_cons_on(hp + 2 * i, make_small(SWord(chars[i])), l);
    return l;
}

// The other encodings are OTP's unicode.beam's job (characters_to_binary_int/2 and
// characters_to_list_int/2), as the BIFs hand them over in OTP.
Term delegate(Process* p, const char* function) {
    return tail_call_erlang(p, p->vm.exports.get(atoms::unicode, atom(function), 2));
}

Term convert(Process* p, Term* a, bool to_binary) {
    bool latin1;
    if (!input_encoding(a[1], &latin1)) {
        if (is_atom(a[1]) || is_tuple(a[1]))
            return delegate(p, to_binary ? "characters_to_binary_int" : "characters_to_list_int");
        return p->badarg();
    }
    // erts converts [Bin] as Bin, and so gives a rest without the list around it.
    Term data = a[0];
    if (to_binary && is_list(data) && is_binary(car(data)) && is_nil(cdr(data))) data = car(data);
    std::vector<std::uint32_t> chars;
    Converter c(p, latin1);
    Status s = c.run(data, chars);
    if (s == Status::Badarg) return p->badarg();
    Term converted = to_binary ? utf8_binary(p, chars) : char_list(p, chars);
    if (s == Status::Ok) return converted;
    return make_tuple_on(p, {s == Status::Error ? atoms::error : atom("incomplete"), converted, c.rest()});
}

}  // namespace

Term utf8_to_list(Process* p, std::string_view s) {
    std::vector<std::uint32_t> chars;
    const auto* bytes = reinterpret_cast<const std::uint8_t*>(s.data());
    for (std::size_t i = 0; i < s.size();) {
        std::uint32_t c;
        int len = utf8_decode(bytes + i, s.size() - i, &c);
        if (len <= 0) {
            c = bytes[i];
            len = 1;
        }
        chars.push_back(c);
        i += std::size_t(len);
    }
    return char_list(p, chars);
}

Term bif_unicode_characters_to_binary(Process* p, Term* a) { return convert(p, a, true); }
Term bif_unicode_characters_to_list(Process* p, Term* a) { return convert(p, a, false); }

Term bif_unicode_bin_is_7bit(Process*, Term* a) {
    if (!is_binary(a[0])) return atoms::false_;
    BitView v = bit_view(a[0]);
    std::string bytes(v.size_bytes(), '\0');
    copy_bits(v.bytes, v.bit_offset, reinterpret_cast<std::uint8_t*>(bytes.data()), 0, v.bit_size);
    for (unsigned char c : bytes)
        if (c >= 0x80) return atoms::false_;
    return atoms::true_;
}

}  // namespace beamlet::bif
