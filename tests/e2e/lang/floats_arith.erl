-module(floats_arith).
-export([main/0]).

%% Float arithmetic and printing with ~p / ~w.
main() ->
    Fs = [0.1, 0.2, 0.1 + 0.2, 1.0, -1.0, 0.0, -0.0, 1.0e-10, 123456789.0,
          1.0e20, 1.0e21, 1.0e22, 1.5e300, -2.5e-300, 3.14159, 2.0 / 3.0,
          1.0 / 3.0, 100.0, 1000000.0, 1.0e15, 1.0e16, 12345.678, 5.0e-324,
          1.7976931348623157e308, 0.5, 0.25, 9007199254740993.0, 4.35, 0.3],
    lists:foreach(fun(F) -> io:format("~p ~w~n", [F, F]) end, Fs),
    X = id(7.5), Y = id(2.0),
    io:format("ops ~p ~p ~p ~p~n", [X + Y, X - Y, X * Y, X / Y]),
    io:format("int/float ~p ~p ~p ~p~n", [X + 1, 3 * Y, 7 / 2, 6 / 3]),
    io:format("neg ~p ~p~n", [-X, -(id(0.0))]),
    io:format("big*float ~p~n", [(1 bsl 80) * 1.0]),
    io:format("big+float ~p~n", [(1 bsl 70) + 0.5]),
    io:format("float(big) ~p~n", [float(1 bsl 100)]),
    io:format("sum ~p~n", [lists:foldl(fun(I, A) -> A + I * 0.1 end, 0.0, lists:seq(1, 100))]),
    io:format("tiny ~p ~p~n", [1.0e-300 * 1.0e-10, 2.2250738585072014e-308]),
    io:format("powers ~p~n", [[math_pow(10.0, N) || N <- lists:seq(-5, 25, 5)]]),
    ok.

math_pow(_, 0) -> 1.0;
math_pow(B, N) when N > 0 -> B * math_pow(B, N - 1);
math_pow(B, N) -> math_pow(B, N + 1) / B.

id(X) -> X.
