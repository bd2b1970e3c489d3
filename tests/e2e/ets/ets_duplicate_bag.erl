%% tests/e2e/ets/ets_duplicate_bag.erl — a duplicate_bag: identical objects are all kept,
%% delete_object removes every copy of the object, size counts duplicates, match_object and
%% select_count see the duplicates, insert of a list with duplicates.
-module(ets_duplicate_bag).
-export([main/0]).

main() ->
    T = ets:new(t, [duplicate_bag]),
    true = ets:insert(T, {k, 1}),
    true = ets:insert(T, {k, 1}),
    true = ets:insert(T, {k, 2}),
    true = ets:insert(T, [{j, a}, {j, a}, {j, a}, {j, b}]),
    io:format("lookup k: ~w~n", [lists:sort(ets:lookup(T, k))]),
    io:format("lookup j: ~w~n", [lists:sort(ets:lookup(T, j))]),
    io:format("size: ~w~n", [ets:info(T, size)]),
    io:format("match_object {j,a}: ~w~n", [ets:match_object(T, {j, a})]),
    io:format("select_count {j,a}: ~w~n",
              [ets:select_count(T, [{{j, a}, [], [true]}])]),
    io:format("delete_object {j,a}: ~w~n", [ets:delete_object(T, {j, a})]),
    io:format("lookup j: ~w~n", [lists:sort(ets:lookup(T, j))]),
    io:format("size: ~w~n", [ets:info(T, size)]),
    io:format("lookup_element k 2: ~w~n", [lists:sort(ets:lookup_element(T, k, 2))]),
    io:format("delete k: ~w, size: ~w~n", [ets:delete(T, k), ets:info(T, size)]),
    io:format("tab2list: ~w~n", [lists:sort(ets:tab2list(T))]),
    io:format("type: ~w~n", [ets:info(T, type)]),
    ok.
