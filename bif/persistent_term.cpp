// bif/persistent_term.cpp — persistent_term: a VM-wide table of terms that reads never copy.
//
// Each {Key, Value} is copied, its sharing kept, into an area of its own in the literal arena
// (vm/literal_area.hpp), which no garbage collection moves, so get/1 hands out the stored term
// itself, as OTP does. When a value is replaced or erased, its area is released as OTP
// releases it: every process copies what it still references there into its heap
// (Vm::release_literals), and then the binaries and magic refs in it (ETS table ids, NIF
// resources) are let go. The arena itself only grows: the words stay behind.
#include <shared_mutex>
#include <unordered_map>

#include "bif/bifs.hpp"
#include "vm/copy.hpp"
#include "vm/literal_area.hpp"
#include "vm/magic.hpp"
#include "vm/map.hpp"
#include "vm/term_hash.hpp"
#include "vm/term_order.hpp"

namespace beamlet::bif {

using namespace vm;

namespace {

struct Entry {
    Term key;
    Term value;
    Term* lo;             // the area holding the {Key, Value} tuple
    Term* hi;
    Term* off_heap_first;  // the area's binaries and magic refs
};

class Table : public VmResource {
public:
    ~Table() override {
        for (auto& [h, e] : m_entries) release_off_heap_list(e.off_heap_first);
    }

    const Entry* find(Term key) const {
        auto range = m_entries.equal_range(make_hash2(key));
        for (auto it = range.first; it != range.second; ++it)
            if (terms_exact_equal(it->second.key, key)) return &it->second;
        return nullptr;
    }

    // Puts [key] => [value] (nothing changes when it is there already).
    void put(Vm& vm, Term key, Term value) {
        std::uint32_t h = make_hash2(key);
        auto range = m_entries.equal_range(h);
        for (auto it = range.first; it != range.second; ++it) {
            if (!terms_exact_equal(it->second.key, key)) continue;
            if (terms_exact_equal(it->second.value, value)) return;
            Entry old = it->second;
            it->second = persist(key, value);
            release(vm, old);
            return;
        }
        if (100 * m_entries.size() >= kLoadFactor * m_allocated) m_allocated *= 2;
        m_entries.emplace(h, persist(key, value));
    }

    bool erase(Vm& vm, Term key) {
        auto range = m_entries.equal_range(make_hash2(key));
        for (auto it = range.first; it != range.second; ++it)
            if (terms_exact_equal(it->second.key, key)) {
                if (200 * m_entries.size() <= kLoadFactor * m_allocated && m_allocated > kInitialSize) m_allocated /= 2;
                Entry old = it->second;
                m_entries.erase(it);
                release(vm, old);
                return true;
            }
        return false;
    }

    template <typename Fn>
    void for_each(Fn&& fn) const {
        for (const auto& [h, e] : m_entries) fn(e);
    }

    // The size OTP's open-addressing table would have for this many entries: it starts at 8
    // buckets, doubles when half full and halves when a quarter full (persistent_term:info/0's
    // memory and erts_debug:get_internal_state(persistent_term) report it; OTP's suite checks
    // that memory only grows by the table's growth).
    Word allocated() const { return m_allocated; }

    mutable std::shared_mutex mutex;

private:
    static constexpr Word kInitialSize = 8, kLoadFactor = 50;

    // Copies {key, value} into a new area, with its sharing (and any module literals in it:
    // the module may be purged).
    static Entry persist(Term key, Term value) {
        // Key and value share one copy map: a subterm of both is stored once.
        Term pair_words[3] = {make_arityval(2), key, value};
        Term pair = make_boxed(pair_words);
        Entry e{};
        e.lo = literal_alloc(term_size_shared_words(pair, true));
        e.hi = e.lo;
        Term stored = copy_term_shared(pair, &e.hi, &e.off_heap_first);
        e.key = tuple_element(stored, 0);
        e.value = tuple_element(stored, 1);
        return e;
    }

    static void release(Vm& vm, const Entry& e) {
        auto* job = new LiteralRelease;
        job->lo = e.lo;
        job->hi = e.hi;
        job->off_heap_first = e.off_heap_first;
        vm.release_literals(job);
    }

    std::unordered_multimap<std::uint32_t, Entry> m_entries;
    Word m_allocated = kInitialSize;
};

Table& table(Vm& vm) { return static_cast<Table&>(*vm.services.persistent_terms); }

}  // namespace

void install_persistent_terms(Vm& vm) { vm.services.persistent_terms = std::make_unique<Table>(); }

Term bif_persistent_term_put(Process* p, Term* a) {
    Table& t = table(p->vm);
    std::unique_lock lock(t.mutex);
    t.put(p->vm, a[0], a[1]);
    return atoms::ok;
}

Term bif_persistent_term_get1(Process* p, Term* a) {
    Table& t = table(p->vm);
    std::shared_lock lock(t.mutex);
    const Entry* e = t.find(a[0]);
    if (!e) return p->badarg();
    return e->value;
}

Term bif_persistent_term_get2(Process* p, Term* a) {
    Table& t = table(p->vm);
    std::shared_lock lock(t.mutex);
    const Entry* e = t.find(a[0]);
    return e ? e->value : a[1];
}

Term bif_persistent_term_get0(Process* p, Term*) {
    Table& t = table(p->vm);
    std::shared_lock lock(t.mutex);
    Term out = NIL;
    SWord count = 0;
    t.for_each([&](const Entry& e) {
        out = make_cons_on(p->alloc(2), make_tuple_on(p, {e.key, e.value}), out);
        ++count;
    });
    // A reduction per entry, as OTP counts it (beamlet's time slice knows no finer cost: a
    // large table ends it, so that a loop over get/0 can be scheduled out and killed).
    if (count >= 1000) p->yield_requested = true;
    return out;
}

Term bif_persistent_term_erase(Process* p, Term* a) {
    Table& t = table(p->vm);
    std::unique_lock lock(t.mutex);
    return make_bool(t.erase(p->vm, a[0]));
}

Term bif_persistent_term_info(Process* p, Term*) {
    Table& t = table(p->vm);
    std::shared_lock lock(t.mutex);
    // As OTP counts it: the table's header and buckets, and per entry a literal area (a
    // 3-word header) holding the {Key, Value} tuple.
    SWord count = 0, words = 5 + SWord(t.allocated());
    t.for_each([&](const Entry& e) {
        ++count;
        words += 3 + SWord(e.hi - e.lo) - 1;
    });
    std::vector<std::pair<Term, Term>> pairs{{atom("count"), make_small(count)}, {atom("memory"), make_small(words * 8)}};
    return map_from_pairs(p, std::move(pairs));
}

// erts_debug:get_internal_state(persistent_term): #{table => Buckets}.
Term persistent_term_internal_state(Process* p) {
    Table& t = table(p->vm);
    std::shared_lock lock(t.mutex);
    return map_from_pairs(p, {{atom("table"), make_small(SWord(t.allocated()))}});
}

}  // namespace beamlet::bif
