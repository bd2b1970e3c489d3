%% tests/e2e/ets/ets_lookup_element.erl — lookup_element/3 on set, ordered_set, bag and
%% duplicate_bag: the element at a position, the key position itself, a missing key (badarg),
%% a position past the end (badarg, also when only one object of a bag is too short), position 0
%% and non-integer positions (badarg); member/2 on all table types.
-module(ets_lookup_element).
-export([main/0]).

main() ->
    S = ets:new(s, [set]),
    true = ets:insert(S, [{a, 1, x}, {b, 2}]),
    io:format("set a 2: ~w, a 3: ~w, a 1: ~w~n",
              [ets:lookup_element(S, a, 2), ets:lookup_element(S, a, 3), ets:lookup_element(S, a, 1)]),
    io:format("set missing key: ~w~n", [try_op(fun() -> ets:lookup_element(S, zz, 2) end)]),
    io:format("set pos too big: ~w~n", [try_op(fun() -> ets:lookup_element(S, b, 3) end)]),
    io:format("set pos 0: ~w~n", [try_op(fun() -> ets:lookup_element(S, a, 0) end)]),
    io:format("set pos atom: ~w~n", [try_op(fun() -> ets:lookup_element(S, a, x) end)]),
    O = ets:new(o, [ordered_set]),
    true = ets:insert(O, [{1, one, [list]}, {2.0, two}]),
    io:format("oset 1 3: ~w, 2 (int for 2.0) 2: ~w~n",
              [ets:lookup_element(O, 1, 3), ets:lookup_element(O, 2, 2)]),
    io:format("oset 1.0 key pos: ~w~n", [ets:lookup_element(O, 1.0, 1)]),
    io:format("oset missing: ~w~n", [try_op(fun() -> ets:lookup_element(O, 3, 2) end)]),
    B = ets:new(b, [bag]),
    true = ets:insert(B, [{k, 1, a}, {k, 2, b}, {j, 1}, {j, 2, c}]),
    io:format("bag k 2: ~w~n", [lists:sort(ets:lookup_element(B, k, 2))]),
    io:format("bag k 3: ~w~n", [lists:sort(ets:lookup_element(B, k, 3))]),
    io:format("bag j 3 (one too short): ~w~n", [try_op(fun() -> ets:lookup_element(B, j, 3) end)]),
    io:format("bag missing: ~w~n", [try_op(fun() -> ets:lookup_element(B, q, 2) end)]),
    D = ets:new(d, [duplicate_bag]),
    true = ets:insert(D, [{k, 1}, {k, 1}, {k, 2}]),
    io:format("dbag k 2: ~w~n", [lists:sort(ets:lookup_element(D, k, 2))]),
    io:format("member: ~w ~w ~w ~w ~w~n",
              [ets:member(S, a), ets:member(O, 2), ets:member(O, 1.0), ets:member(B, j),
               ets:member(D, x)]),
    io:format("set member 1.0 when 1 present: ~w~n",
              [begin true = ets:insert(S, {1, x}), ets:member(S, 1.0) end]),
    ok.

try_op(F) ->
    try F() catch C:E -> {error, C, E} end.
