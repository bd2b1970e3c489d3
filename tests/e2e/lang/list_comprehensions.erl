-module(list_comprehensions).
-export([main/0]).

%% List comprehensions: generators, filters, patterns, nesting.
main() ->
    io:format("~w~n", [[X * X || X <- lists:seq(1, 10)]]),
    io:format("~w~n", [[X || X <- lists:seq(1, 30), X rem 3 =:= 0, X rem 2 =:= 0]]),
    io:format("~w~n", [[{X, Y} || X <- [1, 2, 3], Y <- [a, b]]]),
    io:format("~w~n", [[{X, Y} || X <- lists:seq(1, 4), Y <- lists:seq(X, 4), X + Y =:= 5]]),
    io:format("~w~n", [[V || {ok, V} <- [{ok, 1}, error, {ok, 2}, {error, 3}, {ok, 3, extra}]]]),
    io:format("pyth ~w~n", [[{A, B, C} || C <- lists:seq(1, 30), B <- lists:seq(1, C), A <- lists:seq(1, B),
                                         A * A + B * B =:= C * C]]),
    io:format("perms ~p~n", [perms("abc")]),
    io:format("nested ~w~n", [[[Y * X || Y <- lists:seq(1, X)] || X <- lists:seq(1, 4)]]),
    io:format("primes ~w~n", [primes(60)]),
    io:format("bool filter ~w~n", [[X || X <- [1, a, 2.0, "s", b], is_atom(X)]]),
    io:format("empty ~w~n", [[X || X <- [], X > 0]]),
    N = id(3),
    io:format("closure ~w~n", [[X + N || X <- [10, 20]]]),
    io:format("strings ~p~n", [[[C - 32] ++ Rest || [C | Rest] <- ["hello", "", "world"]]]),
    io:format("map list ~w~n", [lists:sort([{K, V} || {K, V} <- maps:to_list(#{a => 1, b => 2, c => 3}), V > 1])]),
    io:format("qsort ~w~n", [qsort([3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5])]),
    io:format("big ~w~n", [length([X || X <- lists:seq(1, 100000), X rem 7 =:= 0])]),
    ok.

perms([]) -> [[]];
perms(L) -> [[H | T] || H <- L, T <- perms(L -- [H])].

primes(N) -> sieve(lists:seq(2, N)).
sieve([]) -> [];
sieve([P | Xs]) -> [P | sieve([X || X <- Xs, X rem P =/= 0])].

qsort([]) -> [];
qsort([P | T]) -> qsort([X || X <- T, X < P]) ++ [P] ++ qsort([X || X <- T, X >= P]).

id(X) -> X.
