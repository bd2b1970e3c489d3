-module(math_bifs).
-export([main/0]).

%% abs, trunc, round, float, ceil, floor, max, min on ints, floats and bignums.
main() ->
    Xs = [0, 5, -5, 2.5, -2.5, 3.5, -3.5, 0.49999999999999994, 1.0e20, -7.9, 7.1, 1 bsl 70, -(1 bsl 70), -0.0],
    lists:foreach(fun(X) ->
        io:format("~p: abs ~p trunc ~p round ~p float ~p ceil ~p floor ~p~n",
                  [X, abs(X), trunc(X), round(X), float(X), ceil(X), floor(X)])
    end, Xs),
    io:format("max ~p ~p ~p ~p~n", [max(1, 2), max(a, 1), max("abc", abc), max({1}, [1])]),
    io:format("min ~p ~p ~p ~p~n", [min(1, 2), min(a, 1), min(2.0, 3), min(-1 bsl 80, 0)]),
    io:format("trunc big float ~p~n", [trunc(1.0e30)]),
    io:format("round big float ~p~n", [round(-1.5e25)]),
    Errs = [fun() -> abs(id(a)) end, fun() -> trunc(id("1")) end, fun() -> round(id([])) end],
    io:format("errors ~p~n", [[try F() catch error:E -> E end || F <- Errs]]),
    ok.

id(X) -> X.
