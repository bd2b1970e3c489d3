/* bench/tmod_nif.c — tracer modules for bench_tmod: State discard answers discard to
 * everything but trace_status; State count answers trace and trace/5 counts in a C counter
 * (count/0 reads it). Built against OTP's erl_nif.h for erl, beamlet's for beamlet. */
#include <erl_nif.h>

static volatile long long counted = 0;

static ERL_NIF_TERM enabled(ErlNifEnv* env, int argc, const ERL_NIF_TERM argv[]) {
    (void)argc;
    if (enif_is_identical(argv[0], enif_make_atom(env, "trace_status"))) return enif_make_atom(env, "trace");
    if (enif_is_identical(argv[1], enif_make_atom(env, "count"))) return enif_make_atom(env, "trace");
    return enif_make_atom(env, "discard");
}

static ERL_NIF_TERM trace(ErlNifEnv* env, int argc, const ERL_NIF_TERM argv[]) {
    (void)argc;
    (void)argv;
    __atomic_add_fetch(&counted, 1, __ATOMIC_RELAXED);
    return enif_make_atom(env, "ok");
}

static ERL_NIF_TERM count(ErlNifEnv* env, int argc, const ERL_NIF_TERM argv[]) {
    (void)argc;
    (void)argv;
    return enif_make_int64(env, __atomic_load_n(&counted, __ATOMIC_RELAXED));
}

static ErlNifFunc funcs[] = {{"enabled", 3, enabled, 0}, {"trace", 5, trace, 0}, {"count", 0, count, 0}};

ERL_NIF_INIT(tmod_nif, funcs, NULL, NULL, NULL, NULL)
