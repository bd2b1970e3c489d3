%% tests/e2e/ets/ets_take.erl — take/2: returns and removes the objects of a key (a set: one; a
%% bag/duplicate_bag: all of them, sorted here), [] for a missing key, on an ordered_set 1.0
%% takes the object stored under 1; badarg on a protected table from another process and on a
%% deleted table; take in a loop drains a table.
-module(ets_take).
-export([main/0]).

main() ->
    S = ets:new(s, [set]),
    true = ets:insert(S, [{a, 1}, {b, 2}]),
    io:format("take a: ~w, left ~w~n", [ets:take(S, a), lists:sort(ets:tab2list(S))]),
    io:format("take a again: ~w~n", [ets:take(S, a)]),
    io:format("take 1.0 from set with 1: ~w~n",
              [begin true = ets:insert(S, {1, int}), ets:take(S, 1.0) end]),
    O = ets:new(o, [ordered_set]),
    true = ets:insert(O, [{1, int}, {2, two}]),
    io:format("oset take 1.0: ~w, left ~w~n", [ets:take(O, 1.0), ets:tab2list(O)]),
    B = ets:new(b, [bag]),
    true = ets:insert(B, [{k, 1}, {k, 2}, {k, 3}, {j, 0}]),
    io:format("bag take k: ~w, left ~w~n", [lists:sort(ets:take(B, k)), ets:tab2list(B)]),
    D = ets:new(d, [duplicate_bag]),
    true = ets:insert(D, [{k, 1}, {k, 1}, {j, 0}]),
    io:format("dbag take k: ~w, size ~w~n", [ets:take(D, k), ets:info(D, size)]),
    P = ets:new(p, [protected]),
    true = ets:insert(P, {x, 1}),
    Self = self(),
    spawn(fun() -> Self ! {res, try_op(fun() -> ets:take(P, x) end)} end),
    receive {res, R} -> io:format("take from protected by other: ~w~n", [R]) end,
    io:format("still there: ~w~n", [ets:lookup(P, x)]),
    Q = ets:new(q, [ordered_set]),
    true = ets:insert(Q, [{I, I * I} || I <- lists:seq(1, 10)]),
    io:format("drain: ~w~n", [drain(Q)]),
    io:format("size after drain: ~w~n", [ets:info(Q, size)]),
    true = ets:delete(Q),
    io:format("take on deleted: ~w~n", [try_op(fun() -> ets:take(Q, 1) end)]),
    ok.

drain(T) ->
    case ets:first(T) of
        '$end_of_table' -> [];
        K -> [{_, V}] = ets:take(T, K), [V | drain(T)]
    end.

try_op(F) ->
    try F() catch C:E -> {error, C, E} end.
