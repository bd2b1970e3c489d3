-module(bitwise_ops).
-export([main/0]).

%% band/bor/bxor/bsl/bsr/bnot and div/rem on small ints around sign/width boundaries.
main() ->
    Xs = [0, 1, -1, 5, -6, 255, 16#FFFF, 16#7FFFFFFF, -16#80000000, (1 bsl 59) - 1, -(1 bsl 59)],
    lists:foreach(fun(X) ->
        io:format("~w: bnot ~w band255 ~w bor256 ~w bxor-1 ~w bsl1 ~w bsl4 ~w bsr1 ~w bsr63 ~w~n",
                  [X, bnot X, X band 255, X bor 256, X bxor -1, X bsl 1, X bsl 4, X bsr 1, X bsr 63])
    end, id(Xs)),
    io:format("shifts ~w~n", [[1 bsl N || N <- [0, 1, 8, 27, 28, 31, 32, 59, 60, 63, 64, 65, 100]]]),
    io:format("neg shifts ~w~n", [[-1 bsl N || N <- [0, 1, 63, 64, 65]]]),
    io:format("bsr neg ~w~n", [[-100 bsr N || N <- [0, 1, 2, 6, 7, 8, 100]]]),
    io:format("bsl neg count ~w ~w~n", [16 bsl -2, 16 bsr -2]),
    io:format("popcount ~w~n", [[popcount(X) || X <- [0, 1, 255, 16#DEADBEEF, (1 bsl 64) - 1]]]),
    io:format("div/rem ~w~n", [[{X div Y, X rem Y} || X <- [17, -17], Y <- [5, -5]]]),
    Errs = [fun() -> id(1) bsl a end, fun() -> id(1.0) band 1 end, fun() -> bnot id(1.5) end,
            fun() -> id(1) rem 0 end, fun() -> id(1.0) div 1 end],
    io:format("errors ~w~n", [[try F() catch error:E -> E end || F <- Errs]]),
    io:format("mask ~.16B ~.16B~n", [16#123456789ABCDEF band 16#F0F0F0F0F0F0F0F, 16#123 bxor 16#FFF]),
    ok.

popcount(0) -> 0;
popcount(X) -> (X band 1) + popcount(X bsr 1).

id(X) -> X.
