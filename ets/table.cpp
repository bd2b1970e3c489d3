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

// OTP's hash tables: 256 buckets at first (FIRST_SEGSZ), never fewer; hash values masked by MAX_HASH.
constexpr Word INITIAL_BUCKETS = 256;
constexpr std::uint32_t MAX_HASH = 0xEFFFFFFFu;
// OTP splits or joins at most this many buckets per insert or delete (grow's loop_limit).
constexpr int RESIZE_STEPS = 5;
// OTP allocates buckets past the first 256 in segments of 2,048 (EXT_SEGSZ).
constexpr Word SEGMENT_BUCKETS = 2048;

// How few objects a table of [buckets] buckets must hold before it shrinks: half the first
// bucket of its top segment, down to which it shrinks; 0 within the first two segments, which
// never shrink. (OTP 25's shrink limit, measured against erl: a table of 2,400 buckets starts
// shrinking below 1,152 objects and stops at 2,304 buckets.)
Word shrink_limit(Word buckets) {
    if (buckets <= INITIAL_BUCKETS + SEGMENT_BUCKETS) return 0;
    Word top_start = INITIAL_BUCKETS + (buckets - INITIAL_BUCKETS - 1) / SEGMENT_BUCKETS * SEGMENT_BUCKETS;
    return top_start / 2;
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
    o->capacity = words;
    Term* hp = o->data;
    o->tuple = copy_term(tuple, &hp, &o->off_heap_first);
    return o;
}

namespace {

void release_all_off_heap(DbObject* o) {
    for (Term* obj = o->off_heap_first; obj;) {
        Term* next = reinterpret_cast<Term*>(obj[4]);
        release_off_heap(obj);
        obj = next;
    }
    o->off_heap_first = nullptr;
}

}  // namespace

void DbObject::destroy(DbObject* o) {
    release_all_off_heap(o);
    o->~DbObject();
    std::free(o);
}

bool DbObject::refill(DbObject* o, Term tuple) {
    Word words = term_size_words(tuple);
    if (words > o->capacity || 2 * words < o->capacity) return false;
    release_all_off_heap(o);
    o->words = words;
    Term* hp = o->data;
    o->tuple = copy_term(tuple, &hp, &o->off_heap_first);
    return true;
}

std::uint32_t key_hash(Term key) {
    std::uint32_t h = is_atom(key) ? atom_hash_value(key) : make_internal_hash(key);
    return h & MAX_HASH;  // OTP 25 masks; bucket indexes come from the low bits alone
}

// ---- the table ----------------------------------------------------------------------------------

Table::Table(Kind kind, Access access_, Word keypos) : access(access_), m_kind(kind), m_keypos(keypos) {
    if (is_hash()) reset_buckets();
}

void Table::reset_buckets() {
    m_buckets.assign(INITIAL_BUCKETS, nullptr);
    m_szm = INITIAL_BUCKETS - 1;
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

DbObject** Table::find_link(Term key, std::uint32_t hash) {
    DbObject** l = &m_buckets[bucket_of(hash)];
    for (; *l; l = &(*l)->next)
        if ((*l)->hash == hash && terms_exact_equal((*l)->element(m_keypos), key)) break;
    return l;
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
            overwrite(old, t);
            return true;
        }
        DbObject* n = DbObject::create(t, 0);
        m_index.insert(n->element(m_keypos), n);
        ++m_size;
        m_words += n->words;
        return true;
    }

    // As OTP's db_put_hash: a new key goes at the end of its chain, a new object of a key
    // before the key's other objects.
    std::uint32_t h = key_hash(key);
    DbObject** link = find_link(key, h);
    auto same_key = [&](const DbObject* o) { return o->hash == h && terms_exact_equal(o->element(m_keypos), key); };
    if (DbObject* first = *link) {
        if (m_kind == Kind::Set) {
            if (!first->deleted) {
                if (only_new) return false;
            } else {
                // The key is back while the table is fixed: its object comes back to life.
                first->deleted = false;
                ++m_size;
                m_words += first->words;
            }
            overwrite(first, t);
            return true;
        }
        if (only_new) {
            for (DbObject* o = first; o && same_key(o); o = o->next)
                if (!o->deleted) return false;
        } else if (m_kind == Kind::Bag) {
            for (DbObject** l = link; *l && same_key(*l); l = &(*l)->next) {
                DbObject* o = *l;
                if (compare_terms_exact(o->tuple, t) != 0) continue;
                if (o->deleted) {
                    // An equal object, pseudo-deleted: alive again, as the key's newest.
                    o->deleted = false;
                    ++m_size;
                    m_words += o->words;
                    if (l != link) {
                        *l = o->next;
                        o->next = *link;
                        *link = o;
                    }
                }
                return true;
            }
        }
    }
    DbObject* n = DbObject::create(t, h);
    n->next = *link;
    *link = n;
    ++m_size;
    m_words += n->words;
    if (!fixed()) grow();
    return true;
}

void Table::overwrite(DbObject* o, Term t) {
    // In place when it fits, unless an ordered_set's index points at a boxed key in [o].
    Word old_words = o->words;
    if ((is_hash() || is_immediate(o->element(m_keypos))) && DbObject::refill(o, t)) {
        m_words += o->words - old_words;
        return;
    }
    replace(o, t);
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
        if (fixed() && o != gone.front()) drop(o);
        else erase(o);
    }
    if (!gone.empty()) try_shrink();
    return gone.size();
}

Word Table::erase_object(Term t) {
    std::vector<DbObject*> gone;
    DbObject* newest = nullptr;
    for_key(tuple_element(t, m_keypos - 1), [&](DbObject* o) {
        if (!newest) newest = o;
        if (compare_terms_exact(o->tuple, t) == 0) gone.push_back(o);
    });
    for (DbObject* o : gone) {
        if (fixed() && o != newest) drop(o);
        else erase(o);
    }
    if (!gone.empty()) try_shrink();
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
    } else if (m_size != 0 || m_has_deleted || m_buckets.size() != INITIAL_BUCKETS) {
        for (DbObject* head : m_buckets)
            for (DbObject* o = head; o;) {
                DbObject* next = o->next;
                DbObject::destroy(o);
                o = next;
            }
        reset_buckets();
        m_has_deleted = false;
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
    } else if (m_size != 0 || m_has_deleted || m_buckets.size() != INITIAL_BUCKETS) {
        // Without pseudo-deleted objects the walk ends at the last live one.
        std::size_t left = m_has_deleted ? SIZE_MAX : m_size;
        for (std::size_t i = 0; left != 0 && i < m_buckets.size(); ++i)
            for (DbObject* o = m_buckets[i]; o; o = o->next, --left) objects.push_back(o);
        reset_buckets();
        m_has_deleted = false;
    }
    m_size = 0;
    m_words = 0;
    return objects;
}

void Table::grow() {
    // OTP's linear hashing: the next bucket to split is nactive's buddy in the lower half; once
    // every bucket of a doubling is split, the mask gains a bit and splitting starts again at 0.
    for (int steps = RESIZE_STEPS; steps-- > 0 && m_size > m_buckets.size();) {
        Word to = m_buckets.size(), from;
        if (to <= m_szm) {
            from = to & (m_szm >> 1);
        } else {
            from = 0;
            m_szm = (m_szm << 1) | 1;
        }
        m_buckets.push_back(nullptr);
        // A stable split: each chain keeps its order, so a key's objects stay adjacent.
        DbObject** stay = &m_buckets[from];
        DbObject** move = &m_buckets[to];
        for (DbObject* o = m_buckets[from]; o; o = o->next) {
            DbObject**& tail = (o->hash & m_szm) == from ? stay : move;
            *tail = o;
            tail = &o->next;
        }
        *stay = nullptr;
        *move = nullptr;
    }
}

void Table::try_shrink() {
    // The top bucket joins its buddy: the top chain first, then the buddy's (OTP's shrink).
    for (int steps = RESIZE_STEPS; steps-- > 0 && m_size < shrink_limit(m_buckets.size()) && !fixed();) {
        Word from = m_buckets.size() - 1, low = m_szm >> 1, to = from & low;
        DbObject** tail = &m_buckets[from];
        while (*tail) tail = &(*tail)->next;
        *tail = m_buckets[to];
        m_buckets[to] = m_buckets[from];
        m_buckets.pop_back();
        if (to == 0) m_szm = low;
    }
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
    // Past this key's run, then on through the chain and the buckets a traversal visits next.
    while (o && o->hash == h && terms_exact_equal(o->element(m_keypos), key)) o = o->next;
    for (Word b = bucket_of(h);;) {
        for (; o; o = o->next)
            if (!o->deleted) return o->element(m_keypos);
        if ((b = next_bucket(b)) == 0) return 0;
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
    // OTP removes the pseudo-deleted objects at the last unfix; the table grows or shrinks at
    // the next insert or delete.
    if (m_fixations.empty()) purge_deleted();
}

void Table::unfix_all(Term pid) {
    for (auto it = m_fixations.begin(); it != m_fixations.end(); ++it)
        if (it->first == pid) {
            m_fixations.erase(it);
            break;
        }
    // OTP removes the pseudo-deleted objects at the last unfix; the table grows or shrinks at
    // the next insert or delete.
    if (m_fixations.empty()) purge_deleted();
}

}  // namespace beamlet::ets
