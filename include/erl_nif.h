/* include/erl_nif.h — beamlet's native implemented functions (NIF) interface.
 *
 * A source-compatible subset of OTP's erl_nif.h (NIF API 2.16, OTP 25): a NIF library written
 * for OTP that uses only the functions declared here compiles unchanged against this header
 * and loads into beamlet with erlang:load_nif/2. Build a library with
 *
 *     gcc -I <beamlet>/include -fPIC -shared -o mylib.so mylib.c
 *
 * The enif_* functions are exported by the beamlet executable; the library resolves them when
 * beamlet loads it. What is implemented, and how beamlet departs from OTP, is listed in
 * nif/README.md.
 */
#ifndef BEAMLET_ERL_NIF_H
#define BEAMLET_ERL_NIF_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define ERL_NIF_MAJOR_VERSION 2
#define ERL_NIF_MINOR_VERSION 16
#define ERL_NIF_MIN_ERTS_VERSION "erts-13.0"
#define ERL_NIF_VM_VARIANT "beam.vanilla"

/* A term: the same word the VM holds in a register. */
typedef unsigned long ERL_NIF_TERM;
typedef ERL_NIF_TERM ERL_NIF_UINT;
typedef int64_t ErlNifSInt64;
typedef uint64_t ErlNifUInt64;
typedef ErlNifSInt64 ErlNifTime;

/* Where a NIF runs and allocates the terms it makes. */
typedef struct enif_environment_t ErlNifEnv;

typedef struct enif_func_t {
    const char* name;
    unsigned arity;
    ERL_NIF_TERM (*fptr)(ErlNifEnv* env, int argc, const ERL_NIF_TERM argv[]);
    unsigned flags;
} ErlNifFunc;

#define ERL_NIF_DIRTY_JOB_CPU_BOUND 1
#define ERL_NIF_DIRTY_JOB_IO_BOUND 2

typedef struct enif_entry_t {
    int major;
    int minor;
    const char* name;
    int num_of_funcs;
    ErlNifFunc* funcs;
    int (*load)(ErlNifEnv*, void** priv_data, ERL_NIF_TERM load_info);
    int (*reload)(ErlNifEnv*, void** priv_data, ERL_NIF_TERM load_info);
    int (*upgrade)(ErlNifEnv*, void** priv_data, void** old_priv_data, ERL_NIF_TERM load_info);
    void (*unload)(ErlNifEnv*, void* priv_data);
    const char* vm_variant;
    unsigned options;
    size_t sizeof_ErlNifResourceTypeInit;
    const char* min_erts;
} ErlNifEntry;

typedef struct {
    size_t size;
    unsigned char* data;
    void* ref_bin; /* beamlet's buffer; not for the library */
    void* __spare__[2];
} ErlNifBinary;

typedef struct {
    ERL_NIF_TERM pid;
} ErlNifPid;

typedef enum { ERL_NIF_LATIN1 = 1, ERL_NIF_UTF8 = 2 } ErlNifCharEncoding;

typedef enum {
    ERL_NIF_TERM_TYPE_ATOM = 1,
    ERL_NIF_TERM_TYPE_BITSTRING = 2,
    ERL_NIF_TERM_TYPE_FLOAT = 3,
    ERL_NIF_TERM_TYPE_FUN = 4,
    ERL_NIF_TERM_TYPE_INTEGER = 5,
    ERL_NIF_TERM_TYPE_LIST = 6,
    ERL_NIF_TERM_TYPE_MAP = 7,
    ERL_NIF_TERM_TYPE_PID = 8,
    ERL_NIF_TERM_TYPE_PORT = 9,
    ERL_NIF_TERM_TYPE_REFERENCE = 10,
    ERL_NIF_TERM_TYPE_TUPLE = 11,
    ERL_NIF_TERM_TYPE__MISSING_DEFAULT_CASE__READ_THE_MANUAL = -1
} ErlNifTermType;

typedef enum { ERL_NIF_SEC = 0, ERL_NIF_MSEC = 1, ERL_NIF_USEC = 2, ERL_NIF_NSEC = 3 } ErlNifTimeUnit;

/* Map iteration. */
typedef enum { ERL_NIF_MAP_ITERATOR_FIRST = 1, ERL_NIF_MAP_ITERATOR_LAST = 2 } ErlNifMapIteratorEntry;
#define ERL_NIF_MAP_ITERATOR_HEAD ERL_NIF_MAP_ITERATOR_FIRST
#define ERL_NIF_MAP_ITERATOR_TAIL ERL_NIF_MAP_ITERATOR_LAST
typedef struct {
    ERL_NIF_TERM map;
    size_t size;
    size_t idx;
    const ERL_NIF_TERM* keys;
    const ERL_NIF_TERM* values;
    void* __spare__[2];
} ErlNifMapIterator;

/* Resources: native objects behind reference-like terms. */
typedef struct enif_resource_type_t ErlNifResourceType;
typedef void ErlNifResourceDtor(ErlNifEnv*, void*);
typedef enum {
    ERL_NIF_RT_CREATE = 1,
    ERL_NIF_RT_TAKEOVER = 2
} ErlNifResourceFlags;

/* ---- the library's entry point ---- */

#ifdef __cplusplus
#define BEAMLET_NIF_EXTERN extern "C"
#else
#define BEAMLET_NIF_EXTERN
#endif

#define ERL_NIF_INIT(NAME, FUNCS, LOAD, RELOAD, UPGRADE, UNLOAD)                                   \
    BEAMLET_NIF_EXTERN __attribute__((visibility("default"))) ErlNifEntry* nif_init(void);          \
    BEAMLET_NIF_EXTERN __attribute__((visibility("default"))) ErlNifEntry* nif_init(void) {         \
        static ErlNifEntry entry = {ERL_NIF_MAJOR_VERSION,                                          \
                                    ERL_NIF_MINOR_VERSION,                                          \
                                    #NAME,                                                          \
                                    sizeof(FUNCS) / sizeof(*FUNCS),                                 \
                                    FUNCS,                                                          \
                                    LOAD,                                                           \
                                    RELOAD,                                                         \
                                    UPGRADE,                                                        \
                                    UNLOAD,                                                         \
                                    ERL_NIF_VM_VARIANT,                                             \
                                    1,                                                              \
                                    0,                                                              \
                                    ERL_NIF_MIN_ERTS_VERSION};                                      \
        return &entry;                                                                              \
    }

/* ---- memory ---- */
void* enif_alloc(size_t size);
void enif_free(void* ptr);
void* enif_realloc(void* ptr, size_t size);
void* enif_priv_data(ErlNifEnv* env);

/* ---- environments ---- */
ErlNifEnv* enif_alloc_env(void);
void enif_free_env(ErlNifEnv* env);
void enif_clear_env(ErlNifEnv* env);
ERL_NIF_TERM enif_make_copy(ErlNifEnv* dst_env, ERL_NIF_TERM src_term);

/* ---- type tests and comparison ---- */
int enif_is_atom(ErlNifEnv* env, ERL_NIF_TERM term);
int enif_is_binary(ErlNifEnv* env, ERL_NIF_TERM term);
int enif_is_empty_list(ErlNifEnv* env, ERL_NIF_TERM term);
int enif_is_fun(ErlNifEnv* env, ERL_NIF_TERM term);
int enif_is_list(ErlNifEnv* env, ERL_NIF_TERM term);
int enif_is_map(ErlNifEnv* env, ERL_NIF_TERM term);
int enif_is_number(ErlNifEnv* env, ERL_NIF_TERM term);
int enif_is_pid(ErlNifEnv* env, ERL_NIF_TERM term);
int enif_is_port(ErlNifEnv* env, ERL_NIF_TERM term);
int enif_is_ref(ErlNifEnv* env, ERL_NIF_TERM term);
int enif_is_tuple(ErlNifEnv* env, ERL_NIF_TERM term);
int enif_is_exception(ErlNifEnv* env, ERL_NIF_TERM term);
int enif_is_identical(ERL_NIF_TERM lhs, ERL_NIF_TERM rhs);
int enif_compare(ERL_NIF_TERM lhs, ERL_NIF_TERM rhs);
ErlNifTermType enif_term_type(ErlNifEnv* env, ERL_NIF_TERM term);

/* ---- atoms ---- */
ERL_NIF_TERM enif_make_atom(ErlNifEnv* env, const char* name);
ERL_NIF_TERM enif_make_atom_len(ErlNifEnv* env, const char* name, size_t len);
int enif_make_existing_atom(ErlNifEnv* env, const char* name, ERL_NIF_TERM* atom, ErlNifCharEncoding encoding);
int enif_make_existing_atom_len(ErlNifEnv* env, const char* name, size_t len, ERL_NIF_TERM* atom,
                                ErlNifCharEncoding encoding);
int enif_get_atom(ErlNifEnv* env, ERL_NIF_TERM atom, char* buf, unsigned size, ErlNifCharEncoding encoding);
int enif_get_atom_length(ErlNifEnv* env, ERL_NIF_TERM atom, unsigned* len, ErlNifCharEncoding encoding);

/* ---- numbers ---- */
ERL_NIF_TERM enif_make_int(ErlNifEnv* env, int i);
ERL_NIF_TERM enif_make_uint(ErlNifEnv* env, unsigned i);
ERL_NIF_TERM enif_make_long(ErlNifEnv* env, long i);
ERL_NIF_TERM enif_make_ulong(ErlNifEnv* env, unsigned long i);
ERL_NIF_TERM enif_make_int64(ErlNifEnv* env, ErlNifSInt64 i);
ERL_NIF_TERM enif_make_uint64(ErlNifEnv* env, ErlNifUInt64 i);
ERL_NIF_TERM enif_make_double(ErlNifEnv* env, double d);
int enif_get_int(ErlNifEnv* env, ERL_NIF_TERM term, int* ip);
int enif_get_uint(ErlNifEnv* env, ERL_NIF_TERM term, unsigned* ip);
int enif_get_long(ErlNifEnv* env, ERL_NIF_TERM term, long* ip);
int enif_get_ulong(ErlNifEnv* env, ERL_NIF_TERM term, unsigned long* ip);
int enif_get_int64(ErlNifEnv* env, ERL_NIF_TERM term, ErlNifSInt64* ip);
int enif_get_uint64(ErlNifEnv* env, ERL_NIF_TERM term, ErlNifUInt64* ip);
int enif_get_double(ErlNifEnv* env, ERL_NIF_TERM term, double* dp);

/* ---- tuples ---- */
ERL_NIF_TERM enif_make_tuple(ErlNifEnv* env, unsigned cnt, ...);
ERL_NIF_TERM enif_make_tuple_from_array(ErlNifEnv* env, const ERL_NIF_TERM arr[], unsigned cnt);
int enif_get_tuple(ErlNifEnv* env, ERL_NIF_TERM tpl, int* arity, const ERL_NIF_TERM** array);

#define enif_make_tuple1(E, A) enif_make_tuple(E, 1, A)
#define enif_make_tuple2(E, A, B) enif_make_tuple(E, 2, A, B)
#define enif_make_tuple3(E, A, B, C) enif_make_tuple(E, 3, A, B, C)
#define enif_make_tuple4(E, A, B, C, D) enif_make_tuple(E, 4, A, B, C, D)
#define enif_make_tuple5(E, A, B, C, D, F) enif_make_tuple(E, 5, A, B, C, D, F)
#define enif_make_tuple6(E, A, B, C, D, F, G) enif_make_tuple(E, 6, A, B, C, D, F, G)
#define enif_make_tuple7(E, A, B, C, D, F, G, H) enif_make_tuple(E, 7, A, B, C, D, F, G, H)
#define enif_make_tuple8(E, A, B, C, D, F, G, H, I) enif_make_tuple(E, 8, A, B, C, D, F, G, H, I)
#define enif_make_tuple9(E, A, B, C, D, F, G, H, I, J) enif_make_tuple(E, 9, A, B, C, D, F, G, H, I, J)

/* ---- lists and strings ---- */
ERL_NIF_TERM enif_make_list(ErlNifEnv* env, unsigned cnt, ...);
ERL_NIF_TERM enif_make_list_cell(ErlNifEnv* env, ERL_NIF_TERM car, ERL_NIF_TERM cdr);
ERL_NIF_TERM enif_make_list_from_array(ErlNifEnv* env, const ERL_NIF_TERM arr[], unsigned cnt);
int enif_make_reverse_list(ErlNifEnv* env, ERL_NIF_TERM list_in, ERL_NIF_TERM* list_out);
int enif_get_list_cell(ErlNifEnv* env, ERL_NIF_TERM term, ERL_NIF_TERM* head, ERL_NIF_TERM* tail);
int enif_get_list_length(ErlNifEnv* env, ERL_NIF_TERM term, unsigned* len);
ERL_NIF_TERM enif_make_string(ErlNifEnv* env, const char* string, ErlNifCharEncoding encoding);
ERL_NIF_TERM enif_make_string_len(ErlNifEnv* env, const char* string, size_t len, ErlNifCharEncoding encoding);
int enif_get_string(ErlNifEnv* env, ERL_NIF_TERM list, char* buf, unsigned size, ErlNifCharEncoding encoding);

#define enif_make_list1(E, A) enif_make_list(E, 1, A)
#define enif_make_list2(E, A, B) enif_make_list(E, 2, A, B)
#define enif_make_list3(E, A, B, C) enif_make_list(E, 3, A, B, C)
#define enif_make_list4(E, A, B, C, D) enif_make_list(E, 4, A, B, C, D)
#define enif_make_list5(E, A, B, C, D, F) enif_make_list(E, 5, A, B, C, D, F)
#define enif_make_list6(E, A, B, C, D, F, G) enif_make_list(E, 6, A, B, C, D, F, G)
#define enif_make_list7(E, A, B, C, D, F, G, H) enif_make_list(E, 7, A, B, C, D, F, G, H)
#define enif_make_list8(E, A, B, C, D, F, G, H, I) enif_make_list(E, 8, A, B, C, D, F, G, H, I)
#define enif_make_list9(E, A, B, C, D, F, G, H, I, J) enif_make_list(E, 9, A, B, C, D, F, G, H, I, J)

/* ---- binaries ---- */
int enif_alloc_binary(size_t size, ErlNifBinary* bin);
int enif_realloc_binary(ErlNifBinary* bin, size_t size);
void enif_release_binary(ErlNifBinary* bin);
int enif_inspect_binary(ErlNifEnv* env, ERL_NIF_TERM bin_term, ErlNifBinary* bin);
int enif_inspect_iolist_as_binary(ErlNifEnv* env, ERL_NIF_TERM term, ErlNifBinary* bin);
ERL_NIF_TERM enif_make_binary(ErlNifEnv* env, ErlNifBinary* bin);
unsigned char* enif_make_new_binary(ErlNifEnv* env, size_t size, ERL_NIF_TERM* termp);
ERL_NIF_TERM enif_make_sub_binary(ErlNifEnv* env, ERL_NIF_TERM bin_term, size_t pos, size_t size);

/* ---- maps ---- */
ERL_NIF_TERM enif_make_new_map(ErlNifEnv* env);
int enif_make_map_put(ErlNifEnv* env, ERL_NIF_TERM map_in, ERL_NIF_TERM key, ERL_NIF_TERM value,
                      ERL_NIF_TERM* map_out);
int enif_make_map_update(ErlNifEnv* env, ERL_NIF_TERM map_in, ERL_NIF_TERM key, ERL_NIF_TERM value,
                         ERL_NIF_TERM* map_out);
int enif_make_map_remove(ErlNifEnv* env, ERL_NIF_TERM map_in, ERL_NIF_TERM key, ERL_NIF_TERM* map_out);
int enif_make_map_from_arrays(ErlNifEnv* env, ERL_NIF_TERM keys[], ERL_NIF_TERM values[], size_t cnt,
                              ERL_NIF_TERM* map_out);
int enif_get_map_size(ErlNifEnv* env, ERL_NIF_TERM term, size_t* size);
int enif_get_map_value(ErlNifEnv* env, ERL_NIF_TERM map, ERL_NIF_TERM key, ERL_NIF_TERM* value);
int enif_map_iterator_create(ErlNifEnv* env, ERL_NIF_TERM map, ErlNifMapIterator* iter,
                             ErlNifMapIteratorEntry entry);
void enif_map_iterator_destroy(ErlNifEnv* env, ErlNifMapIterator* iter);
int enif_map_iterator_is_head(ErlNifEnv* env, ErlNifMapIterator* iter);
int enif_map_iterator_is_tail(ErlNifEnv* env, ErlNifMapIterator* iter);
int enif_map_iterator_next(ErlNifEnv* env, ErlNifMapIterator* iter);
int enif_map_iterator_prev(ErlNifEnv* env, ErlNifMapIterator* iter);
int enif_map_iterator_get_pair(ErlNifEnv* env, ErlNifMapIterator* iter, ERL_NIF_TERM* key, ERL_NIF_TERM* value);

/* ---- processes and messages ---- */
ErlNifPid* enif_self(ErlNifEnv* caller_env, ErlNifPid* pid);
int enif_get_local_pid(ErlNifEnv* env, ERL_NIF_TERM term, ErlNifPid* pid);
int enif_is_process_alive(ErlNifEnv* env, ErlNifPid* pid);
int enif_whereis_pid(ErlNifEnv* env, ERL_NIF_TERM name, ErlNifPid* pid);
int enif_send(ErlNifEnv* caller_env, const ErlNifPid* to_pid, ErlNifEnv* msg_env, ERL_NIF_TERM msg);
ERL_NIF_TERM enif_make_ref(ErlNifEnv* env);
#define enif_make_pid(ENV, PID) ((void)(ENV), (const ERL_NIF_TERM)((PID)->pid))
#define enif_compare_pids(A, B) (enif_compare((A)->pid, (B)->pid))

/* ---- exceptions ---- */
ERL_NIF_TERM enif_make_badarg(ErlNifEnv* env);
ERL_NIF_TERM enif_raise_exception(ErlNifEnv* env, ERL_NIF_TERM reason);
int enif_has_pending_exception(ErlNifEnv* env, ERL_NIF_TERM* reason);

/* ---- resources ---- */
ErlNifResourceType* enif_open_resource_type(ErlNifEnv* env, const char* module_str, const char* name_str,
                                            ErlNifResourceDtor* dtor, ErlNifResourceFlags flags,
                                            ErlNifResourceFlags* tried);
void* enif_alloc_resource(ErlNifResourceType* type, size_t size);
void enif_release_resource(void* obj);
void enif_keep_resource(void* obj);
ERL_NIF_TERM enif_make_resource(ErlNifEnv* env, void* obj);
int enif_get_resource(ErlNifEnv* env, ERL_NIF_TERM term, ErlNifResourceType* type, void** objp);

/* ---- time and system ---- */
ErlNifTime enif_monotonic_time(ErlNifTimeUnit unit);
ErlNifTime enif_convert_time_unit(ErlNifTime time, ErlNifTimeUnit from, ErlNifTimeUnit to);
int enif_consume_timeslice(ErlNifEnv* env, int percent);
/* Runs fp now, in the calling scheduler (beamlet has no dirty schedulers: flags are ignored). */
ERL_NIF_TERM enif_schedule_nif(ErlNifEnv* env, const char* fun_name, int flags,
                               ERL_NIF_TERM (*fp)(ErlNifEnv* env, int argc, const ERL_NIF_TERM argv[]), int argc,
                               const ERL_NIF_TERM argv[]);
/* snprintf(3); %T (a term) is not supported. */
int enif_snprintf(char* buffer, size_t size, const char* format, ...);

/* ---- threads and shared libraries ---- */
typedef struct beamlet_nif_mutex ErlNifMutex;
ErlNifMutex* enif_mutex_create(char* name);
void enif_mutex_destroy(ErlNifMutex* mtx);
void enif_mutex_lock(ErlNifMutex* mtx);
void enif_mutex_unlock(ErlNifMutex* mtx);
void* enif_dlopen(const char* lib, void (*err_handler)(void*, const char*), void* err_arg);
void* enif_dlsym(void* handle, const char* symbol, void (*err_handler)(void*, const char*), void* err_arg);

#ifdef __cplusplus
}
#endif

#endif /* BEAMLET_ERL_NIF_H */
