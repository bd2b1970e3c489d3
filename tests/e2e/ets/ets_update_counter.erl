%% tests/e2e/ets/ets_update_counter.erl — update_counter/3,4 in all forms: Incr (on the element
%% after the key), {Pos, Incr}, {Pos, Incr, Threshold, SetValue} (upper and lower wrap), a list
%% of ops (returns a list, the same position twice), negative increments, bignums, the default
%% object of update_counter/4 (inserted when the key is missing, default with the key in it or
%% not; ignored when present), and badarg: missing key, non-integer counter, the key position,
%% a position past the end, a bag table, a float increment, an empty op list.
-module(ets_update_counter).
-export([main/0]).

main() ->
    T = ets:new(t, [set]),
    true = ets:insert(T, {c, 0, 100, 10}),
    io:format("incr 1: ~w~n", [ets:update_counter(T, c, 1)]),
    io:format("incr -5: ~w~n", [ets:update_counter(T, c, -5)]),
    io:format("{3, 7}: ~w~n", [ets:update_counter(T, c, {3, 7})]),
    io:format("obj: ~w~n", [ets:lookup(T, c)]),
    %% threshold: increment past threshold sets SetValue
    io:format("{4, 5, 12, 0}: ~w~n", [ets:update_counter(T, c, {4, 5, 12, 0})]),
    io:format("{4, 5, 12, 0} again: ~w~n", [ets:update_counter(T, c, {4, 5, 12, 0})]),
    io:format("{4, 5, 12, 0} reaches exactly 10 (no wrap): ~w~n",
              [ets:update_counter(T, c, {4, 5, 12, 0})]),
    io:format("{4, 5, 12, 0} 15 > 12 wraps: ~w~n", [ets:update_counter(T, c, {4, 5, 12, 0})]),
    %% negative increment with a lower threshold
    true = ets:insert(T, {d, 3}),
    io:format("{2, -2, 0, 99}: ~w~n", [ets:update_counter(T, d, {2, -2, 0, 99})]),
    io:format("{2, -2, 0, 99}: ~w~n", [ets:update_counter(T, d, {2, -2, 0, 99})]),
    io:format("{2, -2, 0, 99}: ~w~n", [ets:update_counter(T, d, {2, -2, 0, 99})]),
    %% list of operations
    true = ets:insert(T, {m, 1, 2, 3}),
    io:format("list: ~w~n", [ets:update_counter(T, m, [{2, 1}, {3, 10}, {4, -1}])]),
    io:format("list same pos twice: ~w~n", [ets:update_counter(T, m, [{2, 1}, {2, 1}])]),
    io:format("list with threshold: ~w~n", [ets:update_counter(T, m, [{3, 100, 50, -1}, {4, 0}])]),
    io:format("empty list: ~w~n", [ets:update_counter(T, m, [])]),
    io:format("obj m: ~w~n", [ets:lookup(T, m)]),
    %% bignums
    true = ets:insert(T, {big, 1 bsl 62}),
    io:format("bignum: ~w~n", [ets:update_counter(T, big, 1 bsl 62)]),
    io:format("bignum back: ~w~n", [ets:update_counter(T, big, -(1 bsl 63))]),
    io:format("bignum incr: ~w~n", [ets:update_counter(T, big, 100000000000000000000000)]),
    %% default object
    io:format("default new: ~w~n", [ets:update_counter(T, n, 5, {n, 10})]),
    io:format("default present: ~w~n", [ets:update_counter(T, n, 5, {n, 1000})]),
    io:format("default key replaced: ~w, obj: ~w~n",
              [ets:update_counter(T, q, {3, 1}, {whatever, 0, 7}), ets:lookup(T, q)]),
    io:format("default list ops: ~w, obj: ~w~n",
              [ets:update_counter(T, r, [{2, 1}, {3, 2}], {r, 0, 0}), ets:lookup(T, r)]),
    io:format("default too short: ~w~n",
              [try_op(fun() -> ets:update_counter(T, s, {3, 1}, {s, 0}) end)]),
    io:format("s inserted? ~w~n", [ets:lookup(T, s)]),
    %% errors
    io:format("missing key: ~w~n", [try_op(fun() -> ets:update_counter(T, nokey, 1) end)]),
    true = ets:insert(T, {atomval, a, 1.5}),
    io:format("non-integer counter: ~w~n", [try_op(fun() -> ets:update_counter(T, atomval, 1) end)]),
    io:format("float counter: ~w~n", [try_op(fun() -> ets:update_counter(T, atomval, {3, 1}) end)]),
    io:format("key position: ~w~n", [try_op(fun() -> ets:update_counter(T, c, {1, 1}) end)]),
    io:format("pos past end: ~w~n", [try_op(fun() -> ets:update_counter(T, c, {9, 1}) end)]),
    io:format("float incr: ~w~n", [try_op(fun() -> ets:update_counter(T, c, 1.0) end)]),
    io:format("list with one bad op: ~w~n",
              [try_op(fun() -> ets:update_counter(T, m, [{2, 1}, {9, 1}]) end)]),
    io:format("m unchanged: ~w~n", [ets:lookup(T, m)]),
    io:format("1-tuple obj: ~w~n",
              [begin true = ets:insert(T, {one}), try_op(fun() -> ets:update_counter(T, one, 1) end) end]),
    B = ets:new(b, [bag]),
    true = ets:insert(B, {k, 1}),
    io:format("bag: ~w~n", [try_op(fun() -> ets:update_counter(B, k, 1) end)]),
    O = ets:new(o, [ordered_set]),
    true = ets:insert(O, {1, 0}),
    io:format("oset via 1.0: ~w, obj: ~w~n", [ets:update_counter(O, 1.0, 3), ets:lookup(O, 1)]),
    io:format("oset default: ~w, obj: ~w~n",
              [ets:update_counter(O, 2, 1, {2, 10}), ets:tab2list(O)]),
    ok.

try_op(F) ->
    try F() catch C:E -> {error, C, E} end.
