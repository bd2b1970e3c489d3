-module(control_flow).
-export([main/0]).

%% case / if / nested matching / begin-end / match expressions as values.
main() ->
    io:format("~w~n", [[fizz(N) || N <- lists:seq(1, 20)]]),
    io:format("~w~n", [[grade(S) || S <- [95, 85, 75, 65, 10]]]),
    io:format("~w~n", [[describe(X) || X <- [{ok, 1}, {ok, [1, 2]}, {error, "x"}, {error, timeout}, other]]]),
    X = case id(5) of
            N when N > 3 -> Y = N * 2, Y + 1;
            _ -> 0
        end,
    io:format("X=~w~n", [X]),
    Z = begin A = id(1), B = id(2), A + B end,
    io:format("Z=~w~n", [Z]),
    {Q, R} = W = {id(7) div 2, id(7) rem 2},
    io:format("Q=~w R=~w W=~w~n", [Q, R, W]),
    V1 = id(10), L = [V1, V1 + 1],
    io:format("L=~w~n", [L]),
    io:format("collatz ~w~n", [collatz(27, 0)]),
    io:format("gcd ~w ~w~n", [gcd(1071, 462), gcd(17, 5)]),
    io:format("ack ~w~n", [ack(2, 3)]),
    io:format("hanoi ~w~n", [length(hanoi(10, a, b, c))]),
    io:format("nested case ~w~n", [[nested(P, Q2) || P <- [true, false], Q2 <- [1, 2]]]),
    io:format("bool ~w~n", [[{P, Q3, P and Q3, P or Q3, P xor Q3, not P} || P <- [true, false], Q3 <- [true, false]]]),
    io:format("shortcircuit ~w ~w~n", [false andalso error(x), true orelse error(y)]),
    io:format("andalso tail ~w~n", [true andalso id(notbool)]),
    ok.

fizz(N) when N rem 15 =:= 0 -> fizzbuzz;
fizz(N) when N rem 3 =:= 0 -> fizz;
fizz(N) when N rem 5 =:= 0 -> buzz;
fizz(N) -> N.

grade(S) ->
    if S >= 90 -> a;
       S >= 80 -> b;
       S >= 70 -> c;
       S >= 60 -> d;
       true -> f
    end.

describe(T) ->
    case T of
        {ok, V} when is_list(V) -> {list_result, length(V)};
        {ok, V} -> {result, V};
        {error, Reason} when is_atom(Reason) -> {atom_error, Reason};
        {error, _} -> other_error;
        _ -> unknown
    end.

collatz(1, Steps) -> Steps;
collatz(N, Steps) when N rem 2 =:= 0 -> collatz(N div 2, Steps + 1);
collatz(N, Steps) -> collatz(3 * N + 1, Steps + 1).

gcd(A, 0) -> A;
gcd(A, B) -> gcd(B, A rem B).

ack(0, N) -> N + 1;
ack(M, 0) -> ack(M - 1, 1);
ack(M, N) -> ack(M - 1, ack(M, N - 1)).

hanoi(0, _, _, _) -> [];
hanoi(N, From, To, Via) -> hanoi(N - 1, From, Via, To) ++ [{From, To}] ++ hanoi(N - 1, Via, To, From).

nested(P, Q) ->
    case P of
        true -> case Q of 1 -> tt1; _ -> tt_other end;
        false -> if Q > 1 -> f_big; true -> f_small end
    end.

id(X) -> X.
