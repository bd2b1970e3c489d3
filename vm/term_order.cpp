// vm/term_order.cpp — Erlang term order, iterative so deep or long terms never exhaust the C stack.
//
// Mirrors erts_cmp_compound() in OTP's erl_utils.c: the same order between types, and in the
// exact order (map keys) every integer sorts before every float.
#include "vm/term_order.hpp"

#include <gmp.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>
#include <vector>

#include "vm/assert.hpp"
#include "vm/atom_table.hpp"
#include "vm/bignum.hpp"
#include "vm/map.hpp"
#include "vm/binary.hpp"
#include "vm/module.hpp"
#include "vm/node.hpp"
#include "vm/work_stack.hpp"

namespace beamlet::vm {

namespace {

// Type classes in ascending term order.
enum class Rank { Number, Atom, Ref, Fun, Port, Pid, Tuple, Map, Nil, List, Bitstring };

Rank rank_of(Term t) {
    switch (t & TAG_PRIMARY_MASK) {
    case TAG_PRIMARY_LIST:
        return Rank::List;
    case TAG_PRIMARY_BOXED:
        switch (header_subtag(boxed_header(t))) {
        case Subtag::Tuple: return Rank::Tuple;
        case Subtag::PosBig:
        case Subtag::NegBig:
        case Subtag::Float: return Rank::Number;
        case Subtag::Ref:
        case Subtag::ExternalRef: return Rank::Ref;
        case Subtag::ExternalPort: return Rank::Port;
        case Subtag::ExternalPid: return Rank::Pid;
        case Subtag::Fun:
        case Subtag::Export: return Rank::Fun;
        case Subtag::RefcBin:
        case Subtag::HeapBin:
        case Subtag::SubBin: return Rank::Bitstring;
        case Subtag::Map: return Rank::Map;
        default: break;
        }
        break;
    case TAG_PRIMARY_IMMED1:
        switch (t & TAG_IMMED1_MASK) {
        case TAG_IMMED1_SMALL: return Rank::Number;
        case TAG_IMMED1_PID: return Rank::Pid;
        case TAG_IMMED1_PORT: return Rank::Port;
        default:
            if (is_atom(t)) return Rank::Atom;
            if (is_nil(t)) return Rank::Nil;
            break;
        }
        break;
    default:
        break;
    }
    BEAMLET_UNREACHABLE();
}

template <typename T>
int three_way(T x, T y) {
    return x < y ? -1 : (x > y ? 1 : 0);
}

int compare_atoms(Term a, Term b) {
    if (a == b) return 0;
    const AtomTable& table = AtomTable::global();
    std::uint64_t ka = table.order_key(a), kb = table.order_key(b);
    if (ka != kb) return ka < kb ? -1 : 1;
    const std::string& x = table.text(a);
    const std::string& y = table.text(b);
    int c = std::memcmp(x.data(), y.data(), std::min(x.size(), y.size()));
    return c != 0 ? (c < 0 ? -1 : 1) : three_way(x.size(), y.size());
}

const mp_limb_t* limbs_of(Term big) { return reinterpret_cast<const mp_limb_t*>(boxed_ptr(big) + 1); }

int compare_integers(Term a, Term b) {
    if (is_small(a) && is_small(b)) return three_way(small_value(a), small_value(b));
    if (is_small(a)) return bignum_is_negative(b) ? 1 : -1;
    if (is_small(b)) return bignum_is_negative(a) ? -1 : 1;
    bool negative = bignum_is_negative(a);
    if (negative != bignum_is_negative(b)) return negative ? -1 : 1;
    Word na = bignum_limbs(a), nb = bignum_limbs(b);
    int c = na != nb ? three_way(na, nb) : mpn_cmp(limbs_of(a), limbs_of(b), mp_size_t(na));
    c = c < 0 ? -1 : (c > 0 ? 1 : 0);
    return negative ? -c : c;
}

// Integer [i] against float [f] by exact value (no rounding of either side).
int compare_integer_float(Term i, double f) {
    double whole = std::trunc(f);
    int c;
    if (is_small(i)) {
        // Every small lies strictly inside (-2^63, 2^63).
        if (whole >= 0x1p63) return -1;
        if (whole < -0x1p63) return 1;
        c = three_way(small_value(i), SWord(whole));
    } else if (bignum_limbs(i) > 1024 / 64) {
        // Larger in magnitude than any finite double.
        return bignum_is_negative(i) ? -1 : 1;
    } else {
        mpz_t big, fz;
        Word n = bignum_limbs(i);
        mpz_roinit_n(big, limbs_of(i), bignum_is_negative(i) ? -mp_size_t(n) : mp_size_t(n));
        mpz_init_set_d(fz, whole);  // exact: [whole] is integral
        c = mpz_cmp(big, fz);
        mpz_clear(fz);
        c = c < 0 ? -1 : (c > 0 ? 1 : 0);
    }
    if (c != 0) return c;
    // Equal integer parts: the fraction of [f] decides.
    return three_way(0.0, f - whole);
}

int compare_numbers(Term a, Term b, bool exact) {
    bool a_float = is_float(a), b_float = is_float(b);
    if (!a_float && !b_float) return compare_integers(a, b);
    if (a_float && b_float) return three_way(float_value(a), float_value(b));
    // OTP's exact order puts the integer type below the float type, whatever the values.
    if (exact) return a_float ? 1 : -1;
    return a_float ? -compare_integer_float(b, float_value(a)) : compare_integer_float(a, float_value(b));
}

// [count] (1..8) bits of [v] starting [bit_pos] bits in, left-aligned in a byte.
unsigned fetch_bits(const BitView& v, std::size_t bit_pos, unsigned count) {
    std::size_t pos = v.bit_offset + bit_pos;
    std::size_t byte = pos / 8;
    unsigned shift = unsigned(pos % 8);
    unsigned w = unsigned(v.bytes[byte]) << 8;
    if (shift + count > 8) w |= v.bytes[byte + 1];
    unsigned bits = ((w << shift) >> 8) & 0xFF;
    return bits & (0xFFu << (8 - count)) & 0xFF;
}

int compare_bitstrings(Term a, Term b) {
    BitView x = bit_view(a), y = bit_view(b);
    std::size_t common_bits = std::min(x.bit_size, y.bit_size);
    std::size_t whole_bytes = common_bits / 8;
    if (x.is_aligned() && y.is_aligned()) {
        if (whole_bytes != 0) {
            int c = std::memcmp(x.aligned_bytes(), y.aligned_bytes(), whole_bytes);
            if (c != 0) return c < 0 ? -1 : 1;
        }
    } else {
        for (std::size_t i = 0; i < whole_bytes; ++i) {
            int c = three_way(fetch_bits(x, i * 8, 8), fetch_bits(y, i * 8, 8));
            if (c != 0) return c;
        }
    }
    if (unsigned rest = unsigned(common_bits % 8); rest != 0) {
        int c = three_way(fetch_bits(x, whole_bytes * 8, rest), fetch_bits(y, whole_bytes * 8, rest));
        if (c != 0) return c;
    }
    return three_way(x.bit_size, y.bit_size);
}

// Two nodes as OTP's CMP_NODES: by name, then by creation.
int compare_nodes(NodeId x, NodeId y) {
    if (int c = compare_atoms(x.name, y.name)) return c;
    return three_way(x.creation, y.creation);
}

// A reference's numbers, least significant first, whichever node it is from.
struct RefNumbers {
    std::uint32_t n[MAX_REF_NUMBERS] = {};
    Word count = 0;
    explicit RefNumbers(Term r) {
        if (is_ref(r)) {
            count = 3;
            for (Word i = 0; i < 3; ++i) n[i] = std::uint32_t(boxed_ptr(r)[1 + i]);
        } else {
            count = external_ref_count(r);
            for (Word i = 0; i < count; ++i) n[i] = external_ref_number(r, i);
        }
    }
};

// As OTP: the node first, then the numbers from the most significant end (a missing number
// counts as zero).
int compare_refs(Term a, Term b) {
    if (is_ref(a) && is_ref(b)) {
        const Term* x = boxed_ptr(a);
        const Term* y = boxed_ptr(b);
        for (int i = 3; i >= 1; --i)
            if (x[i] != y[i]) return x[i] < y[i] ? -1 : 1;
        return 0;
    }
    if (int c = compare_nodes(node_of(a), node_of(b))) return c;
    RefNumbers x(a), y(b);
    for (Word i = std::max(x.count, y.count); i-- > 0;)
        if (x.n[i] != y.n[i]) return x.n[i] < y.n[i] ? -1 : 1;
    return 0;
}

// As OTP: the serial, then the number, then the node.
int compare_pids(Term a, Term b) {
    if (is_pid(a) && is_pid(b)) return three_way(pid_number(a), pid_number(b));
    Word serial_a = is_pid(a) ? pid_serial(a) : external_pid_serial(a);
    Word serial_b = is_pid(b) ? pid_serial(b) : external_pid_serial(b);
    if (int c = three_way(serial_a, serial_b)) return c;
    Word number_a = is_pid(a) ? pid_printed_number(a) : external_pid_number(a);
    Word number_b = is_pid(b) ? pid_printed_number(b) : external_pid_number(b);
    if (int c = three_way(number_a, number_b)) return c;
    return compare_nodes(node_of(a), node_of(b));
}

// As OTP: the node, then the number.
int compare_ports(Term a, Term b) {
    if (is_port(a) && is_port(b)) return three_way(port_number(a), port_number(b));
    if (int c = compare_nodes(node_of(a), node_of(b))) return c;
    Word id_a = is_port(a) ? port_number(a) : external_port_id(a);
    Word id_b = is_port(b) ? port_number(b) : external_port_id(b);
    return three_way(id_a, id_b);
}

int compare_exports(Term a, Term b) {
    const auto* x = reinterpret_cast<const Export*>(boxed_ptr(a)[1]);
    const auto* y = reinterpret_cast<const Export*>(boxed_ptr(b)[1]);
    if (int c = compare_atoms(x->module, y->module)) return c;
    if (int c = compare_atoms(x->function, y->function)) return c;
    return three_way(x->arity, y->arity);
}

// A run of [count] term pairs still to compare, with the mode that applies to them.
struct Pending {
    const Term* a;
    const Term* b;
    Word count;
    bool exact;
};

int compare(Term a, Term b, bool exact);

// Whether two hashmaps of one size are equal: the same trie shape, keys exactly equal, values
// equal in [exact]'s sense.
bool same_hashmaps(Term a, Term b, bool exact) {
    WorkStack<std::pair<const Term*, const Term*>> pending({boxed_ptr(hashmap_root(a)), boxed_ptr(hashmap_root(b))});
    while (!pending.empty()) {
        auto [x, y] = pending.back();
        pending.pop_back();
        if (x == y) continue;
        if (x[0] != y[0]) return false;  // a node against a collision tuple, or another size
        bool collision = header_subtag(x[0]) == Subtag::Tuple;
        if (!collision && x[1] != y[1]) return false;  // bitmaps
        Word first = collision ? 1 : 2, last = header_arity(x[0]);
        for (Word i = first; i <= last; ++i) {
            Term u = x[i], v = y[i];
            if (is_list(u) != is_list(v)) return false;
            if (!is_list(u)) {
                pending.push_back({boxed_ptr(u), boxed_ptr(v)});
                continue;
            }
            if (u == v) continue;
            const Term* lu = list_ptr(u);
            const Term* lv = list_ptr(v);
            if (lu[0] != lv[0] && compare(lu[0], lv[0], true) != 0) return false;
            if (lu[1] != lv[1] && compare(lu[1], lv[1], exact) != 0) return false;
        }
    }
    return true;
}

// A hashmap's keys in key order, then its values in that order, in storage kept in [store]
// until the comparison ends.
const Term* sorted_pairs(Term map, std::vector<std::unique_ptr<Term[]>>& store) {
    Word n = map_size(map);
    std::vector<std::pair<Term, Term>> pairs;
    pairs.reserve(n);
    map_for_each(map, [&](Term k, Term v) { pairs.emplace_back(k, v); });
    std::sort(pairs.begin(), pairs.end(), [](const auto& x, const auto& y) { return compare(x.first, y.first, true) < 0; });
    auto words = std::make_unique<Term[]>(2 * n);
    for (Word i = 0; i < n; ++i) {
        words[i] = pairs[i].first;
        words[n + i] = pairs[i].second;
    }
    store.push_back(std::move(words));
    return store.back().get();
}

int compare(Term a, Term b, bool exact) {
    // Hashmaps compared put their sorted pairs here.
    std::vector<std::unique_ptr<Term[]>> sorted;
    // Compound terms push their remaining children here; a list pushes only its tail before
    // descending into the head, so a long list needs one entry, not one per element.
    // Sixteen runs in place: comparing keys of sets and trees must not cost a malloc each.
    WorkStack<Pending, 16> pending;
    for (;;) {
        int c = 0;
        // The leaves sets, trees and sorted lists compare most: smalls and atoms.
        if (a == b) {
        } else if (is_small(a) && is_small(b)) {
            c = three_way(small_value(a), small_value(b));
        } else if (is_atom(a) && is_atom(b)) {
            c = compare_atoms(a, b);
        } else {
            Rank ra = rank_of(a), rb = rank_of(b);
            if (ra != rb) return ra < rb ? -1 : 1;
            switch (ra) {
            case Rank::Number:
                c = compare_numbers(a, b, exact);
                break;
            case Rank::Atom:
                c = compare_atoms(a, b);
                break;
            case Rank::Ref:
                c = compare_refs(a, b);
                break;
            case Rank::Fun: {
                bool a_export = is_export_fun(a), b_export = is_export_fun(b);
                // As OTP: local funs sort before export funs.
                if (a_export != b_export) return a_export ? 1 : -1;
                if (a_export) {
                    c = compare_exports(a, b);
                    break;
                }
                const Term* x = boxed_ptr(a);
                const Term* y = boxed_ptr(b);
                const auto* fx = reinterpret_cast<const FunEntry*>(x[1]);
                const auto* fy = reinterpret_cast<const FunEntry*>(y[1]);
                if ((c = compare_atoms(fx->module_name, fy->module_name))) break;
                if ((c = three_way(fx->index, fy->index))) break;
                if ((c = three_way(fx->old_uniq, fy->old_uniq))) break;
                Word free_x = header_arity(x[0]) - 2, free_y = header_arity(y[0]) - 2;
                if ((c = three_way(free_x, free_y))) break;
                if (free_x != 0) pending.push_back({x + 3, y + 3, free_x, exact});
                break;
            }
            case Rank::Port:
                c = compare_ports(a, b);
                break;
            case Rank::Pid:
                c = compare_pids(a, b);
                break;
            case Rank::Tuple: {
                Word n = tuple_arity(a);
                if ((c = three_way(n, tuple_arity(b)))) break;
                if (n == 0) break;
                if (n > 1) pending.push_back({tuple_elements(a) + 1, tuple_elements(b) + 1, n - 1, exact});
                a = tuple_element(a, 0);
                b = tuple_element(b, 0);
                continue;
            }
            case Rank::Map: {
                Word n = map_size(a);
                if ((c = three_way(n, map_size(b)))) break;
                if (n == 0) break;
                // Keys first, always in the exact order; then the values in key order. A
                // hashmap's pairs are sorted by key first (both maps are hashmaps: same size).
                if (is_flatmap(a)) {
                    pending.push_back({map_values(a), map_values(b), n, exact});
                    pending.push_back({tuple_elements(map_keys(a)), tuple_elements(map_keys(b)), n, true});
                    break;
                }
                // Equal maps have one shape: a walk of both tries in step settles the usual
                // question (are they equal?) without sorting.
                if (same_hashmaps(a, b, exact)) break;
                const Term* x = sorted_pairs(a, sorted);
                const Term* y = sorted_pairs(b, sorted);
                pending.push_back({x + n, y + n, n, exact});
                pending.push_back({x, y, n, true});
                break;
            }
            case Rank::Nil:
                break;
            case Rank::List:
                // Identical tails (often both []) need no entry, keeping nested lists cheap.
                if (cdr(a) != cdr(b)) pending.push_back({list_ptr(a) + 1, list_ptr(b) + 1, 1, exact});
                a = car(a);
                b = car(b);
                continue;
            case Rank::Bitstring:
                c = compare_bitstrings(a, b);
                break;
            }
        }
        if (c != 0) return c;
        if (pending.empty()) return 0;
        Pending& next = pending.back();
        a = *next.a++;
        b = *next.b++;
        exact = next.exact;
        if (--next.count == 0) pending.pop_back();
    }
}

}  // namespace

namespace {

// erts's eq(): a walk of both terms that stops at the first difference. Tuples and lists are
// walked here; any other pair of boxed terms (numbers, binaries, maps, funs, references) goes
// to the exact order, whose notion of equal it must keep (0.0 =:= -0.0 on OTP 25, a heap
// binary against a sub-binary of the same bytes). Unlike the order, two atoms or two tuples
// of different sizes differ at once: no atom texts are read, no ranks computed.
[[gnu::noinline]] bool walk_exact_equal(Term a, Term b) {
    struct Run {
        const Term* a;
        const Term* b;
        Word count;
    };
    WorkStack<Run, 16> pending;
    for (;;) {
        if (a != b) {
            if (is_immediate(a) || is_immediate(b)) return false;
            if (is_list(a) || is_list(b)) {
                if (!is_list(a) || !is_list(b)) return false;
                if (cdr(a) != cdr(b)) pending.push_back({list_ptr(a) + 1, list_ptr(b) + 1, 1});
                a = car(a);
                b = car(b);
                continue;
            }
            Word header = boxed_header(a);
            if (header_subtag(header) == Subtag::Tuple) {
                if (header != boxed_header(b)) return false;
                Word n = header_arity(header);
                if (n != 0) {
                    if (n > 1) pending.push_back({tuple_elements(a) + 1, tuple_elements(b) + 1, n - 1});
                    a = tuple_element(a, 0);
                    b = tuple_element(b, 0);
                    continue;
                }
            } else if (compare(a, b, true) != 0) {
                return false;
            }
        }
        if (pending.empty()) return true;
        Run& next = pending.back();
        a = *next.a++;
        b = *next.b++;
        if (--next.count == 0) pending.pop_back();
    }
}

}  // namespace

bool compound_terms_exact_equal(Term a, Term b) {
    // Map keys, ETS keys and records are mostly tuples of immediates: two of them differ at
    // the first pair of immediates that differ, and are equal when every word is.
    if (is_boxed(a) && is_boxed(b)) {
        Word header = boxed_header(a);
        if (header_subtag(header) == Subtag::Tuple) {
            if (header != boxed_header(b)) return false;
            const Term* x = tuple_elements(a);
            const Term* y = tuple_elements(b);
            bool deeper = false;
            for (Word i = 0, n = header_arity(header); i < n; ++i) {
                if (x[i] == y[i]) continue;
                if (is_immediate(x[i]) || is_immediate(y[i])) return false;
                deeper = true;
            }
            if (!deeper) return true;
        }
    }
    return walk_exact_equal(a, b);
}

int compare_terms(Term a, Term b) {
    if (is_small(a) && is_small(b)) return three_way(small_value(a), small_value(b));
    if (is_float(a) && is_float(b)) return three_way(float_value(a), float_value(b));  // float loops
    return compare(a, b, false);
}

int compare_terms_exact(Term a, Term b) {
    if (is_small(a) && is_small(b)) return three_way(small_value(a), small_value(b));
    return compare(a, b, true);
}

}  // namespace beamlet::vm
