// ets/ets_bifs.cpp — the BIFs of OTP's ets.beam, over ets/table.hpp.
//
// A table is named by a tid (a magic reference whose handle owns the Table) or, for a
// named_table, by its atom. The registry maps names to tables and lists every table (ets:all/0,
// owner exit); a BIF given a tid reaches its table without the registry. The match-spec
// functions (match, select, ...) compile their spec with tracing's compiler in its table dialect
// and run it on each stored object under the table's read (or write) lock, copying the results
// onto the caller's heap before the lock is released.
#include <algorithm>
#include <array>
#include <chrono>
#include <mutex>
#include <shared_mutex>
#include <unordered_map>
#include <vector>

#include "bif/bifs.hpp"
#include "ets/table.hpp"
#include "matchspec/match_spec.hpp"
#include "vm/arith.hpp"
#include "vm/bignum.hpp"
#include "vm/copy.hpp"
#include "vm/magic.hpp"
#include "vm/scheduler.hpp"
#include "vm/term_hash.hpp"
#include "vm/term_order.hpp"
#include "vm/work_stack.hpp"

namespace beamlet::bif {

using namespace vm;
using ets::Access;
using ets::DbObject;
using ets::Kind;
using ets::Table;
using matchspec::MatchSpec;

namespace {

// ---- the registry -------------------------------------------------------------------------------

Term am_end_of_table() {
    BEAMLET_CACHED_ATOM(a, "$end_of_table");
    return a;
}

void destroy_table_handle(MagicHandle* h) { delete static_cast<Table*>(h->data); }
void destroy_spec_handle(MagicHandle* h) { delete static_cast<MatchSpec*>(h->data); }

}  // namespace
}  // namespace beamlet::bif

// A VM's tables: names to tables, and every table (each holding a reference to its handle).
// The Vm owns it (VmServices::ets) and tells it of exiting processes that owned or fixed a table.
struct beamlet::ets::Registry : beamlet::vm::ProcessResources {
    std::function<bool()> process_exited(beamlet::vm::Process* p) override;

    RwWord mutex;  // a read per BIF call on a named table: one atomic in, one out
    std::unordered_map<Term, Table*> names;
    std::vector<Table*> tables;

    ~Registry() override {
        for (Table* t : tables) {
            {
                std::unique_lock lock(t->lock);
                t->dead.store(true);
                for (auto f : std::vector(t->fixations())) t->unfix_all(f.first);
                t->clear();
            }
            t->handle->release();
        }
    }
};

namespace beamlet::bif {
namespace {

using ets::Registry;

Registry& registry(Vm& vm) { return static_cast<Registry&>(*vm.services.ets); }

// A table reached from a term: keeps its handle referenced while a BIF uses it.
class TableRef {
public:
    TableRef() = default;
    TableRef(const TableRef&) = delete;
    TableRef& operator=(const TableRef&) = delete;
    ~TableRef() {
        if (m_held) m_held->release();
    }
    Table* get() const { return m_table; }

    // The table [id] names (a tid or a name), or false.
    bool resolve(Vm& vm, Term id) {
        if (is_magic_ref(id)) {
            MagicHandle* h = magic_handle(id);
            if (h->destructor != destroy_table_handle) return false;
            m_table = static_cast<Table*>(h->data);  // the term keeps it alive
            return true;
        }
        if (!is_atom(id)) return false;
        Registry& r = registry(vm);
        std::shared_lock lock(r.mutex);
        auto it = r.names.find(id);
        if (it == r.names.end()) return false;
        m_table = it->second;
        m_held = m_table->handle;
        m_held->add_ref();
        return true;
    }

private:
    Table* m_table = nullptr;
    MagicHandle* m_held = nullptr;
};

Word next_ref_number(Process* p) { return p->vm.next_ref.fetch_add(1, std::memory_order_relaxed) + 1; }

Term tid_term(Process* p, Table* t) {
    t->handle->add_ref();
    return make_magic_ref(p, t->tid_id, t->handle);
}

// How ETS names a table in its answers and messages: the name of a named table, else the tid.
Term table_id(Process* p, Table* t) { return t->named ? t->name : tid_term(p, t); }


void mark_user(Process* owner) {
    if (owner) owner->ets_user.store(true, std::memory_order_relaxed);
}

// Objects taken out of a table, destroyed a slice at a time; whatever is left goes with the
// holder (the process that was freeing them exited).
struct DetachedObjects {
    std::vector<DbObject*> objects;
    std::size_t freed = 0;

    explicit DetachedObjects(std::vector<DbObject*> objs) : objects(std::move(objs)) {}
    ~DetachedObjects() { free_some(objects.size()); }
    DetachedObjects(const DetachedObjects&) = delete;
    DetachedObjects& operator=(const DetachedObjects&) = delete;
    // Destroys up to [n] more; whether all are gone.
    bool free_some(std::size_t n) {
        std::size_t end = std::min(objects.size(), freed + n);
        for (; freed < end; ++freed) DbObject::destroy(objects[freed]);
        return freed == objects.size();
    }
};

// How many objects a BIF frees per time slice before the caller is scheduled out: OTP's rate
// (8 objects a reduction, 4000 reductions a slice).
constexpr std::size_t FREE_PER_SLICE = 8 * 4000;

// Frees [objects] in slices and then answers [result] (an immediate): OTP's ets:delete/1 and
// delete_all_objects/1 trap while freeing a large table, so that others get to run; so does
// the caller here, named [bif] by trace's in/out events meanwhile.
Term free_in_slices(Process* p, std::shared_ptr<DetachedObjects> objects, Term result, const Export* bif) {
    if (objects->free_some(FREE_PER_SLICE)) return result;
    return trap_yield(p, bif, [objects, result, bif](Process* q, Term*) { return free_in_slices(q, objects, result, bif); });
}

// Removes [t] from the registry and empties it; false if it was gone already. Its objects
// are handed to [*objects] if given, else freed now.
bool delete_table(Table* t, std::vector<DbObject*>* objects = nullptr) {
    std::vector<DbObject*> taken;
    {
        std::unique_lock lock(t->lock);
        if (t->dead.load(std::memory_order_relaxed)) return false;
        t->dead.store(true, std::memory_order_release);
        t->forget_fixations();     // pseudo-deleted objects go with the rest
        taken = t->detach_all();
    }
    Registry& r = *t->registry;
    {
        std::unique_lock lock(r.mutex);
        if (t->named) {
            auto it = r.names.find(t->name);
            if (it != r.names.end() && it->second == t) r.names.erase(it);
        }
        r.tables.erase(std::find(r.tables.begin(), r.tables.end(), t));
    }
    t->handle->release();  // the registry's reference
    if (objects) *objects = std::move(taken);
    else DetachedObjects{std::move(taken)};
    return true;
}

// ---- access -------------------------------------------------------------------------------------

// Read and Write are the access the table's protection must allow; Fix needs read access
// and changes the table's fixations (its lock taken for writing).
enum class Need { Read, Write, Fix };

bool allowed(const Process* p, const Table* t, Need need) {
    if (t->access == Access::Public) return true;
    bool owner = t->owner.load(std::memory_order_relaxed) == p->id;
    if (t->access == Access::Private) return owner;
    return need != Need::Write || owner;
}

// Runs [fn(table)] with [id]'s table locked for [need], or raises badarg with erts's cause:
// type (not a table id), id (no such table), access (not this process's to read or write). [fn] returns the BIF's
// result.
// The badarg for an [id] that names no table: id for an atom or a table's reference (the
// table is gone), type for anything else (a plain reference too).
Term no_table(Process* p, Term id) {
    BEAMLET_CACHED_ATOM(am_id, "id");
    BEAMLET_CACHED_ATOM(am_type, "type");
    bool table_ref = is_magic_ref(id) && magic_handle(id)->destructor == destroy_table_handle;
    return p->badarg(is_atom(id) || table_ref ? am_id : am_type);
}

template <typename Fn>
Term with_table(Process* p, Term id, Need need, Fn&& fn) {
    BEAMLET_CACHED_ATOM(am_id, "id");
    BEAMLET_CACHED_ATOM(am_access, "access");
    TableRef ref;
    if (!ref.resolve(p->vm, id)) return no_table(p, id);
    Table* t = ref.get();
    auto run = [&]() -> Term {
        if (t->dead.load(std::memory_order_relaxed)) return p->badarg(am_id);
        if (!allowed(p, t, need)) return p->badarg(am_access);
        return fn(*t);
    };
    if (need == Need::Read) {
        std::shared_lock lock(t->lock);
        return run();
    }
    std::unique_lock lock(t->lock);
    return run();
}

// Whether [id] is a table [p] may use for [need]; if not, the badarg is raised. erts checks
// the table before a BIF's other arguments, so a bad table wins over a bad limit or option.
bool table_usable(Process* p, Term id, Need need) {
    return with_table(p, id, need, [](Table&) -> Term { return atoms::true_; }) != THE_NON_VALUE;
}

// ---- terms --------------------------------------------------------------------------------------

Term copy_out(Process* p, const DbObject* o) {
    if (!o->words) return o->tuple;
    Term* hp = p->alloc(o->words);
    return copy_term(o->tuple, &hp, &p->off_heap_first);
}

Term copy_to_heap(Process* p, Term t) {
    Word n = term_size_words(t);
    if (!n) return t;
    Term* hp = p->alloc(n);
    return copy_term(t, &hp, &p->off_heap_first);
}

Term cons(Process* p, Term h, Term t) { return make_cons_on(p->alloc(2), h, t); }

Term reverse(Process* p, Term l) {
    Term r = NIL;
    for (; is_list(l); l = cdr(l)) r = cons(p, car(l), r);
    return r;
}

// A valid object for [t]: a tuple with the key position.
bool valid_object(const Table& t, Term obj) { return is_tuple(obj) && tuple_arity(obj) >= t.keypos(); }

// The objects of [key] as a list, in insertion order (for_key gives the newest first).
Term lookup_list(Process* p, const Table& t, Term key) {
    Term l = NIL;
    t.for_key(key, [&](const DbObject* o) { l = cons(p, copy_out(p, o), l); });
    return l;
}

bool is_pos_small(Term t) { return is_small(t) && small_value(t) > 0; }

// ---- match specs --------------------------------------------------------------------------------

class NoActions : public matchspec::MatchSpecActions {
public:
    Term process_dump(Process* p) override { return matchspec::process_dump_binary(p); }
    bool live() const override { return false; }
};

MagicHandle* new_spec_handle(MatchSpec* ms) {
    auto* h = new MagicHandle();
    h->destructor = destroy_spec_handle;
    h->data = ms;
    return h;
}

MatchSpec* spec_of(Term t) {
    if (!is_magic_ref(t) || magic_handle(t)->destructor != destroy_spec_handle) return nullptr;
    return static_cast<MatchSpec*>(magic_handle(t)->data);
}

Term spec_term(Process* p, MatchSpec* ms) {
    Word n = next_ref_number(p);
    Word id[3] = {n & 0x3FFFF, n >> 18, 0};
    return make_magic_ref(p, id, new_spec_handle(ms));
}

// A compiled spec for [source] in a new magic ref (its lifetime follows the term), or 0.
// The match spec [source] compiled, as a magic reference (its MatchSpec in [*out]); raises
// badarg for a bad one, system_limit for one nested too deep (OTP).
Term compile_spec(Process* p, Term source, MatchSpec** out) {
    bool too_deep = false;
    MatchSpec* ms = MatchSpec::compile_table(p->vm, source, nullptr, &too_deep);
    if (!ms) return p->error(too_deep ? atoms::system_limit : atoms::badarg);
    *out = ms;
    return spec_term(p, ms);
}

bool is_variable_atom(Term t) {
    if (!is_atom(t)) return false;
    const std::string& s = atom_text(t);
    if (s == "_") return true;
    if (s.size() < 2 || s[0] != '$') return false;
    return std::all_of(s.begin() + 1, s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// Whether [t] holds no pattern variables (so a head's key is a constant).
bool ground(Term t) {
    if (is_atom(t)) return !is_variable_atom(t);
    if (is_list(t)) return ground(car(t)) && ground(cdr(t));
    if (is_tuple(t)) {
        for (Word i = 0; i < tuple_arity(t); ++i)
            if (!ground(tuple_element(t, i))) return false;
        return true;
    }
    if (is_map(t)) return false;  // keep it simple: maps scan
    return true;
}

// The keys a spec's clauses bind (few: one a clause).
using KeyList = WorkStack<Term, 8>;

// The keys every clause of [source] binds, if each clause's head has a constant key.
bool bound_keys(const Table& t, Term source, KeyList* keys) {
    for (Term l = source; is_list(l); l = cdr(l)) {
        Term clause = car(l);
        if (!is_tuple(clause) || tuple_arity(clause) != 3) return false;
        Term head = tuple_element(clause, 0);
        if (!is_tuple(head) || tuple_arity(head) < t.keypos()) return false;
        Term key = tuple_element(head, t.keypos() - 1);
        if (!ground(key)) return false;
        bool seen = false;
        for (std::size_t i = 0; i < keys->size(); ++i) {
            Term k = keys->data()[i];
            seen = seen || (t.is_hash() ? terms_exact_equal(k, key) : terms_equal(k, key));
        }
        if (!seen) keys->push_back(key);
    }
    return !keys->empty();
}

// What a traversal does with each object a spec matches.
enum class Mode { Select, Count, Delete, Replace };

struct Scan {
    Process* p;
    Table& table;
    const MatchSpec& ms;
    Mode mode;
    NoActions actions;
    Term results = NIL;           // Select: built reversed
    Word count = 0;
    std::vector<DbObject*> to_delete;
    std::vector<std::pair<DbObject*, Term>> to_replace;

    Scan(Process* p_, Table& t, const MatchSpec& m, Mode md) : p(p_), table(t), ms(m), mode(md) {}

    // Runs the spec on [o]; true if it matched (for the limit).
    bool visit(DbObject* o) {
        MatchSpec::Result r = ms.run(p, &o->tuple, 1, actions);
        if (!r.matched) return false;
        switch (mode) {
        case Mode::Select: results = cons(p, copy_to_heap(p, r.message), results); return true;
        case Mode::Count:
            if (r.message != atoms::true_) return false;
            ++count;
            return true;
        case Mode::Delete:
            if (r.message != atoms::true_) return false;
            to_delete.push_back(o);
            return true;
        case Mode::Replace: {
            Term n = r.message;
            if (!is_tuple(n) || tuple_arity(n) < table.keypos()) return false;
            Term old_key = o->element(table.keypos()), new_key = tuple_element(n, table.keypos() - 1);
            bool same = table.is_hash() ? terms_exact_equal(old_key, new_key) : terms_equal(old_key, new_key);
            if (!same) return false;
            to_replace.emplace_back(o, copy_to_heap(p, n));
            return true;
        }
        }
        return false;
    }

    // Applies deletions and replacements collected during the walk (write lock held).
    void finish() {
        for (DbObject* o : to_delete) table.erase(o);
        for (auto& [o, n] : to_replace) table.replace(o, n);
        if (!to_delete.empty()) table.try_shrink();
        count += to_delete.size() + to_replace.size();
    }
};

// Whether the body expression [built] (of a select_replace clause) always builds the term that
// the head pattern [matched] matched: the same variables and constants in the same structure,
// tuples written {{...}} or {const, ...}; a constant part may hold no variable. (OTP's rule.)
bool builds_matched(Term matched, Term built, bool constant) {
    BEAMLET_CACHED_ATOM(const_, "const");
    if (is_list(built)) {
        return is_list(matched) && builds_matched(car(matched), car(built), constant) &&
               builds_matched(cdr(matched), cdr(built), constant);
    }
    if (is_tuple(built)) {
        if (!constant) {
            if (tuple_arity(built) == 1 && is_tuple(tuple_element(built, 0))) {
                built = tuple_element(built, 0);  // {{...}}: a tuple construction
            } else if (tuple_arity(built) == 2 && tuple_element(built, 0) == const_) {
                return builds_matched(matched, tuple_element(built, 1), true);
            } else {
                return false;  // a function call, or not a construction
            }
        }
        if (!is_tuple(matched) || tuple_arity(matched) != tuple_arity(built)) return false;
        for (Word i = 0; i < tuple_arity(built); ++i)
            if (!builds_matched(tuple_element(matched, i), tuple_element(built, i), constant)) return false;
        return true;
    }
    if (is_map(built)) return false;  // the matched map may hold more pairs
    if (is_boxed(built)) return terms_exact_equal(matched, built);
    if (matched != built) return false;
    if (is_atom(matched)) {
        const std::string& name = atom_text(matched);
        if (name == "_" || name == "$$" || name == "$_") return false;
        if (constant && is_variable_atom(matched)) return false;
    }
    return true;
}

// Whether every clause of a select_replace spec keeps the object's key, as OTP checks it
// before running: the body is '$_', or one tuple construction ({{...}} or {const, {...}})
// whose key element builds what the head's key matched, or is {element, KeyPos, '$_'}.
bool keeps_key(const Table& t, Term source) {
    BEAMLET_CACHED_ATOM(whole, "$_");
    BEAMLET_CACHED_ATOM(const_, "const");
    BEAMLET_CACHED_ATOM(element, "element");
    if (!is_list(source)) return false;
    const Word pos = t.keypos();
    for (Term l = source; is_list(l); l = cdr(l)) {
        Term clause = car(l);
        if (!is_tuple(clause) || tuple_arity(clause) != 3) return false;
        Term head = tuple_element(clause, 0), body = tuple_element(clause, 2);
        if (!is_list(body) || !is_nil(cdr(body))) return false;
        Term e = car(body);
        if (e == whole) continue;
        if (!is_tuple(e) || !is_tuple(head) || tuple_arity(head) < pos) return false;
        bool constant = tuple_arity(e) == 2 && tuple_element(e, 0) == const_;
        if (!constant && tuple_arity(e) != 1) return false;
        Term built = tuple_element(e, constant ? 1 : 0);
        if (!is_tuple(built) || tuple_arity(built) < pos) return false;
        Term head_key = tuple_element(head, pos - 1), built_key = tuple_element(built, pos - 1);
        if (builds_matched(head_key, built_key, constant)) continue;
        if (constant) return false;
        bool element_of_object = is_tuple(built_key) && tuple_arity(built_key) == 3 &&
                                 tuple_element(built_key, 0) == element &&
                                 tuple_element(built_key, 1) == make_small(SWord(pos)) &&
                                 tuple_element(built_key, 2) == whole;
        if (!element_of_object) return false;
    }
    return true;
}

// A one-clause spec on an ordered_set whose key is a tuple with its first elements bound
// ({a, b, '_'}): the key pattern, and how many leading elements are bound; 0 otherwise. The
// keys it can match are one range of the key order, as OTP's partly bound keys.
Word partly_bound_key(const Table& t, Term source, Term* pattern) {
    if (t.is_hash() || !is_list(source) || !is_nil(cdr(source))) return 0;
    Term clause = car(source);
    if (!is_tuple(clause) || tuple_arity(clause) != 3) return 0;
    Term head = tuple_element(clause, 0);
    if (!is_tuple(head) || tuple_arity(head) < t.keypos()) return 0;
    Term key = tuple_element(head, t.keypos() - 1);
    if (!is_tuple(key)) return 0;
    Word bound = 0;
    while (bound < tuple_arity(key) && ground(tuple_element(key, bound))) ++bound;
    *pattern = key;
    return bound;
}

// The buckets of a hash table that hold [keys], each once, in the order of the keys (OTP's
// analyze_pattern: a spec whose every clause binds the key searches only those buckets, whole).
void key_buckets(const Table& t, const KeyList& keys, WorkStack<Word, 8>* buckets) {
    for (std::size_t i = 0; i < keys.size(); ++i) {
        Word b;
        if (!t.find_bucket(keys.data()[i], &b)) continue;
        if (std::find(buckets->data(), buckets->data() + buckets->size(), b) == buckets->data() + buckets->size())
            buckets->push_back(b);
    }
}

// Runs [scan] over the whole table, or only the keys its spec binds, or only the range of
// keys a partly bound key allows.
void scan_all(Scan& scan, Term source) {
    KeyList keys;
    if (bound_keys(scan.table, source, &keys)) {
        WorkStack<DbObject*, 16> objs;
        auto visit_all = [&] {
            for (std::size_t i = 0; i < objs.size(); ++i) scan.visit(objs.data()[i]);
            objs.clear();
        };
        if (scan.table.is_hash()) {
            WorkStack<Word, 8> buckets;
            key_buckets(scan.table, keys, &buckets);
            for (std::size_t i = 0; i < buckets.size(); ++i) {
                scan.table.for_bucket(buckets.data()[i], [&](DbObject* o) { objs.push_back(o); });
                visit_all();
            }
            return;
        }
        for (std::size_t i = 0; i < keys.size(); ++i) {
            scan.table.for_key(keys.data()[i], [&](DbObject* o) { objs.push_back(o); });
            visit_all();
        }
        return;
    }
    Term pattern = 0;
    if (Word bound = partly_bound_key(scan.table, source, &pattern)) {
        Word arity = tuple_arity(pattern);
        auto where = [&](Term key) -> int {
            if (!is_tuple(key)) return ets::compare_keys(key, pattern);  // decided by the type
            if (tuple_arity(key) != arity) return tuple_arity(key) < arity ? -1 : 1;
            for (Word i = 0; i < bound; ++i)
                if (int c = ets::compare_keys(tuple_element(key, i), tuple_element(pattern, i))) return c;
            return 0;
        };
        std::vector<DbObject*> objs;
        scan.table.walk_range(where, [&](DbObject* o) {
            objs.push_back(o);
            return true;
        });
        for (DbObject* o : objs) scan.visit(o);
        return;
    }
    scan.table.walk_all([&](DbObject* o) {
        scan.visit(o);
        return true;
    });
}

// Where a hash table's select with a limit stands: the next bucket to visit (-1: none), and
// the matches found and not yet returned (newest first), as OTP's continuation
// {Tid, Slot, Limit, MS, Rest, RestSize} keeps them.
struct HashChunk {
    SWord slot = 0;
    Term rest = NIL;
    Word got = 0;
    bool continued = false;  // a select/1 call (or past an OTP trap): the rest is kept reversed
};

// One chunk of a hash table's select/3, or its continuation, as OTP's db_select_chunk_hash: it
// visits whole buckets until it has [limit] matches, conses each match onto the list, and
// returns the oldest [limit] of them; the newer ones wait in the continuation. OTP stops every
// 1,000 objects to yield, and a select that yielded keeps its leftover matches reversed.
Term select_chunk_hash(Process* p, Table& t, Term tid, Term ms_ref, const MatchSpec& ms, Word limit,
                       HashChunk at, Term source) {
    constexpr SWord YIELD_EVERY = 1000;
    Scan scan(p, t, ms, Mode::Select);
    scan.results = at.rest;
    KeyList keys;
    if (source != 0 && bound_keys(t, source, &keys)) {
        WorkStack<Word, 8> buckets;
        key_buckets(t, keys, &buckets);
        for (std::size_t i = 0; i < buckets.size(); ++i)
            t.for_bucket(buckets.data()[i], [&](DbObject* o) { at.got += scan.visit(o); });
        at.slot = -1;
    } else if (at.slot >= 0 && !(at.continued && at.got >= limit)) {
        SWord budget = YIELD_EVERY;
        for (Word b = Word(at.slot);;) {
            t.for_bucket(b, [&](DbObject* o) {
                at.got += scan.visit(o);
                --budget;
            });
            if ((b = t.next_bucket(b)) == 0) {
                at.slot = -1;
                break;
            }
            at.slot = SWord(b);
            if (at.got >= limit) break;
            if (budget <= 0) {
                budget = YIELD_EVERY;
                at.continued = true;
            }
        }
    }
    Term chunk = scan.results, rest = NIL;
    Word rest_size = 0;
    if (at.got > limit) {
        rest_size = at.got - limit;
        if (at.continued) {
            for (Word i = 0; i < rest_size; ++i, chunk = cdr(chunk)) rest = cons(p, car(chunk), rest);
        } else {
            Term* tail = &rest;
            for (Word i = 0; i < rest_size; ++i, chunk = cdr(chunk)) {
                *tail = cons(p, car(chunk), NIL);
                tail = &list_ptr(*tail)[1];
            }
        }
    }
    if (rest != NIL || at.slot >= 0)
        return make_tuple_on(p, {chunk, make_tuple_on(p, {tid, make_small(at.slot), make_small(SWord(limit)), ms_ref,
                                                          rest, make_small(SWord(rest_size))})});
    if (chunk != NIL) return make_tuple_on(p, {chunk, am_end_of_table()});
    return am_end_of_table();
}

// select/match with a limit on an ordered_set: one chunk from a position. Continuations are
// {Tid, LastKey, '$end_of_table', Limit, MS, [], Reverse, 0} (the shape ets:repair_continuation
// knows).
Term select_chunk_tree(Process* p, Table& t, Term tid, Term ms_ref, const MatchSpec& ms, Word limit, bool reverse,
                       Term last_key) {
    Scan scan(p, t, ms, Mode::Select);
    Word matched = 0;
    Term cont = am_end_of_table();
    Term last = 0;
    bool more = false;
    t.walk_tree(last_key, last_key == 0, reverse, [&](DbObject* o) {
        if (matched == limit) {
            more = true;
            return false;
        }
        if (scan.visit(o)) ++matched;
        last = o->element(t.keypos());
        return true;
    });
    if (more || (matched == limit && last)) {
        Term key = copy_to_heap(p, last);
        Term* hp = p->alloc(9);
        hp[0] = make_arityval(8);
        hp[1] = tid;
        hp[2] = key;
        hp[3] = am_end_of_table();
        hp[4] = make_small(SWord(limit));
        hp[5] = ms_ref;
        hp[6] = NIL;
        hp[7] = make_small(reverse);
        hp[8] = make_small(0);
        cont = make_boxed(hp);
    }
    if (matched == 0 && cont == am_end_of_table()) return am_end_of_table();
    // The chunk in traversal order (descending keys for select_reverse).
    return make_tuple_on(p, {::beamlet::bif::reverse(p, scan.results), cont});
}

// The specs that select/match/match_object compiled last on this scheduler thread. Callers
// pass the same spec again and again (Mnesia's lock and index code at every transaction), and
// beamlet's compiler costs more than a look-up: a spec is found by its hash and =:=. A
// select runs to its end without yielding, so a spec it uses is not evicted under it.
class RecentSpecs {
public:
    // The compiled [source], or null (badarg; [*too_deep] set for system_limit).
    const MatchSpec* find_or_compile(Vm& vm, Term source, bool* too_deep) {
        std::uint64_t hash = shape_hash(source);
        for (Entry& e : m_entries)
            if (e.spec && e.hash == hash && terms_exact_equal(e.spec->source(), source)) return e.spec.get();
        // A miss: the oldest entry's spec is compiled over (its storage reused).
        Entry& slot = m_entries[m_next++ % m_entries.size()];
        slot.hash = hash;
        if (slot.spec) {
            if (slot.spec->recompile_table(vm, source, too_deep)) return slot.spec.get();
            slot.spec.reset();
            return nullptr;
        }
        slot.spec.reset(MatchSpec::compile_table(vm, source, nullptr, too_deep));
        return slot.spec.get();
    }

private:
    struct Entry {
        std::uint64_t hash = 0;
        std::unique_ptr<MatchSpec> spec;
    };

    // A cheap hash for the cache, a multiply a node (FNV-1a over words): =:= terms hash
    // alike, as immediates and tuple headers are their words and other boxed terms hash
    // as map keys do.
    static std::uint64_t shape_hash(Term t) {
        std::uint64_t h = 0xcbf29ce484222325u;
        WorkStack<Term> pending(t);
        while (!pending.empty()) {
            Term u = pending.pop();
            std::uint64_t w;
            if (is_list(u)) {
                w = 0x5bd1e995u;
                pending.push_back(cdr(u));
                pending.push_back(car(u));
            } else if (!is_boxed(u)) {
                w = u;
            } else if (is_tuple(u)) {
                w = boxed_header(u);
                for (Word i = tuple_arity(u); i-- > 0;) pending.push_back(tuple_element(u, i));
            } else {
                w = make_internal_hash(u);
            }
            h = (h ^ w) * 0x100000001b3u;
        }
        return h;
    }
    std::array<Entry, 8> m_entries;
    unsigned m_next = 0;
};
thread_local RecentSpecs t_recent_specs;

// select(Tab, MS) / select_reverse / select_count / select_delete / select_replace.
Term select_all(Process* p, Term id, Term source, Mode mode, bool reverse) {
    Need need = mode == Mode::Select || mode == Mode::Count ? Need::Read : Need::Write;
    return with_table(p, id, need, [&](Table& t) -> Term {
        if (mode == Mode::Replace && t.kind() == Kind::Bag) return p->badarg(atom("table_type"));
        if (mode == Mode::Replace && !keeps_key(t, source)) return p->badarg();
        bool too_deep = false;
        const MatchSpec* ms = t_recent_specs.find_or_compile(p->vm, source, &too_deep);
        if (!ms) return p->error(too_deep ? atoms::system_limit : atoms::badarg);
        Scan scan(p, t, *ms, mode);
        scan_all(scan, source);
        switch (mode) {
        case Mode::Select: {
            // An ordered_set's results in key order (reversed for select_reverse). A hash
            // table's in the reverse of its traversal order: OTP conses each match onto the
            // list as it walks the buckets.
            if (t.is_hash() || reverse) return scan.results;
            return ::beamlet::bif::reverse(p, scan.results);
        }
        case Mode::Count: return make_small(SWord(scan.count));
        case Mode::Delete:
        case Mode::Replace: scan.finish(); return make_small(SWord(scan.count));
        }
        return NIL;
    });
}

Term select_limited(Process* p, Term id, Term source, Term limit, bool reverse) {
    if (!table_usable(p, id, Need::Read)) return THE_NON_VALUE;
    if (!is_pos_small(limit)) return p->badarg();
    TableRef ref;
    if (!ref.resolve(p->vm, id)) return no_table(p, id);
    MatchSpec* ms = nullptr;
    Term ms_ref = compile_spec(p, source, &ms);
    if (ms_ref == THE_NON_VALUE) return ms_ref;
    return with_table(p, id, Need::Read, [&](Table& t) -> Term {
        Word n = Word(small_value(limit));
        if (t.is_hash()) return select_chunk_hash(p, t, tid_term(p, &t), ms_ref, *ms, n, HashChunk{}, source);
        return select_chunk_tree(p, t, tid_term(p, &t), ms_ref, *ms, n, reverse, 0);
    });
}

Term select_continue(Process* p, Term cont) {
    if (cont == am_end_of_table()) return cont;
    if (!is_tuple(cont)) return p->badarg();
    Word n = tuple_arity(cont);
    if (n != 6 && n != 8) return p->badarg();
    Term tid = tuple_element(cont, 0);
    Term ms_ref = tuple_element(cont, n == 6 ? 3 : 4);
    Term limit = tuple_element(cont, n == 6 ? 2 : 3);
    MatchSpec* ms = spec_of(ms_ref);
    if (!ms || !is_pos_small(limit) || !is_magic_ref(tid)) return p->badarg();
    if (n == 6) {
        // A hash table's {Tid, Slot, Limit, MS, Rest, RestSize}.
        HashChunk at;
        Term slot = tuple_element(cont, 1), rest = tuple_element(cont, 4), got = tuple_element(cont, 5);
        if (!is_small(slot) || !(is_list(rest) || is_nil(rest)) || !is_small(got) || small_value(got) < 0)
            return p->badarg();
        at.slot = small_value(slot);
        at.rest = rest;
        at.got = Word(small_value(got));
        at.continued = true;
        return with_table(p, tid, Need::Read, [&](Table& t) -> Term {
            if (!t.is_hash() || at.slot >= SWord(t.bucket_count())) return p->badarg();
            return select_chunk_hash(p, t, tid, ms_ref, *ms, Word(small_value(limit)), at, 0);
        });
    }
    Term rev = tuple_element(cont, 6);
    if (!is_small(rev)) return p->badarg();
    return with_table(p, tid, Need::Read, [&](Table& t) -> Term {
        if (t.is_hash()) return p->badarg();
        return select_chunk_tree(p, t, tid, ms_ref, *ms, Word(small_value(limit)), small_value(rev) != 0,
                                 tuple_element(cont, 1));
    });
}

// The spec of match/2 ([{Pattern, [], ['$$']}]) and match_object/2 ([{Pattern, [], ['$_']}]).
Term pattern_spec(Process* p, Term pattern, bool object) {
    static const Term all_vars = atom("$$"), whole = atom("$_");
    Term body = cons(p, object ? whole : all_vars, NIL);
    return cons(p, make_tuple_on(p, {pattern, NIL, body}), NIL);
}

// ---- new and its options ------------------------------------------------------------------------

struct Options {
    Kind kind = Kind::Set;
    Access access = Access::Protected;
    bool named = false, rc = false, wc = false, compressed = false, dc = false;
    Term wc_option = 0;  // write_concurrency's value as given, when not false
    Word locks = 64;     // OTP's lock count with write_concurrency
    Word keypos = 1;
    Term heir = 0, heir_data = 0;
};

bool parse_options(Term list, Options* o) {
    BEAMLET_CACHED_ATOM(set, "set");
    BEAMLET_CACHED_ATOM(ordered_set, "ordered_set");
    BEAMLET_CACHED_ATOM(bag, "bag");
    BEAMLET_CACHED_ATOM(duplicate_bag, "duplicate_bag");
    BEAMLET_CACHED_ATOM(public_, "public");
    BEAMLET_CACHED_ATOM(protected_, "protected");
    BEAMLET_CACHED_ATOM(private_, "private");
    BEAMLET_CACHED_ATOM(named_table, "named_table");
    BEAMLET_CACHED_ATOM(compressed, "compressed");
    BEAMLET_CACHED_ATOM(keypos, "keypos");
    BEAMLET_CACHED_ATOM(heir, "heir");
    BEAMLET_CACHED_ATOM(none, "none");
    BEAMLET_CACHED_ATOM(write_concurrency, "write_concurrency");
    BEAMLET_CACHED_ATOM(read_concurrency, "read_concurrency");
    BEAMLET_CACHED_ATOM(decentralized_counters, "decentralized_counters");
    BEAMLET_CACHED_ATOM(auto_, "auto");
    for (; is_list(list); list = cdr(list)) {
        Term opt = car(list);
        if (opt == set) o->kind = Kind::Set;
        else if (opt == ordered_set) o->kind = Kind::OrderedSet;
        else if (opt == bag) o->kind = Kind::Bag;
        else if (opt == duplicate_bag) o->kind = Kind::DuplicateBag;
        else if (opt == public_) o->access = Access::Public;
        else if (opt == protected_) o->access = Access::Protected;
        else if (opt == private_) o->access = Access::Private;
        else if (opt == named_table) o->named = true;
        else if (opt == compressed) o->compressed = true;
        else if (is_tuple(opt) && tuple_arity(opt) == 2) {
            Term k = tuple_element(opt, 0), v = tuple_element(opt, 1);
            bool is_bool = v == atoms::true_ || v == atoms::false_;
            if (k == keypos && is_pos_small(v)) o->keypos = Word(small_value(v));
            else if (k == heir && v == none) o->heir = 0;
            else if (k == write_concurrency && (is_bool || v == auto_)) {
                o->wc = v != atoms::false_;
                o->wc_option = o->wc ? v : 0;
                o->locks = 64;
            }
            // OTP's test knob: a number of locks (at least 64); one lock here, the number reported.
            else if (k == write_concurrency && is_tuple(v) && tuple_arity(v) == 2 &&
                     tuple_element(v, 0) == atom("debug_hash_fixed_number_of_locks") && is_small(tuple_element(v, 1)) &&
                     small_value(tuple_element(v, 1)) > 0) {
                o->wc = true;
                o->locks = std::max<Word>(64, Word(small_value(tuple_element(v, 1))));
                o->wc_option = v;
            }
            else if (k == read_concurrency && is_bool) o->rc = v == atoms::true_;
            else if (k == decentralized_counters && is_bool) o->dc = v == atoms::true_;
            else return false;
        } else if (is_tuple(opt) && tuple_arity(opt) == 3 && tuple_element(opt, 0) == heir &&
                   is_pid(tuple_element(opt, 1))) {
            o->heir = tuple_element(opt, 1);
            o->heir_data = tuple_element(opt, 2);
        } else {
            return false;
        }
    }
    return is_nil(list);
}

void set_heir(Process* p, Table& t, Term heir, Term data) {
    free_fragment(t.heir_fragment);
    t.heir_fragment = nullptr;
    t.heir = 0;
    t.heir_data = 0;
    Process* h = is_pid(heir) ? p->vm.find_process(heir) : nullptr;
    if (h) {
        t.heir = heir;
        t.heir_incarnation = h->incarnation;
        t.heir_fragment = copy_to_fragment(data, &t.heir_data);
    }
}

// ---- info ---------------------------------------------------------------------------------------

Term kind_atom(Kind k) {
    switch (k) {
    case Kind::Set: return atom("set");
    case Kind::OrderedSet: return atom("ordered_set");
    case Kind::Bag: return atom("bag");
    case Kind::DuplicateBag: return atom("duplicate_bag");
    }
    return atom("set");
}

Term access_atom(Access a) {
    switch (a) {
    case Access::Public: return atom("public");
    case Access::Protected: return atom("protected");
    case Access::Private: return atom("private");
    }
    return atom("protected");
}

// info/2 for [item] (read lock held); 0 for an unknown item.
Term info_item(Process* p, Table& t, Term item) {
    const std::string& s = is_atom(item) ? atom_text(item) : std::string();
    if (s == "id") return tid_term(p, &t);
    if (s == "decentralized_counters") return make_bool(t.decentralized_counters);
    if (s == "read_concurrency") return make_bool(t.read_concurrency);
    if (s == "write_concurrency") {
        Term v = t.write_concurrency_option;
        if (!v) return atoms::false_;
        if (is_tuple(v))  // {debug_hash_fixed_number_of_locks, N}: the number in use
            return make_tuple_on(p, {tuple_element(v, 0), make_small(SWord(t.lock_count))});
        return v;
    }
    if (s == "binary") {
        // {Address, Size, RefCount} of each reference-counted binary the objects hold.
        Term list = NIL;
        t.for_each_stored([&](const DbObject* o) {
            for (Term* obj = o->off_heap_first; obj; obj = reinterpret_cast<Term*>(obj[4])) {
                if (header_subtag(obj[0]) != Subtag::RefcBin) continue;
                auto* buf = reinterpret_cast<BinaryBuf*>(obj[2]);
                Term entry = make_tuple_on(p, {make_integer_u64(p, reinterpret_cast<std::uintptr_t>(buf)),
                                               make_small(SWord(buf->size_bytes)), make_small(SWord(buf->refc.load()))});
                list = cons(p, entry, list);
            }
        });
        return list;
    }
    if (s == "stats") {
        if (!t.is_hash()) {
            // OTP's CA tree (write_concurrency): {route nodes, base nodes, depth}; beamlet's
            // ordered_set is one tree, never split.
            if (!t.write_concurrency) return atoms::false_;
            return make_tuple_on(p, {make_small(0), make_small(1), make_small(0)});
        }
        Table::ChainStats c = t.chain_stats();
        return make_tuple_on(p, {make_small(SWord(t.bucket_count())), make_float_checked(p, c.avg),
                                 make_float_checked(p, c.std_dev), make_float_checked(p, c.expected_std_dev),
                                 make_small(SWord(c.min_len)), make_small(SWord(c.max_len)),
                                 make_small(SWord(c.kept)), make_small(SWord(t.lock_count))});
    }
    if (s == "compressed") return make_bool(t.compressed);
    if (s == "memory") return make_small(SWord(t.memory_words()));
    if (s == "owner") return t.owner.load();
    if (s == "heir") return t.heir ? t.heir : atom("none");
    if (s == "name") return t.name;
    if (s == "size") return make_small(SWord(t.size()));
    if (s == "node") return atoms::nonode_at_nohost;
    if (s == "named_table") return make_bool(t.named);
    if (s == "type") return kind_atom(t.kind());
    if (s == "keypos") return make_small(SWord(t.keypos()));
    if (s == "protection") return access_atom(t.access);
    if (s == "fixed") return make_bool(t.fixed());
    if (s == "safe_fixed" || s == "safe_fixed_monotonic_time") {
        if (!t.fixed()) return atoms::false_;
        Term list = NIL;
        for (auto it = t.fixations().rbegin(); it != t.fixations().rend(); ++it)
            list = cons(p, make_tuple_on(p, {it->first, make_small(SWord(it->second))}), list);
        Term when;
        if (s == "safe_fixed") {
            // erlang:timestamp() form of the time of the first fixation.
            std::int64_t us = t.fixed_since_os_us;
            when = make_tuple_on(p, {make_small(us / 1000000000000), make_small(us / 1000000 % 1000000),
                                     make_small(us % 1000000)});
        } else {
            when = make_integer(p, std::int64_t(t.fixed_since));
        }
        return make_tuple_on(p, {when, list});
    }
    return 0;
}

// What a table's owner leaves when it exits, handled a slice at a time: every table it
// fixed is unfixed; every table it owned goes to its heir or is deleted, and the deleted
// tables' objects are freed. A slice is OTP's 4000 reductions: a table costs 100 (erts
// charges each table its exit visits), an object an eighth.
class OwnerExit {
public:
    explicit OwnerExit(Process* dying) : m_dying(dying) {
        Registry& r = registry(dying->vm);
        std::shared_lock lock(r.mutex);
        for (Table* t : r.tables) {
            t->handle->add_ref();
            m_tables.push_back(t);
        }
    }
    OwnerExit(const OwnerExit&) = delete;
    OwnerExit& operator=(const OwnerExit&) = delete;
    ~OwnerExit() {  // (the VM ended in the middle of the exit)
        for (std::size_t i = m_next; i < m_tables.size(); ++i) m_tables[i]->handle->release();
    }

    // One slice; true once everything is done.
    bool slice() {
        constexpr std::size_t SLICE = 4000, TABLE_COST = 100, OBJECTS_PER_UNIT = 8;
        std::size_t budget = SLICE;
        while (budget > 0) {
            if (m_garbage && !m_garbage->free_some(budget * OBJECTS_PER_UNIT)) return false;
            m_garbage.reset();
            if (m_next == m_tables.size()) return true;
            leave(m_tables[m_next++]);
            budget = budget > TABLE_COST ? budget - TABLE_COST : 0;
        }
        return m_next == m_tables.size() && !m_garbage;
    }

private:
    void leave(Table* t) {
        Term pid = m_dying->id;
        bool owned = false;
        Term heir = 0;
        HeapFragment* data_frag = nullptr;
        Term data = 0;
        {
            std::unique_lock lock(t->lock);
            if (!t->dead.load()) {
                if (t->fixed()) t->unfix_all(pid);
                if (t->owner.load() == pid) {
                    owned = true;
                    if (t->heir && t->heir != pid) {
                        std::shared_ptr<Process> h = m_dying->vm.lookup_process(t->heir);
                        // The heir itself, not a process given its pid since.
                        if (h && h->incarnation == t->heir_incarnation) {
                            heir = t->heir;
                            t->owner.store(heir);
                            mark_user(h.get());
                            data_frag = copy_to_fragment(t->heir_data, &data);
                        }
                    }
                }
            }
        }
        if (owned && heir) {
            // {'ETS-TRANSFER', Tab, FromPid, HeirData}
            Term ref_words[MAGIC_REF_WORDS];
            Term tab = t->name;
            if (!t->named) {
                ref_words[0] = make_header(MAGIC_REF_WORDS - 1, Subtag::Ref);
                std::copy(t->tid_id, t->tid_id + 3, ref_words + 1);
                ref_words[4] = 0;
                ref_words[5] = reinterpret_cast<Word>(t->handle);
                tab = make_boxed(ref_words);
            }
            Term msg[5] = {make_arityval(4), atom("ETS-TRANSFER"), tab, pid, data};
            m_dying->vm.send_message(nullptr, heir, make_boxed(msg));
            free_fragment(data_frag);
        } else if (owned) {
            std::vector<DbObject*> objects;
            delete_table(t, &objects);
            if (!objects.empty()) m_garbage = std::make_unique<DetachedObjects>(std::move(objects));
        }
        t->handle->release();
    }

    Process* m_dying;
    std::vector<Table*> m_tables;  // each referenced until it is left
    std::size_t m_next = 0;
    std::unique_ptr<DetachedObjects> m_garbage;  // the objects of the table deleted last
};

// The owner of tables exits: the first slice now, the rest (if any) as the work returned.
std::function<bool()> owner_exited(Process* dying) {
    auto exit = std::make_shared<OwnerExit>(dying);
    if (exit->slice()) return nullptr;
    return [exit] { return exit->slice(); };
}

}  // namespace
}  // namespace beamlet::bif

std::function<bool()> beamlet::ets::Registry::process_exited(beamlet::vm::Process* p) {
    return beamlet::bif::owner_exited(p);
}

namespace beamlet::bif {

void install_ets(Vm& vm) { vm.services.ets = std::make_unique<Registry>(); }

// ---- creating and deleting ----------------------------------------------------------------------

Term bif_ets_new(Process* p, Term* a) {
    Options o;
    if (!is_atom(a[0]) || !parse_options(a[1], &o)) return p->badarg();
    auto* t = new Table(o.kind, o.access, o.keypos);
    t->name = a[0];
    t->named = o.named;
    t->read_concurrency = o.rc;
    if (o.rc) t->lock.use_reader_groups();
    // Fine-grained locking is off with one scheduler, as in OTP (info says false).
    t->write_concurrency = o.wc && o.access != Access::Private &&
                           p->vm.schedulers && p->vm.schedulers->count() > 1;
    if (t->write_concurrency) {
        t->write_concurrency_option = o.wc_option;
        t->lock_count = o.locks;
    }
    t->compressed = o.compressed;
    t->decentralized_counters = o.dc;
    t->owner.store(p->id);
    set_heir(p, *t, o.heir, o.heir_data);
    Word n = next_ref_number(p);
    t->tid_id[0] = n & 0x3FFFF;
    t->tid_id[1] = n >> 18;
    auto* h = new MagicHandle();
    h->destructor = destroy_table_handle;
    h->data = t;
    t->handle = h;
    Registry& r = registry(p->vm);
    t->registry = &r;
    {
        std::unique_lock lock(r.mutex);
        if (o.named) {
            if (r.names.count(a[0])) {
                lock.unlock();
                h->release();
                return p->badarg(atom("already_exists"));
            }
            r.names.emplace(a[0], t);
        }
        r.tables.push_back(t);  // the registry keeps the handle's first reference
    }
    mark_user(p);
    return o.named ? a[0] : tid_term(p, t);
}

Term bif_ets_delete1(Process* p, Term* a) {
    TableRef ref;
    if (!ref.resolve(p->vm, a[0])) return no_table(p, a[0]);
    Table* t = ref.get();
    {
        std::shared_lock lock(t->lock);
        if (t->dead.load()) return p->badarg(atom("id"));
        if (!(t->access == Access::Public || t->owner.load() == p->id)) return p->badarg(atom("access"));
    }
    std::vector<DbObject*> objects;
    if (!delete_table(t, &objects)) return p->badarg(atom("id"));
    if (objects.size() <= FREE_PER_SLICE) {  // freed within this call's slice: no trap
        DetachedObjects{std::move(objects)};
        return atoms::true_;
    }
    // OTP's trap function, which its trace events name.
    const Export* self = p->vm.exports.get(atom("ets"), atom("delete_trap"), 1);
    return free_in_slices(p, std::make_shared<DetachedObjects>(std::move(objects)), atoms::true_, self);
}

Term bif_ets_whereis(Process* p, Term* a) {
    if (!is_atom(a[0])) return p->badarg();
    TableRef ref;
    if (!ref.resolve(p->vm, a[0]) || ref.get()->dead.load()) return atoms::undefined;
    return tid_term(p, ref.get());
}

std::size_t ets_table_count(Vm& vm) {
    Registry& r = registry(vm);
    std::shared_lock lock(r.mutex);
    return r.tables.size();
}

Term ets_colliding_names(Process* p, Term name, Word count) {
    Registry& r = registry(p->vm);
    std::size_t buckets, home;
    {
        std::shared_lock lock(r.mutex);
        buckets = r.names.bucket_count();
        home = r.names.bucket(name);
    }
    const auto hash = r.names.hash_function();
    const std::string base = atom_text(name) + "_";
    Term names = NIL;
    for (Word i = 1, found = 0; found < count && i < (Word(1) << 24); ++i) {
        Term candidate = atom(base + std::to_string(i));
        if (hash(candidate) % buckets != home) continue;
        names = make_cons_on(p->alloc(2), candidate, names);
        ++found;
    }
    return names;
}

Term ets_tid_of_ref(Process* p, const Word ids[3]) {
    Registry& r = registry(p->vm);
    std::shared_lock lock(r.mutex);
    for (Table* t : r.tables)
        if (std::equal(ids, ids + 3, t->tid_id) && !t->dead.load(std::memory_order_acquire)) return tid_term(p, t);
    return THE_NON_VALUE;
}

Term bif_ets_internal_request_all(Process* p, Term*) {
    // ets:all/0 waits for one answer per scheduler: the first has every table.
    Term ref = new_ref(p);
    Term list = NIL;
    {
        Registry& r = registry(p->vm);
        std::shared_lock lock(r.mutex);
        for (auto it = r.tables.rbegin(); it != r.tables.rend(); ++it) list = cons(p, table_id(p, *it), list);
    }
    SWord schedulers = p->vm.schedulers ? SWord(p->vm.schedulers->count()) : 1;
    for (SWord i = 0; i < schedulers; ++i)
        p->vm.send_message(nullptr, p->id, make_tuple_on(p, {ref, i == 0 ? list : NIL}));
    return ref;
}

// ---- writing ------------------------------------------------------------------------------------

// A list inserted costs a reduction per 8 objects (OTP's ITERATIONS_PER_RED), so that a loop of
// long inserts gives way to others as on erl.
constexpr std::size_t INSERTS_PER_REDUCTION = 8;

Term bif_ets_insert(Process* p, Term* a) {
    Term objs = a[1];
    return with_table(p, a[0], Need::Write, [&](Table& t) -> Term {
        if (is_tuple(objs)) {
            if (!valid_object(t, objs)) return p->badarg();
            t.insert(objs);
            return atoms::true_;
        }
        Term l = objs;
        std::size_t n = 0;
        for (; is_list(l); l = cdr(l), ++n)
            if (!valid_object(t, car(l))) return p->badarg();
        if (!is_nil(l)) return p->badarg();
        for (l = objs; is_list(l); l = cdr(l)) t.insert(car(l));
        charge_work(p, n, INSERTS_PER_REDUCTION);
        return atoms::true_;
    });
}

Term bif_ets_insert_new(Process* p, Term* a) {
    Term objs = a[1];
    return with_table(p, a[0], Need::Write, [&](Table& t) -> Term {
        if (is_tuple(objs)) {
            if (!valid_object(t, objs)) return p->badarg();
            return make_bool(t.insert(objs, true));
        }
        Term l = objs;
        std::size_t n = 0;
        for (; is_list(l); l = cdr(l), ++n)
            if (!valid_object(t, car(l))) return p->badarg();
        if (!is_nil(l)) return p->badarg();
        charge_work(p, n, INSERTS_PER_REDUCTION);
        // All or nothing: no key of the list may be present (nor repeated, for a set).
        for (l = objs; is_list(l); l = cdr(l))
            if (t.contains(tuple_element(car(l), t.keypos() - 1))) return atoms::false_;
        for (l = objs; is_list(l); l = cdr(l)) t.insert(car(l));
        return atoms::true_;
    });
}

Term bif_ets_delete2(Process* p, Term* a) {
    return with_table(p, a[0], Need::Write, [&](Table& t) -> Term {
        t.erase(a[1]);
        return atoms::true_;
    });
}

Term bif_ets_delete_object(Process* p, Term* a) {
    return with_table(p, a[0], Need::Write, [&](Table& t) -> Term {
        if (!valid_object(t, a[1])) return p->badarg();
        t.erase_object(a[1]);
        return atoms::true_;
    });
}

namespace {
// The rest of delete_all_objects/1 on the table [x[0]] (its tid), answering [count]: while
// a hash table is fixed, its objects are marked pseudo-deleted a slice at a time (they go at
// the last unfix, as OTP's); otherwise (an ordered set, never fixed, or unfixed meanwhile)
// what is left is taken out at once and freed a slice at a time.
Term delete_all_from(Process* p, Term* x, Term count, std::size_t cursor) {
    const Export* self = p->vm.exports.get(atom("ets"), atom("internal_delete_all"), 2);
    std::vector<DbObject*> objects;
    bool marked_all = true;
    Term r = with_table(p, x[0], Need::Write, [&](Table& t) -> Term {
        if (t.fixed() && t.is_hash()) marked_all = t.mark_deleted_some(&cursor, FREE_PER_SLICE);
        else objects = t.detach_all();
        return count;
    });
    if (r == THE_NON_VALUE) {
        p->exception = PendingException{};  // the table went meanwhile: its objects went with it
        return count;
    }
    if (!marked_all)
        return trap_yield(p, self, [count, cursor](Process* q, Term* xs) { return delete_all_from(q, xs, count, cursor); }, 1);
    if (objects.empty()) return count;
    return free_in_slices(p, std::make_shared<DetachedObjects>(std::move(objects)), count, self);
}
}  // namespace

Term bif_ets_internal_delete_all(Process* p, Term* a) {
    Term count = with_table(p, a[0], Need::Write, [&](Table& t) -> Term {
        a[0] = tid_term(p, &t);  // the table itself, whatever it is named meanwhile
        return make_small(SWord(t.size()));
    });
    if (count == THE_NON_VALUE) return count;
    return delete_all_from(p, a, count, 0);
}

Term bif_ets_take(Process* p, Term* a) {
    return with_table(p, a[0], Need::Write, [&](Table& t) -> Term {
        Term l = lookup_list(p, t, a[1]);
        t.erase(a[1]);
        return l;
    });
}

namespace {

// One update_counter operation {Pos, Incr} or {Pos, Incr, Threshold, SetValue}, decoded.
struct CounterOp {
    Word pos;
    Term incr, threshold = 0, set_value = 0;
};

// Why an update_counter operation is bad, as erts's cause: the operation itself (none), the
// key's position, or a position past the object's end.
enum class CounterError { Ok, Bad, Keypos, Position };

CounterError decode_counter_op(const Table& t, Term op, Word arity, CounterOp* out) {
    if (is_integer(op)) {
        *out = CounterOp{t.keypos() + 1, op};
    } else if (is_tuple(op) && (tuple_arity(op) == 2 || tuple_arity(op) == 4)) {
        Term pos = tuple_element(op, 0);
        if (!is_pos_small(pos) || !is_integer(tuple_element(op, 1))) return CounterError::Bad;
        *out = CounterOp{Word(small_value(pos)), tuple_element(op, 1)};
        if (tuple_arity(op) == 4) {
            out->threshold = tuple_element(op, 2);
            out->set_value = tuple_element(op, 3);
            if (!is_integer(out->threshold) || !is_integer(out->set_value)) return CounterError::Bad;
        }
    } else {
        return CounterError::Bad;
    }
    if (out->pos == t.keypos()) return CounterError::Keypos;
    if (out->pos > arity) return CounterError::Position;
    return CounterError::Ok;
}

Term counter_badarg(Process* p, CounterError e) {
    switch (e) {
    case CounterError::Keypos: return p->badarg(atom("keypos"));
    case CounterError::Position: return p->badarg(atom("position"));
    default: return p->badarg();
    }
}

}  // namespace

// One counter operation [op] on stored object [o], done where the object is when the counter
// and its new value are both small integers (the common case: no allocation, no copy). The
// new value, or THE_NON_VALUE to take the general path (which also reports every error).
Term update_counter_in_place(const Table& t, DbObject* o, Term op_term) {
    CounterOp op;
    if (decode_counter_op(t, op_term, tuple_arity(o->tuple), &op) != CounterError::Ok) return THE_NON_VALUE;
    Term* slot = tuple_elements(o->tuple) + (op.pos - 1);
    if (!is_small(*slot) || !is_small(op.incr)) return THE_NON_VALUE;
    SWord incr = small_value(op.incr);
    SWord v = small_value(*slot) + incr;  // two smalls: no overflow in a word
    if (op.threshold) {
        if (!is_small(op.threshold)) return THE_NON_VALUE;
        SWord threshold = small_value(op.threshold);
        if ((incr >= 0 && v > threshold) || (incr < 0 && v < threshold)) {
            if (!is_small(op.set_value)) return THE_NON_VALUE;
            v = small_value(op.set_value);
        }
    }
    if (!fits_small(v)) return THE_NON_VALUE;
    *slot = make_small(v);
    return *slot;
}

// update_counter/3,4: [dflt] is the default object (0 for /3).
Term update_counter(Process* p, Term* a, Term dflt) {
    return with_table(p, a[0], Need::Write, [&](Table& t) -> Term {
        if (t.kind() != Kind::Set && t.kind() != Kind::OrderedSet) return p->badarg(atom("table_type"));
        if (dflt && !valid_object(t, dflt)) return p->badarg();
        DbObject* o = t.find(a[1]);
        Term base;
        if (o) {
            base = o->tuple;
        } else if (dflt) {
            base = dflt;
        } else {
            return p->badarg(atom("badkey"));
        }
        Word arity = tuple_arity(base);
        if (o && (is_small(a[2]) || is_tuple(a[2]))) {
            if (Term v = update_counter_in_place(t, o, a[2]); v != THE_NON_VALUE) return v;
        }
        std::vector<CounterOp> ops;
        bool list = !is_integer(a[2]) && !is_tuple(a[2]);
        if (list) {
            Term l = a[2];
            for (; is_list(l); l = cdr(l)) {
                CounterOp op;
                if (is_integer(car(l))) return p->badarg();
                if (CounterError e = decode_counter_op(t, car(l), arity, &op); e != CounterError::Ok)
                    return counter_badarg(p, e);
                ops.push_back(op);
            }
            if (!is_nil(l)) return p->badarg();
        } else {
            CounterOp op;
            if (CounterError e = decode_counter_op(t, a[2], arity, &op); e != CounterError::Ok)
                return counter_badarg(p, e);
            ops.push_back(op);
        }
        // The new object on the heap: a copy of the old (or default) one, the key set.
        Term* hp = p->alloc(arity + 1);
        hp[0] = make_arityval(arity);
        std::copy(tuple_elements(base), tuple_elements(base) + arity, hp + 1);
        if (!o) hp[t.keypos()] = a[1];  // a stored object keeps its key (1 stays 1 under 1.0)
        std::vector<Term> results;
        for (const CounterOp& op : ops) {
            Term cur = hp[op.pos];
            if (!is_integer(cur)) return p->badarg();
            Term v = arith_plus(p, cur, op.incr);
            if (v == THE_NON_VALUE) return v;
            if (op.threshold) {
                bool up = compare_terms(op.incr, make_small(0)) >= 0;
                int c = compare_terms(v, op.threshold);
                if ((up && c > 0) || (!up && c < 0)) v = op.set_value;
            }
            hp[op.pos] = v;
            results.push_back(v);
        }
        Term obj = make_boxed(hp);
        if (o) t.replace(o, obj);
        else t.insert(obj);
        if (!list) return copy_to_heap(p, results[0]);
        Term out = NIL;
        for (auto it = results.rbegin(); it != results.rend(); ++it) out = cons(p, *it, out);
        return out;
    });
}

Term bif_ets_update_counter3(Process* p, Term* a) { return update_counter(p, a, 0); }
Term bif_ets_update_counter4(Process* p, Term* a) {
    if (!table_usable(p, a[0], Need::Write)) return THE_NON_VALUE;
    if (!is_tuple(a[3])) return p->badarg();
    return update_counter(p, a, a[3]);
}

Term bif_ets_update_element(Process* p, Term* a) {
    return with_table(p, a[0], Need::Write, [&](Table& t) -> Term {
        if (t.kind() != Kind::Set && t.kind() != Kind::OrderedSet) return p->badarg();
        std::vector<std::pair<Word, Term>> changes;
        bool at_key = false;  // a change of the key itself (erts's cause: keypos)
        auto decode = [&](Term c) {
            if (!is_tuple(c) || tuple_arity(c) != 2 || !is_pos_small(tuple_element(c, 0))) return false;
            Word pos = Word(small_value(tuple_element(c, 0)));
            if (pos == t.keypos()) {
                at_key = true;
                return false;
            }
            changes.emplace_back(pos, tuple_element(c, 1));
            return true;
        };
        auto bad = [&] { return at_key ? p->badarg(atom("keypos")) : p->badarg(); };
        if (is_tuple(a[2])) {
            if (!decode(a[2])) return bad();
        } else {
            Term l = a[2];
            for (; is_list(l); l = cdr(l))
                if (!decode(car(l))) return bad();
            if (!is_nil(l)) return p->badarg();
        }
        DbObject* o = t.find(a[1]);
        if (!o) return atoms::false_;
        Word arity = tuple_arity(o->tuple);
        for (auto& [pos, v] : changes)
            if (pos > arity) return p->badarg();
        if (changes.empty()) return atoms::true_;
        Term* hp = p->alloc(arity + 1);
        hp[0] = make_arityval(arity);
        std::copy(tuple_elements(o->tuple), tuple_elements(o->tuple) + arity, hp + 1);
        for (auto& [pos, v] : changes) hp[pos] = v;
        t.replace(o, make_boxed(hp));
        return atoms::true_;
    });
}

// ---- reading ------------------------------------------------------------------------------------

Term bif_ets_lookup(Process* p, Term* a) {
    return with_table(p, a[0], Need::Read, [&](Table& t) -> Term {
        if (t.kind() == Kind::Set || t.kind() == Kind::OrderedSet) {
            DbObject* o = t.find(a[1]);
            if (!o) return NIL;
            Term* hp = p->alloc(o->words + 2);
            Term* body = hp + 2;
            Term obj = o->words ? copy_term(o->tuple, &body, &p->off_heap_first) : o->tuple;
            return make_cons_on(hp, obj, NIL);
        }
        return lookup_list(p, t, a[1]);
    });
}

Term bif_ets_member(Process* p, Term* a) {
    return with_table(p, a[0], Need::Read, [&](Table& t) -> Term { return make_bool(t.contains(a[1])); });
}

Term bif_ets_lookup_element(Process* p, Term* a) {
    return with_table(p, a[0], Need::Read, [&](Table& t) -> Term {
        if (!is_pos_small(a[2])) return p->badarg();
        Word pos = Word(small_value(a[2]));
        std::vector<const DbObject*> found;
        t.for_key(a[1], [&](const DbObject* o) { found.push_back(o); });
        if (found.empty()) return p->badarg(atom("badkey"));
        for (const DbObject* o : found)
            if (pos > tuple_arity(o->tuple)) return p->badarg();
        if (t.kind() == Kind::Set || t.kind() == Kind::OrderedSet)
            return copy_to_heap(p, found[0]->element(pos));
        Term l = NIL;  // in insertion order: found holds the newest first
        for (const DbObject* o : found) l = cons(p, copy_to_heap(p, o->element(pos)), l);
        return l;
    });
}

namespace {

Term key_or_end(Process* p, Term k, bool missing = false) {
    if (missing) return p->badarg();
    return k ? copy_to_heap(p, k) : am_end_of_table();
}

}  // namespace

Term bif_ets_first(Process* p, Term* a) {
    return with_table(p, a[0], Need::Read, [&](Table& t) -> Term { return key_or_end(p, t.first_key()); });
}

Term bif_ets_last(Process* p, Term* a) {
    return with_table(p, a[0], Need::Read, [&](Table& t) -> Term { return key_or_end(p, t.last_key()); });
}

Term bif_ets_next(Process* p, Term* a) {
    return with_table(p, a[0], Need::Read, [&](Table& t) -> Term {
        // An ordered_set steps from any key but '$end_of_table' (badarg, as in OTP).
        if (!t.is_hash() && a[1] == am_end_of_table()) return p->badarg();
        bool missing = false;
        Term k = t.next_key(a[1], &missing);
        return key_or_end(p, k, missing);
    });
}

Term bif_ets_prev(Process* p, Term* a) {
    return with_table(p, a[0], Need::Read, [&](Table& t) -> Term {
        // An ordered_set steps from any key but '$end_of_table' (badarg, as in OTP).
        if (!t.is_hash() && a[1] == am_end_of_table()) return p->badarg();
        bool missing = false;
        Term k = t.prev_key(a[1], &missing);
        return key_or_end(p, k, missing);
    });
}

Term bif_ets_slot(Process* p, Term* a) {
    return with_table(p, a[0], Need::Read, [&](Table& t) -> Term {
        if (!is_small(a[1]) || small_value(a[1]) < 0) return p->badarg();
        Word i = Word(small_value(a[1]));
        if (t.is_hash()) {
            if (i > t.bucket_count()) return p->badarg();
            if (i == t.bucket_count()) return am_end_of_table();
            // The chain reversed, as OTP's build_term_list.
            Term l = NIL;
            t.for_bucket(i, [&](const DbObject* o) { l = cons(p, copy_out(p, o), l); });
            return l;
        }
        if (i > t.size()) return p->badarg();
        if (i == t.size()) return am_end_of_table();
        Term out = NIL;
        Word k = 0;
        t.walk_all([&](const DbObject* o) {
            if (k++ < i) return true;
            out = cons(p, copy_out(p, o), NIL);
            return false;
        });
        return out;
    });
}

Term bif_ets_info1(Process* p, Term* a) {
    TableRef ref;
    if (!ref.resolve(p->vm, a[0])) {
        if (is_atom(a[0]) || (is_magic_ref(a[0]) && magic_handle(a[0])->destructor == destroy_table_handle))
            return atoms::undefined;
        return no_table(p, a[0]);
    }
    Table& t = *ref.get();
    std::shared_lock lock(t.lock);
    if (t.dead.load()) return atoms::undefined;
    static const char* items[] = {"protection", "keypos", "type", "named_table", "node", "size", "name", "heir",
                                  "owner", "memory", "compressed", "write_concurrency", "read_concurrency",
                                  "decentralized_counters", "id"};
    Term l = NIL;
    for (const char* item : items) {
        Term k = atom(item);
        l = cons(p, make_tuple_on(p, {k, info_item(p, t, k)}), l);
    }
    return l;
}

Term bif_ets_info2(Process* p, Term* a) {
    TableRef ref;
    if (!ref.resolve(p->vm, a[0])) {
        if (is_atom(a[0]) || (is_magic_ref(a[0]) && magic_handle(a[0])->destructor == destroy_table_handle))
            return atoms::undefined;
        return no_table(p, a[0]);
    }
    Table& t = *ref.get();
    std::shared_lock lock(t.lock);
    if (t.dead.load()) return atoms::undefined;
    Term v = info_item(p, t, a[1]);
    return v ? v : p->badarg();
}

// ---- ownership, names, options -----------------------------------------------------------------

Term bif_ets_give_away(Process* p, Term* a) {
    // erts checks the table, then that the caller owns it, then the new owner.
    Term to = a[1];
    Term owned = with_table(p, a[0], Need::Read, [&](Table& t) -> Term {
        if (t.owner.load() != p->id) return p->badarg(atom("not_owner"));
        if (to == p->id) return p->badarg(atom("owner"));
        return atoms::true_;
    });
    if (owned == THE_NON_VALUE) return owned;
    if (!is_pid(to)) return p->badarg();
    std::shared_ptr<Process> receiver = p->vm.lookup_process(to);
    if (!receiver) return p->badarg();
    Term tab = 0;
    Term r = with_table(p, a[0], Need::Write, [&](Table& t) -> Term {
        if (t.owner.load() != p->id) return p->badarg(atom("not_owner"));
        t.owner.store(to);
        mark_user(receiver.get());
        tab = table_id(p, &t);
        return atoms::true_;
    });
    if (r == THE_NON_VALUE) return r;
    p->vm.send_message(p, to, make_tuple_on(p, {atom("ETS-TRANSFER"), tab, p->id, a[2]}));
    return atoms::true_;
}

// ets:rename(Table, Name): badarg if Name names a table already (the table itself too, as
// on erl), with erts's cause when the table is not one (id, type).
Term bif_ets_rename(Process* p, Term* a) {
    if (!table_usable(p, a[0], Need::Write)) return THE_NON_VALUE;
    if (!is_atom(a[1])) return p->badarg();
    TableRef ref;
    if (!ref.resolve(p->vm, a[0])) return no_table(p, a[0]);
    Table* t = ref.get();
    Registry& r = registry(p->vm);
    std::unique_lock rlock(r.mutex);
    std::unique_lock lock(t->lock);
    if (t->dead.load()) return p->badarg(atom("id"));
    if (!allowed(p, t, Need::Write)) return p->badarg(atom("access"));
    if (t->named) {
        if (r.names.count(a[1])) return p->badarg();
        r.names.erase(t->name);
        r.names.emplace(a[1], t);
    }
    t->name = a[1];
    return t->named ? a[1] : tid_term(p, t);
}

Term bif_ets_setopts(Process* p, Term* a) {
    BEAMLET_CACHED_ATOM(heir, "heir");
    BEAMLET_CACHED_ATOM(protection, "protection");
    BEAMLET_CACHED_ATOM(none, "none");
    if (!table_usable(p, a[0], Need::Write)) return THE_NON_VALUE;
    std::vector<Term> opts;
    Term l = a[1];
    if (is_tuple(l)) {
        opts.push_back(l);
    } else {
        for (; is_list(l); l = cdr(l)) opts.push_back(car(l));
        if (!is_nil(l)) return p->badarg();
    }
    return with_table(p, a[0], Need::Write, [&](Table& t) -> Term {
        if (t.owner.load() != p->id) return p->badarg();
        Term new_heir = t.heir, new_data = t.heir_data;
        Access access = t.access;
        bool heir_set = false;
        for (Term o : opts) {
            if (!is_tuple(o)) return p->badarg();
            Term k = tuple_element(o, 0);
            if (k == heir && tuple_arity(o) == 2 && tuple_element(o, 1) == none) {
                new_heir = 0;
                heir_set = true;
            } else if (k == heir && tuple_arity(o) == 3 && is_pid(tuple_element(o, 1))) {
                new_heir = tuple_element(o, 1);
                new_data = tuple_element(o, 2);
                heir_set = true;
            } else if (k == protection && tuple_arity(o) == 2) {
                Term v = tuple_element(o, 1);
                if (v == atom("public")) access = Access::Public;
                else if (v == atom("protected")) access = Access::Protected;
                else if (v == atom("private")) access = Access::Private;
                else return p->badarg();
            } else {
                return p->badarg();
            }
        }
        if (heir_set) set_heir(p, t, new_heir, new_data);
        t.access = access;
        return atoms::true_;
    });
}

Term bif_ets_safe_fixtable(Process* p, Term* a) {
    if (!table_usable(p, a[0], Need::Fix)) return THE_NON_VALUE;
    if (a[1] != atoms::true_ && a[1] != atoms::false_) return p->badarg();
    return with_table(p, a[0], Need::Fix, [&](Table& t) -> Term {
        if (a[1] == atoms::true_) {
            t.fix(p->id);
            mark_user(p);
        } else {
            t.unfix(p->id);
        }
        return atoms::true_;
    });
}

// ---- match specs --------------------------------------------------------------------------------

Term bif_ets_match2(Process* p, Term* a) { return select_all(p, a[0], pattern_spec(p, a[1], false), Mode::Select, false); }
Term bif_ets_match_object2(Process* p, Term* a) {
    return select_all(p, a[0], pattern_spec(p, a[1], true), Mode::Select, false);
}
Term bif_ets_match3(Process* p, Term* a) {
    return select_limited(p, a[0], pattern_spec(p, a[1], false), a[2], false);
}
Term bif_ets_match_object3(Process* p, Term* a) {
    return select_limited(p, a[0], pattern_spec(p, a[1], true), a[2], false);
}
Term bif_ets_match1(Process* p, Term* a) { return select_continue(p, a[0]); }
Term bif_ets_match_object1(Process* p, Term* a) { return select_continue(p, a[0]); }
Term bif_ets_select1(Process* p, Term* a) { return select_continue(p, a[0]); }
Term bif_ets_select_reverse1(Process* p, Term* a) { return select_continue(p, a[0]); }
Term bif_ets_select2(Process* p, Term* a) { return select_all(p, a[0], a[1], Mode::Select, false); }
Term bif_ets_select_reverse2(Process* p, Term* a) { return select_all(p, a[0], a[1], Mode::Select, true); }
Term bif_ets_select3(Process* p, Term* a) { return select_limited(p, a[0], a[1], a[2], false); }
Term bif_ets_select_reverse3(Process* p, Term* a) { return select_limited(p, a[0], a[1], a[2], true); }
Term bif_ets_select_count(Process* p, Term* a) { return select_all(p, a[0], a[1], Mode::Count, false); }
Term bif_ets_internal_select_delete(Process* p, Term* a) { return select_all(p, a[0], a[1], Mode::Delete, false); }
Term bif_ets_select_replace(Process* p, Term* a) { return select_all(p, a[0], a[1], Mode::Replace, false); }

Term bif_ets_match_spec_compile(Process* p, Term* a) {
    MatchSpec* ms = nullptr;
    return compile_spec(p, a[0], &ms);
}

Term bif_ets_is_compiled_ms(Process*, Term* a) { return make_bool(spec_of(a[0]) != nullptr); }

Term bif_ets_match_spec_run_r(Process* p, Term* a) {
    MatchSpec* ms = spec_of(a[1]);
    if (!ms) return p->badarg();
    NoActions actions;
    Term acc = a[2];
    Term l = a[0];
    for (; is_list(l); l = cdr(l)) {
        Term obj = car(l);
        MatchSpec::Result r = ms->run(p, &obj, 1, actions);
        if (r.matched) acc = cons(p, r.message, acc);
    }
    if (!is_nil(l)) return p->badarg();
    return acc;
}

}  // namespace beamlet::bif
