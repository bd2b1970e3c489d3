/* tests/e2e/nif/nif_tracer.c — a tracer module: State is {Answers, Collector}; enabled/3
 * answers what the map Answers holds for the tag (discard if nothing), trace/5 sends
 * {Tag, Tracee, TraceTerm, Opts} to Collector. */
#include <erl_nif.h>

static ERL_NIF_TERM enabled(ErlNifEnv* env, int argc, const ERL_NIF_TERM argv[]) {
    int arity;
    const ERL_NIF_TERM* state;
    ERL_NIF_TERM answer;
    if (!enif_get_tuple(env, argv[1], &arity, &state) || arity != 2) return enif_make_atom(env, "discard");
    if (enif_get_map_value(env, state[0], argv[0], &answer)) return answer;
    if (enif_is_identical(argv[0], enif_make_atom(env, "trace_status"))) return enif_make_atom(env, "trace");
    return enif_make_atom(env, "discard");
}

static ERL_NIF_TERM trace(ErlNifEnv* env, int argc, const ERL_NIF_TERM argv[]) {
    int arity;
    const ERL_NIF_TERM* state;
    ErlNifPid to;
    if (!enif_get_tuple(env, argv[1], &arity, &state) || !enif_get_local_pid(env, state[1], &to))
        return enif_make_atom(env, "ok");
    enif_send(env, &to, NULL, enif_make_tuple4(env, argv[0], argv[2], argv[3], argv[4]));
    return enif_make_atom(env, "ok");
}

static ErlNifFunc funcs[] = {{"enabled", 3, enabled}, {"trace", 5, trace}};

ERL_NIF_INIT(nif_tracer, funcs, NULL, NULL, NULL, NULL)
