%% tests/e2e/ets/ets_insert_new.erl — insert_new/2: single object (new key true, existing key
%% false and unchanged), a list is all-or-nothing (one existing key means nothing is inserted), a
%% list with the same key twice, an empty list, on ordered_set (1.0 collides with 1), on bag
%% (a key already present, even with a different object, gives false), insert/2 of a list with a
%% bad element inserts nothing (atomic), badarg for non-tuples.
-module(ets_insert_new).
-export([main/0]).

main() ->
    T = ets:new(t, [set]),
    io:format("new a: ~w~n", [ets:insert_new(T, {a, 1})]),
    io:format("new a again: ~w~n", [ets:insert_new(T, {a, 2})]),
    io:format("a: ~w~n", [ets:lookup(T, a)]),
    io:format("list with existing: ~w~n", [ets:insert_new(T, [{b, 1}, {a, 3}, {c, 1}])]),
    io:format("after: ~w~n", [lists:sort(ets:tab2list(T))]),
    io:format("list all new: ~w~n", [ets:insert_new(T, [{b, 1}, {c, 1}])]),
    io:format("after: ~w~n", [lists:sort(ets:tab2list(T))]),
    io:format("list same key twice: ~w~n", [ets:insert_new(T, [{d, 1}, {d, 2}])]),
    io:format("d: ~w~n", [ets:lookup(T, d)]),
    io:format("empty list: ~w~n", [ets:insert_new(T, [])]),
    io:format("1.0 in set with 1: ~w ~w~n", [ets:insert_new(T, {1, i}), ets:insert_new(T, {1.0, f})]),
    O = ets:new(o, [ordered_set]),
    io:format("ordered 1: ~w, 1.0: ~w, lookup: ~w~n",
              [ets:insert_new(O, {1, i}), ets:insert_new(O, {1.0, f}), ets:lookup(O, 1)]),
    B = ets:new(b, [bag]),
    io:format("bag first: ~w, other obj same key: ~w, lookup: ~w~n",
              [ets:insert_new(B, {k, 1}), ets:insert_new(B, {k, 2}), ets:lookup(B, k)]),
    D = ets:new(d, [duplicate_bag]),
    io:format("dbag first: ~w, same obj: ~w, lookup: ~w~n",
              [ets:insert_new(D, {k, 1}), ets:insert_new(D, {k, 1}), ets:lookup(D, k)]),
    io:format("insert_new non-tuple: ~w~n", [try_op(fun() -> ets:insert_new(T, foo) end)]),
    io:format("insert_new list with non-tuple: ~w~n",
              [try_op(fun() -> ets:insert_new(T, [{e, 1}, foo]) end)]),
    io:format("e: ~w~n", [ets:lookup(T, e)]),
    io:format("insert list with non-tuple: ~w~n",
              [try_op(fun() -> ets:insert(T, [{f, 1}, bar, {g, 1}]) end)]),
    io:format("f: ~w, g: ~w~n", [ets:lookup(T, f), ets:lookup(T, g)]),
    io:format("insert empty tuple: ~w~n", [try_op(fun() -> ets:insert(T, {}) end)]),
    io:format("insert improper list: ~w~n", [try_op(fun() -> ets:insert(T, [{h, 1} | {i, 1}]) end)]),
    io:format("h: ~w~n", [ets:lookup(T, h)]),
    io:format("final: ~w~n", [lists:sort(ets:tab2list(T))]),
    ok.

try_op(F) ->
    try F() catch C:E -> {error, C, E} end.
