// bif/unicode_bifs.cpp — the BIFs of OTP's unicode module: characters_to_binary/2,
// characters_to_list/2 (for latin1, unicode and utf8 input; unicode.beam handles UTF-16/32 in
// Erlang through them) and bin_is_7bit/1.
//
// Chardata is walked without recursion. On a bad character the result is {error, Converted,
// Rest}, where Rest is the input from the bad element on: the innermost remaining list (or
// binary), wrapped in the remaining tails of each enclosing list, as OTP builds it. A UTF-8
// sequence may go on in the next binary of the input (OTP joins them); one still unfinished
// at the very end of the input is {incomplete, Converted, Bytes}.
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

// Converts chardata [data] in encoding [latin1 ? latin-1 : UTF-8] to code points in [out].
class Converter {
public:
    Converter(Process* p, bool latin1) : m_p(p), m_latin1(latin1) {}

    Status run(Term data, std::vector<std::uint32_t>& out) {
        m_out = &out;
        if (is_binary(data)) return finish(binary(data));
        if (!is_list(data) && !is_nil(data)) return Status::Badarg;
        Term l = data;
        while (true) {
            if (is_nil(l)) {
                if (m_tails.empty()) return finish(Status::Ok);
                l = m_tails.back();
                m_tails.pop_back();
                continue;
            }
            if (!is_list(l)) {
                // A binary may end an improper list (chardata allows it).
                if (!is_binary(l)) return Status::Badarg;
                m_tails.push_back(NIL);
                Status s = binary(l);
                if (s != Status::Ok) return s;
                m_tails.pop_back();
                l = NIL;
                continue;
            }
            Term e = car(l);
            if (!m_pending.empty() && (is_small(e) || is_big(e))) {
                // A sequence cut short by a character: the error is at its bytes.
                Term* hp = m_p->alloc(4);
                return error_at(make_cons_on(hp, make_binary(m_p, m_pending), make_cons_on(hp + 2, l, NIL)));
            }
            if (is_small(e)) {
                SWord c = small_value(e);
                if (m_latin1 ? (c < 0 || c > 255) : !valid_code_point(c)) return error_at(l);
                m_out->push_back(std::uint32_t(c));
                l = cdr(l);
            } else if (is_list(e) || is_nil(e)) {
                m_tails.push_back(cdr(l));
                l = e;
            } else if (is_binary(e)) {
                m_tails.push_back(cdr(l));
                Status s = binary(e);
                if (s != Status::Ok) return s;
                m_tails.pop_back();
                l = cdr(l);
            } else if (is_big(e)) {
                return error_at(l);
            } else {
                return Status::Badarg;
            }
        }
    }

    // What is left after an error or an unfinished character.
    Term rest() const { return m_rest; }

private:
    // The end of the input: a sequence still unfinished makes it incomplete.
    Status finish(Status s) {
        if (s != Status::Ok || m_pending.empty()) return s;
        m_rest = make_binary(m_p, m_pending);
        return Status::Incomplete;
    }

    // The rest of the input when [innermost] (a list cell or a binary) is where it stopped.
    Status error_at(Term innermost) {
        Term r = innermost;
        for (std::size_t i = m_tails.size(); i-- > 0;) r = make_cons_on(m_p->alloc(2), r, m_tails[i]);
        m_rest = r;
        return Status::Error;
    }

    // An error in bytes joined from two binaries: OTP's rest is the joined bytes, followed by
    // the rest of the list they were in, inside only the enclosing lists that go on.
    Status joined_error_at(const std::string& bytes) {
        Term r = make_binary(m_p, bytes);
        if (!m_tails.empty()) {
            Term tail = m_tails.back();
            m_tails.pop_back();
            if (!is_nil(tail)) {
                Term* hp = m_p->alloc(4);
                r = make_cons_on(hp, r, make_cons_on(hp + 2, tail, NIL));
            }
        }
        for (std::size_t i = m_tails.size(); i-- > 0;)
            if (!is_nil(m_tails[i])) r = make_cons_on(m_p->alloc(2), r, m_tails[i]);
        m_rest = r;
        return Status::Error;
    }

    Status binary(Term bin) {
        BitView v = bit_view(bin);
        if (v.bit_size % 8) return Status::Badarg;
        std::string copy;
        const std::uint8_t* bytes = v.aligned_bytes();
        std::size_t n = v.size_bytes();
        bool joined = !m_pending.empty();
        if (!v.is_aligned() || joined) {
            // The bytes of an unfinished sequence come first.
            copy = std::move(m_pending);
            m_pending.clear();
            std::size_t at = copy.size();
            copy.resize(at + n);
            copy_bits(v.bytes, v.bit_offset, reinterpret_cast<std::uint8_t*>(copy.data() + at), 0, v.bit_size);
            bytes = reinterpret_cast<const std::uint8_t*>(copy.data());
            n = copy.size();
        }
        if (m_latin1) {
            for (std::size_t i = 0; i < n; ++i) m_out->push_back(bytes[i]);
            return Status::Ok;
        }
        std::size_t i = 0;
        while (i < n) {
            std::uint32_t c;
            int len = utf8_decode(bytes + i, n - i, &c);
            if (len > 0) {
                m_out->push_back(c);
                i += std::size_t(len);
                continue;
            }
            if (len < 0) {  // may go on in the next binary
                m_pending.assign(reinterpret_cast<const char*>(bytes + i), n - i);
                return Status::Ok;
            }
            if (joined) return joined_error_at(std::string(reinterpret_cast<const char*>(bytes + i), n - i));
            // Inside a list, the list's tail after this binary is on m_tails already.
            return error_at(make_sub_binary(m_p, bin, i * 8, (n - i) * 8));
        }
        return Status::Ok;
    }

    Process* m_p;
    bool m_latin1;
    std::vector<std::uint32_t>* m_out = nullptr;
    std::vector<Term> m_tails;
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
    std::vector<std::uint32_t> chars;
    Converter c(p, latin1);
    Status s = c.run(a[0], chars);
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
