%% tests/cli/trace/calls.erl — calls for `beamlet trace` patterns: recursion, guards, an
%% exception, a caller.
-module(calls).
-export([main/0, fib/1, classify/2, safe_div/2]).

main() ->
    io:format("fib(4) = ~p~n", [fib(4)]),
    Classes = [classify(X, tag) || X <- [1, 5, 10]],
    io:format("~p~n", [Classes]),
    io:format("~p~n", [catch safe_div(1, 0)]),
    io:format("~p~n", [lists:seq(1, 3)]),
    io:format("done~n").

fib(N) when N < 2 -> N;
fib(N) -> fib(N - 1) + fib(N - 2).

classify(X, T) when X > 3 -> {big, T};
classify(_, T) -> {small, T}.

safe_div(A, B) -> A div B.
