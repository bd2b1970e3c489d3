// loader/etf.cpp — external term format decoder for literal tables (LitT).
#include "loader/etf.hpp"

#include <algorithm>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "vm/atom_table.hpp"
#include "vm/binary.hpp"
#include "vm/literal_area.hpp"
#include "vm/map.hpp"
#include "vm/term_order.hpp"
#include "vm/vm.hpp"

namespace beamlet::loader {

using namespace vm;

namespace {

enum EtfTag : std::uint8_t {
    NEW_FLOAT_EXT = 70,
    BIT_BINARY_EXT = 77,
    SMALL_INTEGER_EXT = 97,
    INTEGER_EXT = 98,
    FLOAT_EXT = 99,
    ATOM_EXT = 100,
    SMALL_TUPLE_EXT = 104,
    LARGE_TUPLE_EXT = 105,
    NIL_EXT = 106,
    STRING_EXT = 107,
    LIST_EXT = 108,
    BINARY_EXT = 109,
    SMALL_BIG_EXT = 110,
    LARGE_BIG_EXT = 111,
    EXPORT_EXT = 113,
    MAP_EXT = 116,
    ATOM_UTF8_EXT = 118,
    SMALL_ATOM_UTF8_EXT = 119,
};

constexpr int MAX_DEPTH = 10000;

class Decoder {
public:
    Decoder(std::span<const std::uint8_t> in, Term* hp, Term* hend, ExportTable& exports)
        : m_in(in), m_hp(hp), m_hend(hend), m_exports(exports) {}

    bool failed() const { return !m_error.empty(); }
    const std::string& error() const { return m_error; }
    bool at_end() const { return m_pos == m_in.size(); }

    Term decode(int depth = 0) {
        if (depth > MAX_DEPTH) return fail("literal nested too deeply");
        std::uint8_t tag = u8();
        if (failed()) return NIL;
        // Only containers recurse. Every other case is decoded out of line, keeping this frame
        // small enough for MAX_DEPTH levels on the stack, sanitizer builds included.
        switch (tag) {
        case SMALL_TUPLE_EXT: return tuple(u8(), depth);
        case LARGE_TUPLE_EXT: return tuple(u32(), depth);
        case LIST_EXT: return list(depth);
        case EXPORT_EXT: return export_fun(depth);
        case MAP_EXT: return flatmap(depth);
        default: return leaf(tag);
        }
    }

    Term* hp() const { return m_hp; }

private:
    Term fail(std::string message) {
        if (m_error.empty()) m_error = std::move(message);
        return NIL;
    }
    // Out of line, so that the string is built in this frame rather than the recursive callers'.
    [[gnu::noinline]] Term fail(const char* message) { return fail(std::string(message)); }

    // The non-container tags.
    [[gnu::noinline]] Term leaf(std::uint8_t tag) {
        switch (tag) {
        case SMALL_INTEGER_EXT: return make_small(u8());
        case INTEGER_EXT: return make_small(std::int32_t(u32()));
        case NEW_FLOAT_EXT: {
            std::uint64_t bits = u64();
            return make_float_on(words(FLOAT_WORDS), std::bit_cast<double>(bits));
        }
        case FLOAT_EXT: {
            std::string text = bytes_string(31);
            return make_float_on(words(FLOAT_WORDS), std::strtod(text.c_str(), nullptr));
        }
        case ATOM_EXT: return atom_latin1(u16());
        case SMALL_ATOM_UTF8_EXT: return atom_utf8(u8());
        case ATOM_UTF8_EXT: return atom_utf8(u16());
        case 115 /* SMALL_ATOM_EXT */: return atom_latin1(u8());
        case NIL_EXT: return NIL;
        case STRING_EXT: {
            std::uint32_t n = u16();
            if (!need(n)) return NIL;
            Term* cells = words(2 * Word(n));
            if (failed()) return NIL;
            for (std::uint32_t i = 0; i < n; ++i) {
                cells[2 * i] = make_small(m_in[m_pos + i]);
                cells[2 * i + 1] = i + 1 < n ? make_list(cells + 2 * (i + 1)) : NIL;
            }
            m_pos += n;
            return n ? make_list(cells) : NIL;
        }
        case BINARY_EXT: return binary(u32(), 0);
        case BIT_BINARY_EXT: {
            std::uint32_t n = u32();
            std::uint8_t bits = u8();
            if (bits == 0 || bits > 8 || n == 0) return fail("bad bit binary");
            return binary(n, bits);
        }
        case SMALL_BIG_EXT: return big(u8());
        case LARGE_BIG_EXT: return big(u32());
        default:
            return fail("unsupported external term tag " + std::to_string(tag));
        }
    }
    [[gnu::noinline]] Term list(int depth) {
        std::uint32_t n = u32();
        if (!need(n)) return NIL;  // every element takes at least one byte
        Term* cells = words(2 * Word(n));
        if (failed()) return NIL;
        for (std::uint32_t i = 0; i < n; ++i) cells[2 * i] = decode(depth + 1);
        Term tail = decode(depth + 1);
        for (std::uint32_t i = 0; i < n; ++i) cells[2 * i + 1] = i + 1 < n ? make_list(cells + 2 * (i + 1)) : tail;
        return n ? make_list(cells) : tail;
    }
    [[gnu::noinline]] Term export_fun(int depth) {
        Term m = decode(depth + 1), f = decode(depth + 1), a = decode(depth + 1);
        if (failed() || !is_atom(m) || !is_atom(f) || !is_small(a) || small_value(a) < 0 || small_value(a) > 255)
            return fail("bad export fun");
        Term* hp = words(2);
        if (failed()) return NIL;
        hp[0] = make_header(1, Subtag::Export);
        hp[1] = reinterpret_cast<Word>(m_exports.get(m, f, Word(small_value(a))));
        return make_boxed(hp);
    }
    [[gnu::noinline]] Term flatmap(int depth) {
        std::uint32_t n = u32();
        if (!need(Word(n) * 2)) return NIL;
        std::vector<std::pair<Term, Term>> pairs;
        pairs.reserve(n);
        for (std::uint32_t i = 0; i < n && !failed(); ++i) {
            Term k = decode(depth + 1);
            Term v = decode(depth + 1);
            pairs.emplace_back(k, v);
        }
        if (failed()) return NIL;
        std::stable_sort(pairs.begin(), pairs.end(),
                         [](auto& a, auto& b) { return compare_terms_exact(a.first, b.first) < 0; });
        if (n == 0) return empty_map();
        Term* keys = words(1 + n);
        Term* map = words(MAP_HEADER_WORDS + n);
        if (failed()) return NIL;
        keys[0] = make_arityval(n);
        map[0] = make_header(n + 2, Subtag::Map);
        map[1] = n;
        map[2] = make_boxed(keys);
        for (std::uint32_t i = 0; i < n; ++i) {
            keys[1 + i] = pairs[i].first;
            map[3 + i] = pairs[i].second;
        }
        return make_boxed(map);
    }
    bool need(Word n) {
        if (m_pos + n > m_in.size()) {
            fail("truncated literal");
            return false;
        }
        return true;
    }
    std::uint8_t u8() { return need(1) ? m_in[m_pos++] : 0; }
    std::uint32_t u16() {
        if (!need(2)) return 0;
        std::uint32_t v = (m_in[m_pos] << 8) | m_in[m_pos + 1];
        m_pos += 2;
        return v;
    }
    std::uint32_t u32() {
        if (!need(4)) return 0;
        std::uint32_t v = 0;
        for (int i = 0; i < 4; ++i) v = (v << 8) | m_in[m_pos + i];
        m_pos += 4;
        return v;
    }
    std::uint64_t u64() {
        std::uint64_t hi = u32();
        return (hi << 32) | u32();
    }
    std::string bytes_string(std::size_t n) {
        if (!need(n)) return {};
        std::string s(reinterpret_cast<const char*>(m_in.data() + m_pos), n);
        m_pos += n;
        return s;
    }
    Term* words(Word n) {
        if (Word(m_hend - m_hp) < n) {
            fail("literal larger than its encoding allows");
            static Term scratch[8];
            return scratch;
        }
        Term* p = m_hp;
        m_hp += n;
        return p;
    }
    Term atom_latin1(std::size_t n) {
        std::string raw = bytes_string(n), utf8;
        for (unsigned char c : raw) {
            if (c < 0x80) utf8 += char(c);
            else {
                utf8 += char(0xC0 | (c >> 6));
                utf8 += char(0x80 | (c & 0x3F));
            }
        }
        return intern(utf8);
    }
    Term atom_utf8(std::size_t n) { return intern(bytes_string(n)); }
    Term intern(const std::string& name) {
        if (failed()) return NIL;
        auto a = AtomTable::global().intern(name);
        return a ? *a : fail("atom too long");
    }
    Term tuple(std::uint32_t n, int depth) {
        if (!need(n)) return NIL;
        Term* hp = words(1 + Word(n));
        if (failed()) return NIL;
        hp[0] = make_arityval(n);
        for (std::uint32_t i = 0; i < n; ++i) hp[1 + i] = decode(depth + 1);
        return make_boxed(hp);
    }
    Term binary(std::uint32_t n, std::uint8_t last_bits) {
        if (!need(n)) return NIL;
        Word data_words = (Word(n) + 7) / 8;
        Term* hp = words(2 + data_words);
        if (failed()) return NIL;
        hp[0] = make_header(1 + data_words, Subtag::HeapBin);
        hp[1] = n;
        if (data_words) hp[1 + data_words] = 0;
        std::memcpy(hp + 2, m_in.data() + m_pos, n);  // m_pos may equal the size when n is 0
        m_pos += n;
        if (last_bits == 0 || last_bits == 8) return make_boxed(hp);
        // A bitstring: a sub-binary over all but the unused low bits of the last byte.
        Term* sub = words(SUB_BIN_WORDS);
        if (failed()) return NIL;
        sub[0] = make_header(SUB_BIN_WORDS - 1, Subtag::SubBin);
        sub[1] = n - 1;
        sub[2] = 0;
        sub[3] = last_bits;
        sub[4] = make_boxed(hp);
        return make_boxed(sub);
    }
    Term big(std::uint32_t n) {
        std::uint8_t sign = u8();
        if (!need(n)) return NIL;
        std::vector<Word> limbs((n + 7) / 8, 0);
        for (std::uint32_t i = 0; i < n; ++i) limbs[i / 8] |= Word(m_in[m_pos + i]) << (8 * (i % 8));
        m_pos += n;
        while (!limbs.empty() && limbs.back() == 0) limbs.pop_back();
        if (limbs.empty()) return make_small(0);
        if (limbs.size() == 1) {
            Word mag = limbs[0];
            if (!sign && mag <= Word(MAX_SMALL)) return make_small(SWord(mag));
            if (sign && mag <= Word(MAX_SMALL) + 1) return make_small(-SWord(mag));
        }
        Term* hp = words(1 + limbs.size());
        if (failed()) return NIL;
        hp[0] = make_header(limbs.size(), sign ? Subtag::NegBig : Subtag::PosBig);
        std::memcpy(hp + 1, limbs.data(), limbs.size() * sizeof(Word));
        return make_boxed(hp);
    }

    std::span<const std::uint8_t> m_in;
    std::size_t m_pos = 0;
    Term* m_hp;
    Term* m_hend;
    ExportTable& m_exports;
    std::string m_error;
};

}  // namespace

Result<Term> decode_literal(std::span<const std::uint8_t> bytes, ExportTable& exports) {
    if (bytes.empty() || bytes[0] != 131) return Error{"literal without the external format version byte"};
    std::span<const std::uint8_t> body = bytes.subspan(1);
    // No encoding needs more than two words per byte, plus a small constant (see the tags above).
    Word bound = 2 * Word(body.size()) + 8;
    Term* area = literal_alloc(bound);
    Decoder d(body, area, area + bound, exports);
    Term t = d.decode();
    literal_trim(d.failed() ? area : d.hp(), area + bound);  // the bound is generous
    if (d.failed()) return Error{d.error()};
    if (!d.at_end()) return Error{"trailing bytes after literal"};
    return t;
}

}  // namespace beamlet::loader
