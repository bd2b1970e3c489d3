%% tests/e2e/ets/ets_bag.erl — a bag: several objects per key, an identical object inserted twice
%% is stored once, lookup (sorted), member, delete_object of one object, delete/2 of a whole key,
%% size counting objects, insert of a list with duplicates.
-module(ets_bag).
-export([main/0]).

main() ->
    T = ets:new(t, [bag]),
    true = ets:insert(T, {k, 1}),
    true = ets:insert(T, {k, 2}),
    true = ets:insert(T, {k, 1}),
    true = ets:insert(T, [{j, a}, {j, a}, {j, b}]),
    io:format("lookup k: ~w~n", [lists:sort(ets:lookup(T, k))]),
    io:format("lookup j: ~w~n", [lists:sort(ets:lookup(T, j))]),
    io:format("size: ~w~n", [ets:info(T, size)]),
    io:format("member j: ~w, member x: ~w~n", [ets:member(T, j), ets:member(T, x)]),
    io:format("delete_object {k,1}: ~w~n", [ets:delete_object(T, {k, 1})]),
    io:format("lookup k: ~w~n", [lists:sort(ets:lookup(T, k))]),
    io:format("delete_object absent: ~w~n", [ets:delete_object(T, {k, 99})]),
    io:format("delete j: ~w~n", [ets:delete(T, j)]),
    io:format("lookup j: ~w~n", [ets:lookup(T, j)]),
    io:format("size: ~w~n", [ets:info(T, size)]),
    %% objects with the same key but different arity
    true = ets:insert(T, [{m, 1}, {m, 1, 2}, {m}]),
    io:format("lookup m: ~w~n", [lists:sort(ets:lookup(T, m))]),
    io:format("lookup_element m 1: ~w~n", [ets:lookup_element(T, m, 1)]),
    io:format("tab2list: ~w~n", [lists:sort(ets:tab2list(T))]),
    %% 1 and 1.0 are different keys in a bag (=:=)
    true = ets:insert(T, [{1, a}, {1.0, a}]),
    io:format("lookup 1: ~w, lookup 1.0: ~w~n", [ets:lookup(T, 1), ets:lookup(T, 1.0)]),
    io:format("type: ~w~n", [ets:info(T, type)]),
    ok.
