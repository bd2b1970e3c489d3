%% tests/e2e/ets/ets_update_element.erl — update_element/3: {Pos, Value} and a list of them
%% (applied in order, the last one wins for the same position), false for a missing key, badarg
%% for the key position, a position past the end or 0, bag tables; works on ordered_set (1.0
%% finds 1); the object size never changes.
-module(ets_update_element).
-export([main/0]).

main() ->
    T = ets:new(t, [set]),
    true = ets:insert(T, {k, a, b, c}),
    io:format("single: ~w -> ~w~n", [ets:update_element(T, k, {2, x}), ets:lookup(T, k)]),
    io:format("list: ~w -> ~w~n",
              [ets:update_element(T, k, [{3, y}, {4, z}]), ets:lookup(T, k)]),
    io:format("same pos twice: ~w -> ~w~n",
              [ets:update_element(T, k, [{2, first}, {2, second}]), ets:lookup(T, k)]),
    io:format("empty list: ~w -> ~w~n", [ets:update_element(T, k, []), ets:lookup(T, k)]),
    io:format("missing key: ~w~n", [ets:update_element(T, nokey, {2, x})]),
    io:format("key pos: ~w~n", [try_op(fun() -> ets:update_element(T, k, {1, k2}) end)]),
    io:format("pos past end: ~w~n", [try_op(fun() -> ets:update_element(T, k, {5, x}) end)]),
    io:format("pos 0: ~w~n", [try_op(fun() -> ets:update_element(T, k, {0, x}) end)]),
    io:format("list with bad op: ~w -> ~w~n",
              [try_op(fun() -> ets:update_element(T, k, [{2, changed}, {7, x}]) end),
               ets:lookup(T, k)]),
    io:format("not a tuple: ~w~n", [try_op(fun() -> ets:update_element(T, k, x) end)]),
    io:format("complex value: ~w -> ~w~n",
              [ets:update_element(T, k, {3, #{m => [1, 2, <<"b">>]}}), ets:lookup(T, k)]),
    O = ets:new(o, [ordered_set, {keypos, 2}]),
    true = ets:insert(O, {v, 1, w}),
    io:format("oset 1.0: ~w -> ~w~n", [ets:update_element(O, 1.0, {1, vv}), ets:tab2list(O)]),
    io:format("oset keypos 2 pos 3: ~w -> ~w~n",
              [ets:update_element(O, 1, {3, ww}), ets:tab2list(O)]),
    io:format("oset key pos 2: ~w~n", [try_op(fun() -> ets:update_element(O, 1, {2, 5}) end)]),
    B = ets:new(b, [bag]),
    true = ets:insert(B, {k, 1}),
    io:format("bag: ~w~n", [try_op(fun() -> ets:update_element(B, k, {2, 5}) end)]),
    D = ets:new(d, [duplicate_bag]),
    io:format("dbag missing: ~w~n", [try_op(fun() -> ets:update_element(D, k, {2, 5}) end)]),
    ok.

try_op(F) ->
    try F() catch C:E -> {error, C, E} end.
