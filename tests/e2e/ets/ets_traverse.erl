%% tests/e2e/ets/ets_traverse.erl — first/next/last/prev and foldl/foldr: on an ordered_set the
%% order is printed (next/prev also work from keys that were deleted meanwhile); on a set,
%% bag and duplicate_bag the keys collected by first/next (and last/prev, which behave like
%% first/next there) are sorted; next/2 on a set with a key not in the table is badarg; foldl
%% and foldr accumulate (order on ordered_set), fold over an empty table, a fold fun that
%% throws; bag keys visited once per key by first/next.
-module(ets_traverse).
-export([main/0]).

main() ->
    O = ets:new(o, [ordered_set]),
    true = ets:insert(O, [{K, v} || K <- [c, a, e, b, d]]),
    io:format("oset next walk: ~w~n", [walk(O, ets:first(O), fun ets:next/2)]),
    io:format("oset prev walk: ~w~n", [walk(O, ets:last(O), fun ets:prev/2)]),
    io:format("oset foldl: ~w~n", [ets:foldl(fun({K, _}, Acc) -> [K | Acc] end, [], O)]),
    io:format("oset foldr: ~w~n", [ets:foldr(fun({K, _}, Acc) -> [K | Acc] end, [], O)]),
    %% next from a deleted key
    true = ets:delete(O, c),
    io:format("oset next(c) after delete: ~w, prev(c): ~w~n", [ets:next(O, c), ets:prev(O, c)]),
    %% delete while walking an ordered_set
    Keys = walk_delete(O, ets:first(O)),
    io:format("walk+delete visited: ~w, left: ~w~n", [Keys, ets:tab2list(O)]),
    S = ets:new(s, [set]),
    true = ets:insert(S, [{K, K * 10} || K <- lists:seq(1, 30)]),
    io:format("set next walk sorted: ~w~n", [lists:sort(walk(S, ets:first(S), fun ets:next/2))]),
    io:format("set prev walk sorted: ~w~n", [lists:sort(walk(S, ets:last(S), fun ets:prev/2))]),
    io:format("set first is member: ~w~n", [ets:member(S, ets:first(S))]),
    io:format("set next of missing key: ~w~n", [try_op(fun() -> ets:next(S, 999) end)]),
    io:format("set foldl sum: ~w~n", [ets:foldl(fun({_, V}, A) -> A + V end, 0, S)]),
    io:format("set foldr count: ~w~n", [ets:foldr(fun(_, A) -> A + 1 end, 0, S)]),
    io:format("set foldl collect sorted: ~w~n",
              [lists:sort(ets:foldl(fun({K, _}, A) when K > 25 -> [K | A]; (_, A) -> A end, [], S))]),
    E = ets:new(e, [set]),
    io:format("empty: first ~w last ~w foldl ~w~n",
              [ets:first(E), ets:last(E), ets:foldl(fun(_, A) -> [x | A] end, [], E)]),
    io:format("fold fun throws: ~w~n",
              [catch ets:foldl(fun(_, _) -> throw(stop) end, 0, S)]),
    io:format("fold non-fun: ~w~n", [try_op(fun() -> ets:foldl(not_a_fun, 0, S) end)]),
    B = ets:new(b, [bag]),
    true = ets:insert(B, [{k, 1}, {k, 2}, {j, 1}, {i, 9}]),
    io:format("bag keys: ~w~n", [lists:sort(walk(B, ets:first(B), fun ets:next/2))]),
    io:format("bag foldl objects: ~w~n", [lists:sort(ets:foldl(fun(X, A) -> [X | A] end, [], B))]),
    D = ets:new(d, [duplicate_bag]),
    true = ets:insert(D, [{k, 1}, {k, 1}, {j, 1}]),
    io:format("dbag keys: ~w~n", [lists:sort(walk(D, ets:first(D), fun ets:next/2))]),
    io:format("dbag foldr count: ~w~n", [ets:foldr(fun(_, A) -> A + 1 end, 0, D)]),
    ok.

walk(_T, '$end_of_table', _Step) -> [];
walk(T, K, Step) -> [K | walk(T, Step(T, K), Step)].

walk_delete(_T, '$end_of_table') -> [];
walk_delete(T, K) ->
    Next = ets:next(T, K),
    case K of
        b -> true = ets:delete(T, K);
        _ -> ok
    end,
    [K | walk_delete(T, Next)].

try_op(F) ->
    try F() catch C:E -> {error, C, E} end.
