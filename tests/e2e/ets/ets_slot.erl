%% tests/e2e/ets/ets_slot.erl — slot/2: on an ordered_set slot I is the I-th object in key order
%% (as a one-element list), slot(size) is '$end_of_table' and beyond is badarg; on a set (and a
%% bag) walking the slots from 0 until '$end_of_table' visits every object once (only the sorted
%% union is printed, not the slot layout); negative or non-integer slots are badarg.
-module(ets_slot).
-export([main/0]).

main() ->
    O = ets:new(o, [ordered_set]),
    true = ets:insert(O, [{K, v} || K <- [e, b, d, a, c]]),
    io:format("oset slots: ~w~n", [[ets:slot(O, I) || I <- lists:seq(0, 5)]]),
    io:format("oset slot 6: ~w~n", [try_op(fun() -> ets:slot(O, 6) end)]),
    io:format("oset slot -1: ~w~n", [try_op(fun() -> ets:slot(O, -1) end)]),
    io:format("oset slot atom: ~w~n", [try_op(fun() -> ets:slot(O, a) end)]),
    E = ets:new(e, [ordered_set]),
    io:format("empty oset slot 0: ~w, slot 1: ~w~n", [ets:slot(E, 0), try_op(fun() -> ets:slot(E, 1) end)]),
    S = ets:new(s, [set]),
    true = ets:insert(S, [{I, I * I} || I <- lists:seq(1, 40)]),
    SL = walk(S, 0),
    io:format("set slots: ~w objects, sorted ~w~n", [length(SL), lists:sort(SL) =:= lists:sort(ets:tab2list(S))]),
    io:format("set slot -1: ~w~n", [try_op(fun() -> ets:slot(S, -1) end)]),
    B = ets:new(b, [bag]),
    true = ets:insert(B, [{I rem 5, I} || I <- lists:seq(1, 20)]),
    BL = walk(B, 0),
    io:format("bag slots: ~w objects, sum ~w~n", [length(BL), lists:sum([V || {_, V} <- BL])]),
    ok.

walk(T, I) ->
    case ets:slot(T, I) of
        '$end_of_table' -> [];
        L -> L ++ walk(T, I + 1)
    end.

try_op(F) ->
    try F() catch C:Er -> {error, C, Er} end.
