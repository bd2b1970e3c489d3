// vm/external_term.cpp — the external term format (see external_term.hpp).
#include "vm/external_term.hpp"

#include <zlib.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <utility>
#include <vector>

#include "vm/atom_table.hpp"
#include "vm/binary.hpp"
#include "vm/bignum.hpp"
#include "vm/literal_area.hpp"
#include "vm/map.hpp"
#include "vm/module.hpp"
#include "vm/node.hpp"
#include "vm/process.hpp"
#include "vm/term_order.hpp"
#include "vm/utf8.hpp"
#include "vm/vm.hpp"

namespace beamlet::vm {

namespace {

enum Tag : std::uint8_t {
    VERSION = 131,
    COMPRESSED = 80,
    NEW_FLOAT_EXT = 70,
    BIT_BINARY_EXT = 77,
    ATOM_CACHE_REF = 82,
    NEW_PID_EXT = 88,
    NEW_PORT_EXT = 89,
    NEWER_REFERENCE_EXT = 90,
    SMALL_INTEGER_EXT = 97,
    INTEGER_EXT = 98,
    FLOAT_EXT = 99,
    ATOM_EXT = 100,
    REFERENCE_EXT = 101,
    PORT_EXT = 102,
    PID_EXT = 103,
    SMALL_TUPLE_EXT = 104,
    LARGE_TUPLE_EXT = 105,
    NIL_EXT = 106,
    STRING_EXT = 107,
    LIST_EXT = 108,
    BINARY_EXT = 109,
    SMALL_BIG_EXT = 110,
    LARGE_BIG_EXT = 111,
    NEW_FUN_EXT = 112,
    EXPORT_EXT = 113,
    NEW_REFERENCE_EXT = 114,
    SMALL_ATOM_EXT = 115,
    MAP_EXT = 116,
    ATOM_UTF8_EXT = 118,
    SMALL_ATOM_UTF8_EXT = 119,
    V4_PORT_EXT = 120,
};

// ---- encoding ----------------------------------------------------------------------------

class Encoder {
public:
    Encoder(const EncodeOptions& options, std::string* out) : m_opt(options), m_out(*out), m_len(out->size()) {}

    void run(Term root) {
        if (m_opt.version_byte) u8(VERSION);
        m_work.push_back({root, 0});
        while (!m_work.empty()) {
            Work w = m_work.back();
            m_work.pop_back();
            if (w.patch_at) {
                put_u32_at(w.patch_at, std::uint32_t(m_len - w.patch_at));
                continue;
            }
            if (w.list_rest) list_rest(w.term);
            else term(w.term);
        }
        m_out.resize(m_len);
    }

private:
    // A term still to encode, or (patch_at != 0) the NEW_FUN_EXT whose size field at that
    // offset is known once its free variables are out.
    // [list_rest]: [term] is a list cell whose car is next, its cdr after (a long list
    // costs no stack of work).
    struct Work {
        Term term;
        std::size_t patch_at;
        bool list_rest = false;
    };

    // [n] more bytes at the end of the output: written in place (the string grows ahead of
    // them, and is cut to what was written when the term is out).
    char* room(std::size_t n) {
        if (m_len + n > m_out.size()) m_out.resize(std::max(2 * m_out.size(), m_len + n + 256));
        char* at = m_out.data() + m_len;
        m_len += n;
        return at;
    }
    void u8(unsigned v) { *room(1) = char(v); }
    void u16(unsigned v) {
        u8(v >> 8);
        u8(v & 0xFF);
    }
    void u32(std::uint32_t v) {
        for (int shift = 24; shift >= 0; shift -= 8) u8((v >> shift) & 0xFF);
    }
    void put_u32_at(std::size_t at, std::uint32_t v) {
        for (int i = 0; i < 4; ++i) m_out[at + i] = char((v >> (24 - 8 * i)) & 0xFF);
    }
    void bytes(const void* data, std::size_t n) {
        if (n) std::memcpy(room(n), data, n);
    }

    void atom_ext(Term a) {
        if (m_opt.atom_refs) {
            if (int ref = m_opt.atom_refs->ref(a); ref >= 0) {
                u8(ATOM_CACHE_REF);
                u8(unsigned(ref));
                return;
            }
        }
        const std::string& text = atom_text(a);
        // Minor version 1 writes latin-1 atoms as ATOM_EXT and the others as UTF-8.
        std::string latin1;
        bool is_latin1 = m_opt.minor_version < 2;
        for (std::size_t i = 0; is_latin1 && i < text.size(); ++i) {
            unsigned char c = text[i];
            if (c < 0x80) {
                latin1.push_back(char(c));
            } else if ((c == 0xC2 || c == 0xC3) && i + 1 < text.size()) {
                latin1.push_back(char(((c & 0x03) << 6) | (text[++i] & 0x3F)));
            } else {
                is_latin1 = false;
            }
        }
        if (is_latin1) {
            u8(ATOM_EXT);
            u16(unsigned(latin1.size()));
            bytes(latin1.data(), latin1.size());
        } else if (text.size() < 256) {
            u8(SMALL_ATOM_UTF8_EXT);
            u8(unsigned(text.size()));
            bytes(text.data(), text.size());
        } else {
            u8(ATOM_UTF8_EXT);
            u16(unsigned(text.size()));
            bytes(text.data(), text.size());
        }
    }

    void integer(Term t) {
        if (is_small(t)) {
            SWord v = small_value(t);
            if (v >= 0 && v <= 255) {
                u8(SMALL_INTEGER_EXT);
                u8(unsigned(v));
                return;
            }
            if (v >= INT32_MIN && v <= INT32_MAX) {
                u8(INTEGER_EXT);
                u32(std::uint32_t(std::int32_t(v)));
                return;
            }
        }
        // Magnitude bytes, least significant first.
        mpz_t z;
        mpz_init(z);
        integer_to_mpz(t, z);
        bool negative = mpz_sgn(z) < 0;
        mpz_abs(z, z);
        std::size_t n = (mpz_sizeinbase(z, 2) + 7) / 8;
        std::string digits(n, '\0');
        std::size_t written = 0;
        mpz_export(digits.data(), &written, -1, 1, 0, 0, z);
        mpz_clear(z);
        digits.resize(written);
        if (written < 256) {
            u8(SMALL_BIG_EXT);
            u8(unsigned(written));
        } else {
            u8(LARGE_BIG_EXT);
            u32(std::uint32_t(written));
        }
        u8(negative ? 1 : 0);
        bytes(digits.data(), digits.size());
    }

    void float_ext(double v) {
        if (m_opt.minor_version == 0) {
            char text[32] = {};
            std::snprintf(text, sizeof text, "%.20e", v);
            u8(FLOAT_EXT);
            bytes(text, 31);
            return;
        }
        u8(NEW_FLOAT_EXT);
        std::uint64_t bits = std::bit_cast<std::uint64_t>(v);
        for (int shift = 56; shift >= 0; shift -= 8) u8((bits >> shift) & 0xFF);
    }

    static bool is_byte(Term t) { return is_small(t) && Word(small_value(t)) <= 255; }

    // A proper list of bytes shorter than 65536 elements goes out as STRING_EXT.
    bool string_ext(Term list) {
        Word n = 0;
        Term l = list;
        for (; is_list(l); l = cdr(l)) {
            Term c = car(l);
            if (!is_small(c) || small_value(c) < 0 || small_value(c) > 255 || ++n >= 0x10000) return false;
        }
        if (!is_nil(l)) return false;
        u8(STRING_EXT);
        u16(unsigned(n));
        char* at = room(n);
        for (l = list; is_list(l); l = cdr(l)) *at++ = char(small_value(car(l)));
        return true;
    }

    void list(Term t) {
        if (string_ext(t)) return;
        Word n = 0;
        for (Term l = t; is_list(l); l = cdr(l)) ++n;
        u8(LIST_EXT);
        u32(std::uint32_t(n));
        m_work.push_back({t, 0, true});  // its elements one at a time, then the tail
    }

    // The next elements of a list being written: immediates in a row, then a composite one
    // with the rest waiting under its work (or the tail).
    void list_rest(Term l) {
        while (is_list(l) && is_immediate(car(l))) {
            if (!is_byte(car(l))) {
                term(car(l));
                l = cdr(l);
                continue;
            }
            // A run of byte-sized integers (a list of bytes too long for STRING_EXT): two
            // bytes each, written after one reservation.
            std::size_t k = 0;
            for (Term r = l; is_list(r) && is_byte(car(r)); r = cdr(r)) ++k;
            char* at = room(2 * k);
            for (; k > 0; --k, l = cdr(l)) {
                *at++ = char(SMALL_INTEGER_EXT);
                *at++ = char(small_value(car(l)));
            }
        }
        if (!is_list(l)) {
            term(l);  // the tail
            return;
        }
        Term rest = cdr(l);
        m_work.push_back({rest, 0, is_list(rest)});
        term(car(l));
    }

    void pid_ext(NodeId node, Word number, Word serial) {
        u8(NEW_PID_EXT);
        atom_ext(node.name);
        u32(std::uint32_t(number));
        u32(std::uint32_t(serial));
        u32(node.creation);
    }

    void port_ext(NodeId node, Word id) {
        // An id past 32 bits needs the 64-bit one of V4_PORT_EXT, as in OTP.
        bool wide = id > 0xffffffffu;
        u8(wide ? V4_PORT_EXT : NEW_PORT_EXT);
        atom_ext(node.name);
        if (wide) u32(std::uint32_t(id >> 32));
        u32(std::uint32_t(id));
        u32(node.creation);
    }

    void ref_ext(NodeId node, const std::uint32_t* numbers, Word count) {
        u8(NEWER_REFERENCE_EXT);
        u16(std::uint16_t(count));
        atom_ext(node.name);
        u32(node.creation);
        for (Word i = 0; i < count; ++i) u32(numbers[i]);
    }

    void term(Term t) {
        if (is_small(t)) return integer(t);
        if (is_atom(t)) return atom_ext(t);
        if (is_nil(t)) return u8(NIL_EXT);
        if (is_list(t)) return list(t);
        if (is_pid(t)) return pid_ext(this_node(), pid_printed_number(t), pid_serial(t));
        if (is_port(t)) return port_ext(this_node(), port_number(t));
        const Term* obj = boxed_ptr(t);
        switch (header_subtag(obj[0])) {
        case Subtag::Tuple: {
            Word n = header_arity(obj[0]);
            if (n < 256) {
                u8(SMALL_TUPLE_EXT);
                u8(unsigned(n));
            } else {
                u8(LARGE_TUPLE_EXT);
                u32(std::uint32_t(n));
            }
            for (Word i = n; i-- > 0;) m_work.push_back({obj[1 + i], 0});
            return;
        }
        case Subtag::PosBig:
        case Subtag::NegBig: return integer(t);
        case Subtag::Float: return float_ext(float_value(t));
        case Subtag::Ref: {
            std::uint32_t numbers[3] = {std::uint32_t(obj[1]), std::uint32_t(obj[2]), std::uint32_t(obj[3])};
            return ref_ext(this_node(), numbers, 3);
        }
        case Subtag::ExternalPid: return pid_ext(node_of(t), external_pid_number(t), external_pid_serial(t));
        case Subtag::ExternalPort: return port_ext(node_of(t), external_port_id(t));
        case Subtag::ExternalRef: return ref_ext(node_of(t), external_ref_data(t) + 1, external_ref_count(t));
        case Subtag::Map: {
            Word n = map_size(t);
            u8(MAP_EXT);
            u32(std::uint32_t(n));
            if (!is_flatmap(t)) {  // in maps:to_list/1's order, as erts writes them, or sorted
                std::vector<std::pair<Term, Term>> pairs = map_list_order(t);
                if (m_opt.deterministic)
                    std::sort(pairs.begin(), pairs.end(),
                              [](const auto& a, const auto& b) { return compare_terms_exact(a.first, b.first) < 0; });
                for (Word i = n; i-- > 0;) {
                    m_work.push_back({pairs[i].second, 0});
                    m_work.push_back({pairs[i].first, 0});
                }
                return;
            }
            const Term* keys = n ? tuple_elements(map_keys(t)) : nullptr;
            for (Word i = n; i-- > 0;) {
                m_work.push_back({map_values(t)[i], 0});
                m_work.push_back({keys[i], 0});
            }
            return;
        }
        case Subtag::Export: {
            const Export* e = reinterpret_cast<const Export*>(obj[1]);
            u8(EXPORT_EXT);
            atom_ext(e->module);
            atom_ext(e->function);
            integer(make_small(SWord(e->arity)));
            return;
        }
        case Subtag::Fun: {
            const FunEntry* fe = reinterpret_cast<const FunEntry*>(obj[1]);
            Word num_free = header_arity(obj[0]) - 2;
            u8(NEW_FUN_EXT);
            std::size_t size_at = m_len;
            u32(0);
            u8(unsigned(fe->user_arity()));
            const std::uint8_t* md5 = fe->module ? fe->module->md5 : fe->stub_md5;
            for (int i = 0; i < 16; ++i) u8(md5 ? md5[i] : 0);
            u32(std::uint32_t(fe->index));
            u32(std::uint32_t(num_free));
            atom_ext(fe->module_name);
            integer(make_small(SWord(fe->index)));
            integer(make_small(SWord(fe->old_uniq)));
            term(obj[2]);
            m_work.push_back({0, size_at});
            for (Word i = num_free; i-- > 0;) m_work.push_back({obj[3 + i], 0});
            return;
        }
        default: {
            BitView v = bit_view(t);
            if (v.is_aligned() && v.is_binary()) {  // bytes as they are: one copy
                u8(BINARY_EXT);
                u32(std::uint32_t(v.size_bytes()));
                bytes(v.aligned_bytes(), v.size_bytes());
                return;
            }
            std::string data(v.size_bytes() + (v.bit_size % 8 ? 1 : 0), '\0');
            copy_bits(v.bytes, v.bit_offset, reinterpret_cast<std::uint8_t*>(data.data()), 0, v.bit_size);
            if (v.bit_size % 8 == 0) {
                u8(BINARY_EXT);
                u32(std::uint32_t(data.size()));
            } else {
                u8(BIT_BINARY_EXT);
                u32(std::uint32_t(data.size()));
                u8(unsigned(v.bit_size % 8));
            }
            bytes(data.data(), data.size());
            return;
        }
        }
    }

    const EncodeOptions& m_opt;
    std::string& m_out;
    std::size_t m_len;  // the bytes of m_out written so far
    std::vector<Work> m_work;
};

// ---- decoding ----------------------------------------------------------------------------

// Reads the input; every read checks the bounds and latches failure.
class Reader {
public:
    explicit Reader(std::span<const std::uint8_t> in) : m_in(in) {}
    bool ok() const { return m_ok; }
    std::size_t pos() const { return m_pos; }
    std::size_t remaining() const { return m_in.size() - m_pos; }
    bool fail() { return m_ok = false; }
    const std::uint8_t* take(std::size_t n) {
        if (!m_ok || n > m_in.size() - m_pos) {
            m_ok = false;
            return nullptr;
        }
        const std::uint8_t* p = m_in.data() + m_pos;
        m_pos += n;
        return p;
    }
    std::uint32_t u8() {
        const std::uint8_t* p = take(1);
        return p ? p[0] : 0;
    }
    std::uint32_t u16() {
        const std::uint8_t* p = take(2);
        return p ? (std::uint32_t(p[0]) << 8) | p[1] : 0;
    }
    std::uint32_t u32() {
        const std::uint8_t* p = take(4);
        return p ? (std::uint32_t(p[0]) << 24) | (std::uint32_t(p[1]) << 16) | (std::uint32_t(p[2]) << 8) | p[3] : 0;
    }
    // The next byte without taking it (-1 at the end).
    int peek() const { return m_ok && m_pos < m_in.size() ? m_in[m_pos] : -1; }

private:
    std::span<const std::uint8_t> m_in;
    std::size_t m_pos = 0;
    bool m_ok = true;
};

// Words a bignum of [n] magnitude bytes needs (0 when it is a small).
Word integer_words(const std::uint8_t* digits, std::size_t n, bool negative) {
    while (n && digits[n - 1] == 0) --n;
    if (n <= 7) return 0;  // < 2^56: always a small
    if (n == 8) {
        std::uint64_t v = 0;
        for (std::size_t i = 0; i < 8; ++i) v |= std::uint64_t(digits[i]) << (8 * i);
        if (!negative && v <= std::uint64_t(MAX_SMALL)) return 0;
        if (negative && v <= std::uint64_t(MAX_SMALL) + 1) return 0;
    }
    return bignum_words((n + 7) / 8);
}

// Builds the integer with magnitude [digits] (little-endian) at [hp] (integer_words words).
Term build_integer(Term* hp, const std::uint8_t* digits, std::size_t n, bool negative) {
    while (n && digits[n - 1] == 0) --n;
    if (integer_words(digits, n, negative) == 0) {
        std::uint64_t v = 0;
        for (std::size_t i = 0; i < n; ++i) v |= std::uint64_t(digits[i]) << (8 * i);
        return make_small(negative ? -SWord(v) : SWord(v));
    }
    Word limbs = (n + 7) / 8;
    hp[0] = make_header(limbs, negative ? Subtag::NegBig : Subtag::PosBig);
    for (Word i = 0; i < limbs; ++i) {
        std::uint64_t limb = 0;
        for (std::size_t b = 0; b < 8 && i * 8 + b < n; ++b) limb |= std::uint64_t(digits[i * 8 + b]) << (8 * b);
        hp[1 + i] = limb;
    }
    return make_boxed(hp);
}

// One decoding pass. Sizing (build false) validates the input and counts heap words; building
// writes the term at [hp] ([off_heap]: the list its reference-counted binaries join, for a
// fragment). Both read the bytes in the same order; composite terms leave the slots of their
// elements on a stack, so nesting depth costs no C++ stack.
class Decoder {
public:
    Decoder(const DecodeTarget& target, std::span<const std::uint8_t> in, bool safe, bool build, Term* hp,
            Term** off_heap, std::span<const Term> atom_refs)
        : m_target(target), m_r(in), m_safe(safe), m_build(build), m_hp(hp), m_off_heap(off_heap),
          m_atom_refs(atom_refs) {}

    // Why the input was refused (after run() answered BadFormat).
    std::string error() const { return m_error.empty() ? "truncated" : m_error; }

    DecodeStatus run(Term* result, Word* words, std::size_t* used) {
        Term root = NIL;
        m_slots.push_back({&root, Slot::Term});
        while (!m_slots.empty() && m_r.ok() && !m_unsafe) {
            Slot s = m_slots.back();
            m_slots.pop_back();
            if (s.kind == Slot::FinishMap) {
                finish_map(s);
            } else if (s.kind == Slot::Elements) {
                // A run of elements: those that are leaves (no elements of their own) are
                // decoded here in a row; at the first composite one the rest waits under its
                // slots.
                while (s.count > 0 && m_r.ok()) {
                    if (m_r.peek() == SMALL_INTEGER_EXT && m_r.remaining() >= 2) {  // the usual element
                        set(s.dest, make_small(m_r.take(2)[1]));
                        --s.count;
                        if (s.dest) s.dest += s.stride;
                        continue;
                    }
                    Term* dest = s.dest;
                    --s.count;
                    if (s.dest) s.dest += s.stride;
                    if (!is_leaf_tag(m_r.peek())) {
                        if (s.count > 0) m_slots.push_back(s);
                        one(dest);
                        break;
                    }
                    one(dest);
                }
            } else {
                one(s.dest);
            }
        }
        if (m_unsafe) return DecodeStatus::Unsafe;
        if (!m_r.ok()) return DecodeStatus::BadFormat;
        *result = root;
        *words = m_words;
        *used = m_r.pos();
        return DecodeStatus::Ok;
    }

private:
    // Where the next term goes (null while sizing), or a map to build once its pairs are in.
    // Elements: [count] terms in a row, at [dest], [dest] + [stride], ... (a tuple's, a
    // list's cars): one slot for them all, so a long list or tuple costs no stack of slots.
    struct Slot {
        enum Kind : std::uint8_t { Term, FinishMap, Elements };
        vm::Term* dest;
        Kind kind;
        std::uint8_t stride = 1;    // Elements: words between two destinations
        vm::Term* pairs = nullptr;  // FinishMap: the scratch tuple of decoded keys and values
        Word count = 0;             // FinishMap: pairs; Elements: terms left
        Slot(vm::Term* d, Kind k) : dest(d), kind(k) {}
    };
    // Tags of terms that push no slots of their own.
    static bool is_leaf_tag(int tag) {
        switch (tag) {
        case SMALL_INTEGER_EXT:
        case INTEGER_EXT:
        case NIL_EXT:
        case ATOM_EXT:
        case SMALL_ATOM_EXT:
        case ATOM_UTF8_EXT:
        case SMALL_ATOM_UTF8_EXT:
        case ATOM_CACHE_REF:
        case NEW_FLOAT_EXT:
        case STRING_EXT:
        case BINARY_EXT: return true;
        default: return false;
        }
    }
    // The slot of [n] elements (n > 0) at [dest], [stride] words apart.
    static Slot elements(vm::Term* dest, Word n, std::uint8_t stride) {
        Slot s(dest, Slot::Elements);
        s.count = n;
        s.stride = stride;
        return s;
    }

    bool building() const { return m_build; }
    bool literal() const { return m_target.kind() == DecodeTarget::Kind::Literals; }
    // Refuses the input, saying why.
    void bad(std::string why) {
        if (m_error.empty()) m_error = std::move(why);
        m_r.fail();
    }
    void unsupported(std::uint32_t tag) { bad("unsupported external term tag " + std::to_string(tag)); }

    // Binaries: as make_binary builds them, except in literals without an off-heap list:
    // heap binaries whatever their size.
    bool heap_binaries_only() const { return literal() && !m_target.literal_off_heap(); }
    Word binary_size(std::size_t n) const { return heap_binaries_only() ? heap_bin_words(n) : binary_words(n); }
    Term binary_at(Term* hp, const std::uint8_t* bytes, std::size_t n) {
        switch (m_target.kind()) {
        case DecodeTarget::Kind::ProcessHeap: return make_binary_on(m_target.process(), hp, bytes, n);
        case DecodeTarget::Kind::Fragment: return make_binary_in(hp, m_off_heap, bytes, n);
        case DecodeTarget::Kind::Literals:
            if (!heap_binaries_only()) return make_binary_in(hp, m_target.literal_off_heap(), bytes, n);
            break;
        }
        Word data_words = (Word(n) + 7) / 8;
        hp[0] = make_header(1 + data_words, Subtag::HeapBin);
        hp[1] = n;
        if (data_words) hp[1 + data_words] = 0;  // no uninitialised padding bytes
        if (n) std::memcpy(hp + 2, bytes, n);
        return make_boxed(hp);
    }
    Term* words(Word n) {
        m_words += n;
        if (!building()) return nullptr;
        Term* at = m_hp;
        m_hp += n;
        return at;
    }
    void set(Term* dest, Term value) {
        if (building()) *dest = value;
    }

    void atom_from(const std::uint8_t* text, std::size_t n, bool utf8, Term* dest) {
        if (!text) return;
        std::string_view name(reinterpret_cast<const char*>(text), n);
        std::string converted;  // Latin-1 beyond ASCII, as UTF-8
        if (utf8) {
            if (!utf8_valid(text, n)) {
                m_r.fail();
                return;
            }
        } else if (std::any_of(text, text + n, [](std::uint8_t c) { return c >= 0x80; })) {
            for (std::size_t i = 0; i < n; ++i) {
                unsigned char c = text[i];
                if (c < 0x80) converted.push_back(char(c));
                else {
                    converted.push_back(char(0xC0 | (c >> 6)));
                    converted.push_back(char(0x80 | (c & 0x3F)));
                }
            }
            name = converted;
        }
        std::optional<Term> a = AtomTable::global().find(name);
        if (!a) {
            if (m_safe) {
                m_unsafe = true;
                return;
            }
            if (building()) a = AtomTable::global().intern(name);
            else a = atoms::undefined;  // sizing: only the validity matters
            if (!a) {
                m_r.fail();
                return;
            }
        }
        set(dest, *a);
    }

    // Reads an atom (any atom tag) into [dest].
    void atom(Term* dest) { atom_body(m_r.u8(), dest); }
    void atom_body(std::uint32_t tag, Term* dest) {
        std::size_t n;
        switch (tag) {
        case ATOM_EXT: n = m_r.u16(); return atom_from(m_r.take(n), n, false, dest);
        case SMALL_ATOM_EXT: n = m_r.u8(); return atom_from(m_r.take(n), n, false, dest);
        case ATOM_UTF8_EXT: n = m_r.u16(); return atom_from(m_r.take(n), n, true, dest);
        case SMALL_ATOM_UTF8_EXT: n = m_r.u8(); return atom_from(m_r.take(n), n, true, dest);
        case ATOM_CACHE_REF: {  // only after a distribution header that named it
            std::uint32_t i = m_r.u8();
            if (i >= m_atom_refs.size()) {
                bad("atom cache reference " + std::to_string(i) + " not in the header");
                return;
            }
            return set(dest, m_atom_refs[i]);
        }
        default: m_r.fail(); return;
        }
    }

    // An atom both passes need to look at (a node, a fun's module): read even while sizing.
    Term atom_now() {
        Term a = NIL;
        bool was_building = m_build;
        m_build = true;
        atom(&a);
        m_build = was_building;
        return a;
    }

    // The node of a pid, port or reference: its name, then its creation (a byte in the older
    // tags, where OTP takes 0..3 only).
    NodeId node(bool tiny_creation) {
        Term name = atom_now();
        if (m_r.ok() && !m_unsafe && !is_atom(name)) m_r.fail();
        std::uint32_t creation = tiny_creation ? m_r.u8() : m_r.u32();
        if (tiny_creation && creation > 3) m_r.fail();
        return {name, creation};
    }

    // A small integer operand (SMALL_INTEGER_EXT or INTEGER_EXT) of a fun.
    SWord small_int() {
        std::uint32_t tag = m_r.u8();
        if (tag == SMALL_INTEGER_EXT) return m_r.u8();
        if (tag == INTEGER_EXT) return std::int32_t(m_r.u32());
        m_r.fail();
        return 0;
    }

    void one(Term* dest) {
        std::uint32_t tag = m_r.u8();
        switch (tag) {
        case SMALL_INTEGER_EXT: return set(dest, make_small(m_r.u8()));
        case INTEGER_EXT: return set(dest, make_small(std::int32_t(m_r.u32())));
        case SMALL_BIG_EXT:
        case LARGE_BIG_EXT: {
            std::size_t n = tag == SMALL_BIG_EXT ? m_r.u8() : m_r.u32();
            bool negative = m_r.u8() != 0;
            const std::uint8_t* digits = m_r.take(n);
            if (!digits) return;
            Term* hp = words(integer_words(digits, n, negative));
            if (building()) *dest = build_integer(hp, digits, n, negative);
            return;
        }
        case NEW_FLOAT_EXT: {
            const std::uint8_t* b = m_r.take(8);
            if (!b) return;
            std::uint64_t bits = 0;
            for (int i = 0; i < 8; ++i) bits = (bits << 8) | b[i];
            double v = std::bit_cast<double>(bits);
            if (!std::isfinite(v)) {  // Erlang has no NaN or infinity
                m_r.fail();
                return;
            }
            return float_term(v, dest);
        }
        case FLOAT_EXT: {
            const std::uint8_t* b = m_r.take(31);
            if (!b) return;
            std::string text(reinterpret_cast<const char*>(b), 31);
            text = text.c_str();
            char* end = nullptr;
            double v = std::strtod(text.c_str(), &end);
            if (end == text.c_str() || !std::isfinite(v)) {
                m_r.fail();
                return;
            }
            return float_term(v, dest);
        }
        case ATOM_EXT:
        case SMALL_ATOM_EXT:
        case ATOM_UTF8_EXT:
        case SMALL_ATOM_UTF8_EXT:
        case ATOM_CACHE_REF: return atom_body(tag, dest);
        case NIL_EXT: return set(dest, NIL);
        case SMALL_TUPLE_EXT: return tuple(m_r.u8(), dest);
        case LARGE_TUPLE_EXT: return tuple(m_r.u32(), dest);
        case STRING_EXT: {
            std::size_t n = m_r.u16();
            const std::uint8_t* b = m_r.take(n);
            if (!b) return;
            Term* hp = words(2 * n);
            if (!building()) return;
            Term l = NIL;
            for (std::size_t i = n; i-- > 0;) l = make_cons_on(hp + 2 * i, make_small(b[i]), l);
            *dest = l;
            return;
        }
        case LIST_EXT: {
            std::uint32_t n = m_r.u32();
            if (!m_r.ok() || n > m_r.remaining()) {
                m_r.fail();
                return;
            }
            if (n == 0) {  // not written by OTP, but valid: just the tail
                m_slots.push_back({dest, Slot::Term});
                return;
            }
            Term* hp = words(2 * Word(n));
            if (building()) {
                for (std::uint32_t i = 0; i < n; ++i) hp[2 * i + 1] = make_list(hp + 2 * (i + 1));
                *dest = make_list(hp);
            }
            m_slots.push_back({building() ? hp + 2 * (n - 1) + 1 : nullptr, Slot::Term});  // tail
            m_slots.push_back(elements(building() ? hp : nullptr, n, 2));
            return;
        }
        case BINARY_EXT: {
            std::uint32_t n = m_r.u32();
            const std::uint8_t* b = m_r.take(n);
            if (!b) return;
            Term* hp = words(binary_size(n));
            if (building()) *dest = binary_at(hp, b, n);
            return;
        }
        case BIT_BINARY_EXT: {
            std::uint32_t n = m_r.u32();
            std::uint32_t bits = m_r.u8();
            const std::uint8_t* b = m_r.take(n);
            if (!b) return;
            if (bits > 8 || bits == 0 || n == 0) {
                if (!(bits == 0 && n == 0)) {
                    m_r.fail();
                    return;
                }
            }
            Term* hp = words(binary_size(n) + SUB_BIN_WORDS);
            if (!building()) return;
            Term owner = binary_at(hp, b, n);
            Term* sub = hp + binary_size(n);
            std::size_t bit_size = n == 0 ? 0 : (std::size_t(n) - 1) * 8 + bits;
            sub[0] = make_header(SUB_BIN_WORDS - 1, Subtag::SubBin);
            sub[1] = bit_size / 8;
            sub[2] = 0;
            sub[3] = bit_size % 8;
            sub[4] = owner;
            *dest = make_boxed(sub);
            return;
        }
        case MAP_EXT: {
            std::uint32_t n = m_r.u32();
            if (!m_r.ok() || n > m_r.remaining() / 2) {
                m_r.fail();
                return;
            }
            // The pairs go into a scratch tuple first; the map is built, keys sorted, once
            // they are all decoded.
            Term* scratch = words(1 + 2 * Word(n));
            words(decoded_map_words(n));
            Slot finish(dest, Slot::FinishMap);
            finish.pairs = scratch;
            finish.count = n;
            m_slots.push_back(finish);
            if (building()) {
                scratch[0] = make_arityval(2 * n);
                for (Word i = 1; i <= 2 * Word(n); ++i) scratch[i] = NIL;
            }
            if (n) m_slots.push_back(elements(building() ? scratch + 1 : nullptr, 2 * Word(n), 1));
            return;
        }
        case NEW_PID_EXT:
        case PID_EXT:
            if (literal()) return unsupported(tag);  // never in a module's literals
            return pid_body(tag, dest);
        case NEW_PORT_EXT:
        case PORT_EXT:
        case V4_PORT_EXT: {
            if (literal()) return unsupported(tag);
            Term name = atom_now();
            std::uint64_t id = tag == V4_PORT_EXT ? (std::uint64_t(m_r.u32()) << 32) | m_r.u32() : m_r.u32();
            std::uint32_t creation = tag == PORT_EXT ? m_r.u8() : m_r.u32();
            if (!m_r.ok() || m_unsafe) return;
            if (!is_atom(name) || (tag == PORT_EXT && creation > 3)) { m_r.fail(); return; }
            if (!is_this_node(name, creation)) {
                Term* hp = words(EXTERNAL_PORT_WORDS);
                if (building()) *dest = make_external_port_on(hp, name, creation, id);
                return;
            }
            if (!fits_immediate(id)) { m_r.fail(); return; }  // no such port could exist here
            return set(dest, make_port(id));
        }
        case NEWER_REFERENCE_EXT:
        case NEW_REFERENCE_EXT:
        case REFERENCE_EXT: {
            if (literal()) return unsupported(tag);
            std::uint32_t n = tag == REFERENCE_EXT ? 1 : m_r.u16();
            Term name = atom_now();
            std::uint32_t creation = 0;
            std::uint32_t ids[MAX_REF_NUMBERS] = {};
            if (tag == REFERENCE_EXT) {
                ids[0] = m_r.u32();
                creation = m_r.u8();
            } else {
                creation = tag == NEWER_REFERENCE_EXT ? m_r.u32() : m_r.u8();
                if (n > MAX_REF_NUMBERS) { m_r.fail(); return; }
                for (std::uint32_t i = 0; i < n; ++i) ids[i] = m_r.u32();
            }
            if (!m_r.ok() || m_unsafe) return;
            if (!is_atom(name) || (tag != NEWER_REFERENCE_EXT && creation > 3)) { m_r.fail(); return; }
            if (!is_this_node(name, creation)) {
                Term* hp = words(external_ref_words(n));
                if (building()) *dest = make_external_ref_on(hp, name, creation, ids, n);
                return;
            }
            // This node's references have three numbers (fewer are padded with zeros, as OTP).
            if (n > 3) { m_r.fail(); return; }
            return ref_term({ids[0], ids[1], ids[2]}, dest);
        }
        case EXPORT_EXT: {
            Term m = NIL, f = NIL;
            atom(&m);
            atom(&f);
            SWord a = small_int();
            if (!m_r.ok() || m_unsafe) return;
            if (a < 0 || a > 255) {
                m_r.fail();
                return;
            }
            Term* hp = words(2);
            if (!building()) return;
            Export* e = m_target.exports().get(m, f, Word(a));
            hp[0] = make_header(1, Subtag::Export);
            hp[1] = reinterpret_cast<Word>(e);
            *dest = make_boxed(hp);
            return;
        }
        case NEW_FUN_EXT: return local_fun(dest);
        default: return unsupported(tag);
        }
    }

    // A pid: this node's, or another node's (with [creator], a fun's creator: held outside
    // the words the collector scans, so another node's is a stable copy, vm/node.hpp).
    void pid_body(std::uint32_t tag, Term* dest, bool creator = false) {
        if (tag != NEW_PID_EXT && tag != PID_EXT) { m_r.fail(); return; }
        Term name = atom_now();
        std::uint32_t number = m_r.u32();
        std::uint32_t serial = m_r.u32();
        std::uint32_t creation = tag == NEW_PID_EXT ? m_r.u32() : m_r.u8();
        if (!m_r.ok() || m_unsafe) return;
        if (!is_atom(name) || (tag == PID_EXT && creation > 3)) { m_r.fail(); return; }
        if (!is_this_node(name, creation)) {
            if (creator) {
                Term pid_words[EXTERNAL_PID_WORDS];
                if (building()) *dest = stable_external(make_external_pid_on(pid_words, name, creation, number, serial));
                return;
            }
            Term* hp = words(EXTERNAL_PID_WORDS);
            if (building()) *dest = make_external_pid_on(hp, name, creation, number, serial);
            return;
        }
        // As OTP 25: this node's pids have a 15-bit number and a 13-bit serial.
        if (number > MAX_PID_NUMBER || serial > MAX_PID_SERIAL) { m_r.fail(); return; }
        set(dest, make_pid(pid_data(number, serial)));
    }

    // Whether a pid or port number survives the immediate's tag bits (a larger one, from
    // another node's numbering, would come back as a different pid or port).
    static bool fits_immediate(std::uint64_t number) { return (number >> (64 - TAG_IMMED1_SIZE)) == 0; }

    void float_term(double v, Term* dest) {
        Term* hp = words(FLOAT_WORDS);
        if (building()) *dest = make_float_on(hp, v);
    }

    void ref_term(std::array<std::uint32_t, 3> ids, Term* dest) {
        Term* hp = words(REF_WORDS);
        if (!building()) return;
        hp[0] = make_header(REF_WORDS - 1, Subtag::Ref);
        hp[1] = ids[0];
        hp[2] = ids[1];
        hp[3] = ids[2];
        *dest = make_boxed(hp);
    }

    void tuple(std::uint32_t n, Term* dest) {
        if (!m_r.ok() || n > m_r.remaining()) {
            m_r.fail();
            return;
        }
        Term* hp = words(1 + Word(n));
        if (building()) {
            hp[0] = make_arityval(n);
            for (std::uint32_t i = 1; i <= n; ++i) hp[i] = NIL;
            *dest = make_boxed(hp);
        }
        if (n) m_slots.push_back(elements(building() ? hp + 1 : nullptr, n, 1));
    }

    void local_fun(Term* dest) {
        if (literal()) return unsupported(NEW_FUN_EXT);
        // Not refused by [safe] (as OTP): only its atoms are (a module's name must exist).
        m_r.u32();  // size
        std::uint32_t arity = m_r.u8();
        const std::uint8_t* md5 = m_r.take(16);  // the module's MD5
        std::uint32_t index = m_r.u32();
        std::uint32_t num_free = m_r.u32();
        Term module = atom_now();
        small_int();  // old index
        SWord old_uniq = small_int();
        if (!m_r.ok() || m_unsafe) return;
        // Every free variable takes a byte at least: a larger count is garbage, refused before
        // anything is sized for it; so is one past erts's 255 (MAX_ARG).
        if (!is_atom(module) || num_free > 255 || num_free > m_r.remaining()) { m_r.fail(); return; }
        // The fun is looked up (or its stand-in made) in both passes, so that building cannot
        // fail.
        Module* mod = m_target.vm()->find_module(module);
        const FunEntry* fe = nullptr;
        if (mod)
            for (const auto& f : mod->funs)
                if (f->index == index) fe = f.get();
        if (fe && (fe->user_arity() != arity || fe->num_free != num_free)) fe = nullptr;
        // A module that is not loaded (or lacks the fun): a stand-in entry, as OTP's.
        if (!fe) fe = m_target.vm()->lambda_stub(module, index, Word(std::uint32_t(old_uniq)), arity, num_free, md5);
        Term creator = NIL;
        pid_body(m_r.u8(), &creator, true);
        if (!m_r.ok()) return;
        Term* hp = words(3 + Word(num_free));
        if (building()) {
            hp[0] = make_header(2 + num_free, Subtag::Fun);
            hp[1] = reinterpret_cast<Word>(fe);
            hp[2] = creator;
            for (std::uint32_t i = 0; i < num_free; ++i) hp[3 + i] = NIL;
            *dest = make_boxed(hp);
        }
        if (num_free) m_slots.push_back(elements(building() ? hp + 3 : nullptr, num_free, 1));
    }

    void finish_map(const Slot& s) {
        if (!building()) return;
        std::vector<std::pair<Term, Term>> pairs;
        pairs.reserve(s.count);
        for (Word i = 0; i < s.count; ++i) pairs.emplace_back(s.pairs[1 + 2 * i], s.pairs[2 + 2 * i]);
        Term* hp = s.pairs + 1 + 2 * s.count;  // the map's words follow the scratch tuple
        Word n = s.count;
        if (n > MAP_SMALL_MAP_LIMIT) {
            // The trie's shape follows from the keys' hashes, known only now: on a process
            // heap it is allocated now, elsewhere it was given room for the largest.
            Term map = m_target.kind() == DecodeTarget::Kind::ProcessHeap ? hashmap_of_distinct(m_target.process(), pairs)
                                                                          : hashmap_on(hp, pairs);
            if (map == THE_NON_VALUE) return bad("a map key twice");
            *s.dest = map;
            return;
        }
        std::stable_sort(pairs.begin(), pairs.end(),
                         [](const auto& a, const auto& b) { return compare_terms_exact(a.first, b.first) < 0; });
        for (std::size_t i = 1; i < pairs.size(); ++i)
            if (compare_terms_exact(pairs[i - 1].first, pairs[i].first) == 0) {
                return bad("a map key twice");
            }
        if (n == 0) {
            *s.dest = empty_map_on(hp);
            return;
        }
        Term* tuple = hp + MAP_HEADER_WORDS + n;
        tuple[0] = make_arityval(n);
        hp[0] = make_header(MAP_HEADER_WORDS - 1 + n, Subtag::Map);
        hp[1] = n;
        hp[2] = make_boxed(tuple);
        for (Word i = 0; i < n; ++i) {
            tuple[1 + i] = pairs[i].first;
            hp[MAP_HEADER_WORDS + i] = pairs[i].second;
        }
        *s.dest = make_boxed(hp);
    }

    // Words a decoded map of [n] keys is given: a flatmap's; a hashmap's on a process heap
    // none (finish_map allocates it), elsewhere as many as it can take.
    Word decoded_map_words(Word n) const {
        if (n <= MAP_SMALL_MAP_LIMIT) return map_words(n);
        return m_target.kind() == DecodeTarget::Kind::ProcessHeap ? 0 : hashmap_words_at_most(n);
    }

    static Term empty_map_on(Term* hp) {
        hp[0] = make_header(MAP_HEADER_WORDS - 1, Subtag::Map);
        hp[1] = 0;
        hp[2] = NIL;
        return make_boxed(hp);
    }

    const DecodeTarget& m_target;
    Reader m_r;
    bool m_safe;
    bool m_build;
    Term* m_hp;
    Term** m_off_heap;
    std::span<const Term> m_atom_refs;  // after a distribution header: what ATOM_CACHE_REF N means
    std::string m_error;
    Word m_words = 0;
    bool m_unsafe = false;
    std::vector<Slot> m_slots;
};

}  // namespace

void encode_external(Term t, const EncodeOptions& options, std::string* out) {
    if (options.compression == 0) {
        Encoder(options, out).run(t);
        return;
    }
    std::string plain;
    Encoder(options, &plain).run(t);
    // Compressed: 131, 80, the uncompressed size, then zlib's stream of the rest; only when
    // that is smaller, as OTP.
    uLongf bound = compressBound(uLong(plain.size() - 1));
    std::string packed(bound, '\0');
    if (compress2(reinterpret_cast<Bytef*>(packed.data()), &bound,
                  reinterpret_cast<const Bytef*>(plain.data() + 1), uLong(plain.size() - 1), options.compression) != Z_OK ||
        bound + 6 >= plain.size()) {
        out->append(plain);
        return;
    }
    std::uint32_t size = std::uint32_t(plain.size() - 1);
    out->push_back(char(VERSION));
    out->push_back(char(COMPRESSED));
    for (int shift = 24; shift >= 0; shift -= 8) out->push_back(char((size >> shift) & 0xFF));
    out->append(packed.data(), bound);
}

// zlib's deflate never compresses better than about 1032:1 (its documentation's bound).
constexpr std::size_t MAX_DEFLATE_RATIO = 1032;

DecodeTarget DecodeTarget::heap(Process* p) { return {Kind::ProcessHeap, p, &p->vm, &p->vm.exports}; }
DecodeTarget DecodeTarget::fragment(Vm& vm) { return {Kind::Fragment, nullptr, &vm, &vm.exports}; }
DecodeTarget DecodeTarget::literals(ExportTable& exports, Term** off_heap) {
    return {Kind::Literals, nullptr, nullptr, &exports, off_heap};
}

namespace {

// Decodes [body] (the term's bytes after its version byte, or after a distribution header)
// into [target]; [result]'s used counts the bytes of [body] the term took.
void decode_body(const DecodeTarget& target, std::span<const std::uint8_t> body, bool safe,
                 std::span<const Term> atom_refs, DecodeResult& result) {
    Term term = NIL;
    Word words = 0;
    std::size_t used = 0;
    Decoder sizing(target, body, safe, false, nullptr, nullptr, atom_refs);
    result.status = sizing.run(&term, &words, &used);
    if (result.status != DecodeStatus::Ok) {
        if (result.status == DecodeStatus::BadFormat) result.error = sizing.error();
        return;
    }
    // One block for the whole term; the second pass fails only where the first cannot see
    // (map keys are compared once they are built).
    Term* hp = nullptr;
    Term** off_heap = nullptr;
    if (words) {
        switch (target.kind()) {
        case DecodeTarget::Kind::ProcessHeap: hp = target.process()->alloc(words); break;
        case DecodeTarget::Kind::Fragment:
            result.fragment = HeapFragment::create(words);
            hp = result.fragment->alloc(words);
            off_heap = &result.fragment->off_heap_first;
            break;
        case DecodeTarget::Kind::Literals: hp = literal_alloc(words); break;
        }
    }
    Decoder builder(target, body, safe, true, hp, off_heap, atom_refs);
    result.status = builder.run(&term, &words, &used);
    if (result.status != DecodeStatus::Ok) {  // only a map with a key twice is found this late
        result.error = builder.error();
        free_fragment(result.fragment);
        result.fragment = nullptr;
        return;
    }
    result.term = term;
    result.used = used;
}

}  // namespace

DecodeResult decode_external(const DecodeTarget& target, std::span<const std::uint8_t> bytes, bool safe) {
    DecodeResult result;
    if (bytes.size() < 2 || bytes[0] != VERSION) {
        result.error = bytes.empty() ? "truncated" : "no version byte";
        return result;
    }
    std::vector<std::uint8_t> inflated;
    std::span<const std::uint8_t> body = bytes.subspan(1);
    std::size_t consumed_prefix = 1;
    if (bytes[1] == COMPRESSED) {
        result.error = "bad compressed term";
        if (bytes.size() < 6) return result;
        std::uint32_t size = (std::uint32_t(bytes[2]) << 24) | (std::uint32_t(bytes[3]) << 16) |
                             (std::uint32_t(bytes[4]) << 8) | bytes[5];
        // Deflate expands at most 1032 times: a larger size is a lie, not an allocation to try.
        if (size > (bytes.size() - 6) * MAX_DEFLATE_RATIO) return result;
        inflated.resize(size);
        z_stream z{};
        if (inflateInit(&z) != Z_OK) return result;
        z.next_in = const_cast<Bytef*>(bytes.data() + 6);
        z.avail_in = uInt(bytes.size() - 6);
        z.next_out = inflated.data();
        z.avail_out = uInt(size);
        int rc = inflate(&z, Z_FINISH);
        std::size_t used_in = bytes.size() - 6 - z.avail_in;
        inflateEnd(&z);
        if (rc != Z_STREAM_END || z.avail_out != 0) return result;
        result.error.clear();
        body = inflated;
        consumed_prefix = 6 + used_in;
    }
    decode_body(target, body, safe, {}, result);
    if (result.status == DecodeStatus::Ok) result.used = inflated.empty() ? consumed_prefix + result.used : consumed_prefix;
    return result;
}

DecodeResult decode_dist_term(const DecodeTarget& target, std::span<const std::uint8_t> bytes,
                              std::span<const Term> atom_refs) {
    DecodeResult result;
    // A version byte here is a sender that got the format wrong (OTP refuses it too).
    if (bytes.empty() || bytes[0] == VERSION) {
        result.error = bytes.empty() ? "truncated" : "a version byte after a distribution header";
        return result;
    }
    decode_body(target, bytes, false, atom_refs, result);
    return result;
}

DecodeResult decode_external(Process* p, std::span<const std::uint8_t> bytes, bool safe) {
    return decode_external(DecodeTarget::heap(p), bytes, safe);
}

}  // namespace beamlet::vm
