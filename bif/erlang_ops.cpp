// bif/erlang_ops.cpp — erlang operators, type tests, and tuple/list/binary/map primitives.
#include <cmath>
#include <cstring>
#include <map>

#include "bif/bifs.hpp"
#include "vm/arith.hpp"
#include "vm/atom_table.hpp"
#include "vm/bignum.hpp"
#include "vm/binary.hpp"
#include "vm/map.hpp"
#include "vm/term_order.hpp"

namespace beamlet::bif {

using namespace vm;

Term bif_plus(Process* p, Term* a) { return arith_plus(p, a[0], a[1]); }
Term bif_minus(Process* p, Term* a) { return arith_minus(p, a[0], a[1]); }
Term bif_times(Process* p, Term* a) { return arith_times(p, a[0], a[1]); }
Term bif_divide(Process* p, Term* a) { return arith_divide(p, a[0], a[1]); }
Term bif_div(Process* p, Term* a) { return arith_int_div(p, a[0], a[1]); }
Term bif_rem(Process* p, Term* a) { return arith_rem(p, a[0], a[1]); }
Term bif_band(Process* p, Term* a) { return arith_band(p, a[0], a[1]); }
Term bif_bor(Process* p, Term* a) { return arith_bor(p, a[0], a[1]); }
Term bif_bxor(Process* p, Term* a) { return arith_bxor(p, a[0], a[1]); }
Term bif_bsl(Process* p, Term* a) { return arith_bsl(p, a[0], a[1]); }
Term bif_bsr(Process* p, Term* a) { return arith_bsr(p, a[0], a[1]); }
Term bif_bnot(Process* p, Term* a) { return arith_bnot(p, a[0]); }
Term bif_negate(Process* p, Term* a) { return arith_negate(p, a[0]); }
Term bif_unary_plus(Process* p, Term* a) { return arith_unary_plus(p, a[0]); }
Term bif_abs(Process* p, Term* a) { return arith_abs(p, a[0]); }

Term bif_eq(Process*, Term* a) { return make_bool(terms_equal(a[0], a[1])); }
Term bif_ne(Process*, Term* a) { return make_bool(!terms_equal(a[0], a[1])); }
Term bif_exact_eq(Process*, Term* a) { return make_bool(terms_exact_equal(a[0], a[1])); }
Term bif_exact_ne(Process*, Term* a) { return make_bool(!terms_exact_equal(a[0], a[1])); }
Term bif_lt(Process*, Term* a) { return make_bool(compare_terms(a[0], a[1]) < 0); }
Term bif_gt(Process*, Term* a) { return make_bool(compare_terms(a[0], a[1]) > 0); }
Term bif_le(Process*, Term* a) { return make_bool(compare_terms(a[0], a[1]) <= 0); }
Term bif_ge(Process*, Term* a) { return make_bool(compare_terms(a[0], a[1]) >= 0); }
Term bif_max(Process*, Term* a) { return compare_terms(a[0], a[1]) < 0 ? a[1] : a[0]; }
Term bif_min(Process*, Term* a) { return compare_terms(a[0], a[1]) > 0 ? a[1] : a[0]; }

static bool is_bool(Term t) { return t == atoms::true_ || t == atoms::false_; }
Term bif_and(Process* p, Term* a) {
    if (!is_bool(a[0]) || !is_bool(a[1])) return p->badarg();
    return make_bool(a[0] == atoms::true_ && a[1] == atoms::true_);
}
Term bif_or(Process* p, Term* a) {
    if (!is_bool(a[0]) || !is_bool(a[1])) return p->badarg();
    return make_bool(a[0] == atoms::true_ || a[1] == atoms::true_);
}
Term bif_xor(Process* p, Term* a) {
    if (!is_bool(a[0]) || !is_bool(a[1])) return p->badarg();
    return make_bool(a[0] != a[1]);
}
Term bif_not(Process* p, Term* a) {
    if (!is_bool(a[0])) return p->badarg();
    return make_bool(a[0] == atoms::false_);
}

Term bif_float(Process* p, Term* a) {
    if (is_float(a[0])) return a[0];
    double d;
    if (!is_integer(a[0]) || !number_to_double(a[0], &d)) return p->badarg();
    return make_float_on(p->alloc(FLOAT_WORDS), d);
}

static Term float_to_integer(Process* p, double d) {
    if (d >= -9.2e18 && d <= 9.2e18) return make_integer(p, std::int64_t(d));
    mpz_t z;
    mpz_init_set_d(z, d);
    Term t = mpz_to_integer(p, z);
    mpz_clear(z);
    return t;
}
Term bif_trunc(Process* p, Term* a) {
    if (is_integer(a[0])) return a[0];
    if (!is_float(a[0])) return p->badarg();
    return float_to_integer(p, std::trunc(float_value(a[0])));
}
Term bif_round(Process* p, Term* a) {
    if (is_integer(a[0])) return a[0];
    if (!is_float(a[0])) return p->badarg();
    return float_to_integer(p, std::round(float_value(a[0])));
}
Term bif_floor(Process* p, Term* a) {
    if (is_integer(a[0])) return a[0];
    if (!is_float(a[0])) return p->badarg();
    return float_to_integer(p, std::floor(float_value(a[0])));
}
Term bif_ceil(Process* p, Term* a) {
    if (is_integer(a[0])) return a[0];
    if (!is_float(a[0])) return p->badarg();
    return float_to_integer(p, std::ceil(float_value(a[0])));
}

Term bif_is_atom(Process*, Term* a) { return make_bool(is_atom(a[0])); }
Term bif_is_binary(Process*, Term* a) { return make_bool(is_binary(a[0])); }
Term bif_is_bitstring(Process*, Term* a) { return make_bool(is_bitstring(a[0])); }
Term bif_is_boolean(Process*, Term* a) { return make_bool(is_bool(a[0])); }
Term bif_is_float(Process*, Term* a) { return make_bool(is_float(a[0])); }
Term bif_is_function(Process*, Term* a) { return make_bool(is_fun(a[0])); }
Term bif_is_integer(Process*, Term* a) { return make_bool(is_integer(a[0])); }
Term bif_is_list(Process*, Term* a) { return make_bool(is_list(a[0]) || is_nil(a[0])); }
Term bif_is_map(Process*, Term* a) { return make_bool(is_map(a[0])); }
Term bif_is_number(Process*, Term* a) { return make_bool(is_number(a[0])); }
Term bif_is_pid(Process*, Term* a) { return make_bool(is_any_pid(a[0])); }
Term bif_is_port(Process*, Term* a) { return make_bool(is_any_port(a[0])); }
Term bif_is_reference(Process*, Term* a) { return make_bool(is_any_ref(a[0])); }
Term bif_is_tuple(Process*, Term* a) { return make_bool(is_tuple(a[0])); }
Term bif_is_function2(Process* p, Term* a) {
    if (!is_small(a[1]) || small_value(a[1]) < 0) return p->badarg();
    Word arity = Word(small_value(a[1]));
    if (is_local_fun(a[0])) return make_bool(reinterpret_cast<const FunEntry*>(boxed_ptr(a[0])[1])->user_arity() == arity);
    if (is_export_fun(a[0])) return make_bool(reinterpret_cast<const Export*>(boxed_ptr(a[0])[1])->arity == arity);
    return atoms::false_;
}
Term bif_is_record2(Process* p, Term* a) {
    if (!is_atom(a[1])) return p->badarg();
    return make_bool(is_tuple(a[0]) && tuple_arity(a[0]) >= 1 && tuple_element(a[0], 0) == a[1]);
}
Term bif_is_record3(Process* p, Term* a) {
    if (!is_atom(a[1]) || !is_small(a[2])) return p->badarg();
    return make_bool(is_tuple(a[0]) && SWord(tuple_arity(a[0])) == small_value(a[2]) && tuple_arity(a[0]) >= 1 &&
                     tuple_element(a[0], 0) == a[1]);
}

Term bif_element(Process* p, Term* a) {
    if (!is_small(a[0]) || !is_tuple(a[1])) return p->badarg();
    SWord i = small_value(a[0]);
    if (i < 1 || Word(i) > tuple_arity(a[1])) return p->badarg();
    return tuple_element(a[1], Word(i - 1));
}

static Term copy_tuple(Process* p, Term t, Word extra, Term** out) {
    Word n = tuple_arity(t);
    Term* hp = p->alloc(1 + n + extra);
    std::memcpy(hp + 1, tuple_elements(t), n * sizeof(Term));
    hp[0] = make_arityval(n + extra);
    *out = hp;
    return make_boxed(hp);
}

Term bif_setelement(Process* p, Term* a) {
    if (!is_small(a[0]) || !is_tuple(a[1])) return p->badarg();
    SWord i = small_value(a[0]);
    if (i < 1 || Word(i) > tuple_arity(a[1])) return p->badarg();
    Term* hp;
    Term t = copy_tuple(p, a[1], 0, &hp);
    hp[i] = a[2];
    return t;
}
Term bif_tuple_size(Process* p, Term* a) {
    if (!is_tuple(a[0])) return p->badarg();
    return make_small(SWord(tuple_arity(a[0])));
}
Term bif_size(Process* p, Term* a) {
    if (is_tuple(a[0])) return make_small(SWord(tuple_arity(a[0])));
    if (is_bitstring(a[0])) return make_small(SWord(bit_view(a[0]).bit_size / 8));
    return p->badarg();
}
// OTP's largest tuple (MAX_ARITYVAL): 16777215 elements.
constexpr SWord MAX_TUPLE_ARITY = (SWord(1) << 24) - 1;

Term bif_make_tuple2(Process* p, Term* a) {
    if (!is_small(a[0]) || small_value(a[0]) < 0 || small_value(a[0]) > MAX_TUPLE_ARITY) return p->badarg();
    Word n = Word(small_value(a[0]));
    Term* hp = p->alloc(1 + n);
    hp[0] = make_arityval(n);
    for (Word i = 0; i < n; ++i) hp[1 + i] = a[1];
    return make_boxed(hp);
}
Term bif_make_tuple3(Process* p, Term* a) {
    Term t = bif_make_tuple2(p, a);
    if (t == THE_NON_VALUE) return t;
    Word n = tuple_arity(t);
    for (Term l = a[2]; !is_nil(l); l = cdr(l)) {
        if (!is_list(l)) return p->badarg();
        Term e = car(l);
        if (!is_tuple(e) || tuple_arity(e) != 2 || !is_small(tuple_element(e, 0))) return p->badarg();
        SWord i = small_value(tuple_element(e, 0));
        if (i < 1 || Word(i) > n) return p->badarg();
        tuple_elements(t)[i - 1] = tuple_element(e, 1);
    }
    return t;
}
Term bif_append_element(Process* p, Term* a) {
    if (!is_tuple(a[0]) || SWord(tuple_arity(a[0])) >= MAX_TUPLE_ARITY) return p->badarg();
    Term* hp;
    Term t = copy_tuple(p, a[0], 1, &hp);
    hp[1 + tuple_arity(a[0])] = a[1];
    return t;
}
Term bif_insert_element(Process* p, Term* a) {
    if (!is_small(a[0]) || !is_tuple(a[1])) return p->badarg();
    Word n = tuple_arity(a[1]);
    SWord i = small_value(a[0]);
    if (i < 1 || Word(i) > n + 1 || SWord(n) >= MAX_TUPLE_ARITY) return p->badarg();
    Term* hp = p->alloc(2 + n);
    hp[0] = make_arityval(n + 1);
    const Term* src = tuple_elements(a[1]);
    for (Word k = 0, j = 0; k <= n; ++k) hp[1 + k] = (SWord(k) == i - 1) ? a[2] : src[j++];
    return make_boxed(hp);
}
Term bif_delete_element(Process* p, Term* a) {
    if (!is_small(a[0]) || !is_tuple(a[1])) return p->badarg();
    Word n = tuple_arity(a[1]);
    SWord i = small_value(a[0]);
    if (i < 1 || Word(i) > n) return p->badarg();
    Term* hp = p->alloc(n);
    hp[0] = make_arityval(n - 1);
    const Term* src = tuple_elements(a[1]);
    for (Word k = 0, j = 0; k < n; ++k)
        if (SWord(k) != i - 1) hp[1 + j++] = src[k];
    return make_boxed(hp);
}
Term bif_tuple_to_list(Process* p, Term* a) {
    if (!is_tuple(a[0])) return p->badarg();
    Word n = tuple_arity(a[0]);
    Term* hp = p->alloc(2 * n);
    Term l = NIL;
    const Term* e = tuple_elements(a[0]);
    for (Word i = n; i-- > 0;) {
        l = make_cons_on(hp, e[i], l);
        hp += 2;
    }
    return l;
}

// The length of proper list [t], or -1.
static SWord list_length(Term t) {
    SWord n = 0;
    for (; is_list(t); t = cdr(t)) ++n;
    return is_nil(t) ? n : -1;
}

Term bif_list_to_tuple(Process* p, Term* a) {
    SWord n = list_length(a[0]);
    if (n < 0 || n > MAX_TUPLE_ARITY) return p->badarg();
    Term* hp = p->alloc(1 + Word(n));
    hp[0] = make_arityval(Word(n));
    Word i = 1;
    for (Term l = a[0]; is_list(l); l = cdr(l)) hp[i++] = car(l);
    return make_boxed(hp);
}
Term bif_length(Process* p, Term* a) {
    SWord n = list_length(a[0]);
    if (n < 0) return p->badarg();
    return make_small(n);
}
Term bif_hd(Process* p, Term* a) { return is_list(a[0]) ? car(a[0]) : p->badarg(); }
Term bif_tl(Process* p, Term* a) { return is_list(a[0]) ? cdr(a[0]) : p->badarg(); }

Term bif_append(Process* p, Term* a) {
    SWord n = list_length(a[0]);
    if (n < 0) return p->badarg();
    if (n == 0) return a[1];
    Term* hp = p->alloc(2 * Word(n));
    Term result = make_list(hp);
    for (Term l = a[0]; is_list(l); l = cdr(l)) {
        hp[0] = car(l);
        hp[1] = is_list(cdr(l)) ? make_list(hp + 2) : a[1];
        hp += 2;
    }
    return result;
}

// With this many elements or fewer on either side, A -- B compares element by element;
// beyond, the elements of B go in a tree.
constexpr SWord SUBTRACT_SCAN_LIMIT = 16;

// A -- B: each element of B removes the first remaining equal (=:=) one of A. The result
// shares A's tail after the last element removed, as OTP's does, so taking a few elements off
// the front of a long list costs only those (with nothing removed it is a copy, as OTP's).
Term bif_subtract(Process* p, Term* a) {
    SWord n = list_length(a[0]), m = list_length(a[1]);
    if (n < 0 || m < 0) return p->badarg();
    if (n == 0) return NIL;
    // A's cells, in order, read only as far as needed: removing from the front of a long
    // list must not walk all of it.
    std::vector<Term> cells;
    std::vector<bool> removed;
    Term unread = a[0];
    auto have = [&](std::size_t i) {
        for (; cells.size() <= i && is_list(unread); unread = cdr(unread)) {
            cells.push_back(unread);
            removed.push_back(false);
        }
        return i < cells.size();
    };
    if (n <= SUBTRACT_SCAN_LIMIT || m <= SUBTRACT_SCAN_LIMIT) {
        SWord remaining = n;
        for (Term r = a[1]; is_list(r) && remaining; r = cdr(r)) {
            Term x = car(r);
            for (std::size_t i = 0; have(i); ++i)
                if (!removed[i] && terms_exact_equal(car(cells[i]), x)) {
                    removed[i] = true;
                    --remaining;
                    break;
                }
        }
    } else {
        // The same as going over A once, dropping what a multiset of B still holds (OTP
        // keeps it in a tree too): O((n + m) log m).
        auto less = [](Term x, Term y) { return compare_terms_exact(x, y) < 0; };
        std::map<Term, std::size_t, decltype(less)> counts(less);
        for (Term r = a[1]; is_list(r); r = cdr(r)) ++counts[car(r)];
        for (std::size_t i = 0; !counts.empty() && have(i); ++i) {
            auto it = counts.find(car(cells[i]));
            if (it == counts.end()) continue;
            removed[i] = true;
            if (--it->second == 0) counts.erase(it);
        }
    }
    std::size_t last = cells.size();
    for (std::size_t i = cells.size(); i-- > 0;)
        if (removed[i]) {
            last = i;
            break;
        }
    Term result = NIL;
    if (last == cells.size()) {  // nothing removed: a copy of A, as OTP's
        have(std::size_t(n));
        last = cells.size();
    } else {
        result = cdr(cells[last]);
    }
    std::size_t keep = 0;
    for (std::size_t i = 0; i < last; ++i) keep += !removed[i];
    Term* hp = p->alloc(2 * keep);
    for (std::size_t i = last; i-- > 0;)
        if (!removed[i]) {
            result = make_cons_on(hp, car(cells[i]), result);
            hp += 2;
        }
    return result;
}

Term bif_byte_size(Process* p, Term* a) {
    if (!is_bitstring(a[0])) return p->badarg();
    return make_small(SWord((bit_view(a[0]).bit_size + 7) / 8));
}
Term bif_bit_size(Process* p, Term* a) {
    if (!is_bitstring(a[0])) return p->badarg();
    return make_small(SWord(bit_view(a[0]).bit_size));
}

Term bif_map_size(Process* p, Term* a) {
    if (!is_map(a[0])) return p->error(make_tuple_on(p, {atoms::badmap, a[0]}));
    return make_small(SWord(map_size(a[0])));
}
Term bif_map_get(Process* p, Term* a) {
    if (!is_map(a[1])) return p->error(make_tuple_on(p, {atoms::badmap, a[1]}));
    const Term* v = map_lookup(a[1], a[0]);
    if (!v) return p->error(make_tuple_on(p, {atoms::badkey, a[0]}));
    return *v;
}
Term bif_is_map_key(Process* p, Term* a) {
    if (!is_map(a[1])) return p->error(make_tuple_on(p, {atoms::badmap, a[1]}));
    return make_bool(map_lookup(a[1], a[0]) != nullptr);
}

static Term binary_part(Process* p, Term bin, Term start, Term len) {
    if (!is_binary(bin) || !is_small(start) || !is_small(len)) return p->badarg();
    SWord s = small_value(start), l = small_value(len);
    SWord size = SWord(bit_view(bin).bit_size / 8);
    if (l < 0) {
        s += l;
        l = -l;
    }
    if (s < 0 || s + l > size) return p->badarg();
    return make_sub_binary(p, bin, Word(s) * 8, Word(l) * 8);
}
Term bif_binary_part3(Process* p, Term* a) { return binary_part(p, a[0], a[1], a[2]); }
Term bif_binary_part2(Process* p, Term* a) {
    if (!is_tuple(a[1]) || tuple_arity(a[1]) != 2) return p->badarg();
    return binary_part(p, a[0], tuple_element(a[1], 0), tuple_element(a[1], 1));
}
Term bif_split_binary(Process* p, Term* a) {
    if (!is_binary(a[0]) || !is_small(a[1])) return p->badarg();
    SWord pos = small_value(a[1]);
    SWord size = SWord(bit_view(a[0]).bit_size / 8);
    if (pos < 0 || pos > size) return p->badarg();
    Term l = make_sub_binary(p, a[0], 0, Word(pos) * 8);
    Term r = make_sub_binary(p, a[0], Word(pos) * 8, Word(size - pos) * 8);
    return make_tuple_on(p, {l, r});
}

}  // namespace beamlet::bif
