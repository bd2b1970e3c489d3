%% tests/e2e/ets/ets_big_keys.erl — keys (and values) that are big terms: nested tuples, long
%% lists, large and sub-binaries (a sub-binary key finds an object stored with an equal heap
%% binary), bignums, floats, maps, deep nesting; the stored object is a copy (mutating nothing,
%% but a term built again compares equal); set and ordered_set; summaries instead of huge output.
-module(ets_big_keys).
-export([main/0]).

main() ->
    lists:foreach(fun run/1, [set, ordered_set]),
    ok.

run(Type) ->
    T = ets:new(t, [Type]),
    BigBin = list_to_binary([I rem 256 || I <- lists:seq(1, 10000)]),
    <<_:100/binary, Sub:50/binary, _/binary>> = BigBin,
    SubCopy = list_to_binary(binary_to_list(Sub)),
    Keys = [{nested, {a, {b, {c, {d, [1, 2, 3]}}}}},
            lists:seq(1, 1000),
            BigBin,
            Sub,
            1 bsl 200,
            -(1 bsl 200) + 7,
            3.141592653589793,
            -0.5e-300,
            #{list => lists:seq(1, 50), bin => <<"x">>, tup => {1, 2}},
            deep(200),
            "a string key",
            <<"small">>],
    true = ets:insert(T, [{K, N} || {K, N} <- lists:zip(Keys, lists:seq(1, length(Keys)))]),
    io:format("~w: size ~w~n", [Type, ets:info(T, size)]),
    Found = [case ets:lookup(T, K) of [{_, N}] -> N; Other -> {bad, Other} end || K <- Keys],
    io:format("~w: all found: ~w~n", [Type, Found]),
    io:format("~w: sub-binary copy finds it: ~w~n", [Type, ets:lookup_element(T, SubCopy, 2)]),
    io:format("~w: rebuilt keys find them: ~w ~w ~w ~w~n",
              [Type, ets:lookup_element(T, deep(200), 2), ets:lookup_element(T, lists:seq(1, 1000), 2),
               ets:lookup_element(T, 1 bsl 200, 2),
               ets:lookup_element(T, #{tup => {1, 2}, bin => <<"x">>, list => lists:seq(1, 50)}, 2)]),
    io:format("~w: near misses: ~w ~w ~w~n",
              [Type, ets:lookup(T, (1 bsl 200) + 1), ets:lookup(T, lists:seq(1, 999)),
               ets:lookup(T, deep(199))]),
    %% big values
    V = {lists:seq(1, 5000), BigBin, 1 bsl 1000, [{I, float(I)} || I <- lists:seq(1, 100)]},
    true = ets:insert(T, {bigval, V}),
    [{bigval, V2}] = ets:lookup(T, bigval),
    io:format("~w: big value round trip: ~w, bin size ~w, sum ~w~n",
              [Type, V2 =:= V, byte_size(element(2, V2)), lists:sum(element(1, V2))]),
    io:format("~w: select on big key: ~w~n",
              [Type, ets:select(T, [{{'$1', '$2'}, [{is_binary, '$1'}, {'>', {byte_size, '$1'}, 40}],
                                     ['$2']}])
                     =/= []]),
    BinCount = ets:select_count(T, [{{'$1', '_'}, [{is_binary, '$1'}], [true]}]),
    io:format("~w: binary keys: ~w~n", [Type, BinCount]),
    io:format("~w: sorted values: ~w~n",
              [Type, lists:sort([N || {_, N} <- ets:tab2list(T), is_integer(N)])]),
    true = ets:delete(T, BigBin),
    true = ets:delete(T, deep(200)),
    io:format("~w: after deletes: ~w ~w~n", [Type, ets:info(T, size), ets:member(T, BigBin)]),
    ok.

deep(0) -> leaf;
deep(N) -> {N, deep(N - 1)}.
