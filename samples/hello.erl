%% samples/hello.erl — a tour of the language on beamlet: funs, lists, maps, binaries, bignums,
%% exceptions and the pretty printer.
-module(hello).
-export([main/0]).

-record(point, {x = 0, y = 0}).

main() ->
    io:format("Hello from beamlet!~n"),
    Squares = [X * X || X <- lists:seq(1, 10)],
    io:format("squares: ~w~n", [Squares]),
    io:format("sum of squares: ~p~n", [lists:sum(Squares)]),
    io:format("30! = ~p~n", [fact(30)]),
    Counts = lists:foldl(fun(W, M) -> maps:update_with(W, fun(C) -> C + 1 end, 1, M) end,
                         #{}, [the, cat, sat, on, the, mat, the, end_]),
    io:format("word counts: ~p~n", [Counts]),
    <<Version:8, Len:16/big, Payload:Len/binary, Rest/binary>> = <<1, 0, 5, "hello", "tail">>,
    io:format("packet v~p: ~p (rest ~p)~n", [Version, Payload, Rest]),
    P = #point{x = 3},
    io:format("record: ~p~n", [P#point{y = 4}]),
    Result = try 1 / zero() catch error:badarith -> division_by_zero end,
    io:format("caught: ~p~n", [Result]),
    io:format("~p~n", [[{user, N, lists:duplicate(N, $*)} || N <- lists:seq(1, 8)]]),
    ok.

fact(0) -> 1;
fact(N) -> N * fact(N - 1).

zero() -> 0.
