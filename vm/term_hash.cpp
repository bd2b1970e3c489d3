// vm/term_hash.cpp — make_hash (phash) and make_hash2 (phash2), as OTP 25 computes them.
//
// Both walk the term with an explicit stack (any depth, no C++ recursion) in the same order as
// OTP's, because the order is part of the value. Beamlet keeps every map flat; make_hash2 xors
// the hashes of a map's pairs, so its value does not depend on OTP's map layout either.
#include "vm/term_hash.hpp"

#include <bit>
#include <span>
#include <vector>

#include "vm/atom_table.hpp"
#include "vm/binary.hpp"
#include "vm/bignum.hpp"
#include "vm/map.hpp"
#include "vm/module.hpp"
#include "vm/work_stack.hpp"

namespace beamlet::vm {

std::uint32_t atom_hash_value(Term atom) { return AtomTable::global().hash_value(atom); }

namespace {

bool is_byte(Term t) { return is_small(t) && small_value(t) >= 0 && small_value(t) <= 255; }

// The bytes of bitstring [t]: whole bytes in [bytes], the trailing bits (high bits of one
// byte) in [tail] / [tail_bits]. A byte-aligned bitstring is read where it is; only one at a
// bit offset is copied out.
struct Bits {
    std::span<const std::uint8_t> bytes;
    std::uint8_t tail = 0;
    unsigned tail_bits = 0;
    std::vector<std::uint8_t> copy;
};
Bits bits_of(Term t) {
    BitView v = bit_view(t);
    Bits b;
    std::size_t n = v.size_bytes();
    b.tail_bits = unsigned(v.bit_size % 8);
    if (v.is_aligned()) {
        const std::uint8_t* base = v.aligned_bytes();
        b.bytes = {base, n};
        if (b.tail_bits) b.tail = std::uint8_t(base[n] & (0xFFu << (8 - b.tail_bits)));
        return b;
    }
    b.copy.resize(n + 1);
    copy_bits(v.bytes, v.bit_offset, b.copy.data(), 0, v.bit_size);
    b.tail = b.copy[n];
    b.bytes = {b.copy.data(), n};
    return b;
}

double positive_zero(double d) { return d == 0.0 ? 0.0 : d; }

// ---- make_hash (phash) ----

constexpr std::uint32_t FUNNY_NUMBER1 = 268440163;
constexpr std::uint32_t FUNNY_NUMBER2 = 268439161;
constexpr std::uint32_t FUNNY_NUMBER3 = 268435459;
constexpr std::uint32_t FUNNY_NUMBER4 = 268436141;
constexpr std::uint32_t FUNNY_NUMBER5 = 268438633;
constexpr std::uint32_t FUNNY_NUMBER6 = 268437017;
constexpr std::uint32_t FUNNY_NUMBER8 = 268437511;
constexpr std::uint32_t FUNNY_NUMBER9 = 268439627;
constexpr std::uint32_t FUNNY_NUMBER10 = 268440479;
constexpr std::uint32_t FUNNY_NUMBER11 = 268440577;
constexpr std::uint32_t FUNNY_NUMBER12 = 268440581;
constexpr std::uint32_t FUNNY_NUMBER13 = 268440593;
constexpr std::uint32_t FUNNY_NUMBER14 = 268440611;

class PortableHash {
public:
    std::uint32_t run(Term t) {
        term(t);
        while (!m_stack.empty()) {
            Word op = pop();
            switch (Op(op)) {
            case Op::CdrPre: {
                Term tail = pop();
                if (!is_list(tail)) {
                    push(Word(Op::CdrPost));
                    term(tail);
                } else {
                    list(tail);
                }
                break;
            }
            case Op::CdrPost: m_hash *= FUNNY_NUMBER8; break;
            case Op::Tuple:
            case Op::TermArray: {
                Word left = pop();
                const Term* at = reinterpret_cast<const Term*>(pop());
                if (left != 0) {
                    push(reinterpret_cast<Word>(at + 1));
                    push(left - 1);
                    push(op);
                    term(*at);
                } else if (Op(op) == Op::Tuple) {
                    m_hash = m_hash * FUNNY_NUMBER9 + std::uint32_t(pop());
                }
                break;
            }
            }
        }
        return m_hash;
    }

private:
    enum class Op : Word { CdrPre, CdrPost, Tuple, TermArray };

    void push(Word w) { m_stack.push_back(w); }
    Word pop() {
        Word w = m_stack.back();
        m_stack.pop_back();
        return w;
    }
    void u32_step(std::uint32_t x, std::uint32_t prime) {
        m_hash = (((m_hash * prime + (x & 0xFF)) * prime + ((x >> 8) & 0xFF)) * prime + ((x >> 16) & 0xFF)) * prime +
                 (x >> 24);
    }

    void list(Term t) {
        const Term* cell = list_ptr(t);
        while (is_byte(cell[0])) {
            m_hash = m_hash * FUNNY_NUMBER2 + std::uint32_t(small_value(cell[0]));
            if (!is_list(cell[1])) {
                push(Word(Op::CdrPost));
                term(cell[1]);
                return;
            }
            cell = list_ptr(cell[1]);
        }
        push(cell[1]);
        push(Word(Op::CdrPre));
        term(cell[0]);
    }

    void term(Term t) {
        if (is_nil(t)) {
            m_hash = m_hash * FUNNY_NUMBER3 + 1;
        } else if (is_atom(t)) {
            m_hash = m_hash * FUNNY_NUMBER1 + atom_hash_value(t);
        } else if (is_small(t)) {
            SWord v = small_value(t);
            std::uint64_t magnitude = v < 0 ? -std::uint64_t(v) : std::uint64_t(v);
            u32_step(std::uint32_t(magnitude), FUNNY_NUMBER2);
            if (magnitude >> 32) u32_step(std::uint32_t(magnitude >> 32), FUNNY_NUMBER2);
            m_hash *= v < 0 ? FUNNY_NUMBER4 : FUNNY_NUMBER3;
        } else if (is_list(t)) {
            list(t);
        } else if (is_pid(t)) {
            pid(pid_printed_number(t));
        } else if (is_port(t)) {
            port(port_number(t));
        } else {
            boxed(t);
        }
    }

    // As OTP, a pid, port or reference of another node hashes as this node's with the
    // same numbers.
    void pid(Word number) {
        u32_step(std::uint32_t(number), FUNNY_NUMBER5);
        m_hash *= FUNNY_NUMBER6;
    }
    void port(std::uint64_t n) {
        if (n >> 32) u32_step(std::uint32_t(n >> 32), FUNNY_NUMBER11);
        u32_step(std::uint32_t(n), FUNNY_NUMBER9);
        m_hash *= FUNNY_NUMBER10;
    }
    void ref(std::uint32_t first_number) {
        u32_step(first_number, FUNNY_NUMBER9);
        m_hash *= FUNNY_NUMBER10;
    }

    void boxed(Term t) {
        const Term* obj = boxed_ptr(t);
        switch (header_subtag(obj[0])) {
        case Subtag::Tuple: {
            Word arity = header_arity(obj[0]);
            push(arity);
            push(reinterpret_cast<Word>(obj + 1));
            push(arity);
            push(Word(Op::Tuple));
            return;
        }
        case Subtag::Float: {
            std::uint64_t bits = std::bit_cast<std::uint64_t>(positive_zero(float_value(t)));
            m_hash = m_hash * FUNNY_NUMBER6 + (std::uint32_t(bits) ^ std::uint32_t(bits >> 32));
            return;
        }
        case Subtag::PosBig:
        case Subtag::NegBig: {
            Word limbs = bignum_limbs(t);
            for (Word i = 0; i < limbs; ++i) {
                std::uint64_t d = obj[1 + i];
                int bytes = (i + 1 == limbs && !(d >> 32)) ? 4 : 8;
                for (int j = 0; j < bytes; ++j, d >>= 8) m_hash = m_hash * FUNNY_NUMBER2 + std::uint32_t(d & 0xFF);
            }
            m_hash *= bignum_is_negative(t) ? FUNNY_NUMBER4 : FUNNY_NUMBER3;
            return;
        }
        case Subtag::Ref: return ref(std::uint32_t(obj[1]));
        case Subtag::ExternalRef: return ref(external_ref_count(t) ? external_ref_number(t, 0) : 0);
        case Subtag::ExternalPid: return pid(external_pid_number(t));
        case Subtag::ExternalPort: return port(external_port_id(t));
        case Subtag::Map: m_hash = m_hash * FUNNY_NUMBER13 + FUNNY_NUMBER14 + make_hash2(t); return;
        case Subtag::Export: {
            const Export* e = reinterpret_cast<const Export*>(obj[1]);
            m_hash = m_hash * FUNNY_NUMBER11 + std::uint32_t(e->arity);
            m_hash = m_hash * FUNNY_NUMBER1 + atom_hash_value(e->module);
            m_hash = m_hash * FUNNY_NUMBER1 + atom_hash_value(e->function);
            return;
        }
        case Subtag::Fun: {
            const FunEntry* fe = reinterpret_cast<const FunEntry*>(obj[1]);
            Word num_free = header_arity(obj[0]) - 2;
            m_hash = m_hash * FUNNY_NUMBER10 + std::uint32_t(num_free);
            m_hash = m_hash * FUNNY_NUMBER1 + atom_hash_value(fe->module_name);
            m_hash = m_hash * FUNNY_NUMBER2 + std::uint32_t(fe->index);
            m_hash = m_hash * FUNNY_NUMBER2 + std::uint32_t(fe->old_uniq);
            if (num_free > 0) {
                if (num_free > 1) {
                    push(reinterpret_cast<Word>(obj + 4));
                    push(num_free - 1);
                    push(Word(Op::TermArray));
                }
                term(obj[3]);
            }
            return;
        }
        default: {
            Bits b = bits_of(t);
            for (std::uint8_t c : b.bytes) m_hash = m_hash * FUNNY_NUMBER1 + c;
            if (b.tail_bits) {
                std::uint8_t last = std::uint8_t(b.tail >> (8 - b.tail_bits));
                m_hash = (m_hash * FUNNY_NUMBER1 + last) * FUNNY_NUMBER12 + b.tail_bits;
            }
            m_hash = m_hash * FUNNY_NUMBER4 + std::uint32_t(b.bytes.size());
            return;
        }
        }
    }

    std::uint32_t m_hash = 0;
    WorkStack<Word> m_stack;
};

// ---- make_hash2 (phash2): Bob Jenkins' mix over 32-bit pieces ----

constexpr std::uint32_t HCONST = 0x9e3779b9u;
constexpr std::uint32_t HCONST_2 = 0x3c6ef372u;
constexpr std::uint32_t HCONST_3 = 0xdaa66d2bu;
constexpr std::uint32_t HCONST_4 = 0x78dde6e4u;
constexpr std::uint32_t HCONST_5 = 0x1715609du;
constexpr std::uint32_t HCONST_6 = 0xb54cda56u;
constexpr std::uint32_t HCONST_7 = 0x5384540fu;
constexpr std::uint32_t HCONST_9 = 0x8ff34781u;
constexpr std::uint32_t HCONST_10 = 0x2e2ac13au;
constexpr std::uint32_t HCONST_11 = 0xcc623af3u;
constexpr std::uint32_t HCONST_12 = 0x6a99b4acu;
constexpr std::uint32_t HCONST_13 = 0x08d12e65u;
constexpr std::uint32_t HCONST_14 = 0xa708a81eu;
constexpr std::uint32_t HCONST_15 = 0x454021d7u;
constexpr std::uint32_t HCONST_16 = 0xe3779b90u;
constexpr std::uint32_t HCONST_19 = 0xbe1e08bbu;
constexpr std::uint32_t NIL_DEF = 0x2;  // OTP's tag_val_def of [] (erl_term.h)

inline void mix(std::uint32_t& a, std::uint32_t& b, std::uint32_t& c) {
    a -= b; a -= c; a ^= (c >> 13);
    b -= c; b -= a; b ^= (a << 8);
    c -= a; c -= b; c ^= (b >> 13);
    a -= b; a -= c; a ^= (c >> 12);
    b -= c; b -= a; b ^= (a << 16);
    c -= a; c -= b; c ^= (b >> 5);
    a -= b; a -= c; a ^= (c >> 3);
    b -= c; b -= a; b ^= (a << 10);
    c -= a; c -= b; c ^= (b >> 15);
}

std::uint32_t block_hash(const std::uint8_t* k, std::size_t length, std::uint32_t initval) {
    std::uint32_t a = HCONST, b = HCONST, c = initval;
    std::size_t len = length;
    auto u32le = [](const std::uint8_t* p) {
        return std::uint32_t(p[0]) | (std::uint32_t(p[1]) << 8) | (std::uint32_t(p[2]) << 16) |
               (std::uint32_t(p[3]) << 24);
    };
    while (len >= 12) {
        a += u32le(k);
        b += u32le(k + 4);
        c += u32le(k + 8);
        mix(a, b, c);
        k += 12;
        len -= 12;
    }
    c += std::uint32_t(length);
    switch (len) {  // every case falls through
    case 11: c += std::uint32_t(k[10]) << 24; [[fallthrough]];
    case 10: c += std::uint32_t(k[9]) << 16; [[fallthrough]];
    case 9: c += std::uint32_t(k[8]) << 8; [[fallthrough]];
    case 8: b += std::uint32_t(k[7]) << 24; [[fallthrough]];
    case 7: b += std::uint32_t(k[6]) << 16; [[fallthrough]];
    case 6: b += std::uint32_t(k[5]) << 8; [[fallthrough]];
    case 5: b += k[4]; [[fallthrough]];
    case 4: a += std::uint32_t(k[3]) << 24; [[fallthrough]];
    case 3: a += std::uint32_t(k[2]) << 16; [[fallthrough]];
    case 2: a += std::uint32_t(k[1]) << 8; [[fallthrough]];
    case 1: a += k[0]; [[fallthrough]];
    default: break;
    }
    mix(a, b, c);
    return c;
}

class Hash2 {
public:
    std::uint32_t run(Term t) {
        m_pending.push_back({Kind::Term, t});
        while (!m_pending.empty()) {
            Item it = m_pending.back();
            m_pending.pop_back();
            switch (it.kind) {
            case Kind::Term: term(it.value); break;
            case Kind::MapTail: {
                // Back to the enclosing term: its hash, mixed with the map's pair hashes.
                std::uint32_t xor_pairs = m_xor_pairs;
                m_hash = std::uint32_t(it.value);
                u32_hash(xor_pairs, HCONST_19);
                m_xor_pairs = std::uint32_t(pop_value());
                break;
            }
            case Kind::MapPair:
                m_xor_pairs ^= m_hash;
                m_hash = 0;
                break;
            case Kind::Value: break;  // consumed by MapTail
            }
        }
        return m_hash;
    }

private:
    enum class Kind : std::uint8_t { Term, MapTail, MapPair, Value };
    struct Item {
        Kind kind;
        Word value;
    };

    Word pop_value() {
        Item it = m_pending.back();
        m_pending.pop_back();
        return it.value;
    }
    void u32_hash2(std::uint32_t x, std::uint32_t y, std::uint32_t con) {
        std::uint32_t a = con + x, b = con + y;
        mix(a, b, m_hash);
    }
    void u32_hash(std::uint32_t x, std::uint32_t con) { u32_hash2(x, 0, con); }
    void s32_hash(std::int32_t y, std::uint32_t con) {
        if (y < 0) u32_hash(std::uint32_t(-y), con);  // negatives are mixed twice, as OTP
        u32_hash(std::uint32_t(y), con);
    }

    void small(SWord v) {
        if (v >= -(SWord(1) << 27) && v < (SWord(1) << 27)) {
            s32_hash(std::int32_t(v), HCONST);
            return;
        }
        std::uint64_t magnitude = v < 0 ? -std::uint64_t(v) : std::uint64_t(v);
        u32_hash2(std::uint32_t(magnitude), std::uint32_t(magnitude >> 32), v < 0 ? HCONST_10 : HCONST_11);
    }

    void list(Term t) {
        const Term* cell = list_ptr(t);
        int count = 0;
        std::uint32_t sh = 0;
        Term rest = t;
        while (is_byte(cell[0])) {
            sh = (sh << 8) + std::uint32_t(small_value(cell[0]));
            if (count == 3) {
                u32_hash(sh, HCONST_4);
                count = 0;
                sh = 0;
            } else {
                ++count;
            }
            rest = cell[1];
            if (!is_list(rest)) break;
            cell = list_ptr(rest);
        }
        if (count > 0) u32_hash(sh, HCONST_4);
        if (is_list(rest)) {
            m_pending.push_back({Kind::Term, cell[1]});
            m_pending.push_back({Kind::Term, cell[0]});
        } else {
            m_pending.push_back({Kind::Term, rest});
        }
    }

    void term(Term t) {
        if (is_small(t)) return small(small_value(t));
        if (is_atom(t)) {
            if (m_hash == 0) m_hash = atom_hash_value(t);
            else u32_hash(atom_hash_value(t), HCONST_3);
            return;
        }
        if (is_nil(t)) {
            if (m_hash == 0) m_hash = 3468870702u;
            else u32_hash(NIL_DEF, HCONST_2);
            return;
        }
        if (is_list(t)) return list(t);
        // As OTP, another node's pid, port or reference hashes as this node's with the same
        // numbers.
        auto pid = [&](Word number) { u32_hash(std::uint32_t(number), HCONST_5); };
        auto port = [&](std::uint64_t n) { u32_hash2(std::uint32_t(n), std::uint32_t(n >> 32), HCONST_6); };
        if (is_pid(t)) return pid(pid_printed_number(t));
        if (is_port(t)) return port(port_number(t));
        const Term* obj = boxed_ptr(t);
        switch (header_subtag(obj[0])) {
        case Subtag::Tuple: {
            Word arity = header_arity(obj[0]);
            u32_hash(std::uint32_t(arity), HCONST_9);
            for (Word i = arity; i-- > 0;) m_pending.push_back({Kind::Term, obj[1 + i]});
            return;
        }
        case Subtag::Map: {
            Word n = map_size(t);
            u32_hash(std::uint32_t(n), HCONST_16);
            if (n == 0) return;
            // Each pair is hashed from zero and the pair hashes xored: the order of the pairs
            // does not matter.
            m_pending.push_back({Kind::Value, m_xor_pairs});
            m_pending.push_back({Kind::MapTail, m_hash});
            m_hash = 0;
            m_xor_pairs = 0;
            map_for_each(t, [&](Term k, Term v) {
                m_pending.push_back({Kind::MapPair, 0});
                m_pending.push_back({Kind::Term, v});
                m_pending.push_back({Kind::Term, k});
            });
            return;
        }
        case Subtag::Fun: {
            const FunEntry* fe = reinterpret_cast<const FunEntry*>(obj[1]);
            Word num_free = header_arity(obj[0]) - 2;
            u32_hash2(std::uint32_t(num_free), atom_hash_value(fe->module_name), HCONST);
            u32_hash2(std::uint32_t(fe->index), std::uint32_t(fe->old_uniq), HCONST);
            for (Word i = num_free; i-- > 0;) m_pending.push_back({Kind::Term, obj[3 + i]});
            return;
        }
        case Subtag::Export: {
            const Export* e = reinterpret_cast<const Export*>(obj[1]);
            u32_hash2(std::uint32_t(e->arity), atom_hash_value(e->module), HCONST);
            u32_hash(atom_hash_value(e->function), HCONST_14);
            return;
        }
        case Subtag::PosBig:
        case Subtag::NegBig: {
            std::uint32_t con = bignum_is_negative(t) ? HCONST_10 : HCONST_11;
            Word limbs = bignum_limbs(t);
            for (Word i = 0; i < limbs; ++i) u32_hash2(std::uint32_t(obj[1 + i]), std::uint32_t(obj[1 + i] >> 32), con);
            return;
        }
        case Subtag::Ref: return u32_hash(std::uint32_t(obj[1]), HCONST_7);
        case Subtag::ExternalRef: return u32_hash(external_ref_count(t) ? external_ref_number(t, 0) : 0, HCONST_7);
        case Subtag::ExternalPid: return pid(external_pid_number(t));
        case Subtag::ExternalPort: return port(external_port_id(t));
        case Subtag::Float: {
            std::uint64_t bits = std::bit_cast<std::uint64_t>(positive_zero(float_value(t)));
            return u32_hash2(std::uint32_t(bits >> 32), std::uint32_t(bits), HCONST_12);
        }
        default: {
            Bits b = bits_of(t);
            std::uint32_t con = HCONST_13 + m_hash;
            std::size_t size = b.bytes.size() & 0xFFFFFFFFu;
            if (size == 0 && b.tail_bits == 0) {
                m_hash = con;
                return;
            }
            m_hash = block_hash(b.bytes.data(), size, con);
            if (b.tail_bits) u32_hash2(b.tail_bits, std::uint32_t(b.tail >> (8 - b.tail_bits)), HCONST_15);
            return;
        }
        }
    }

    std::uint32_t m_hash = 0;
    std::uint32_t m_xor_pairs = 0;
    WorkStack<Item> m_pending;
};

// ---- make_internal_hash (erts_internal_hash): the hash erts keeps inside one VM ----

// Walks a term as OTP 25's make_internal_hash does. It mixes the words of immediates as erts
// tags them (a small integer is Value << 4 | 0xF, so small keys hash exactly as on erl, and
// the persistent_term suite's colliding keys collide here too); atoms, pids and ports mix
// beamlet's own numbers in erts's layout, as their erts words depend on that VM's tables.
class InternalHash {
public:
    // The word erts hashes for an immediate term, or false for a list or a boxed term.
    static bool immediate_word(Term t, std::uint64_t& word) {
        if (is_small(t)) word = (std::uint64_t(small_value(t)) << 4) | 0xF;
        else if (is_atom(t)) word = (std::uint64_t(atom_index(t)) << 6) | 0xB;
        else if (is_nil(t)) word = 0x3B;
        else if (is_pid(t)) word = (std::uint64_t(pid_printed_number(t)) << 4) | 0x3;
        else if (is_port(t)) word = (std::uint64_t(port_number(t)) << 4) | 0x7;
        else return false;
        return true;
    }
    // The hash of an immediate term: no work stack needed (the usual ETS key).
    static std::uint32_t of_immediate(std::uint64_t word, std::uint32_t salt) {
        std::uint32_t hash = salt ^ SALT, a = HCONST + std::uint32_t(word), b = HCONST + std::uint32_t(word >> 32);
        mix(a, b, hash);
        return hash;
    }

    explicit InternalHash(std::uint32_t salt) : m_hash(salt ^ SALT) {}

    std::uint32_t run(Term t) {
        m_pending.push_back(t);
        while (!m_pending.empty()) {
            Term u = m_pending.back();
            m_pending.pop_back();
            if (u == CDR_MARK) const_hash(HCONST * 18);
            else term(u);
        }
        return m_hash;
    }

private:
    static constexpr Term CDR_MARK = THE_NON_VALUE;

    void u32_hash2(std::uint32_t x, std::uint32_t y, std::uint32_t con) {
        std::uint32_t a = con + x, b = con + y;
        mix(a, b, m_hash);
    }
    void u32_hash(std::uint32_t x, std::uint32_t con) { u32_hash2(x, 0, con); }
    void const_hash(std::uint32_t con) {
        m_hash ^= con;
        m_hash = (m_hash << 17) ^ (m_hash >> 15);
    }
    void immediate(std::uint64_t word) { u32_hash2(std::uint32_t(word), std::uint32_t(word >> 32), HCONST); }

    void list(Term t) {
        const Term* cell = list_ptr(t);
        int count = 0;
        std::uint32_t sh = 0;
        Term rest = t;
        while (is_byte(cell[0])) {
            sh = (sh << 8) + std::uint32_t(small_value(cell[0]));
            if (count == 3) {
                u32_hash(sh, HCONST_4);
                count = 0;
                sh = 0;
            } else {
                ++count;
            }
            rest = cell[1];
            if (!is_list(rest)) break;
            cell = list_ptr(rest);
        }
        if (count > 0) u32_hash2(sh, std::uint32_t(count), HCONST * 22);
        if (is_list(rest)) {
            const_hash(HCONST * 17);
            m_pending.push_back(cell[1]);
            if (!is_list(cell[1])) m_pending.push_back(CDR_MARK);
            m_pending.push_back(cell[0]);
        } else {
            m_pending.push_back(rest);
        }
    }

    // A hashmap node's children, as erts walks them: a leaf's key and value, a node or a
    // collision tuple as a term; the last child's first.
    void hash_node_children_of(const Term* node) {
        for (Word i = 0; i < hash_node_children(node); ++i) {
            Term child = node[2 + i];
            if (is_list(child)) {
                m_pending.push_back(cdr(child));
                m_pending.push_back(car(child));
            } else {
                m_pending.push_back(child);
            }
        }
    }

    void term(Term t) {
        if (std::uint64_t word; immediate_word(t, word)) return immediate(word);
        if (is_list(t)) return list(t);
        const Term* obj = boxed_ptr(t);
        switch (header_subtag(obj[0])) {
        case Subtag::Tuple: {
            Word arity = header_arity(obj[0]);
            u32_hash(std::uint32_t(arity), HCONST_9);
            for (Word i = arity; i-- > 0;) m_pending.push_back(obj[1 + i]);
            return;
        }
        case Subtag::Map: {
            Word n = map_size(t);
            u32_hash(std::uint32_t(n), HCONST_16);
            if (!is_flatmap(t)) return hash_node_children_of(boxed_ptr(hashmap_root(t)));
            const Term* keys = n ? tuple_elements(map_keys(t)) : nullptr;
            for (Word i = n; i-- > 0;) {
                m_pending.push_back(map_values(t)[i]);
                m_pending.push_back(keys[i]);
            }
            return;
        }
        case Subtag::HashNode: {
            // A node of a hashmap inside: as erts, where a full node (16 children) is a tuple.
            Word k = hash_node_children(obj);
            if (k < 16) return hash_node_children_of(obj);
            u32_hash(std::uint32_t(k), HCONST_9);
            for (Word i = k; i-- > 0;) m_pending.push_back(obj[2 + i]);
            return;
        }
        case Subtag::Fun: {
            const FunEntry* fe = reinterpret_cast<const FunEntry*>(obj[1]);
            Word num_free = header_arity(obj[0]) - 2;
            u32_hash2(std::uint32_t(num_free), std::uint32_t(atom_index(fe->module_name)), HCONST * 20);
            u32_hash2(std::uint32_t(fe->index), std::uint32_t(fe->old_uniq), HCONST * 21);
            for (Word i = num_free; i-- > 0;) m_pending.push_back(obj[3 + i]);
            return;
        }
        case Subtag::Export: {
            const Export* e = reinterpret_cast<const Export*>(obj[1]);
            std::uint64_t at = reinterpret_cast<std::uintptr_t>(e);
            return u32_hash2(std::uint32_t(at), std::uint32_t(at >> 32), HCONST_14);
        }
        case Subtag::PosBig:
        case Subtag::NegBig: {
            std::uint32_t con = bignum_is_negative(t) ? HCONST_10 : HCONST_11;
            Word limbs = bignum_limbs(t);
            for (Word i = 0; i < limbs; ++i) u32_hash2(std::uint32_t(obj[1 + i]), std::uint32_t(obj[1 + i] >> 32), con);
            return;
        }
        case Subtag::Ref:
            u32_hash(std::uint32_t(obj[1]), HCONST_7);
            return u32_hash2(std::uint32_t(obj[2]), std::uint32_t(obj[3]), HCONST * 8);
        case Subtag::ExternalRef: return u32_hash(external_ref_count(t) ? external_ref_number(t, 0) : 0, HCONST_7);
        case Subtag::ExternalPid: return u32_hash(std::uint32_t(external_pid_number(t)), HCONST_5);
        case Subtag::ExternalPort: return u32_hash2(std::uint32_t(external_port_id(t)), std::uint32_t(external_port_id(t) >> 32), HCONST_6);
        case Subtag::Float: {
            std::uint64_t bits = std::bit_cast<std::uint64_t>(positive_zero(float_value(t)));
            return u32_hash2(std::uint32_t(bits), std::uint32_t(bits >> 32), HCONST_12);
        }
        default: {
            Bits b = bits_of(t);
            std::uint32_t con = HCONST_13 + m_hash;
            if (b.bytes.empty() && b.tail_bits == 0) {
                m_hash = con;
                return;
            }
            m_hash = block_hash(b.bytes.data(), b.bytes.size(), con);
            if (b.tail_bits) u32_hash2(b.tail_bits, std::uint32_t(b.tail >> (8 - b.tail_bits)), HCONST_15);
            return;
        }
        }
    }

    static constexpr std::uint32_t SALT = 3432918353u;  // erts's INTERNAL_HASH_SALT
    std::uint32_t m_hash;
    WorkStack<Term> m_pending;
};

}  // namespace

std::uint32_t make_hash(Term t) { return PortableHash().run(t); }

std::uint32_t make_internal_hash(Term t, std::uint32_t salt) {
    if (std::uint64_t word; InternalHash::immediate_word(t, word)) return InternalHash::of_immediate(word, salt);
    return InternalHash(salt).run(t);
}

std::uint32_t make_hash2(Term t) { return Hash2().run(t); }

}  // namespace beamlet::vm
