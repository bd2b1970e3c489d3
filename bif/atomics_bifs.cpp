// bif/atomics_bifs.cpp — the atomics module's BIFs and the erts_internal:counters_* ones that
// OTP's counters module is written over: arrays of 64-bit atomic integers behind magic
// references. Counters with write_concurrency are spread as OTP's: one cache-line-aligned
// copy of the array per scheduler (and one for other threads), each adding to its own, read
// as their sum.
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <new>

#include "bif/bifs.hpp"
#include "vm/bignum.hpp"
#include "vm/scheduler.hpp"
#include "vm/magic.hpp"
#include "vm/map.hpp"

namespace beamlet::bif {

using namespace vm;

namespace {

struct AtomicsArray {
    Word size;
    bool is_signed;
    std::atomic<std::uint64_t> values[1];
};

void destroy_array(MagicHandle* h) { std::free(h->data); }

AtomicsArray* array_of(Term ref) {
    if (!is_magic_ref(ref)) return nullptr;
    MagicHandle* h = magic_handle(ref);
    return h->destructor == destroy_array ? static_cast<AtomicsArray*>(h->data) : nullptr;
}

Term new_array(Process* p, Term arity, bool is_signed) {
    // As OTP: anything but a positive integer is badarg; more elements than a machine word
    // can count the bytes of (or than memory holds) is system_limit.
    if (!is_integer(arity) || (is_small(arity) ? small_value(arity) < 1 : bignum_is_negative(arity)))
        return p->badarg();
    if (!is_small(arity) || Word(small_value(arity)) > ~Word(0) / sizeof(std::uint64_t) - 1)
        return p->error(atom("system_limit"));
    Word n = Word(small_value(arity));
    void* raw = std::calloc(1, sizeof(AtomicsArray) + (n - 1) * sizeof(std::atomic<std::uint64_t>));
    if (!raw) return p->error(atom("system_limit"));
    auto* a = static_cast<AtomicsArray*>(raw);
    a->size = n;
    a->is_signed = is_signed;
    return new_magic_ref(p, a, destroy_array);
}

// The slot Ref[Ix] (1-based), or null.
std::atomic<std::uint64_t>* slot(Term ref, Term ix, AtomicsArray** out = nullptr) {
    AtomicsArray* a = array_of(ref);
    if (!a || !is_small(ix) || small_value(ix) < 1 || Word(small_value(ix)) > a->size) return nullptr;
    if (out) *out = a;
    return &a->values[small_value(ix) - 1];
}

// [t] as the array's 64-bit representation; false if out of its range.
bool value_of(const AtomicsArray* a, Term t, std::uint64_t* out) {
    if (!is_integer(t)) return false;
    if (a->is_signed) {
        std::optional<std::int64_t> v = integer_to_int64(t);
        if (!v) return false;
        *out = std::uint64_t(*v);
        return true;
    }
    if (is_small(t) && small_value(t) >= 0) {
        *out = std::uint64_t(small_value(t));
        return true;
    }
    if (is_big(t) && !bignum_is_negative(t) && bignum_limbs(t) == 1) {
        *out = boxed_ptr(t)[1];
        return true;
    }
    return false;
}

// An increment: any 64-bit integer, signed or not, wraps.
bool increment_of(Term t, std::uint64_t* out) {
    if (std::optional<std::int64_t> v = is_integer(t) ? integer_to_int64(t) : std::nullopt) {
        *out = std::uint64_t(*v);
        return true;
    }
    if (is_big(t) && !bignum_is_negative(t) && bignum_limbs(t) == 1) {
        *out = boxed_ptr(t)[1];
        return true;
    }
    return false;
}

Term term_of(Process* p, const AtomicsArray* a, std::uint64_t v) {
    return a->is_signed ? make_integer(p, std::int64_t(v)) : make_integer_u64(p, v);
}

Term info_of(Process* p, const AtomicsArray* a) {
    Term max = a->is_signed ? make_integer(p, INT64_MAX) : make_integer_u64(p, UINT64_MAX);
    Term min = a->is_signed ? make_integer(p, INT64_MIN) : make_small(0);
    // OTP's figure: a 40-byte header and the words.
    SWord memory = SWord(40 + a->size * sizeof(std::uint64_t));
    return map_from_pairs(p, {{atom("size"), make_integer(p, SWord(a->size))},
                              {atom("max"), max},
                              {atom("min"), min},
                              {atom("memory"), make_integer(p, memory)}});
}

}  // namespace

// erts_internal:atomics_new(Arity, EncodedOpts): bit 0 of the options is signed.
Term bif_erts_internal_atomics_new(Process* p, Term* a) {
    if (!is_small(a[1])) return p->badarg();
    return new_array(p, a[0], small_value(a[1]) & 1);
}

Term bif_atomics_put(Process* p, Term* a) {
    AtomicsArray* arr;
    std::uint64_t v;
    auto* s = slot(a[0], a[1], &arr);
    if (!s || !value_of(arr, a[2], &v)) return p->badarg();
    s->store(v, std::memory_order_seq_cst);
    return atoms::ok;
}

Term bif_atomics_get(Process* p, Term* a) {
    AtomicsArray* arr;
    auto* s = slot(a[0], a[1], &arr);
    if (!s) return p->badarg();
    return term_of(p, arr, s->load(std::memory_order_seq_cst));
}

Term bif_atomics_add(Process* p, Term* a) {
    std::uint64_t d;
    auto* s = slot(a[0], a[1]);
    if (!s || !increment_of(a[2], &d)) return p->badarg();
    s->fetch_add(d, std::memory_order_seq_cst);
    return atoms::ok;
}

Term bif_atomics_add_get(Process* p, Term* a) {
    AtomicsArray* arr;
    std::uint64_t d;
    auto* s = slot(a[0], a[1], &arr);
    if (!s || !increment_of(a[2], &d)) return p->badarg();
    return term_of(p, arr, s->fetch_add(d, std::memory_order_seq_cst) + d);
}

Term bif_atomics_exchange(Process* p, Term* a) {
    AtomicsArray* arr;
    std::uint64_t v;
    auto* s = slot(a[0], a[1], &arr);
    if (!s || !value_of(arr, a[2], &v)) return p->badarg();
    return term_of(p, arr, s->exchange(v, std::memory_order_seq_cst));
}

// ok if Ref[Ix] was Expected (and is now Desired), else its value.
Term bif_atomics_compare_exchange(Process* p, Term* a) {
    AtomicsArray* arr;
    std::uint64_t expected, desired;
    auto* s = slot(a[0], a[1], &arr);
    if (!s || !value_of(arr, a[2], &expected) || !value_of(arr, a[3], &desired)) return p->badarg();
    if (s->compare_exchange_strong(expected, desired, std::memory_order_seq_cst)) return atoms::ok;
    return term_of(p, arr, expected);
}

Term bif_atomics_info(Process* p, Term* a) {
    const AtomicsArray* arr = array_of(a[0]);
    return arr ? info_of(p, arr) : p->badarg();
}

namespace {

// write_concurrency counters: [stripes] copies of [size] counters, each copy starting on a
// cache line of its own ([stride] counters apart).
struct CounterStripes {
    Word size, stripes, stride;
    std::atomic<std::uint64_t>* values;  // stripes * stride, cache-line aligned
};

constexpr Word CACHE_LINE_COUNTERS = 64 / sizeof(std::uint64_t);

void destroy_stripes(MagicHandle* h) {
    auto* c = static_cast<CounterStripes*>(h->data);
    std::free(c->values);
    delete c;
}

CounterStripes* stripes_of(Term ref) {
    if (!is_magic_ref(ref)) return nullptr;
    MagicHandle* h = magic_handle(ref);
    return h->destructor == destroy_stripes ? static_cast<CounterStripes*>(h->data) : nullptr;
}

// Counter [ix] (1-based) of the stripe [stripe], or null.
std::atomic<std::uint64_t>* counter(CounterStripes* c, Term ix, Word stripe) {
    if (!is_small(ix) || small_value(ix) < 1 || Word(small_value(ix)) > c->size) return nullptr;
    return &c->values[stripe * c->stride + Word(small_value(ix)) - 1];
}

// The calling thread's stripe: its scheduler's, or the last one off the schedulers.
Word own_stripe(const CounterStripes* c) {
    int i = Schedulers::current_index();
    return i < 0 ? c->stripes - 1 : Word(i) % (c->stripes - 1);
}

}  // namespace

Term bif_erts_internal_counters_new(Process* p, Term* a) {
    Term arity = a[0];
    if (!is_integer(arity) || (is_small(arity) ? small_value(arity) < 1 : bignum_is_negative(arity)))
        return p->badarg();
    Word stripes = Word(p->vm.schedulers ? p->vm.schedulers->count() : 1) + 1;
    Word limit = ~Word(0) / sizeof(std::uint64_t) / stripes - CACHE_LINE_COUNTERS;
    if (!is_small(arity) || Word(small_value(arity)) > limit) return p->error(atom("system_limit"));
    Word n = Word(small_value(arity));
    Word stride = (n + CACHE_LINE_COUNTERS - 1) / CACHE_LINE_COUNTERS * CACHE_LINE_COUNTERS;
    void* values = std::aligned_alloc(64, stripes * stride * sizeof(std::uint64_t));
    if (!values) return p->error(atom("system_limit"));
    std::memset(values, 0, stripes * stride * sizeof(std::uint64_t));
    auto* c = new CounterStripes{n, stripes, stride, static_cast<std::atomic<std::uint64_t>*>(values)};
    return new_magic_ref(p, c, destroy_stripes);
}

Term bif_erts_internal_counters_get(Process* p, Term* a) {
    CounterStripes* c = stripes_of(a[0]);
    if (!c || !counter(c, a[1], 0)) return p->badarg();
    std::uint64_t sum = 0;
    for (Word s = 0; s < c->stripes; ++s) sum += counter(c, a[1], s)->load(std::memory_order_relaxed);
    return make_integer(p, std::int64_t(sum));
}

Term bif_erts_internal_counters_add(Process* p, Term* a) {
    CounterStripes* c = stripes_of(a[0]);
    std::uint64_t d;
    std::atomic<std::uint64_t>* slot = c ? counter(c, a[1], own_stripe(c)) : nullptr;
    if (!slot || !increment_of(a[2], &d)) return p->badarg();
    slot->fetch_add(d, std::memory_order_relaxed);
    return atoms::ok;
}

// put: the first stripe takes the value, the others are cleared (as OTP's, not atomic with
// respect to adds made meanwhile).
Term bif_erts_internal_counters_put(Process* p, Term* a) {
    CounterStripes* c = stripes_of(a[0]);
    std::optional<std::int64_t> v = is_integer(a[2]) ? integer_to_int64(a[2]) : std::nullopt;
    if (!c || !counter(c, a[1], 0) || !v) return p->badarg();
    counter(c, a[1], 0)->store(std::uint64_t(*v), std::memory_order_relaxed);
    for (Word s = 1; s < c->stripes; ++s) counter(c, a[1], s)->store(0, std::memory_order_relaxed);
    return atoms::ok;
}

Term bif_erts_internal_counters_info(Process* p, Term* a) {
    const CounterStripes* c = stripes_of(a[0]);
    if (!c) return p->badarg();
    // OTP's figure: a header and the stripes.
    SWord memory = SWord(40 + c->stripes * c->stride * sizeof(std::uint64_t));
    return map_from_pairs(p, {{atom("size"), make_integer(p, SWord(c->size))}, {atom("memory"), make_integer(p, memory)}});
}

}  // namespace beamlet::bif
