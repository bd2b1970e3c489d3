-module(lists_seq_basic).
-export([main/0]).

%% lists: seq/2,3, reverse, nth, nthtail, last, sublist/2,3, split, member, append/1,2, duplicate.
main() ->
    io:format("~w ~w ~w~n", [lists:seq(1, 10), lists:seq(5, 4), lists:seq(-2, 2)]),
    io:format("~w ~w ~w~n", [lists:seq(1, 20, 3), lists:seq(10, 1, -2), lists:seq(1, 1, 0)]),
    io:format("~w ~w~n", [lists:reverse([1, 2, 3]), lists:reverse([])]),
    io:format("~w ~w~n", [lists:nth(1, [a, b, c]), lists:nth(3, [a, b, c])]),
    io:format("~w ~w~n", [lists:nthtail(2, [a, b, c]), lists:nthtail(0, [a])]),
    io:format("~w~n", [lists:last([1, 2, 3])]),
    io:format("~w ~w ~w~n", [lists:sublist([1, 2, 3, 4, 5], 3), lists:sublist([1, 2], 5), lists:sublist([1, 2, 3, 4, 5], 2, 3)]),
    io:format("~w ~w~n", [lists:split(2, [a, b, c, d]), lists:split(0, [a])]),
    io:format("~w ~w~n", [lists:member(c, [a, b, c]), lists:member(z, [a, b, c])]),
    io:format("~w ~w~n", [lists:append([[1], [2, 3], [], [4]]), lists:append([a], [b])]),
    io:format("~w ~p~n", [lists:duplicate(3, x), lists:duplicate(5, $z)]),
    io:format("~w~n", [lists:prefix([1, 2], [1, 2, 3])]),
    io:format("~w~n", [lists:suffix([2, 3], [1, 2, 3])]),
    io:format("~w~n", [lists:droplast([1, 2, 3])]),
    io:format("~w~n", [lists:delete(b, [a, b, c, b])]),
    io:format("~w ~w~n", [lists:concat([abc, "def", 12, 3.5]) =:= "abcdef123.5", lists:concat([a, 1])]),
    Errs = [fun() -> lists:nth(0, [a]) end, fun() -> lists:nth(4, [a]) end,
            fun() -> lists:seq(5, 1) end, fun() -> lists:split(5, [a]) end, fun() -> lists:last([]) end],
    io:format("errors ~w~n", [[try F() catch error:E -> E end || F <- Errs]]),
    ok.
