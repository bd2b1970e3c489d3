-module(integers_arith).
-export([main/0]).

%% Small-integer arithmetic, precedence, div/rem sign rules.
main() ->
    Xs = [0, 1, -1, 7, -7, 13, -13, 100, 576460752303423487],
    Ys = [1, -1, 2, -2, 3, -3, 5, 7],
    lists:foreach(fun(X) ->
        lists:foreach(fun(Y) ->
            io:format("~w ~w: + ~w - ~w * ~w div ~w rem ~w~n",
                      [X, Y, X + Y, X - Y, X * Y, X div Y, X rem Y])
        end, Ys)
    end, id(Xs)),
    io:format("prec ~w ~w ~w ~w~n", [2 + 3 * 4, (2 + 3) * 4, 10 - 4 - 3, 2 * 3 div 4]),
    io:format("unary ~w ~w ~w ~w~n", [-(-5), +5, - id(3), -(id(-3))]),
    io:format("bnot ~w ~w ~w~n", [bnot 0, bnot 5, bnot -6]),
    io:format("mixed ~w~n", [lists:foldl(fun(I, Acc) -> (Acc * 31 + I) rem 1000003 end, 7, lists:seq(1, 1000))]),
    io:format("sum ~w~n", [sum(lists:seq(1, 10000), 0)]),
    io:format("literal bases ~w ~w ~w ~w~n", [16#FF, 2#1011, 8#777, 36#ZZ]),
    io:format("underscore ~w ~w~n", [1_000_000, 16#FF_FF]),
    io:format("chars ~w ~w ~w ~w~n", [$a, $A, $\n, $\s]),
    ok.

sum([], Acc) -> Acc;
sum([H | T], Acc) -> sum(T, Acc + H).

id(X) -> X.
