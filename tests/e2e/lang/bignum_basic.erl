-module(bignum_basic).
-export([main/0]).

%% Bignum creation, small/big boundaries and large factorials.
main() ->
    io:format("100! = ~w~n", [fact(100)]),
    io:format("30! = ~w~n", [fact(30)]),
    io:format("25!/23! = ~w~n", [fact(25) div fact(23)]),
    io:format("2^64 = ~w~n", [pow(2, 64)]),
    io:format("2^200 = ~w~n", [pow(2, 200)]),
    io:format("-(3^100) = ~w~n", [-pow(3, 100)]),
    Bounds = [pow(2, 27) - 1, pow(2, 27), pow(2, 31), pow(2, 32), pow(2, 59) - 1, pow(2, 59),
              pow(2, 60) - 1, pow(2, 60), pow(2, 63) - 1, pow(2, 63), pow(2, 64) - 1, pow(2, 64)],
    lists:foreach(fun(B) ->
        io:format("~w: +1 ~w -1 ~w neg ~w *2 ~w sq ~w~n", [B, B + 1, B - 1, -B, B * 2, B * B])
    end, Bounds),
    %% shrinking back to small integers
    Big = pow(2, 100),
    io:format("back ~w ~w ~w~n", [Big - Big + 5, (Big + 7) - Big, Big div Big]),
    io:format("is_integer ~w ~w~n", [is_integer(Big), is_integer(Big * Big)]),
    io:format("fib(300) = ~w~n", [fib(300, 0, 1)]),
    io:format("digits of 200! = ~w~n", [length(integer_to_list(fact(200)))]),
    io:format("cmp ~w ~w ~w ~w~n", [Big > 1, -Big < 1, Big == pow(2, 100), Big =:= Big + 0]),
    io:format("big list sum ~w~n", [lists:sum([pow(10, N) || N <- lists:seq(0, 40)])]),
    ok.

fact(0) -> 1;
fact(N) -> N * fact(N - 1).

pow(_, 0) -> 1;
pow(B, E) -> B * pow(B, E - 1).

fib(0, A, _) -> A;
fib(N, A, B) -> fib(N - 1, B, A + B).
