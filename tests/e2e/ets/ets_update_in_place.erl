%% tests/e2e/ets/ets_update_in_place.erl — the paths that change a stored object where it is:
%% update_counter on small counters (thresholds, a counter that overflows into a bignum and
%% back, a bignum counter, the key position refused), an insert that replaces an object of the
%% same size, larger and smaller (binaries inside, released), ordered_set objects with boxed and
%% immediate keys, memory as erl counts it after the replacements, and select over many
%% distinct key-bound specs (the cache of compiled specs reused) with a bad spec among them.
-module(ets_update_in_place).
-export([main/0]).

main() ->
    counters(set),
    counters(ordered_set),
    replacements(set),
    replacements(ordered_set),
    many_specs(),
    emptied_tables(),
    ok.

counters(Type) ->
    T = ets:new(c, [Type]),
    true = ets:insert(T, {k, 0, 10, a}),
    io:format("~w incr: ~w ~w~n", [Type, ets:update_counter(T, k, 5), ets:update_counter(T, k, {3, -4})]),
    io:format("~w threshold up: ~w~n", [Type, ets:update_counter(T, k, {2, 10, 12, 1})]),
    io:format("~w threshold down: ~w~n", [Type, ets:update_counter(T, k, {3, -10, 0, 100})]),
    io:format("~w list: ~w~n", [Type, ets:update_counter(T, k, [{2, 1}, {3, 1}, {2, 1}])]),
    Max = 1 bsl 59 - 1,
    true = ets:insert(T, {big, Max}),
    io:format("~w into a bignum: ~w~n", [Type, ets:update_counter(T, big, 1)]),
    io:format("~w back to a small: ~w~n", [Type, ets:update_counter(T, big, -2)]),
    io:format("~w a big increment: ~w~n", [Type, ets:update_counter(T, big, 1 bsl 70)]),
    io:format("~w big threshold: ~w~n", [Type, ets:update_counter(T, k, {2, 1, 1 bsl 64, 7})]),
    io:format("~w objects: ~w~n", [Type, lists:sort(ets:tab2list(T))]),
    io:format("~w keypos: ~w~n", [Type, error_of(fun() -> ets:update_counter(T, k, {1, 1}) end)]),
    io:format("~w not a counter: ~w~n", [Type, error_of(fun() -> ets:update_counter(T, k, {4, 1}) end)]),
    io:format("~w past the end: ~w~n", [Type, error_of(fun() -> ets:update_counter(T, k, {9, 1}) end)]),
    io:format("~w unchanged: ~w~n", [Type, ets:lookup(T, k)]),
    ets:delete(T).

replacements(Type) ->
    T = ets:new(r, [Type]),
    M0 = ets:info(T, memory),
    Bin = list_to_binary(lists:duplicate(100, $x)),
    Keys = [1, {tuple, key}, "string key", <<"binary key">>],
    [true = ets:insert(T, {K, small}) || K <- Keys],
    M1 = ets:info(T, memory),
    [true = ets:insert(T, {K, large}) || K <- Keys],          % same size: in place
    M2 = ets:info(T, memory),
    [true = ets:insert(T, {K, {a, b, c, Bin}}) || K <- Keys],  % larger
    M3 = ets:info(T, memory),
    [true = ets:insert(T, {K, Bin, [1, 2]}) || K <- Keys],     % a binary kept, a list
    [true = ets:insert(T, {K, x}) || K <- Keys],              % smaller again
    M4 = ets:info(T, memory),
    io:format("~w objects: ~p~n", [Type, lists:sort(ets:tab2list(T))]),
    io:format("~w memory: same-size ~w, larger ~w, back ~w, first ~w~n",
              [Type, M2 - M1, M3 > M2, M4 - M1, M1 > M0]),
    [true = ets:insert(T, {K, Bin}) || K <- Keys],
    io:format("~w binaries: ~w~n", [Type, [byte_size(element(2, hd(ets:lookup(T, K)))) || K <- Keys]]),
    ets:delete(T).

many_specs() ->
    T = ets:new(s, [set]),
    [true = ets:insert(T, {{ram, K}, x, [K]}) || K <- lists:seq(1, 50)],
    Got = [ets:select(T, [{{{ram, K rem 50 + 1}, '_', '$1'}, [], ['$1']}]) || K <- lists:seq(1, 200)],
    io:format("selects: ~w~n", [lists:sum([V || [[V]] <- Got])]),
    io:format("bad spec: ~w~n", [error_of(fun() -> ets:select(T, [{{{ram, 1}, '_', '$1'}, [{bad_guard}], ['$1']}]) end)]),
    io:format("bad spec again: ~w~n", [error_of(fun() -> ets:select(T, [{{{ram, 1}, '_', '$1'}, [{bad_guard}], ['$1']}]) end)]),
    io:format("after it: ~w~n", [ets:select(T, [{{{ram, 7}, '_', '$1'}, [], ['$1']}])]),
    B = ets:new(b, [bag]),
    true = ets:insert(B, [{nodes, a}, {nodes, b}, {{locks, r, 1}, write}]),
    io:format("match_object: ~w~n", [[lists:sort(ets:match_object(B, {nodes, '_'})) || _ <- [1, 2]]]),
    io:format("select_count: ~w~n", [ets:select_count(T, [{{{ram, 3}, '_', '_'}, [], [true]}])]),
    ets:delete(B),
    ets:delete(T).

%% The error and erts's cause, as erl_stdlib_errors would read it.
error_of(F) ->
    try F() of
        V -> {returned, V}
    catch
        error:R:St ->
            [{_, _, _, Info} | _] = St,
            {R, maps:get(cause, proplists:get_value(error_info, Info, #{}), none)}
    end.

emptied_tables() ->
    T = ets:new(e, [set, public]),
    [true = ets:insert(T, {K}) || K <- lists:seq(1, 3000)],
    [true = ets:delete(T, K) || K <- lists:seq(1, 3000)],
    true = ets:delete_all_objects(T),
    io:format("emptied: size ~w, memory as new ~w~n",
              [ets:info(T, size), ets:info(T, memory) =:= ets:info(ets:new(x, [set]), memory)]),
    true = ets:insert(T, {1}),
    io:format("reused: ~w~n", [ets:tab2list(T)]),
    ets:delete(T).
