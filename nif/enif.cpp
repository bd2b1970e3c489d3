// nif/enif.cpp — the enif_* functions of include/erl_nif.h over beamlet's terms.
//
// Terms a NIF makes are allocated like a BIF's (Process::alloc: the heap, or a fragment when
// it is full), on the environment's process: the caller's for a NIF called from Erlang, a
// scratch process for tracer callbacks, the environment's own for enif_alloc_env.
#include <dlfcn.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "nif/nif.hpp"
#include "vm/atom_table.hpp"
#include "vm/bignum.hpp"
#include "vm/binary.hpp"
#include "vm/copy.hpp"
#include "vm/heap.hpp"
#include "vm/magic.hpp"
#include "vm/map.hpp"
#include "vm/process.hpp"
#include "vm/term_order.hpp"
#include "vm/vm.hpp"

using namespace beamlet;
using namespace beamlet::vm;

namespace {

Process* heap_of(ErlNifEnv* env) { return env->heap; }
Term T(ERL_NIF_TERM t) { return Term(t); }
ERL_NIF_TERM N(Term t) { return ERL_NIF_TERM(t); }

ERL_NIF_TERM make_atom_slow(const char* name, size_t len);

// memcmp for the short names of atoms, without a call.
inline bool same_bytes(const char* a, const char* b, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i)
        if (a[i] != b[i]) return false;
    return true;
}

// A detached process: a heap for an environment that belongs to no process. Its pid is never
// in the process table.
Vm* g_vm = nullptr;

Term make_list_from(Process* p, const ERL_NIF_TERM* arr, unsigned cnt) {
    Term* hp = p->alloc(2 * Word(cnt));
    Term list = NIL;
    for (unsigned i = cnt; i-- > 0;) list = make_cons_on(hp + 2 * i, T(arr[i]), list);
    return list;
}

Term make_tuple_from(Process* p, const ERL_NIF_TERM* arr, unsigned cnt) {
    Term* hp = p->alloc(Word(cnt) + 1);
    hp[0] = make_arityval(cnt);
    for (unsigned i = 0; i < cnt; ++i) hp[i + 1] = T(arr[i]);
    return make_boxed(hp);
}

// The binary buffer enif_alloc_binary hands out: a refcounted BinaryBuf, so that
// enif_make_binary can take it over without copying.
BinaryBuf* buf_of(const ErlNifBinary* bin) { return static_cast<BinaryBuf*>(bin->ref_bin); }

// A resource: a native object of [type]; the object's memory follows this header.
struct Resource {
    MagicHandle* handle;
    ErlNifResourceType* type;
    alignas(16) unsigned char data[1];
    static Resource* of(void* obj) {
        return reinterpret_cast<Resource*>(static_cast<unsigned char*>(obj) - offsetof(Resource, data));
    }
};

}  // namespace

struct enif_resource_type_t {
    std::string module, name;
    ErlNifResourceDtor* dtor;
};

namespace beamlet::nif {
void set_vm(Vm* vm) { g_vm = vm; }
}  // namespace beamlet::nif

extern "C" {

// ---- memory ----

void* enif_alloc(size_t size) { return std::malloc(size ? size : 1); }
void enif_free(void* ptr) { std::free(ptr); }
void* enif_realloc(void* ptr, size_t size) { return std::realloc(ptr, size); }
void* enif_priv_data(ErlNifEnv* env) { return nif::library_priv_data(env->library); }

// ---- environments ----

ErlNifEnv* enif_alloc_env(void) {
    if (!g_vm) return nullptr;
    auto* env = new ErlNifEnv;
    env->heap = new Process(*g_vm, g_vm->next_pid.fetch_add(1, std::memory_order_relaxed));
    env->owns_heap = true;
    return env;
}

void enif_free_env(ErlNifEnv* env) {
    if (!env) return;
    if (env->owns_heap) delete env->heap;
    delete env;
}

void enif_clear_env(ErlNifEnv* env) {
    if (env && env->owns_heap) env->heap->reset_heap();
}

ERL_NIF_TERM enif_make_copy(ErlNifEnv* dst_env, ERL_NIF_TERM src_term) {
    Term t = T(src_term);
    if (is_immediate(t)) return src_term;
    Process* p = heap_of(dst_env);
    Word n = term_size_words(t);
    Term* hp = p->alloc(n);
    return N(copy_term(t, &hp, &p->off_heap_first));
}

// ---- type tests and comparison ----

int enif_is_atom(ErlNifEnv*, ERL_NIF_TERM t) { return is_atom(T(t)); }
int enif_is_binary(ErlNifEnv*, ERL_NIF_TERM t) { return is_binary(T(t)); }
int enif_is_empty_list(ErlNifEnv*, ERL_NIF_TERM t) { return is_nil(T(t)); }
int enif_is_fun(ErlNifEnv*, ERL_NIF_TERM t) { return is_fun(T(t)); }
int enif_is_list(ErlNifEnv*, ERL_NIF_TERM t) { return is_list(T(t)) || is_nil(T(t)); }
int enif_is_map(ErlNifEnv*, ERL_NIF_TERM t) { return is_map(T(t)); }
int enif_is_number(ErlNifEnv*, ERL_NIF_TERM t) { return is_number(T(t)); }
int enif_is_pid(ErlNifEnv*, ERL_NIF_TERM t) { return is_any_pid(T(t)); }
int enif_is_port(ErlNifEnv*, ERL_NIF_TERM t) { return is_any_port(T(t)); }
int enif_is_ref(ErlNifEnv*, ERL_NIF_TERM t) { return is_any_ref(T(t)); }
int enif_is_tuple(ErlNifEnv*, ERL_NIF_TERM t) { return is_tuple(T(t)); }
int enif_is_exception(ErlNifEnv* env, ERL_NIF_TERM t) { return env->exception && T(t) == THE_NON_VALUE; }
int enif_is_identical(ERL_NIF_TERM a, ERL_NIF_TERM b) {
    // Immediates are identical exactly when their words are (no text comparison for atoms).
    if (a == b) return 1;
    if (is_immediate(T(a)) || is_immediate(T(b))) return 0;
    return terms_exact_equal(T(a), T(b));
}
int enif_compare(ERL_NIF_TERM a, ERL_NIF_TERM b) {
    int c = compare_terms(T(a), T(b));
    return c < 0 ? -1 : c > 0 ? 1 : 0;
}

ErlNifTermType enif_term_type(ErlNifEnv*, ERL_NIF_TERM term) {
    Term t = T(term);
    if (is_atom(t)) return ERL_NIF_TERM_TYPE_ATOM;
    if (is_bitstring(t)) return ERL_NIF_TERM_TYPE_BITSTRING;
    if (is_float(t)) return ERL_NIF_TERM_TYPE_FLOAT;
    if (is_fun(t)) return ERL_NIF_TERM_TYPE_FUN;
    if (is_integer(t)) return ERL_NIF_TERM_TYPE_INTEGER;
    if (is_list(t) || is_nil(t)) return ERL_NIF_TERM_TYPE_LIST;
    if (is_map(t)) return ERL_NIF_TERM_TYPE_MAP;
    if (is_any_pid(t)) return ERL_NIF_TERM_TYPE_PID;
    if (is_any_port(t)) return ERL_NIF_TERM_TYPE_PORT;
    if (is_any_ref(t)) return ERL_NIF_TERM_TYPE_REFERENCE;
    return ERL_NIF_TERM_TYPE_TUPLE;
}

// ---- atoms ----

ERL_NIF_TERM enif_make_atom(ErlNifEnv* env, const char* name) { return enif_make_atom_len(env, name, std::strlen(name)); }

ERL_NIF_TERM enif_make_atom_len(ErlNifEnv*, const char* name, size_t len) {
    // NIFs make the same few atoms on every call (enabled/3 answers trace or discard): a
    // per-thread cache keyed by the name's address and bytes spares the atom table's lock.
    struct CacheEntry {
        const char* name;
        std::size_t len;
        char text[32];
        Term atom;
    };
    thread_local CacheEntry cache[256] = {};
    std::uint64_t key = (std::uint64_t(reinterpret_cast<std::uintptr_t>(name)) ^ len) * 0x9E3779B97F4A7C15ull;
    CacheEntry& e = cache[key >> 56];
    if (e.name == name && e.len == len && same_bytes(e.text, name, len)) return N(e.atom);
    Term made = T(make_atom_slow(name, len));
    if (len <= sizeof e.text) {
        e.name = name;
        e.len = len;
        std::memcpy(e.text, name, len);
        e.atom = made;
    }
    return N(made);
}

}  // extern "C"

namespace {

ERL_NIF_TERM make_atom_slow(const char* name, size_t len) {
    // Latin-1 bytes, as OTP reads them; characters above 127 become their UTF-8 form.
    std::string utf8;
    for (size_t i = 0; i < len; ++i) {
        auto c = static_cast<unsigned char>(name[i]);
        if (c < 0x80) {
            utf8.push_back(char(c));
        } else {
            utf8.push_back(char(0xC0 | (c >> 6)));
            utf8.push_back(char(0x80 | (c & 0x3F)));
        }
    }
    std::optional<Term> a = AtomTable::global().intern(utf8);
    return a ? N(*a) : N(atoms::undefined);
}

}  // namespace

extern "C" {

int enif_make_existing_atom_len(ErlNifEnv*, const char* name, size_t len, ERL_NIF_TERM* atom_out, ErlNifCharEncoding) {
    std::optional<Term> a = AtomTable::global().find(std::string_view(name, len));
    if (!a) return 0;
    *atom_out = N(*a);
    return 1;
}

int enif_make_existing_atom(ErlNifEnv* env, const char* name, ERL_NIF_TERM* atom_out, ErlNifCharEncoding enc) {
    return enif_make_existing_atom_len(env, name, std::strlen(name), atom_out, enc);
}

int enif_get_atom(ErlNifEnv*, ERL_NIF_TERM t, char* buf, unsigned size, ErlNifCharEncoding) {
    if (!is_atom(T(t))) return 0;
    const std::string& s = atom_text(T(t));
    if (s.size() + 1 > size) return 0;
    std::memcpy(buf, s.data(), s.size());
    buf[s.size()] = '\0';
    return int(s.size() + 1);
}

int enif_get_atom_length(ErlNifEnv*, ERL_NIF_TERM t, unsigned* len, ErlNifCharEncoding) {
    if (!is_atom(T(t))) return 0;
    *len = unsigned(atom_text(T(t)).size());
    return 1;
}

// ---- numbers ----

ERL_NIF_TERM enif_make_int64(ErlNifEnv* env, ErlNifSInt64 i) { return N(make_integer(heap_of(env), i)); }
ERL_NIF_TERM enif_make_uint64(ErlNifEnv* env, ErlNifUInt64 i) { return N(make_integer_u64(heap_of(env), i)); }
ERL_NIF_TERM enif_make_int(ErlNifEnv* env, int i) { return enif_make_int64(env, i); }
ERL_NIF_TERM enif_make_uint(ErlNifEnv* env, unsigned i) { return enif_make_uint64(env, i); }
ERL_NIF_TERM enif_make_long(ErlNifEnv* env, long i) { return enif_make_int64(env, i); }
ERL_NIF_TERM enif_make_ulong(ErlNifEnv* env, unsigned long i) { return enif_make_uint64(env, i); }

ERL_NIF_TERM enif_make_double(ErlNifEnv* env, double d) {
    if (!std::isfinite(d)) return enif_make_badarg(env);
    return N(make_float_on(heap_of(env)->alloc(FLOAT_WORDS), d));
}

int enif_get_int64(ErlNifEnv*, ERL_NIF_TERM t, ErlNifSInt64* ip) {
    std::optional<std::int64_t> v = is_integer(T(t)) ? integer_to_int64(T(t)) : std::nullopt;
    if (!v) return 0;
    *ip = *v;
    return 1;
}

int enif_get_uint64(ErlNifEnv*, ERL_NIF_TERM t, ErlNifUInt64* ip) {
    Term v = T(t);
    if (is_small(v)) {
        if (small_value(v) < 0) return 0;
        *ip = ErlNifUInt64(small_value(v));
        return 1;
    }
    if (!is_big(v) || bignum_is_negative(v) || bignum_limbs(v) != 1) return 0;
    *ip = boxed_ptr(v)[1];
    return 1;
}

int enif_get_long(ErlNifEnv* env, ERL_NIF_TERM t, long* ip) {
    ErlNifSInt64 v;
    if (!enif_get_int64(env, t, &v)) return 0;
    *ip = long(v);
    return 1;
}

int enif_get_ulong(ErlNifEnv* env, ERL_NIF_TERM t, unsigned long* ip) {
    ErlNifUInt64 v;
    if (!enif_get_uint64(env, t, &v)) return 0;
    *ip = (unsigned long)v;
    return 1;
}

int enif_get_int(ErlNifEnv* env, ERL_NIF_TERM t, int* ip) {
    ErlNifSInt64 v;
    if (!enif_get_int64(env, t, &v) || v < INT32_MIN || v > INT32_MAX) return 0;
    *ip = int(v);
    return 1;
}

int enif_get_uint(ErlNifEnv* env, ERL_NIF_TERM t, unsigned* ip) {
    ErlNifUInt64 v;
    if (!enif_get_uint64(env, t, &v) || v > UINT32_MAX) return 0;
    *ip = unsigned(v);
    return 1;
}

int enif_get_double(ErlNifEnv*, ERL_NIF_TERM t, double* dp) {
    if (!is_float(T(t))) return 0;
    *dp = float_value(T(t));
    return 1;
}

// ---- tuples ----

ERL_NIF_TERM enif_make_tuple(ErlNifEnv* env, unsigned cnt, ...) {
    Term* hp = heap_of(env)->alloc(Word(cnt) + 1);
    hp[0] = make_arityval(cnt);
    va_list ap;
    va_start(ap, cnt);
    for (unsigned i = 0; i < cnt; ++i) hp[i + 1] = T(va_arg(ap, ERL_NIF_TERM));
    va_end(ap);
    return N(make_boxed(hp));
}

ERL_NIF_TERM enif_make_tuple_from_array(ErlNifEnv* env, const ERL_NIF_TERM arr[], unsigned cnt) {
    return N(make_tuple_from(heap_of(env), arr, cnt));
}

int enif_get_tuple(ErlNifEnv*, ERL_NIF_TERM tpl, int* arity, const ERL_NIF_TERM** array) {
    Term t = T(tpl);
    if (!is_tuple(t)) return 0;
    *arity = int(tuple_arity(t));
    *array = reinterpret_cast<const ERL_NIF_TERM*>(tuple_elements(t));
    return 1;
}

// ---- lists and strings ----

ERL_NIF_TERM enif_make_list(ErlNifEnv* env, unsigned cnt, ...) {
    Process* p = heap_of(env);
    Term* hp = p->alloc(2 * Word(cnt));
    va_list ap;
    va_start(ap, cnt);
    Term first = NIL;
    Term* prev_tail = &first;
    for (unsigned i = 0; i < cnt; ++i) {
        Term* cell = hp + 2 * i;
        cell[0] = T(va_arg(ap, ERL_NIF_TERM));
        cell[1] = NIL;
        *prev_tail = make_list(cell);
        prev_tail = &cell[1];
    }
    va_end(ap);
    return N(first);
}

ERL_NIF_TERM enif_make_list_cell(ErlNifEnv* env, ERL_NIF_TERM car_t, ERL_NIF_TERM cdr_t) {
    return N(make_cons_on(heap_of(env)->alloc(2), T(car_t), T(cdr_t)));
}

ERL_NIF_TERM enif_make_list_from_array(ErlNifEnv* env, const ERL_NIF_TERM arr[], unsigned cnt) {
    return N(make_list_from(heap_of(env), arr, cnt));
}

int enif_make_reverse_list(ErlNifEnv* env, ERL_NIF_TERM list_in, ERL_NIF_TERM* list_out) {
    unsigned n;
    if (!enif_get_list_length(env, list_in, &n)) return 0;
    Term* hp = heap_of(env)->alloc(2 * Word(n));
    Term out = NIL;
    for (Term l = T(list_in); is_list(l); l = cdr(l), hp += 2) out = make_cons_on(hp, car(l), out);
    *list_out = N(out);
    return 1;
}

int enif_get_list_cell(ErlNifEnv*, ERL_NIF_TERM term, ERL_NIF_TERM* head, ERL_NIF_TERM* tail) {
    Term t = T(term);
    if (!is_list(t)) return 0;
    *head = N(car(t));
    *tail = N(cdr(t));
    return 1;
}

int enif_get_list_length(ErlNifEnv*, ERL_NIF_TERM term, unsigned* len) {
    unsigned n = 0;
    Term t = T(term);
    for (; is_list(t); t = cdr(t)) ++n;
    if (!is_nil(t)) return 0;
    *len = n;
    return 1;
}

ERL_NIF_TERM enif_make_string_len(ErlNifEnv* env, const char* string, size_t len, ErlNifCharEncoding) {
    Term* hp = heap_of(env)->alloc(2 * Word(len));
    Term list = NIL;
    for (size_t i = len; i-- > 0;) list = make_cons_on(hp + 2 * i, make_small(static_cast<unsigned char>(string[i])), list);
    return N(list);
}

ERL_NIF_TERM enif_make_string(ErlNifEnv* env, const char* string, ErlNifCharEncoding enc) {
    return enif_make_string_len(env, string, std::strlen(string), enc);
}

int enif_get_string(ErlNifEnv*, ERL_NIF_TERM list, char* buf, unsigned size, ErlNifCharEncoding) {
    if (size == 0) return 0;
    unsigned n = 0;
    Term t = T(list);
    for (; is_list(t); t = cdr(t)) {
        Term c = car(t);
        if (!is_small(c) || small_value(c) < 0 || small_value(c) > 255) return 0;
        if (n + 1 >= size) {
            buf[n] = '\0';
            return -int(size);
        }
        buf[n++] = char(small_value(c));
    }
    if (!is_nil(t)) return 0;
    buf[n] = '\0';
    return int(n + 1);
}

// ---- binaries ----

int enif_alloc_binary(size_t size, ErlNifBinary* bin) {
    BinaryBuf* buf = BinaryBuf::create(size);
    if (!buf) return 0;
    bin->size = size;
    bin->data = buf->bytes;
    bin->ref_bin = buf;
    return 1;
}

int enif_realloc_binary(ErlNifBinary* bin, size_t size) {
    BinaryBuf* old = buf_of(bin);
    if (!old) return 0;
    BinaryBuf* buf = BinaryBuf::create(size);
    if (!buf) return 0;
    std::memcpy(buf->bytes, old->bytes, std::min(size, old->size_bytes));
    old->release();
    bin->size = size;
    bin->data = buf->bytes;
    bin->ref_bin = buf;
    return 1;
}

void enif_release_binary(ErlNifBinary* bin) {
    if (BinaryBuf* buf = buf_of(bin)) buf->release();
    bin->ref_bin = nullptr;
}

int enif_inspect_binary(ErlNifEnv* env, ERL_NIF_TERM bin_term, ErlNifBinary* bin) {
    Term t = T(bin_term);
    if (!is_binary(t)) return 0;
    BitView v = bit_view(t);
    bin->size = v.size_bytes();
    bin->ref_bin = nullptr;
    if (v.is_aligned()) {
        bin->data = const_cast<unsigned char*>(v.aligned_bytes());
        return 1;
    }
    // An unaligned sub-binary: an aligned copy that lives as long as the environment.
    std::uint8_t* data = nullptr;
    Process* p = heap_of(env);
    make_binary_on(p, p->alloc(binary_words(bin->size)), nullptr, bin->size, &data);
    copy_bits(v.bytes, v.bit_offset, data, 0, v.bit_size);
    bin->data = data;
    return 1;
}

int enif_inspect_iolist_as_binary(ErlNifEnv* env, ERL_NIF_TERM term, ErlNifBinary* bin) {
    if (is_binary(T(term))) return enif_inspect_binary(env, term, bin);
    std::string bytes;
    // Iolists: bytes, binaries and nested lists.
    std::vector<Term> stack{T(term)};
    while (!stack.empty()) {
        Term t = stack.back();
        stack.pop_back();
        if (is_nil(t)) continue;
        if (is_list(t)) {
            stack.push_back(cdr(t));
            stack.push_back(car(t));
        } else if (is_small(t) && small_value(t) >= 0 && small_value(t) <= 255) {
            bytes.push_back(char(small_value(t)));
        } else if (is_binary(t)) {
            BitView v = bit_view(t);
            std::size_t at = bytes.size();
            bytes.resize(at + v.size_bytes());
            copy_bits(v.bytes, v.bit_offset, reinterpret_cast<std::uint8_t*>(bytes.data() + at), 0, v.bit_size);
        } else {
            return 0;
        }
    }
    ERL_NIF_TERM out;
    unsigned char* data = enif_make_new_binary(env, bytes.size(), &out);
    std::memcpy(data, bytes.data(), bytes.size());
    return enif_inspect_binary(env, out, bin);
}

unsigned char* enif_make_new_binary(ErlNifEnv* env, size_t size, ERL_NIF_TERM* termp) {
    Process* p = heap_of(env);
    std::uint8_t* data = nullptr;
    *termp = N(make_binary_on(p, p->alloc(binary_words(size)), nullptr, size, &data));
    return data;
}

ERL_NIF_TERM enif_make_binary(ErlNifEnv* env, ErlNifBinary* bin) {
    ERL_NIF_TERM t;
    unsigned char* data = enif_make_new_binary(env, bin->size, &t);
    if (bin->size) std::memcpy(data, bin->data, bin->size);
    // The term owns the bytes now; the ErlNifBinary no longer does (OTP transfers it).
    if (buf_of(bin)) enif_release_binary(bin);
    return t;
}

ERL_NIF_TERM enif_make_sub_binary(ErlNifEnv* env, ERL_NIF_TERM bin_term, size_t pos, size_t size) {
    return N(make_sub_binary(heap_of(env), T(bin_term), pos * 8, size * 8));
}

// ---- maps ----

ERL_NIF_TERM enif_make_new_map(ErlNifEnv*) { return N(empty_map()); }

int enif_make_map_put(ErlNifEnv* env, ERL_NIF_TERM map_in, ERL_NIF_TERM key, ERL_NIF_TERM value, ERL_NIF_TERM* map_out) {
    if (!is_map(T(map_in))) return 0;
    *map_out = N(map_put(heap_of(env), T(map_in), T(key), T(value)));
    return 1;
}

int enif_make_map_update(ErlNifEnv* env, ERL_NIF_TERM map_in, ERL_NIF_TERM key, ERL_NIF_TERM value, ERL_NIF_TERM* map_out) {
    if (!is_map(T(map_in)) || !map_lookup(T(map_in), T(key))) return 0;
    return enif_make_map_put(env, map_in, key, value, map_out);
}

int enif_make_map_remove(ErlNifEnv* env, ERL_NIF_TERM map_in, ERL_NIF_TERM key, ERL_NIF_TERM* map_out) {
    if (!is_map(T(map_in))) return 0;
    *map_out = N(map_remove(heap_of(env), T(map_in), T(key)));
    return 1;
}

int enif_make_map_from_arrays(ErlNifEnv* env, ERL_NIF_TERM keys[], ERL_NIF_TERM values[], size_t cnt, ERL_NIF_TERM* map_out) {
    std::vector<std::pair<Term, Term>> pairs;
    for (size_t i = 0; i < cnt; ++i) {
        for (const auto& [k, v] : pairs)
            if (terms_exact_equal(k, T(keys[i]))) return 0;  // duplicate keys fail
        pairs.emplace_back(T(keys[i]), T(values[i]));
    }
    *map_out = N(map_from_pairs(heap_of(env), std::move(pairs)));
    return 1;
}

int enif_get_map_size(ErlNifEnv*, ERL_NIF_TERM term, size_t* size) {
    if (!is_map(T(term))) return 0;
    *size = map_size(T(term));
    return 1;
}

int enif_get_map_value(ErlNifEnv*, ERL_NIF_TERM map, ERL_NIF_TERM key, ERL_NIF_TERM* value) {
    if (!is_map(T(map))) return 0;
    const Term* v = map_lookup(T(map), T(key));
    if (!v) return 0;
    *value = N(*v);
    return 1;
}

int enif_map_iterator_create(ErlNifEnv* env, ERL_NIF_TERM map, ErlNifMapIterator* iter, ErlNifMapIteratorEntry entry) {
    Term m = T(map);
    if (!is_map(m)) return 0;
    iter->map = map;
    iter->size = map_size(m);
    if (!is_flatmap(m)) {
        // A hashmap's pairs, in iteration order, as a keys tuple and a values tuple on the
        // environment's heap.
        Word n = map_size(m);
        Term* hp = heap_of(env)->alloc(2 * (1 + n));
        hp[0] = hp[1 + n] = make_arityval(n);
        Word i = 0;
        map_for_each(m, [&](Term k, Term v) {
            hp[1 + i] = k;
            hp[2 + n + i] = v;
            ++i;
        });
        iter->keys = reinterpret_cast<const ERL_NIF_TERM*>(hp + 1);
        iter->values = reinterpret_cast<const ERL_NIF_TERM*>(hp + 2 + n);
    } else {
        iter->keys = iter->size ? reinterpret_cast<const ERL_NIF_TERM*>(tuple_elements(map_keys(m))) : nullptr;
        iter->values = reinterpret_cast<const ERL_NIF_TERM*>(map_values(m));
    }
    iter->idx = entry == ERL_NIF_MAP_ITERATOR_LAST ? iter->size : 1;
    if (entry != ERL_NIF_MAP_ITERATOR_FIRST && entry != ERL_NIF_MAP_ITERATOR_LAST) return 0;
    return 1;
}

void enif_map_iterator_destroy(ErlNifEnv*, ErlNifMapIterator*) {}
// idx counts from 1; 0 is before the head and size + 1 after the tail.
int enif_map_iterator_is_head(ErlNifEnv*, ErlNifMapIterator* iter) { return iter->size == 0 || iter->idx == 0; }
int enif_map_iterator_is_tail(ErlNifEnv*, ErlNifMapIterator* iter) { return iter->size == 0 || iter->idx > iter->size; }
int enif_map_iterator_next(ErlNifEnv*, ErlNifMapIterator* iter) {
    if (iter->idx <= iter->size) ++iter->idx;
    return iter->idx <= iter->size;
}
int enif_map_iterator_prev(ErlNifEnv*, ErlNifMapIterator* iter) {
    if (iter->idx > 0) --iter->idx;
    return iter->idx > 0;
}
int enif_map_iterator_get_pair(ErlNifEnv*, ErlNifMapIterator* iter, ERL_NIF_TERM* key, ERL_NIF_TERM* value) {
    if (iter->idx == 0 || iter->idx > iter->size) return 0;
    *key = iter->keys[iter->idx - 1];
    *value = iter->values[iter->idx - 1];
    return 1;
}

// ---- processes and messages ----

ErlNifPid* enif_self(ErlNifEnv* env, ErlNifPid* pid) {
    if (!env || !env->self) return nullptr;
    pid->pid = N(env->self);
    return pid;
}

int enif_get_local_pid(ErlNifEnv*, ERL_NIF_TERM term, ErlNifPid* pid) {
    if (!is_pid(T(term))) return 0;
    pid->pid = term;
    return 1;
}

int enif_is_process_alive(ErlNifEnv* env, ErlNifPid* pid) {
    Vm* vm = env && env->heap ? &env->heap->vm : g_vm;
    if (!vm || !is_pid(T(pid->pid))) return 0;
    std::shared_ptr<Process> p = vm->lookup_process(T(pid->pid));
    return p && !p->exited;
}

int enif_whereis_pid(ErlNifEnv* env, ERL_NIF_TERM name, ErlNifPid* pid) {
    Vm* vm = env && env->heap ? &env->heap->vm : g_vm;
    if (!vm || !is_atom(T(name))) return 0;
    std::shared_ptr<Process> p = vm->whereis(T(name));
    if (!p) return 0;
    pid->pid = N(p->id);
    return 1;
}

int enif_send(ErlNifEnv* caller_env, const ErlNifPid* to_pid, ErlNifEnv* msg_env, ERL_NIF_TERM msg) {
    Vm* vm = caller_env && caller_env->heap ? &caller_env->heap->vm : msg_env && msg_env->heap ? &msg_env->heap->vm : g_vm;
    if (!vm || !is_pid(T(to_pid->pid))) return 0;
    std::shared_ptr<Process> to = vm->lookup_process(T(to_pid->pid));
    if (!to) return 0;
    Message m{0, nullptr};
    m.fragment = copy_to_fragment(T(msg), &m.term);
    m.from = caller_env && caller_env->self ? caller_env->self : atoms::undefined;
    bool sent = vm->send_signal(to.get(), m);
    if (msg_env) enif_clear_env(msg_env);  // the message environment is spent (as in OTP)
    return sent;
}

ERL_NIF_TERM enif_make_ref(ErlNifEnv* env) { return N(heap_of(env)->new_ref()); }

// ---- exceptions ----

ERL_NIF_TERM enif_make_badarg(ErlNifEnv* env) {
    env->exception = atoms::badarg;
    return N(THE_NON_VALUE);
}

ERL_NIF_TERM enif_raise_exception(ErlNifEnv* env, ERL_NIF_TERM reason) {
    env->exception = T(reason);
    return N(THE_NON_VALUE);
}

int enif_has_pending_exception(ErlNifEnv* env, ERL_NIF_TERM* reason) {
    if (!env->exception) return 0;
    if (reason) *reason = N(env->exception);
    return 1;
}

// ---- resources ----

ErlNifResourceType* enif_open_resource_type(ErlNifEnv*, const char* module_str, const char* name_str,
                                            ErlNifResourceDtor* dtor, ErlNifResourceFlags flags,
                                            ErlNifResourceFlags* tried) {
    // Types live as long as the VM (OTP keeps them while any resource of theirs does).
    static std::mutex mutex;
    static std::vector<std::unique_ptr<ErlNifResourceType>> types;
    std::lock_guard lock(mutex);
    std::string module = module_str ? module_str : "";
    for (auto& owned : types)
        if (ErlNifResourceType* t = owned.get(); t->module == module && t->name == name_str) {
            if (!(flags & ERL_NIF_RT_TAKEOVER)) return nullptr;
            t->dtor = dtor;
            if (tried) *tried = ERL_NIF_RT_TAKEOVER;
            return t;
        }
    if (!(flags & ERL_NIF_RT_CREATE)) return nullptr;
    auto* t = new ErlNifResourceType{module, name_str, dtor};
    types.emplace_back(t);
    if (tried) *tried = ERL_NIF_RT_CREATE;
    return t;
}

void* enif_alloc_resource(ErlNifResourceType* type, size_t size) {
    void* raw = std::aligned_alloc(16, (offsetof(Resource, data) + size + 15) / 16 * 16);
    auto* r = static_cast<Resource*>(raw);
    r->type = type;
    r->handle = new MagicHandle;
    r->handle->data = r;
    r->handle->destructor = [](MagicHandle* h) {
        auto* res = static_cast<Resource*>(h->data);
        if (res->type && res->type->dtor) res->type->dtor(nullptr, res->data);
        std::free(res);
    };
    return r->data;
}

void enif_release_resource(void* obj) { Resource::of(obj)->handle->release(); }
void enif_keep_resource(void* obj) { Resource::of(obj)->handle->add_ref(); }

ERL_NIF_TERM enif_make_resource(ErlNifEnv* env, void* obj) {
    Process* p = heap_of(env);
    Resource* r = Resource::of(obj);
    r->handle->add_ref();
    Word n = p->vm.next_ref.fetch_add(1, std::memory_order_relaxed) + 1;
    Word id[3] = {n & 0x3FFFF, n >> 18, 0};
    return N(make_magic_ref(p, id, r->handle));
}

int enif_get_resource(ErlNifEnv*, ERL_NIF_TERM term, ErlNifResourceType* type, void** objp) {
    Term t = T(term);
    if (!is_magic_ref(t)) return 0;
    MagicHandle* h = magic_handle(t);
    auto* r = static_cast<Resource*>(h->data);
    if (!r || r->handle != h || r->type != type) return 0;
    *objp = r->data;
    return 1;
}

// ---- time and system ----

ErlNifTime enif_monotonic_time(ErlNifTimeUnit unit) {
    ErlNifTime ns = std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch()).count();
    return enif_convert_time_unit(ns, ERL_NIF_NSEC, unit);
}

ErlNifTime enif_convert_time_unit(ErlNifTime time, ErlNifTimeUnit from, ErlNifTimeUnit to) {
    static const ErlNifTime per_second[] = {1, 1000, 1000000, 1000000000};
    if (from < ERL_NIF_SEC || from > ERL_NIF_NSEC || to < ERL_NIF_SEC || to > ERL_NIF_NSEC) return ErlNifTime(INT64_MIN);
    ErlNifTime f = per_second[from], t = per_second[to];
    if (t >= f) return time * (t / f);
    // Towards minus infinity, as OTP converts.
    ErlNifTime d = f / t;
    return time >= 0 ? time / d : -((-time + d - 1) / d);
}

int enif_consume_timeslice(ErlNifEnv*, int) { return 0; }

ERL_NIF_TERM enif_schedule_nif(ErlNifEnv* env, const char*, int,
                               ERL_NIF_TERM (*fp)(ErlNifEnv*, int, const ERL_NIF_TERM[]), int argc,
                               const ERL_NIF_TERM argv[]) {
    return fp(env, argc, argv);
}

int enif_snprintf(char* buffer, size_t size, const char* format, ...) {
    va_list args;
    va_start(args, format);
    int n = std::vsnprintf(buffer, size, format, args);
    va_end(args);
    return n;
}

// ---- threads and shared libraries (OTP's crypto NIF uses them) ----

ErlNifMutex* enif_mutex_create(char*) { return reinterpret_cast<ErlNifMutex*>(new std::mutex); }
void enif_mutex_destroy(ErlNifMutex* mtx) { delete reinterpret_cast<std::mutex*>(mtx); }
void enif_mutex_lock(ErlNifMutex* mtx) { reinterpret_cast<std::mutex*>(mtx)->lock(); }
void enif_mutex_unlock(ErlNifMutex* mtx) { reinterpret_cast<std::mutex*>(mtx)->unlock(); }

void* enif_dlopen(const char* lib, void (*err_handler)(void*, const char*), void* err_arg) {
    // As erts: the name as given, then with the platform's suffix.
    void* handle = ::dlopen(lib, RTLD_NOW);
    if (!handle) handle = ::dlopen((std::string(lib) + ".so").c_str(), RTLD_NOW);
    if (!handle && err_handler) err_handler(err_arg, ::dlerror());
    return handle;
}

void* enif_dlsym(void* handle, const char* symbol, void (*err_handler)(void*, const char*), void* err_arg) {
    ::dlerror();
    void* address = ::dlsym(handle, symbol);
    if (!address && err_handler) err_handler(err_arg, ::dlerror());
    return address;
}

}  // extern "C"
