// bif/lists_maps.cpp — the native halves of the lists and maps modules.
#include <algorithm>

#include "bif/bifs.hpp"
#include "vm/atom_table.hpp"
#include "vm/map.hpp"
#include "vm/term_order.hpp"

namespace beamlet::bif {

using namespace vm;

Term bif_lists_reverse(Process* p, Term* a) {
    Word n = 0;
    Term l = a[0];
    for (; is_list(l); l = cdr(l)) ++n;
    if (!is_nil(l)) return p->badarg();
    Term* hp = p->alloc(2 * n);
    Term result = a[1];
    for (l = a[0]; is_list(l); l = cdr(l)) {
        result = make_cons_on(hp, car(l), result);
        hp += 2;
    }
    return result;
}

Term bif_lists_member(Process* p, Term* a) {
    Term l = a[1];
    for (; is_list(l); l = cdr(l))
        if (terms_exact_equal(car(l), a[0])) return atoms::true_;
    if (!is_nil(l)) return p->badarg();
    return atoms::false_;
}

// The first tuple in list [list] whose element [pos] (1-based) == [key], or false.
static Term keyfind(Process* p, Term key, Term pos, Term list, bool* ok) {
    *ok = true;
    if (!is_small(pos) || small_value(pos) < 1) {
        *ok = false;
        return p->badarg();
    }
    Word i = Word(small_value(pos));
    Term l = list;
    for (; is_list(l); l = cdr(l)) {
        Term t = car(l);
        if (is_tuple(t) && tuple_arity(t) >= i && terms_equal(tuple_element(t, i - 1), key)) return t;
    }
    if (!is_nil(l)) {
        *ok = false;
        return p->badarg();
    }
    return atoms::false_;
}

Term bif_lists_keyfind(Process* p, Term* a) {
    bool ok;
    return keyfind(p, a[0], a[1], a[2], &ok);
}
Term bif_lists_keymember(Process* p, Term* a) {
    bool ok;
    Term r = keyfind(p, a[0], a[1], a[2], &ok);
    if (!ok) return r;
    return make_bool(r != atoms::false_);
}
Term bif_lists_keysearch(Process* p, Term* a) {
    bool ok;
    Term r = keyfind(p, a[0], a[1], a[2], &ok);
    if (!ok || r == atoms::false_) return r;
    return make_tuple_on(p, {atoms::value, r});
}

// ---- maps ----

static Term badmap(Process* p, Term m) { return p->error(make_tuple_on(p, {atoms::badmap, m})); }

Term bif_maps_get(Process* p, Term* a) {
    if (!is_map(a[1])) return badmap(p, a[1]);
    const Term* v = map_lookup(a[1], a[0]);
    if (!v) return p->error(make_tuple_on(p, {atoms::badkey, a[0]}));
    return *v;
}
Term bif_maps_find(Process* p, Term* a) {
    if (!is_map(a[1])) return badmap(p, a[1]);
    const Term* v = map_lookup(a[1], a[0]);
    if (!v) return atoms::error;
    return make_tuple_on(p, {atoms::ok, *v});
}
// ---- maps:from_list/1, from_keys/2, keys/1, values/1: trapping, as erts's ----
//
// A time slice's worth of elements at a time (MAP_ELEMENTS_PER_REDUCTION a reduction); in
// between the caller is scheduled out, shown as in the BIF, its state in x registers that a
// collection keeps up to date.
namespace {
constexpr Word MAP_ELEMENTS_PER_REDUCTION = 4;

Word slice_elements(Process* p) { return Word(std::max<SWord>(p->slice_reds, 1)) * MAP_ELEMENTS_PER_REDUCTION; }

const Export* maps_export(Process* p, const char* name, Word arity) {
    return p->vm.exports.get(atom("maps"), atom(name), arity);
}

// keys/1 and values/1 build the list from its end: x0 = the map, x1 = the list so far, the
// elements at [0, left) still to add.
Term map_column(Process* p, Term* x, Word left, bool keys) {
    if (left == 0) return x[1];
    Term map = x[0];
    const Term* column = keys ? tuple_elements(map_keys(map)) : map_values(map);
    Word take = std::min(left, slice_elements(p));
    Term* hp = p->alloc(2 * take);
    Term list = x[1];
    for (Word i = left; i-- > left - take; hp += 2) list = make_cons_on(hp, column[i], list);
    left -= take;
    charge_work(p, take, MAP_ELEMENTS_PER_REDUCTION);
    if (left == 0) return list;
    x[1] = list;
    return trap_yield(p, maps_export(p, keys ? "keys" : "values", 1),
                      [left, keys](Process* q, Term* y) { return map_column(q, y, left, keys); }, 2);
}

// A hashmap's keys/1 and values/1: prepended in iteration order, as erts builds them, a slice
// at a time from the cursor's [path]: x0 = the map, x1 = the list so far.
Term hashmap_column(Process* p, Term* x, Word path, bool keys) {
    HashmapCursor cursor(path);
    cursor.locate(x[0]);
    Term list = x[1];
    Word taken = cursor.walk(slice_elements(p), [&](Term k, Term v) { list = make_cons_on(p->alloc(2), keys ? k : v, list); });
    charge_work(p, taken, MAP_ELEMENTS_PER_REDUCTION);
    if (cursor.at_end()) return list;
    x[1] = list;
    Word next = cursor.path();
    return trap_yield(p, maps_export(p, keys ? "keys" : "values", 1),
                      [next, keys](Process* q, Term* y) { return hashmap_column(q, y, next, keys); }, 2);
}

Term map_column_bif(Process* p, Term* a, bool keys) {
    if (!is_map(a[0])) return badmap(p, a[0]);
    a[1] = NIL;
    if (!is_flatmap(a[0])) return hashmap_column(p, a, 0, keys);
    return map_column(p, a, map_size(a[0]), keys);
}

// from_list/1 and from_keys/2 walk the list (checking every element) a slice at a time, then
// build the map: x0 = the list, x1 = from_keys's value, x2 = the part not yet walked.
Term map_from_walked(Process* p, Term* x, bool keys_only) {
    Word budget = slice_elements(p), walked = 0;
    Term rest = x[2];
    for (; is_list(rest) && walked < budget; rest = cdr(rest), ++walked) {
        Term t = car(rest);
        if (!keys_only && (!is_tuple(t) || tuple_arity(t) != 2)) break;
    }
    charge_work(p, walked, MAP_ELEMENTS_PER_REDUCTION);
    const char* name = keys_only ? "from_keys" : "from_list";
    if (is_list(rest) && walked == budget) {
        x[2] = rest;
        return trap_yield(p, maps_export(p, name, keys_only ? 2 : 1),
                          [keys_only](Process* q, Term* y) { return map_from_walked(q, y, keys_only); }, 3);
    }
    if (!is_nil(rest)) {
        p->badarg();
        return name_trapped_bif_error(p, atom("maps"), atom(name), x, keys_only ? 2 : 1);
    }
    std::vector<std::pair<Term, Term>> pairs;
    for (Term l = x[0]; is_list(l); l = cdr(l)) {
        Term t = car(l);
        pairs.emplace_back(keys_only ? t : tuple_element(t, 0), keys_only ? x[1] : tuple_element(t, 1));
    }
    return map_from_pairs(p, std::move(pairs));
}
}  // namespace

Term bif_maps_from_list(Process* p, Term* a) {
    a[2] = a[0];
    return map_from_walked(p, a, false);
}
Term bif_maps_from_keys(Process* p, Term* a) {
    a[2] = a[0];
    return map_from_walked(p, a, true);
}
Term bif_maps_keys(Process* p, Term* a) { return map_column_bif(p, a, true); }
Term bif_maps_values(Process* p, Term* a) { return map_column_bif(p, a, false); }

Term bif_maps_is_key(Process* p, Term* a) {
    if (!is_map(a[1])) return badmap(p, a[1]);
    return make_bool(map_lookup(a[1], a[0]) != nullptr);
}
Term bif_maps_merge(Process* p, Term* a) {
    if (!is_map(a[0])) return badmap(p, a[0]);
    if (!is_map(a[1])) return badmap(p, a[1]);
    // Nothing to add: the map itself, not a copy (as erts; maps_SUITE:t_merge_opt).
    if (map_size(a[0]) == 0 || a[0] == a[1]) return a[1];
    if (map_size(a[1]) == 0) return a[0];
    std::vector<std::pair<Term, Term>> pairs;
    map_for_each(a[0], [&](Term k, Term v) { pairs.emplace_back(k, v); });
    map_for_each(a[1], [&](Term k, Term v) { pairs.emplace_back(k, v); });
    return map_from_pairs(p, std::move(pairs));
}
Term bif_maps_put(Process* p, Term* a) {
    if (!is_map(a[2])) return badmap(p, a[2]);
    return map_put(p, a[2], a[0], a[1]);
}
Term bif_maps_remove(Process* p, Term* a) {
    if (!is_map(a[1])) return badmap(p, a[1]);
    return map_remove(p, a[1], a[0]);
}
Term bif_maps_take(Process* p, Term* a) {
    if (!is_map(a[1])) return badmap(p, a[1]);
    const Term* v = map_lookup(a[1], a[0]);
    if (!v) return atoms::error;
    Term value = *v;
    return make_tuple_on(p, {value, map_remove(p, a[1], a[0])});
}
Term bif_maps_update(Process* p, Term* a) {
    if (!is_map(a[2])) return badmap(p, a[2]);
    if (!map_lookup(a[2], a[0])) return p->error(make_tuple_on(p, {atoms::badkey, a[0]}));
    return map_put(p, a[2], a[0], a[1]);
}
namespace {
// map_next over a hashmap, Path a HashmapCursor's: with Acc = iterator, the next 32 pairs in
// iteration order; with a list Acc, the rest prepended in iteration order (maps:to_list/1's
// order, erts's).
Term hashmap_next(Process* p, Word path, Term map, Term acc) {
    constexpr Word batch = 32;
    bool iterator = acc == atoms::iterator;
    if (!iterator && !is_list(acc) && !is_nil(acc)) return p->badarg();
    HashmapCursor cursor(path);
    if (!cursor.locate(map)) return p->badarg();
    std::vector<std::pair<Term, Term>> pairs;
    cursor.walk(iterator ? batch : map_size(map), [&](Term k, Term v) { pairs.emplace_back(k, v); });
    if (iterator) {
        Term chain = atoms::none;
        if (!cursor.at_end()) {
            Term next = make_small(SWord(cursor.path()));
            chain = make_cons_on(p->alloc(2), next, map);
        }
        for (Word j = pairs.size(); j-- > 0;) chain = make_tuple_on(p, {pairs[j].first, pairs[j].second, chain});
        return chain;
    }
    Term list = acc;
    for (const auto& [k, v] : pairs) list = make_cons_on(p->alloc(2), make_tuple_on(p, {k, v}), list);
    return list;
}
}  // namespace

// erts_internal:map_next(Path, Map, Acc): OTP's maps.beam iterates with it. With a list Acc,
// the pairs from position Path on, prepended to Acc (beamlet does all in one step, so never the
// [NextPath, Map | Acc] continuation). With Acc = iterator, the chain {K1, V1, {K2, V2, ...}}
// of the pairs, ending in none: for a map of up to 32 keys (a flatmap on erts too) all of them,
// whatever the path, as erts; for a larger one the next 32 from Path, ending in
// [NextPath | Map] while more are left. A path past the end is badarg.
Term bif_erts_internal_map_next(Process* p, Term* a) {
    constexpr Word small_map_keys = 32;  // erts's MAP_SMALL_MAP_LIMIT
    Term map = a[1];
    if (!is_small(a[0]) || small_value(a[0]) < 0 || !is_map(map)) return p->badarg();
    Word at = Word(small_value(a[0]));
    Word n = map_size(map);
    if (!is_flatmap(map)) return hashmap_next(p, at, map, a[2]);
    if (at > n) return p->badarg();
    const Term* keys = n ? tuple_elements(map_keys(map)) : nullptr;
    const Term* values = map_values(map);
    if (a[2] == atoms::iterator) {
        Word from = n <= small_map_keys ? 0 : at;
        Word to = n <= small_map_keys ? n : std::min(n, at + small_map_keys);
        Term chain = to < n ? make_cons_on(p->alloc(2), make_small(SWord(to)), map) : atoms::none;
        for (Word i = to; i-- > from;) chain = make_tuple_on(p, {keys[i], values[i], chain});
        return chain;
    }
    if (!is_list(a[2]) && !is_nil(a[2])) return p->badarg();
    Term list = a[2];
    for (Word i = n; i-- > at;) {
        Term pair = make_tuple_on(p, {keys[i], values[i]});
        list = make_cons_on(p->alloc(2), pair, list);
    }
    return list;
}

}  // namespace beamlet::bif
