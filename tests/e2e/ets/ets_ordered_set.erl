%% tests/e2e/ets/ets_ordered_set.erl — an ordered_set: tab2list in key order, first/next/last/prev,
%% next/prev from a key that is not in the table (the next greater / previous smaller key),
%% '$end_of_table' at both ends, an empty table, overwrite, and that keys compare with ==
%% (1 and 1.0 are the same key; the stored key is the last inserted).
-module(ets_ordered_set).
-export([main/0]).

main() ->
    T = ets:new(t, [ordered_set]),
    io:format("empty first: ~w, last: ~w~n", [ets:first(T), ets:last(T)]),
    true = ets:insert(T, [{K, K * K} || K <- [5, 3, 9, 1, 7]]),
    io:format("tab2list: ~w~n", [ets:tab2list(T)]),
    io:format("first: ~w, last: ~w~n", [ets:first(T), ets:last(T)]),
    io:format("forward: ~w~n", [walk(T, ets:first(T), fun ets:next/2)]),
    io:format("backward: ~w~n", [walk(T, ets:last(T), fun ets:prev/2)]),
    io:format("next(4): ~w, prev(4): ~w~n", [ets:next(T, 4), ets:prev(T, 4)]),
    io:format("next(9): ~w, prev(1): ~w~n", [ets:next(T, 9), ets:prev(T, 1)]),
    io:format("next(100): ~w, prev(0): ~w~n", [ets:next(T, 100), ets:prev(T, 0)]),
    io:format("next(a): ~w, prev(a): ~w~n", [ets:next(T, a), ets:prev(T, a)]),
    %% 1 and 1.0 are the same key in an ordered_set
    true = ets:insert(T, {1.0, float_one}),
    io:format("lookup 1: ~w~n", [ets:lookup(T, 1)]),
    io:format("lookup 1.0: ~w~n", [ets:lookup(T, 1.0)]),
    io:format("member 1: ~w, size: ~w~n", [ets:member(T, 1), ets:info(T, size)]),
    io:format("tab2list: ~w~n", [ets:tab2list(T)]),
    true = ets:delete(T, 1),
    io:format("after delete 1: ~w~n", [ets:tab2list(T)]),
    true = ets:insert(T, [{2.5, x}, {2, y}, {3.0, z}]),
    io:format("mixed ints/floats: ~w~n", [ets:tab2list(T)]),
    %% strings as keys order lexicographically
    S = ets:new(s, [ordered_set]),
    true = ets:insert(S, [{W} || W <- ["pear", "apple", "fig", "banana", "apples", ""]]),
    io:format("strings: ~p~n", [ets:tab2list(S)]),
    %% tuple keys: size first, then elements
    U = ets:new(u, [ordered_set]),
    true = ets:insert(U, [{{2, a}}, {{1, b, c}}, {{1, a}}, {{0}}, {{1, b}}]),
    io:format("tuples: ~w~n", [ets:tab2list(U)]),
    ok.

walk(_T, '$end_of_table', _Step) -> [];
walk(T, K, Step) -> [K | walk(T, Step(T, K), Step)].
