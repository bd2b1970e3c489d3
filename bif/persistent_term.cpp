// bif/persistent_term.cpp — persistent_term: a VM-wide table of terms that reads never copy.
//
// Keys and values are copied into the literal arena (vm/literal_area.hpp), which no garbage
// collection ever moves, so get/1 hands out the stored term itself, as OTP does. Replaced and
// erased terms stay in the arena: OTP frees them after a global collection; beamlet keeps them
// (programs store configuration here, not data that churns), and the binaries and magic refs
// (ETS table ids, NIF resources) inside them stay referenced until the VM ends.
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
    Word words;  // the memory both take
};

class Table : public VmResource {
public:
    ~Table() override {
        for (Term* obj = m_off_heap_first; obj;) {
            Term* next = reinterpret_cast<Term*>(obj[4]);
            release_off_heap(obj);
            obj = next;
        }
    }

    const Entry* find(Term key) const {
        auto range = m_entries.equal_range(make_hash2(key));
        for (auto it = range.first; it != range.second; ++it)
            if (terms_exact_equal(it->second.key, key)) return &it->second;
        return nullptr;
    }

    // Puts [key] => [value]; false if the same value was there already (nothing changes).
    void put(Term key, Term value) {
        std::uint32_t h = make_hash2(key);
        auto range = m_entries.equal_range(h);
        for (auto it = range.first; it != range.second; ++it) {
            if (!terms_exact_equal(it->second.key, key)) continue;
            if (terms_exact_equal(it->second.value, value)) return;
            it->second.value = persist(value);
            it->second.words = term_size_words(it->second.key) + term_size_words(it->second.value);
            return;
        }
        Entry e{persist(key), persist(value), 0};
        e.words = term_size_words(e.key) + term_size_words(e.value);
        m_entries.emplace(h, e);
    }

    bool erase(Term key) {
        auto range = m_entries.equal_range(make_hash2(key));
        for (auto it = range.first; it != range.second; ++it)
            if (terms_exact_equal(it->second.key, key)) {
                m_entries.erase(it);
                return true;
            }
        return false;
    }

    template <typename Fn>
    void for_each(Fn&& fn) const {
        for (const auto& [h, e] : m_entries) fn(e);
    }

    mutable std::shared_mutex mutex;

private:
    Term persist(Term t) {
        Word n = term_size_words(t);
        if (n == 0) return t;
        Term* hp = literal_alloc(n);
        return copy_term(t, &hp, &m_off_heap_first);
    }

    std::unordered_multimap<std::uint32_t, Entry> m_entries;
    Term* m_off_heap_first = nullptr;  // every stored term's binaries and magic refs
};

Table& table(Vm& vm) { return static_cast<Table&>(*vm.services.persistent_terms); }

}  // namespace

void install_persistent_terms(Vm& vm) { vm.services.persistent_terms = std::make_unique<Table>(); }

Term bif_persistent_term_put(Process* p, Term* a) {
    Table& t = table(p->vm);
    std::unique_lock lock(t.mutex);
    t.put(a[0], a[1]);
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
    t.for_each([&](const Entry& e) { out = make_cons_on(p->alloc(2), make_tuple_on(p, {e.key, e.value}), out); });
    return out;
}

Term bif_persistent_term_erase(Process* p, Term* a) {
    Table& t = table(p->vm);
    std::unique_lock lock(t.mutex);
    return make_bool(t.erase(a[0]));
}

Term bif_persistent_term_info(Process* p, Term*) {
    Table& t = table(p->vm);
    std::shared_lock lock(t.mutex);
    SWord count = 0, words = 0;
    t.for_each([&](const Entry& e) {
        ++count;
        words += SWord(e.words);
    });
    std::vector<std::pair<Term, Term>> pairs{{atom("count"), make_small(count)}, {atom("memory"), make_small(words * 8)}};
    return map_from_pairs(p, std::move(pairs));
}

}  // namespace beamlet::bif
