// vm/bit_syntax.cpp — bit syntax matching and construction.
#include "vm/bit_syntax.hpp"

#include <gmp.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>

#include "vm/atom_table.hpp"
#include "vm/bignum.hpp"
#include "vm/binary.hpp"
#include "vm/map.hpp"
#include "vm/process.hpp"

namespace beamlet::vm {

namespace {

// The owner's data pointer (owners are HeapBin or RefcBin).
const std::uint8_t* ms_bytes(Term ms) { return bit_view(boxed_ptr(ms)[1]).bytes; }

// Reads [bits] bits at bit offset [offset] into [out] as a big-endian number of ceil(bits/8)
// bytes, right-aligned (the unused high bits of the first byte are zero).
void read_bits(const std::uint8_t* src, Word offset, Word bits, std::uint8_t* out) {
    Word n = (bits + 7) / 8;
    std::memset(out, 0, n);
    Word lead = n * 8 - bits;  // zero bits on the left of out
    copy_bits(src, offset, out, lead, bits);
}

std::uint64_t load_be(const std::uint8_t* bytes, Word n) {
    std::uint64_t v = 0;
    for (Word i = 0; i < n; ++i) v = (v << 8) | bytes[i];
    return v;
}

bool is_little(Word flags) {
    if (flags & BSF_NATIVE) return std::endian::native == std::endian::little;
    return flags & BSF_LITTLE;
}

}  // namespace

Term bs_start_match(Process* p, Term bin) {
    if (is_boxed_of(bin, Subtag::MatchState)) return bin;
    if (!is_bitstring(bin)) return THE_NON_VALUE;
    Term* obj = boxed_ptr(bin);
    Term owner = bin;
    Word start = 0, size = bit_view(bin).bit_size;
    if (header_subtag(obj[0]) == Subtag::SubBin) {
        owner = obj[4];
        start = obj[2];
    }
    Term* hp = p->alloc(MATCH_STATE_WORDS);
    hp[0] = make_header(MATCH_STATE_WORDS - 1, Subtag::MatchState);
    hp[1] = owner;
    hp[2] = start;
    hp[3] = start + size;
    return make_boxed(hp);
}

Term bs_get_integer(Process* p, Term ms, Word bits, Word flags) {
    if (ms_remaining(ms) < bits) return THE_NON_VALUE;
    Word n = (bits + 7) / 8;
    std::uint8_t small_buf[16];
    std::vector<std::uint8_t> big_buf;
    std::uint8_t* buf = small_buf;
    if (n > sizeof(small_buf)) {
        big_buf.resize(n);
        buf = big_buf.data();
    }
    read_bits(ms_bytes(ms), ms_position(ms), bits, buf);
    ms_position(ms) += bits;
    if (is_little(flags) && n > 1) {
        if (bits % 8 == 0) {
            for (Word i = 0; i < n / 2; ++i) std::swap(buf[i], buf[n - 1 - i]);
        } else {
            // The bits as read are whole bytes then a partial byte; little-endian makes the
            // partial (last) byte the most significant one.
            std::vector<std::uint8_t> raw(n);
            copy_bits(buf, n * 8 - bits, raw.data(), 0, bits);
            Word rest = bits % 8;
            std::vector<std::uint8_t> le(n, 0);
            le[0] = std::uint8_t(raw[n - 1] >> (8 - rest));
            for (Word i = 0; i + 1 < n; ++i) le[n - 1 - i] = raw[i];
            std::memcpy(buf, le.data(), n);
        }
    }
    bool negative = (flags & BSF_SIGNED) && bits > 0 && ((buf[0] >> ((bits - 1) % 8)) & 1);
    if (bits <= 63) {
        std::uint64_t v = load_be(buf, n);
        std::int64_t s = std::int64_t(v);
        if (negative) s = std::int64_t(v | (~std::uint64_t(0) << bits));
        return make_integer(p, s);
    }
    mpz_t z;
    mpz_init(z);
    mpz_import(z, n, 1, 1, 1, 0, buf);
    if (negative) {
        mpz_t m;
        mpz_init(m);
        mpz_ui_pow_ui(m, 2, bits);
        mpz_sub(z, z, m);
        mpz_clear(m);
    }
    if (mpz_size(z) > MAX_BIG_LIMBS) {  // larger than any integer: no match
        mpz_clear(z);
        ms_position(ms) -= bits;
        return THE_NON_VALUE;
    }
    Term t = mpz_to_integer(p, z);
    mpz_clear(z);
    return t;
}

Term bs_get_float(Process* p, Term ms, Word bits, Word flags) {
    if (bits != 16 && bits != 32 && bits != 64) return THE_NON_VALUE;
    if (ms_remaining(ms) < bits) return THE_NON_VALUE;
    std::uint8_t buf[8];
    read_bits(ms_bytes(ms), ms_position(ms), bits, buf);
    Word n = bits / 8;
    if (is_little(flags))
        for (Word i = 0; i < n / 2; ++i) std::swap(buf[i], buf[n - 1 - i]);
    std::uint64_t raw = load_be(buf, n);
    double d;
    if (bits == 64) d = std::bit_cast<double>(raw);
    else if (bits == 32) d = std::bit_cast<float>(std::uint32_t(raw));
    else {
        // IEEE half precision.
        int sign = (raw >> 15) & 1, exp = (raw >> 10) & 0x1F, frac = raw & 0x3FF;
        if (exp == 0x1F) return THE_NON_VALUE;
        d = exp == 0 ? std::ldexp(frac, -24) : std::ldexp(frac + 1024, exp - 25);
        if (sign) d = -d;
    }
    if (!std::isfinite(d)) return THE_NON_VALUE;
    ms_position(ms) += bits;
    return make_float_on(p->alloc(FLOAT_WORDS), d);
}

Term bs_get_binary(Process* p, Term ms, Word bits) {
    if (ms_remaining(ms) < bits) return THE_NON_VALUE;
    Term owner = boxed_ptr(ms)[1];
    Term sub = make_sub_binary(p, owner, ms_position(ms), bits);
    ms_position(ms) += bits;
    return sub;
}

Term bs_get_tail(Process* p, Term ms) {
    return make_sub_binary(p, boxed_ptr(ms)[1], ms_position(ms), ms_remaining(ms));
}

Term bs_get_utf8(Term ms) {
    Word left = ms_remaining(ms);
    if (left < 8) return THE_NON_VALUE;
    std::uint8_t buf[4];
    const std::uint8_t* src = ms_bytes(ms);
    Word pos = ms_position(ms);
    read_bits(src, pos, 8, buf);
    std::uint32_t c = buf[0];
    int extra;
    if (c < 0x80) extra = 0;
    else if ((c & 0xE0) == 0xC0) { extra = 1; c &= 0x1F; }
    else if ((c & 0xF0) == 0xE0) { extra = 2; c &= 0x0F; }
    else if ((c & 0xF8) == 0xF0) { extra = 3; c &= 0x07; }
    else return THE_NON_VALUE;
    if (left < Word(8 * (extra + 1))) return THE_NON_VALUE;
    read_bits(src, pos + 8, 8 * extra, buf + 1);
    for (int i = 1; i <= extra; ++i) {
        if ((buf[i] & 0xC0) != 0x80) return THE_NON_VALUE;
        c = (c << 6) | (buf[i] & 0x3F);
    }
    static constexpr std::uint32_t MIN_FOR[] = {0, 0x80, 0x800, 0x10000};
    if (c < MIN_FOR[extra] || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF)) return THE_NON_VALUE;
    ms_position(ms) += 8 * (extra + 1);
    return make_small(c);
}

Term bs_get_utf16(Term ms, Word flags) {
    if (ms_remaining(ms) < 16) return THE_NON_VALUE;
    std::uint8_t buf[4];
    read_bits(ms_bytes(ms), ms_position(ms), 16, buf);
    auto unit = [&](const std::uint8_t* b) {
        return is_little(flags) ? std::uint32_t(b[1] << 8 | b[0]) : std::uint32_t(b[0] << 8 | b[1]);
    };
    std::uint32_t w1 = unit(buf);
    if (w1 < 0xD800 || w1 > 0xDFFF) {
        ms_position(ms) += 16;
        return make_small(w1);
    }
    if (w1 > 0xDBFF || ms_remaining(ms) < 32) return THE_NON_VALUE;
    read_bits(ms_bytes(ms), ms_position(ms) + 16, 16, buf + 2);
    std::uint32_t w2 = unit(buf + 2);
    if (w2 < 0xDC00 || w2 > 0xDFFF) return THE_NON_VALUE;
    ms_position(ms) += 32;
    return make_small(0x10000 + ((w1 - 0xD800) << 10) + (w2 - 0xDC00));
}

Term bs_get_utf32(Term ms, Word flags) {
    if (ms_remaining(ms) < 32) return THE_NON_VALUE;
    std::uint8_t buf[4];
    read_bits(ms_bytes(ms), ms_position(ms), 32, buf);
    std::uint32_t c = is_little(flags) ? (buf[3] << 24 | buf[2] << 16 | buf[1] << 8 | buf[0])
                                       : (std::uint32_t(buf[0]) << 24 | buf[1] << 16 | buf[2] << 8 | buf[3]);
    if (c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF)) return THE_NON_VALUE;
    ms_position(ms) += 32;
    return make_small(c);
}

bool bs_match_bytes(Term ms, const std::uint8_t* bytes, Word bits) {
    if (ms_remaining(ms) < bits) return false;
    std::vector<std::uint8_t> buf((bits + 7) / 8 + 1, 0);
    copy_bits(ms_bytes(ms), ms_position(ms), buf.data(), 0, bits);
    for (Word i = 0; i < bits; ++i) {
        int a = (buf[i / 8] >> (7 - i % 8)) & 1, b = (bytes[i / 8] >> (7 - i % 8)) & 1;
        if (a != b) return false;
    }
    ms_position(ms) += bits;
    return true;
}

// ---- construction ---------------------------------------------------------------------------

namespace {

class BitWriter {
public:
    void put_bits(const std::uint8_t* src, Word offset, Word bits) {
        reserve(bits);
        copy_bits(src, offset, m_buf.data(), m_bits, bits);
        m_bits += bits;
    }
    // Writes the low [bits] bits of the big-endian number in [bytes] (ceil(bits/8) bytes).
    void put_number(const std::uint8_t* bytes, Word bits) { put_bits(bytes, ((bits + 7) / 8) * 8 - bits, bits); }
    Word bits() const { return m_bits; }
    const std::uint8_t* data() const { return m_buf.data(); }

private:
    void reserve(Word more) {
        Word need = (m_bits + more + 7) / 8 + 1;
        if (m_buf.size() < need) m_buf.resize(std::max<Word>(need, m_buf.size() * 2), 0);
    }
    std::vector<std::uint8_t> m_buf;
    Word m_bits = 0;
};

bool put_integer(BitWriter& w, Term value, Word bits, Word flags) {
    if (!is_integer(value)) return false;
    Word n = (bits + 7) / 8;
    std::vector<std::uint8_t> be(n, 0);
    if (is_small(value) && n <= 8) {
        std::uint64_t v = std::uint64_t(small_value(value));
        for (Word i = 0; i < n; ++i) be[n - 1 - i] = std::uint8_t(v >> (8 * i));
    } else {
        mpz_t z, m;
        mpz_inits(z, m, nullptr);
        integer_to_mpz(value, z);
        mpz_ui_pow_ui(m, 2, n * 8);
        mpz_mod(z, z, m);  // two's complement modulo 2^(8n)
        std::size_t count = 0;
        std::vector<std::uint8_t> tmp(n + 8, 0);
        mpz_export(tmp.data(), &count, 1, 1, 1, 0, z);
        for (std::size_t i = 0; i < count && i < n; ++i) be[n - 1 - i] = tmp[count - 1 - i];
        mpz_clears(z, m, nullptr);
    }
    if (is_little(flags) && n > 1) {
        if (bits % 8 == 0) {
            for (Word i = 0; i < n / 2; ++i) std::swap(be[i], be[n - 1 - i]);
        } else {
            // Whole bytes least significant first, then the top partial byte's bits.
            Word rest = bits % 8;
            std::vector<std::uint8_t> out(n, 0);
            for (Word i = 0; i + 1 < n; ++i) out[i] = be[n - 1 - i];
            out[n - 1] = std::uint8_t(be[0] << (8 - rest));
            w.put_bits(out.data(), 0, bits);
            return true;
        }
    }
    w.put_number(be.data(), bits);
    return true;
}

bool put_float(BitWriter& w, Term value, Word bits, Word flags) {
    double d;
    if (is_float(value)) d = float_value(value);
    else if (is_small(value)) d = double(small_value(value));
    else if (is_big(value)) {
        auto v = integer_to_double(value);
        if (!v) return false;
        d = *v;
    } else return false;
    std::uint8_t be[8];
    Word n = bits / 8;
    std::uint64_t raw;
    if (bits == 64) raw = std::bit_cast<std::uint64_t>(d);
    else if (bits == 32) {
        // A finite double too big for a float becomes infinity, as in OTP.
        float f = float(d);
        raw = std::bit_cast<std::uint32_t>(f);
    } else if (bits == 16) {
        // Round to IEEE half precision (nearest); out-of-range is an error.
        int exp;
        double m = std::frexp(std::fabs(d), &exp);
        std::uint32_t sign = std::signbit(d) ? 0x8000 : 0;
        if (d == 0) raw = sign;
        else if (exp > 16) raw = sign | 0x7C00;  // too big: infinity, as erts
        else if (exp < -13) raw = sign | std::uint32_t(std::nearbyint(std::ldexp(std::fabs(d), 24)));
        else {
            std::uint32_t frac = std::uint32_t(std::nearbyint((m * 2 - 1) * 1024));
            std::uint32_t e = std::uint32_t(exp + 14);
            if (frac == 1024) { frac = 0; ++e; }
            raw = e >= 31 ? sign | 0x7C00 : sign | (e << 10) | frac;
        }
    } else return false;
    for (Word i = 0; i < n; ++i) be[n - 1 - i] = std::uint8_t(raw >> (8 * i));
    if (is_little(flags))
        for (Word i = 0; i < n / 2; ++i) std::swap(be[i], be[n - 1 - i]);
    w.put_bits(be, 0, bits);
    return true;
}

void put_utf8(BitWriter& w, std::uint32_t c) {
    std::uint8_t b[4];
    int n;
    if (c < 0x80) { b[0] = std::uint8_t(c); n = 1; }
    else if (c < 0x800) { b[0] = std::uint8_t(0xC0 | (c >> 6)); b[1] = std::uint8_t(0x80 | (c & 0x3F)); n = 2; }
    else if (c < 0x10000) {
        b[0] = std::uint8_t(0xE0 | (c >> 12)); b[1] = std::uint8_t(0x80 | ((c >> 6) & 0x3F));
        b[2] = std::uint8_t(0x80 | (c & 0x3F)); n = 3;
    } else {
        b[0] = std::uint8_t(0xF0 | (c >> 18)); b[1] = std::uint8_t(0x80 | ((c >> 12) & 0x3F));
        b[2] = std::uint8_t(0x80 | ((c >> 6) & 0x3F)); b[3] = std::uint8_t(0x80 | (c & 0x3F)); n = 4;
    }
    w.put_bits(b, 0, 8 * Word(n));
}

bool valid_code_point(Term v) {
    if (!is_small(v)) return false;
    SWord c = small_value(v);
    return c >= 0 && c <= 0x10FFFF && !(c >= 0xD800 && c <= 0xDFFF);
}

}  // namespace

namespace {

// Copying a binary into the one being built costs a reduction a kilobyte, as erts's
// erts_new_bs_put_binary charges (bs_construct_SUITE:reductions).
constexpr std::size_t COPY_BYTES_PER_REDUCTION = 1024;

// The capacity of a writable binary that must hold [used] bytes: room to double, as OTP's
// GROW_PROC_BIN_SIZE, and never less than 256 bytes.
std::size_t writable_capacity(std::size_t used) { return std::max<std::size_t>(256, used * 2); }

// The RefcBin of [acc] when [acc] is the last version of a writable binary that only this
// process holds, so that an append may write after it in place; null otherwise.
Term* writable_owner(Term acc, std::size_t acc_bits) {
    const Term* obj = boxed_ptr(acc);
    if (header_subtag(obj[0]) != Subtag::SubBin || obj[2] != 0) return nullptr;
    Term* owner = boxed_ptr(obj[4]);
    if (header_subtag(owner[0]) != Subtag::RefcBin) return nullptr;
    auto* buf = reinterpret_cast<BinaryBuf*>(owner[2]);
    if (buf->refc.load(std::memory_order_acquire) != 1) return nullptr;  // shared: read-only
    return buf->append_end_bits == acc_bits ? owner : nullptr;
}

// The RefcBin (at [owner], REFC_BIN_WORDS) of a new writable buffer of [capacity] bytes whose
// first [bits] bits are [v]'s.
BinaryBuf* new_writable_buffer(Process* p, Term* owner, std::size_t capacity, const BitView& v) {
    BinaryBuf* buf = BinaryBuf::create(capacity);
    copy_bits(v.bytes, v.bit_offset, buf->bytes, 0, v.bit_size);
    charge_work(p, v.bit_size / 8, COPY_BYTES_PER_REDUCTION);
    make_refc_binary_in(owner, &p->off_heap_first, buf, 0);
    p->young_binary_words += buf->size_bytes / sizeof(Word);
    p->writable_binaries = true;
    return buf;
}

// The sub-binary at [hp] over the first [total] bits of the writable binary [owner]: the
// version an append returns, and the one the next append may extend in place.
Term writable_version(Term* hp, Term* owner, BinaryBuf* buf, std::size_t total) {
    buf->append_end_bits = total;
    buf->append_active = true;
    owner[1] = (total + 7) / 8;
    hp[0] = make_header(SUB_BIN_WORDS - 1, Subtag::SubBin);
    hp[1] = total / 8;
    hp[2] = 0;
    hp[3] = total % 8;
    hp[4] = make_boxed(owner);
    return make_boxed(hp);
}

// <<Acc/bitstring, Rest...>> with the bits of Rest in [w]: in place after [acc] when it is the
// last version of a writable binary (growing the buffer when full), else in a new writable
// binary with room to grow. The result is a sub-binary of the writable binary, as in OTP.
Term append_bits(Process* p, Term acc, const BitWriter& w) {
    BitView v = bit_view(acc);
    std::size_t total = v.bit_size + w.bits();
    std::size_t used = (total + 7) / 8;
    Term* owner = writable_owner(acc, v.bit_size);
    Term* hp;
    BinaryBuf* buf;
    if (owner) {
        hp = p->alloc(SUB_BIN_WORDS);
        buf = reinterpret_cast<BinaryBuf*>(owner[2]);
        if (used > buf->size_bytes) {
            BinaryBuf* grown = BinaryBuf::create(writable_capacity(used));
            std::memcpy(grown->bytes, buf->bytes, (v.bit_size + 7) / 8);
            p->young_binary_words += (grown->size_bytes - buf->size_bytes) / sizeof(Word);
            buf->release();
            owner[2] = reinterpret_cast<Word>(grown);
            owner[3] = reinterpret_cast<Word>(grown->bytes);
            buf = grown;
        }
    } else {
        hp = p->alloc(REFC_BIN_WORDS + SUB_BIN_WORDS);
        owner = hp;
        buf = new_writable_buffer(p, owner, writable_capacity(used), v);
        hp += REFC_BIN_WORDS;
    }
    copy_bits(w.data(), 0, buf->bytes, v.bit_size, w.bits());
    return writable_version(hp, owner, buf, total);
}

}  // namespace

namespace {

// A failed segment: [reason] with erts's error_info, whose cause {Segment, Type, What, Value}
// erl_erts_errors:format_bs_fail/2 explains.
Term segment_error(Process* p, const BinSegment& s, Term reason, const char* what, Term value) {
    Term type = s.type == atoms::append || s.type == atom("private_append") ? atom("binary") : s.type;
    p->error(reason);
    Term* cause = p->alloc(5);
    cause[0] = make_arityval(4);
    cause[1] = make_small(SWord(s.segment));
    cause[2] = type;
    cause[3] = atom(what);
    cause[4] = value;
    Term info = map_from_pairs(p, {{atom("cause"), make_boxed(cause)},
                                   {atom("function"), atom("format_bs_fail")},
                                   {atoms::module, atom("erl_erts_errors")}});
    Term* pair = p->alloc(3);
    pair[0] = make_arityval(2);
    pair[1] = atoms::error_info;
    pair[2] = info;
    p->exception.frame_error_info = make_boxed(pair);
    return THE_NON_VALUE;
}

bool is_binary_type(const BinSegment& s) {
    return s.type == atoms::binary || s.type == atoms::append || s.type == atom("private_append");
}

// The size in bits of a segment with an explicit size, checked as erts checks every size
// before it builds anything; THE_NON_VALUE-free: false with the error raised on [p].
bool segment_bits(Process* p, const BinSegment& s, Word* bits) {
    if (is_small(s.size)) {
        SWord n = small_value(s.size);
        if (n < 0) return segment_error(p, s, atoms::badarg, "size", s.size), false;
        if (__builtin_mul_overflow(Word(n), s.unit, bits) || (*bits >> 63) != 0)
            return segment_error(p, s, atoms::system_limit, "size", s.size), false;
        return true;
    }
    bool huge = is_big(s.size) && !bignum_is_negative(s.size);
    return segment_error(p, s, huge ? atoms::system_limit : atoms::badarg, "size", s.size), false;
}

}  // namespace

Term bs_init_writable(Process* p, Term size) {
    std::size_t capacity = is_small(size) && small_value(size) >= 0 ? std::size_t(small_value(size)) : 1024;
    Term* hp = p->alloc(REFC_BIN_WORDS + SUB_BIN_WORDS);
    BinaryBuf* buf = new_writable_buffer(p, hp, capacity, BitView{});
    return writable_version(hp + REFC_BIN_WORDS, hp, buf, 0);
}

Term bs_create_bin(Process* p, const std::vector<BinSegment>& segments) {
    // First every size (and what erts checks with them), then the bits.
    std::vector<Word> sizes(segments.size(), 0);
    for (std::size_t i = 0; i < segments.size(); ++i) {
        const BinSegment& s = segments[i];
        if (s.type == atom("utf8") || s.type == atom("utf16")) continue;
        if (s.type == atom("utf32")) {
            if (!valid_code_point(s.value)) return segment_error(p, s, atoms::badarg, "type", s.value);
        } else if (is_binary_type(s) && s.size == atoms::all) {
            if (!is_bitstring(s.value)) return segment_error(p, s, atoms::badarg, "type", s.value);
        } else if (!segment_bits(p, s, &sizes[i])) {
            return THE_NON_VALUE;
        }
    }
    BitWriter w;
    // <<Acc/binary, ...>>: the compiler marks the first segment `append` when it may reuse Acc,
    // `private_append` when Acc is its own (a binary comprehension's, from bs_init_writable).
    static const Term am_private_append = atom("private_append");
    Term acc = THE_NON_VALUE;
    std::size_t first = 0;
    if (!segments.empty() && (segments[0].type == atoms::append || segments[0].type == am_private_append) &&
        segments[0].size == atoms::all) {
        const BinSegment& s = segments[0];
        if (s.unit > 1 && bit_view(s.value).bit_size % s.unit) return segment_error(p, s, atoms::badarg, "unit", s.value);
        acc = s.value;
        first = 1;
    }
    for (std::size_t i = first; i < segments.size(); ++i) {
        const BinSegment& s = segments[i];
        const std::string& type = atom_text(s.type);
        Word bits = sizes[i];
        if (type == "integer") {
            if (!put_integer(w, s.value, bits, s.flags)) return segment_error(p, s, atoms::badarg, "type", s.value);
        } else if (type == "float") {
            if (bits != 16 && bits != 32 && bits != 64) return segment_error(p, s, atoms::badarg, "invalid", make_small(SWord(bits)));
            if (!is_number(s.value)) return segment_error(p, s, atoms::badarg, "type", s.value);
            if (!put_float(w, s.value, bits, s.flags)) return segment_error(p, s, atoms::badarg, "no_float", s.value);
        } else if (type == "binary" || type == "append" || type == "private_append") {
            if (!is_bitstring(s.value)) return segment_error(p, s, atoms::badarg, "type", s.value);
            BitView v = bit_view(s.value);
            Word take = v.bit_size;
            if (s.size != atoms::all) {
                if (bits > v.bit_size) return segment_error(p, s, atoms::badarg, "short", s.value);
                take = bits;
            } else if (s.unit > 1 && v.bit_size % s.unit) {
                return segment_error(p, s, atoms::badarg, "unit", s.value);
            }
            w.put_bits(v.bytes, v.bit_offset, take);
            charge_work(p, take / 8, COPY_BYTES_PER_REDUCTION);
        } else if (type == "utf8") {
            if (!valid_code_point(s.value)) return segment_error(p, s, atoms::badarg, "type", s.value);
            put_utf8(w, std::uint32_t(small_value(s.value)));
        } else if (type == "utf16") {
            if (!valid_code_point(s.value)) return segment_error(p, s, atoms::badarg, "type", s.value);
            std::uint32_t c = std::uint32_t(small_value(s.value));
            auto unit16 = [&](std::uint32_t u) {
                std::uint8_t b[2] = {std::uint8_t(u >> 8), std::uint8_t(u)};
                if (is_little(s.flags)) std::swap(b[0], b[1]);
                w.put_bits(b, 0, 16);
            };
            if (c < 0x10000) unit16(c);
            else {
                c -= 0x10000;
                unit16(0xD800 | (c >> 10));
                unit16(0xDC00 | (c & 0x3FF));
            }
        } else if (type == "utf32") {
            std::uint32_t c = std::uint32_t(small_value(s.value));
            std::uint8_t b[4] = {std::uint8_t(c >> 24), std::uint8_t(c >> 16), std::uint8_t(c >> 8), std::uint8_t(c)};
            if (is_little(s.flags)) { std::swap(b[0], b[3]); std::swap(b[1], b[2]); }
            w.put_bits(b, 0, 32);
        } else if (type == "string") {
            w.put_bits(s.string_bytes, 0, bits);
        } else {
            return p->badarg();
        }
    }
    if (acc != THE_NON_VALUE) {
        // Nothing to add: the binary itself, as erts (writable or not).
        if (w.bits() == 0) return acc;
        return append_bits(p, acc, w);
    }
    Word total = w.bits();
    Word bytes = (total + 7) / 8;
    Term* hp = p->alloc(binary_words(bytes) + (total % 8 ? SUB_BIN_WORDS : 0));
    std::uint8_t* data;
    Term bin = make_binary_on(p, hp, nullptr, bytes, &data);
    if (bytes) std::memcpy(data, w.data(), bytes);
    if (total % 8 == 0) return bin;
    Term* sub = hp + binary_words(bytes);
    sub[0] = make_header(SUB_BIN_WORDS - 1, Subtag::SubBin);
    sub[1] = total / 8;
    sub[2] = 0;
    sub[3] = total % 8;
    sub[4] = bin;
    return make_boxed(sub);
}

}  // namespace beamlet::vm
