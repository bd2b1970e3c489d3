// ets/table.cpp — the storage of an ETS table (see table.hpp).
#include "ets/table.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdlib>
#include <new>

#include "vm/copy.hpp"
#include "vm/magic.hpp"
#include "vm/term_hash.hpp"

namespace beamlet::ets {

using namespace vm;

namespace {

// A new hash table has OTP's 256 buckets; it grows when it holds more objects than buckets and
// shrinks (never below 256) when it holds fewer than a quarter. Power-of-two sizes, where OTP
// grows and shrinks one bucket at a time (linear hashing): the load stays between 1/4 and 1.
constexpr Word INITIAL_BUCKETS = 256;

std::uint32_t mix32(std::uint64_t x) {
    // Murmur3's 64-bit finaliser.
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    x ^= x >> 33;
    return std::uint32_t(x);
}

std::uint64_t monotonic_ns() {
    return std::uint64_t(std::chrono::duration_cast<std::chrono::nanoseconds>(
                             std::chrono::steady_clock::now().time_since_epoch())
                             .count());
}

}  // namespace

// ---- objects ------------------------------------------------------------------------------------

DbObject* DbObject::create(Term tuple, std::uint32_t hash) {
    Word words = term_size_words(tuple);
    void* mem = std::malloc(offsetof(DbObject, data) + words * sizeof(Term));
    if (!mem) throw std::bad_alloc();
    auto* o = new (mem) DbObject();
    o->hash = hash;
    o->words = words;
    Term* hp = o->data;
    o->tuple = copy_term(tuple, &hp, &o->off_heap_first);
    return o;
}

void DbObject::destroy(DbObject* o) {
    for (Term* obj = o->off_heap_first; obj;) {
        Term* next = reinterpret_cast<Term*>(obj[4]);
        release_off_heap(obj);
        obj = next;
    }
    o->~DbObject();
    std::free(o);
}

std::uint32_t key_hash(Term key) {
    if (is_small(key)) {
        // The integer with its high bits folded into the low ones (as Java's HashMap spreads
        // hash codes): consecutive keys fill consecutive buckets, so walking a range of keys
        // walks the bucket array in order instead of missing the cache at every lookup.
        auto v = std::uint64_t(small_value(key));
        v ^= v >> 32;
        v ^= v >> 16;
        return std::uint32_t(v);
    }
    // An immediate: its word, mixed. A compound key: phash2's hash, mixed too, so that a table's
    // slot of a key is not erlang:phash2(Key, Buckets) (OTP seeds its ETS hash apart as well;
    // ets_SUITE:hash_clash checks it).
    if (!is_boxed(key) && !is_list(key)) return mix32(key);
    return mix32(make_hash2(key) ^ 0x9e3779b97f4a7c15ULL);
}

// ---- the table ----------------------------------------------------------------------------------

Table::Table(Kind kind, Access access_, Word keypos) : access(access_), m_kind(kind), m_keypos(keypos) {
    if (is_hash()) m_buckets.assign(INITIAL_BUCKETS, nullptr);
}

Table::~Table() {
    clear();
    free_fragment(heir_fragment);
}

Word Table::memory_words() const {
    // The objects, their headers, and the index (OTP counts the same parts).
    constexpr Word object_overhead = (offsetof(DbObject, data) + sizeof(Word) - 1) / sizeof(Word);
    Word index = is_hash() ? m_buckets.size() : m_size * 5;
    return 40 + index + m_words + m_size * object_overhead;
}

DbObject* Table::find_in_chain(Term key, std::uint32_t hash) const {
    for (DbObject* o = m_buckets[bucket_of(hash)]; o; o = o->next)
        if (o->hash == hash && terms_exact_equal(o->element(m_keypos), key)) return o;
    return nullptr;
}

DbObject* Table::find(Term key) const {
    if (!is_hash()) return m_index.find(key);
    DbObject* found = nullptr;
    for_key(key, [&](DbObject* o) {
        if (!found) found = o;
    });
    return found;
}

bool Table::contains(Term key) const { return find(key) != nullptr; }

bool Table::insert(Term t, bool only_new) {
    Term key = tuple_element(t, m_keypos - 1);
    if (!is_hash()) {
        if (DbObject* old = m_index.find(key)) {
            if (only_new) return false;
            replace(old, t);
            return true;
        }
        DbObject* n = DbObject::create(t, 0);
        m_index.insert(n->element(m_keypos), n);
        ++m_size;
        m_words += n->words;
        return true;
    }

    std::uint32_t h = key_hash(key);
    DbObject** link = &m_buckets[bucket_of(h)];
    // The run of objects with this key (adjacent in the chain), its live ones first checked.
    DbObject** end = nullptr;  // the link after the run's last object
    DbObject* live = nullptr;
    DbObject* dead = nullptr;  // a pseudo-deleted object that this one takes the place of
    for (DbObject** l = link; *l; l = &(*l)->next) {
        DbObject* o = *l;
        bool same = o->hash == h && terms_exact_equal(o->element(m_keypos), key);
        if (same) {
            end = &o->next;
            bool equal = m_kind == Kind::Bag && compare_terms_exact(o->tuple, t) == 0;
            if (o->deleted) {
                if (!dead && (m_kind == Kind::Set || equal)) dead = o;
                continue;
            }
            if (!live) live = o;
            if (equal) return !only_new;  // an equal object is there already
        } else if (end) {
            break;
        }
    }
    if (live && only_new) return false;
    if (live && m_kind == Kind::Set) {
        replace(live, t);
        return true;
    }
    if (dead) {
        // The key is back: its pseudo-deleted object is no longer needed to keep its place.
        // (OTP reuses it; an equal bag object becomes the key's newest.)
        unlink(dead);
        DbObject::destroy(dead);
        end = run_end(key, h);
    }
    DbObject* n = DbObject::create(t, h);
    DbObject** at = end ? end : link;
    n->next = *at;
    *at = n;
    ++m_size;
    m_words += n->words;
    maybe_grow();
    return true;
}

DbObject** Table::run_end(Term key, std::uint32_t hash) {
    DbObject** end = nullptr;
    for (DbObject** l = &m_buckets[bucket_of(hash)]; *l; l = &(*l)->next) {
        DbObject* o = *l;
        if (o->hash == hash && terms_exact_equal(o->element(m_keypos), key)) end = &o->next;
        else if (end) break;
    }
    return end;
}

DbObject* Table::replace(DbObject* o, Term t) {
    DbObject* n = DbObject::create(t, o->hash);
    m_words += n->words - o->words;
    if (!is_hash()) {
        // The new object's key orders the same; the index's key must point into it.
        m_index.replace(o->element(m_keypos), n->element(m_keypos), n);
    } else {
        for (DbObject** l = &m_buckets[bucket_of(o->hash)]; *l; l = &(*l)->next)
            if (*l == o) {
                n->next = o->next;
                *l = n;
                break;
            }
    }
    DbObject::destroy(o);
    return n;
}

void Table::unlink(DbObject* o) {
    for (DbObject** l = &m_buckets[bucket_of(o->hash)]; *l; l = &(*l)->next)
        if (*l == o) {
            *l = o->next;
            return;
        }
}

void Table::erase(DbObject* o) {
    --m_size;
    m_words -= o->words;
    if (!is_hash()) {
        m_index.erase(o->element(m_keypos));
        DbObject::destroy(o);
    } else if (fixed()) {
        o->deleted = true;  // purged at the last unfix
        m_has_deleted = true;
    } else {
        unlink(o);
        DbObject::destroy(o);
        maybe_shrink();
    }
}

void Table::drop(DbObject* o) {
    --m_size;
    m_words -= o->words;
    unlink(o);
    DbObject::destroy(o);
}

Word Table::erase(Term key) {
    std::vector<DbObject*> gone;
    for_key(key, [&](DbObject* o) { gone.push_back(o); });
    for (DbObject* o : gone) {
        if (fixed() && o != gone.back()) drop(o);
        else erase(o);
    }
    return gone.size();
}

Word Table::erase_object(Term t) {
    std::vector<DbObject*> gone;
    DbObject* newest = nullptr;
    for_key(tuple_element(t, m_keypos - 1), [&](DbObject* o) {
        newest = o;
        if (compare_terms_exact(o->tuple, t) == 0) gone.push_back(o);
    });
    for (DbObject* o : gone) {
        if (fixed() && o != newest) drop(o);
        else erase(o);
    }
    return gone.size();
}

void Table::clear() {
    if (!is_hash()) {
        for (auto at = m_index.first(); at.valid(); at = m_index.next(at)) DbObject::destroy(m_index.object(at));
        m_index.clear();
    } else if (fixed()) {
        for (DbObject* head : m_buckets)
            for (DbObject* o = head; o; o = o->next) o->deleted = true;
        m_has_deleted = true;
    } else {
        for (DbObject* head : m_buckets)
            for (DbObject* o = head; o;) {
                DbObject* next = o->next;
                DbObject::destroy(o);
                o = next;
            }
        m_buckets.assign(INITIAL_BUCKETS, nullptr);
    }
    m_size = 0;
    m_words = 0;
}

bool Table::mark_deleted_some(std::size_t* cursor, std::size_t budget) {
    std::size_t marked = 0;
    for (; *cursor < m_buckets.size(); ++*cursor) {
        if (marked >= budget) return false;
        for (DbObject* o = m_buckets[*cursor]; o; o = o->next) {
            if (o->deleted) continue;
            o->deleted = true;
            m_has_deleted = true;
            --m_size;
            m_words -= o->words;
            ++marked;
        }
    }
    return true;
}

std::vector<DbObject*> Table::detach_all() {
    std::vector<DbObject*> objects;
    objects.reserve(m_size);
    if (!is_hash()) {
        for (auto at = m_index.first(); at.valid(); at = m_index.next(at)) objects.push_back(m_index.object(at));
        m_index.clear();
    } else {
        for (DbObject* head : m_buckets)
            for (DbObject* o = head; o; o = o->next) objects.push_back(o);
        m_buckets.assign(INITIAL_BUCKETS, nullptr);
        m_has_deleted = false;
    }
    m_size = 0;
    m_words = 0;
    return objects;
}

void Table::maybe_grow() {
    if (m_size > m_buckets.size() && !fixed()) rehash(m_buckets.size() * 2);
}

void Table::maybe_shrink() {
    if (m_buckets.size() > INITIAL_BUCKETS && m_size < m_buckets.size() / 4 && !fixed())
        rehash(m_buckets.size() / 2);
}

void Table::rehash(Word count) {
    std::vector<DbObject*> buckets(count, nullptr);
    std::vector<DbObject**> tails(buckets.size());
    for (Word i = 0; i < buckets.size(); ++i) tails[i] = &buckets[i];
    // Chains keep their order, so runs of equal keys stay together and in insertion order.
    for (DbObject* head : m_buckets)
        for (DbObject* o = head; o;) {
            DbObject* next = o->next;
            Word b = o->hash & (buckets.size() - 1);
            o->next = nullptr;
            *tails[b] = o;
            tails[b] = &o->next;
            o = next;
        }
    m_buckets.swap(buckets);
}

void Table::purge_deleted() {
    if (!m_has_deleted) return;
    for (DbObject*& head : m_buckets)
        for (DbObject** l = &head; *l;) {
            DbObject* o = *l;
            if (o->deleted) {
                *l = o->next;
                DbObject::destroy(o);
            } else {
                l = &o->next;
            }
        }
    m_has_deleted = false;
}

Table::ChainStats Table::chain_stats() const {
    // As OTP computes them (in C floats): the mean and standard deviation of the chains'
    // lengths, and the deviation a uniform hash would give (a binomial distribution's).
    ChainStats s;
    Word sum = 0, squares = 0;
    s.min_len = ~Word(0);
    for (DbObject* head : m_buckets) {
        Word len = 0;
        for (DbObject* o = head; o; o = o->next) {
            ++len;
            if (o->deleted) ++s.kept;
        }
        sum += len;
        squares += len * len;
        s.min_len = std::min(s.min_len, len);
        s.max_len = std::max(s.max_len, len);
    }
    auto n = float(m_buckets.size());
    s.avg = float(sum) / n;
    s.std_dev = float(std::sqrt(std::max(0.0f, (float(squares) - s.avg * float(sum)) / n)));
    s.expected_std_dev = float(std::sqrt(s.avg * (1 - 1.0 / double(m_buckets.size()))));
    return s;
}

// ---- traversal ----------------------------------------------------------------------------------

Term Table::first_key() const {
    if (!is_hash()) return m_index.empty() ? 0 : m_index.key(m_index.first());
    Term key = 0;
    walk_all([&](DbObject* o) {
        key = o->element(m_keypos);
        return false;
    });
    return key;
}

Term Table::last_key() const {
    if (!is_hash()) return m_index.empty() ? 0 : m_index.key(m_index.last());
    return first_key();
}

Term Table::next_key(Term key, bool* missing) const {
    if (!is_hash()) {
        auto at = m_index.upper_bound(key);
        return at.valid() ? m_index.key(at) : 0;
    }
    std::uint32_t h = key_hash(key);
    DbObject* o = find_in_chain(key, h);
    if (!o) {
        *missing = true;
        return 0;
    }
    // Past this key's run, then on through the chain and the following buckets.
    while (o && o->hash == h && terms_exact_equal(o->element(m_keypos), key)) o = o->next;
    for (Word b = bucket_of(h);;) {
        for (; o; o = o->next)
            if (!o->deleted) return o->element(m_keypos);
        if (++b >= m_buckets.size()) return 0;
        o = m_buckets[b];
    }
}

Term Table::prev_key(Term key, bool* missing) const {
    if (!is_hash()) {
        auto at = m_index.lower_bound(key);
        at = at.valid() ? m_index.prev(at) : m_index.last();
        return at.valid() ? m_index.key(at) : 0;
    }
    return next_key(key, missing);
}

// ---- safe_fixtable ------------------------------------------------------------------------------

void Table::fix(Term pid) {
    if (m_fixations.empty()) {
        fixed_since = monotonic_ns();
        fixed_since_os_us = std::chrono::duration_cast<std::chrono::microseconds>(
                                std::chrono::system_clock::now().time_since_epoch())
                                .count();
    }
    for (auto& [p, n] : m_fixations)
        if (p == pid) {
            ++n;
            return;
        }
    m_fixations.insert(m_fixations.begin(), {pid, 1});
}

void Table::unfix(Term pid) {
    for (auto it = m_fixations.begin(); it != m_fixations.end(); ++it)
        if (it->first == pid) {
            if (--it->second == 0) m_fixations.erase(it);
            break;
        }
    if (m_fixations.empty()) {
        purge_deleted();
        maybe_grow();
        maybe_shrink();
    }
}

void Table::unfix_all(Term pid) {
    for (auto it = m_fixations.begin(); it != m_fixations.end(); ++it)
        if (it->first == pid) {
            m_fixations.erase(it);
            break;
        }
    if (m_fixations.empty()) {
        purge_deleted();
        maybe_grow();
        maybe_shrink();
    }
}

}  // namespace beamlet::ets
