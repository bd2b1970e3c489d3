/* tests/e2e/nif/nif_basic.c — a NIF library exercising beamlet's erl_nif.h subset. */
#include <erl_nif.h>
#include <string.h>

static ERL_NIF_TERM atom_ok;
static int loads = 0;

static int load(ErlNifEnv* env, void** priv_data, ERL_NIF_TERM load_info) {
    int n;
    atom_ok = enif_make_atom(env, "ok");
    if (enif_get_int(env, load_info, &n) && n == 42) return 7; /* a failing load */
    loads++;
    *priv_data = &loads;
    return 0;
}

static ERL_NIF_TERM add(ErlNifEnv* env, int argc, const ERL_NIF_TERM argv[]) {
    ErlNifSInt64 a, b;
    if (!enif_get_int64(env, argv[0], &a) || !enif_get_int64(env, argv[1], &b)) return enif_make_badarg(env);
    return enif_make_int64(env, a + b);
}

static ERL_NIF_TERM describe(ErlNifEnv* env, int argc, const ERL_NIF_TERM argv[]) {
    ERL_NIF_TERM t = argv[0];
    const char* kind = enif_is_atom(env, t) ? "atom"
                     : enif_is_binary(env, t) ? "binary"
                     : enif_is_empty_list(env, t) ? "nil"
                     : enif_is_list(env, t) ? "list"
                     : enif_is_map(env, t) ? "map"
                     : enif_is_tuple(env, t) ? "tuple"
                     : enif_is_pid(env, t) ? "pid"
                     : enif_is_ref(env, t) ? "ref"
                     : enif_is_fun(env, t) ? "fun"
                     : enif_is_number(env, t) ? "number" : "other";
    return enif_make_atom(env, kind);
}

static ERL_NIF_TERM build(ErlNifEnv* env, int argc, const ERL_NIF_TERM argv[]) {
    ERL_NIF_TERM bin, map, list, rev;
    unsigned char* data = enif_make_new_binary(env, 5, &bin);
    memcpy(data, "hello", 5);
    map = enif_make_new_map(env);
    enif_make_map_put(env, map, enif_make_atom(env, "a"), enif_make_int(env, 1), &map);
    enif_make_map_put(env, map, enif_make_atom(env, "b"), enif_make_double(env, 2.5), &map);
    list = enif_make_list3(env, enif_make_int(env, 1), enif_make_int(env, 2), enif_make_int(env, 3));
    enif_make_reverse_list(env, list, &rev);
    return enif_make_tuple6(env, bin, map, rev, enif_make_string(env, "str", ERL_NIF_LATIN1),
                            enif_make_uint64(env, 18446744073709551615ULL), enif_make_int64(env, -1234567890123LL));
}

static ERL_NIF_TERM inspect(ErlNifEnv* env, int argc, const ERL_NIF_TERM argv[]) {
    ErlNifBinary bin;
    unsigned len;
    int arity;
    const ERL_NIF_TERM* elems;
    size_t size;
    ERL_NIF_TERM v, head, tail;
    char buf[64];
    if (enif_inspect_iolist_as_binary(env, argv[0], &bin))
        return enif_make_tuple2(env, enif_make_atom(env, "bytes"), enif_make_int(env, (int)bin.size));
    if (enif_get_tuple(env, argv[0], &arity, &elems))
        return enif_make_tuple2(env, enif_make_atom(env, "tuple"), enif_make_int(env, arity));
    if (enif_get_map_size(env, argv[0], &size)) {
        if (enif_get_map_value(env, argv[0], enif_make_atom(env, "key"), &v))
            return enif_make_tuple2(env, enif_make_atom(env, "key"), v);
        return enif_make_tuple2(env, enif_make_atom(env, "map"), enif_make_int(env, (int)size));
    }
    if (enif_get_atom(env, argv[0], buf, sizeof buf, ERL_NIF_LATIN1))
        return enif_make_tuple2(env, enif_make_atom(env, "atom_text"), enif_make_string(env, buf, ERL_NIF_LATIN1));
    if (enif_get_list_length(env, argv[0], &len) && enif_get_list_cell(env, argv[0], &head, &tail))
        return enif_make_tuple3(env, enif_make_atom(env, "list"), enif_make_int(env, (int)len), head);
    return enif_raise_exception(env, enif_make_tuple2(env, enif_make_atom(env, "cannot_inspect"), argv[0]));
}

/* Sends {from_nif, Self, Msg} to Pid; true if it went. */
static ERL_NIF_TERM send_to(ErlNifEnv* env, int argc, const ERL_NIF_TERM argv[]) {
    ErlNifPid to, self;
    ErlNifEnv* msg_env;
    ERL_NIF_TERM msg;
    int ok;
    if (!enif_get_local_pid(env, argv[0], &to)) return enif_make_badarg(env);
    enif_self(env, &self);
    msg_env = enif_alloc_env();
    msg = enif_make_tuple3(msg_env, enif_make_atom(msg_env, "from_nif"), enif_make_pid(msg_env, &self),
                           enif_make_copy(msg_env, argv[1]));
    ok = enif_send(env, &to, msg_env, msg);
    enif_free_env(msg_env);
    return enif_make_atom(env, ok ? "true" : "false");
}

static ERL_NIF_TERM alive(ErlNifEnv* env, int argc, const ERL_NIF_TERM argv[]) {
    ErlNifPid pid;
    if (!enif_get_local_pid(env, argv[0], &pid)) return enif_make_badarg(env);
    return enif_make_atom(env, enif_is_process_alive(env, &pid) ? "true" : "false");
}

static ERL_NIF_TERM loaded(ErlNifEnv* env, int argc, const ERL_NIF_TERM argv[]) {
    int* n = (int*)enif_priv_data(env);
    return enif_make_int(env, *n);
}

static ERL_NIF_TERM compare(ErlNifEnv* env, int argc, const ERL_NIF_TERM argv[]) {
    return enif_make_tuple2(env, enif_make_int(env, enif_compare(argv[0], argv[1])),
                            enif_make_atom(env, enif_is_identical(argv[0], argv[1]) ? "true" : "false"));
}

static ErlNifFunc funcs[] = {
    {"add", 2, add},          {"describe", 1, describe}, {"build", 0, build},   {"inspect", 1, inspect},
    {"send_to", 2, send_to},  {"alive", 1, alive},       {"loaded", 0, loaded}, {"compare", 2, compare},
};

ERL_NIF_INIT(nif_basic, funcs, load, NULL, NULL, NULL)
