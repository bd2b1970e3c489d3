// ets/table.hpp — an ETS table: its objects, kept off every process heap, and its lock.
//
// Each object is one allocation (DbObject) holding a copy of the tuple, made once on insert and
// copied out on every read, as OTP's DbTerm. An ordered_set keeps its objects in a balanced tree
// ordered by Erlang's term order, where 1 and 1.0 are the same key. A set, bag or duplicate_bag
// keeps them as OTP 25's erl_db_hash.c does, so that traversals (first/next, select, match,
// tab2list) list objects in erl's order:
//   - the hash of a key is OTP's MAKE_HASH: an atom's hashpjw value, else erts's internal hash;
//   - a linear hash table: 256 buckets at first, one more each time the table holds more
//     objects than buckets (the bucket split is hash & szm); it shrinks only past 2,304
//     buckets, a segment of 2,048 at a time, once it holds fewer objects than half of that;
//   - a chain keeps keys in the order they came; the objects of one key are adjacent, the
//     newest first;
//   - a traversal visits buckets in the order of OTP's fine-grained locks (every 64th bucket
//     first for a write_concurrency table, one by one otherwise).
//
// Concurrency: one reader-writer lock per table (no global lock: tables never contend with one
// another, and readers of one table run in parallel). Callers take it through ReadGuard and
// WriteGuard; every method below expects the right one held. A table fixed by safe_fixtable
// neither resizes nor unlinks deleted objects (they stay as "pseudo-deleted" until the last
// unfix), so first/next visit every object once while others insert and delete, as in OTP.
#pragma once

#include <atomic>
#include <cstdint>
#include <vector>

#include "ets/ordered_index.hpp"
#include "ets/table_lock.hpp"
#include "vm/heap.hpp"
#include "vm/term.hpp"
#include "vm/term_order.hpp"

namespace beamlet::vm {
struct MagicHandle;
}

namespace beamlet::ets {

using vm::Term;
using vm::Word;

struct Registry;  // a VM's tables (ets/ets_bifs.cpp)

enum class Kind : std::uint8_t { Set, OrderedSet, Bag, DuplicateBag };
enum class Access : std::uint8_t { Public, Protected, Private };

// One stored object: a tuple and the heap words it points into.
struct DbObject {
    DbObject* next = nullptr;      // hash chain
    Term* off_heap_first = nullptr;  // RefcBins and magic refs inside the copy
    Term tuple = 0;
    std::uint32_t hash = 0;
    bool deleted = false;          // pseudo-deleted while the table is fixed
    Word words = 0;                // heap words of the copy (a read's allocation)
    Word capacity = 0;             // words [data] has room for
    Term data[1];

    static DbObject* create(Term tuple, std::uint32_t hash);
    static void destroy(DbObject* o);
    // Puts a copy of [tuple] in place of [o]'s object if it fits the allocation without
    // wasting half of it (as erts's replace_dbterm keeps a block of the same size); false,
    // and [o] unchanged, if not. Nothing else may point into [o]'s words.
    static bool refill(DbObject* o, Term tuple);
    Term element(Word pos) const { return vm::tuple_element(tuple, pos - 1); }  // 1-based
};

// The hash of a key, consistent with exact equality (=:=) for hash tables: OTP's MAKE_HASH.
std::uint32_t key_hash(Term key);

// Term order for the ordered_set (1 == 1.0).
class Table {
public:
    Table(Kind kind, Access access, Word keypos);
    ~Table();
    Table(const Table&) = delete;
    Table& operator=(const Table&) = delete;

    // ---- configuration (fixed at creation, or changed under the write lock) ----
    Kind kind() const { return m_kind; }
    bool is_hash() const { return m_kind != Kind::OrderedSet; }
    Word keypos() const { return m_keypos; }
    Access access = Access::Protected;
    Term name = 0;                 // the atom given to ets:new
    bool named = false;
    bool read_concurrency = false, write_concurrency = false, compressed = false;
    Term write_concurrency_option = 0;  // as given (true, auto, {debug_hash_fixed_number_of_locks, N}); 0: false
    Word lock_count = 1;                // what ets:info(T, stats) reports (OTP's fine-grained locks)
    bool decentralized_counters = false;
    std::atomic<Term> owner{0};
    Term heir = 0;                 // a pid, or 0 for none
    std::uint64_t heir_incarnation = 0;  // the heir process's (Process::incarnation)
    Term heir_data = 0;            // the heir's data, a copy in [heir_fragment]
    vm::HeapFragment* heir_fragment = nullptr;
    vm::MagicHandle* handle = nullptr;  // the tid's handle (the table lives as long as it)
    Word tid_id[3] = {0, 0, 0};    // the tid's reference ids
    std::atomic<bool> dead{false};
    Registry* registry = nullptr;  // the VM's registry that lists it

    mutable TableLock lock;

    // ---- objects (lock held) ----
    Word size() const { return m_size; }
    Word memory_words() const;
    // Object [t] (a tuple with at least keypos elements) stored by the table's rule: a set
    // replaces the object of its key, a bag adds it unless an equal object is there, a
    // duplicate_bag always adds it. [only_new]: nothing if the key is present; false then.
    bool insert(Term t, bool only_new = false);
    // Whether [key] has an object.
    bool contains(Term key) const;
    // Calls [fn(obj)] for each object of [key], the newest first.
    template <typename Fn>
    void for_key(Term key, Fn&& fn) const;
    // The first object of [key] (for set/ordered_set: the object), or null.
    DbObject* find(Term key) const;
    // Removes every object of [key]; how many went. A fixed hash table keeps one of them
    // pseudo-deleted (as OTP: enough for next/2 to find the key's place), the rest go at once.
    Word erase(Term key);
    // Removes the objects exactly equal to [t]; how many went. In a fixed hash table the key's
    // newest object is kept pseudo-deleted, the others go at once (OTP's rule).
    Word erase_object(Term t);
    // Removes [o] (an object of this table); pseudo-deleted while the table is fixed. The
    // table does not shrink: call try_shrink once the deletions are done.
    void erase(DbObject* o);
    // After deletions: joins a few buckets if the table holds few enough objects (OTP shrinks
    // by up to 5 buckets per delete call, and only down to a segment's start).
    void try_shrink();
    // Replaces [o] by a copy of [t] (same key; [t] may point into [o]); returns the new object.
    DbObject* replace(DbObject* o, Term t);
    void clear();
    // ets:delete_all_objects/1 on a fixed hash table, a slice at a time (OTP's
    // db_mark_all_deleted_hash): marks up to [budget] live objects pseudo-deleted, going on
    // from bucket [*cursor]; true once every bucket is done. (A fixed table's buckets stay
    // where they are, so the cursor holds between slices while the table stays fixed.)
    bool mark_deleted_some(std::size_t* cursor, std::size_t budget);
    // Empties the table at once (no fixation) and hands over its objects, to be destroyed by
    // the caller, a slice at a time (OTP frees a deleted table's objects while yielding).
    std::vector<DbObject*> detach_all();

    // ---- traversal (lock held) ----
    // The key of the first/last object, or 0 for an empty table. A hash table's last is its
    // first and its prev is its next (as in OTP).
    Term first_key() const;
    Term last_key() const;
    // The key after/before [key]; 0 at the end, and [*missing] set if [key] is not in a hash
    // table (badarg in OTP). An ordered_set steps from any key, present or not.
    Term next_key(Term key, bool* missing) const;
    Term prev_key(Term key, bool* missing) const;

    // ets:info(T, stats) of a hash table: the chains' lengths, pseudo-deleted objects included.
    struct ChainStats {
        float avg = 0, std_dev = 0, expected_std_dev = 0;
        Word min_len = 0, max_len = 0, kept = 0;
    };
    ChainStats chain_stats() const;

    // A hash table's buckets: 0..bucket_count()-1, each a chain (slot/2 and continuations).
    Word bucket_count() const { return m_buckets.size(); }
    // The bucket of [key] in a hash table.
    Word bucket_of_key(Term key) const { return bucket_of(key_hash(key)); }
    // Whether [key] has a (live) object in a hash table, and if so its bucket in [*bucket]:
    // one hash for both.
    bool find_bucket(Term key, Word* bucket) const {
        std::uint32_t h = key_hash(key);
        for (DbObject* o = find_in_chain(key, h); o; o = o->next) {
            if (o->hash != h || !vm::terms_exact_equal(o->element(m_keypos), key)) break;
            if (!o->deleted) {
                *bucket = bucket_of(h);
                return true;
            }
        }
        return false;
    }
    // The bucket a traversal visits after bucket [i]; 0 once it has visited all. OTP walks the
    // buckets of one lock, then the next lock's: [i] steps by the lock count.
    Word next_bucket(Word i) const {
        Word stride = traversal_stride();
        i += stride;
        if (i < m_buckets.size()) return i;
        return (i + 1) % stride;
    }
    template <typename Fn>
    void for_bucket(Word i, Fn&& fn) const {
        for (DbObject* o = m_buckets[i]; o; o = o->next)
            if (!o->deleted) fn(o);
    }
    // An ordered_set's objects in key order: from the first key after (or at, [inclusive])
    // [from] (0: the start), or backwards ([reverse]) from the last key before [from].
    // [fn(obj)] returns false to stop.
    template <typename Fn>
    void walk_tree(Term from, bool inclusive, bool reverse, Fn&& fn) const;
    // An ordered_set's objects whose keys [where] puts in a range (< 0 before it, 0 in it,
    // > 0 after it, consistent with key order), in key order; [fn(obj)] returns false to stop.
    template <typename Where, typename Fn>
    void walk_range(Where&& where, Fn&& fn) const {
        for (auto at = m_index.first_not([&](vm::Term k) { return where(k) < 0; });
             at.valid() && where(m_index.key(at)) == 0; at = m_index.next(at))
            if (!fn(m_index.object(at))) return;
    }
    // Every object, in traversal order; [fn(obj)] returns false to stop.
    template <typename Fn>
    void walk_all(Fn&& fn) const {
        if (is_hash()) {
            Word i = 0;
            do {
                for (DbObject* o = m_buckets[i]; o; o = o->next)
                    if (!o->deleted && !fn(o)) return;
            } while ((i = next_bucket(i)) != 0);
        } else {
            walk_tree(0, true, false, fn);
        }
    }

    // Every stored object, pseudo-deleted ones too (ets:info(T, binary) reports what they hold).
    template <typename Fn>
    void for_each_stored(Fn&& fn) const {
        if (!is_hash()) {
            walk_tree(0, true, false, [&](DbObject* o) {
                fn(o);
                return true;
            });
            return;
        }
        for (DbObject* head : m_buckets)
            for (DbObject* o = head; o; o = o->next) fn(o);
    }

    // ---- safe_fixtable (lock held for writing) ----
    void fix(Term pid);
    void unfix(Term pid);      // one of [pid]'s fixations
    void unfix_all(Term pid);  // all of them (the process exited)
    void forget_fixations() { m_fixations.clear(); }  // the table is being deleted
    bool fixed() const { return !m_fixations.empty(); }
    const std::vector<std::pair<Term, Word>>& fixations() const { return m_fixations; }
    std::uint64_t fixed_since = 0;   // monotonic time of the first fixation (ns)
    std::int64_t fixed_since_os_us = 0;  // and its system time (us since the epoch)

private:
    // [o]'s object becomes a copy of [t] (same key; [t] from outside the table), in [o]'s
    // block when it fits, else in a new object as replace.
    void overwrite(DbObject* o, Term t);
    // Linear hashing (OTP's hash_to_ix): the low bits of the mask, or one bit fewer for a
    // bucket not split yet.
    Word bucket_of(std::uint32_t hash) const {
        Word i = hash & m_szm;
        return i < m_buckets.size() ? i : i & (m_szm >> 1);
    }
    Word traversal_stride() const { return write_concurrency ? lock_count : 1; }
    // The link to the first object (live or pseudo-deleted) of [key], or to the chain's end.
    DbObject** find_link(Term key, std::uint32_t hash);
    DbObject* find_in_chain(Term key, std::uint32_t hash) const;
    void unlink(DbObject* o);
    void drop(DbObject* o);  // unlinks and frees a live object now, fixed or not
    void grow();  // after an insert: splits up to 5 buckets while there are more objects than buckets
    void reset_buckets();
    void purge_deleted();

    Kind m_kind;
    Word m_keypos;
    Word m_size = 0;
    Word m_words = 0;          // the objects' heap words
    std::vector<DbObject*> m_buckets;  // OTP's nactive buckets
    Word m_szm = 0;                    // OTP's szm: the mask of the current doubling
    bool m_has_deleted = false;
    OrderedIndex m_index;  // ordered_set
    std::vector<std::pair<Term, Word>> m_fixations;  // {pid, count}, the newest first
};

template <typename Fn>
void Table::for_key(Term key, Fn&& fn) const {
    if (!is_hash()) {
        if (DbObject* o = m_index.find(key)) fn(o);
        return;
    }
    std::uint32_t h = key_hash(key);
    if (m_kind == Kind::Set) {  // one object per key (a pseudo-deleted one comes back in place)
        DbObject* o = find_in_chain(key, h);
        if (o && !o->deleted) fn(o);
        return;
    }
    for (DbObject* o = find_in_chain(key, h); o; o = o->next) {
        if (o->hash != h || !vm::terms_exact_equal(o->element(m_keypos), key)) break;
        if (!o->deleted) fn(o);
    }
}

template <typename Fn>
void Table::walk_tree(Term from, bool inclusive, bool reverse, Fn&& fn) const {
    if (!reverse) {
        auto at = from == 0 ? m_index.first() : inclusive ? m_index.lower_bound(from) : m_index.upper_bound(from);
        for (; at.valid(); at = m_index.next(at))
            if (!fn(m_index.object(at))) return;
    } else {
        // From the last key <= [from] (inclusive) or < [from], down.
        auto at = from == 0 ? m_index.last() : inclusive ? m_index.upper_bound(from) : m_index.lower_bound(from);
        if (from != 0) at = at.valid() ? m_index.prev(at) : m_index.last();
        for (; at.valid(); at = m_index.prev(at))
            if (!fn(m_index.object(at))) return;
    }
}

}  // namespace beamlet::ets
