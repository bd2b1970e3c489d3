-module(bignum_ops).
-export([main/0]).

%% div/rem/band/bor/bxor/bsl/bsr/bnot on bignums, including negatives.
main() ->
    A = pow(2, 100) + 12345,
    B = pow(3, 50) - 1,
    Vals = [A, -A, B, -B, 7, -7, pow(2, 64), -pow(2, 64)],
    Pairs = [{X, Y} || X <- [A, -A, B, -B], Y <- [B, -B, 7, -7, pow(2, 64) + 1, -(pow(2, 64) + 1)]],
    lists:foreach(fun({X, Y}) ->
        io:format("~w ~w~n  div ~w rem ~w~n  band ~w bor ~w bxor ~w~n",
                  [X, Y, X div Y, X rem Y, X band Y, X bor Y, X bxor Y])
    end, Pairs),
    lists:foreach(fun(V) ->
        io:format("~w: bnot ~w bsl3 ~w bsr3 ~w bsl70 ~w bsr70 ~w bsl-2 ~w~n",
                  [V, bnot V, V bsl 3, V bsr 3, V bsl 70, V bsr 70, V bsl -2])
    end, Vals),
    io:format("bsr huge ~w ~w~n", [A bsr 1000, (-A) bsr 1000]),
    io:format("small bsl ~w ~w ~w~n", [1 bsl 59, 1 bsl 60, 1 bsl 64]),
    io:format("neg small bsl ~w ~w~n", [-1 bsl 63, -3 bsl 100]),
    io:format("mix ~w~n", [(A * B) div (B - 3) rem 1000000007]),
    io:format("abs ~w ~w~n", [abs(-A), abs(A)]),
    io:format("mul ~w~n", [A * -B]),
    io:format("sub ~w~n", [B - A]),
    ok.

pow(_, 0) -> 1;
pow(B, E) -> B * pow(B, E - 1).
