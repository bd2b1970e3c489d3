-module(lists_misc).
-export([main/0]).

%% lists: flatten/1,2, zip, unzip, zip3, unzip3, enumerate, join, subtract, max, min, sum,
%% foldl on strings, seq/3 edge cases.
main() ->
    io:format("~w~n", [lists:flatten([1, [2, [3, [4, []]], 5], [[[]]], 6])]),
    io:format("~w~n", [lists:flatten([[a], b], [c])]),
    io:format("~p~n", [lists:flatten(["abc", [$d, "ef"], [], "g"])]),
    io:format("~w~n", [lists:zip([1, 2, 3], [a, b, c])]),
    io:format("~w~n", [lists:unzip([{1, a}, {2, b}, {3, c}])]),
    io:format("~w~n", [lists:zip3([1, 2], [a, b], [x, y])]),
    io:format("~w~n", [lists:unzip3([{1, a, x}, {2, b, y}])]),
    io:format("~w~n", [lists:enumerate([a, b, c])]),
    io:format("~w~n", [lists:enumerate(10, [a, b, c])]),
    io:format("~p~n", [lists:join(", ", ["a", "b", "c"])]),
    io:format("~w ~w~n", [lists:join(x, []), lists:join(x, [1])]),
    io:format("~w~n", [lists:subtract([1, 2, 3, 2, 1], [2, 3])]),
    io:format("~w ~w ~w~n", [lists:max([3, 1, 4, 1, 5]), lists:min([3, 1, 4, 1, 5]), lists:max([a, 1, "s", {t}])]),
    io:format("~w ~w ~p~n", [lists:sum([1, 2, 3]), lists:sum([]), lists:sum([1, 2.5, 3])]),
    io:format("~w~n", [lists:seq(0, 100, 25)]),
    io:format("~w~n", [lists:seq(3, 1, -1)]),
    io:format("~w~n", [lists:seq(1, 0)]),
    io:format("~w~n", [lists:seq(1, 2, 5)]),
    io:format("~w~n", [lists:sum(lists:seq(1, 1000000))]),
    io:format("~w~n", [lists:max([1 bsl 100, 1.0e30, 5])]),
    io:format("~p~n", [lists:flatten(io_lib:format("~w-~w", [a, b]))]),
    io:format("~w~n", [lists:splitwith(fun(C) -> C =/= $: end, "key:value")]),
    io:format("~w~n", [lists:append("abc", "def") =:= "abcdef"]),
    io:format("~w~n", [lists:flatlength([1, [2, [3, 4]], [], 5])]),
    Errs = [fun() -> lists:zip([1], [1, 2]) end, fun() -> lists:max([]) end, fun() -> lists:sum([a]) end],
    io:format("errors ~w~n", [[try F() catch error:E -> element(1, {E}) end || F <- Errs]]),
    ok.
