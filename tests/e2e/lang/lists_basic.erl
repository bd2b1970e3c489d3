-module(lists_basic).
-export([main/0]).

%% List construction, ++, --, pattern matching and improper lists.
main() ->
    L = [1, 2, 3],
    io:format("~w ~w ~w~n", [L, [0 | L], L ++ [4, 5]]),
    io:format("~w~n", [[1, 2, 3, 2, 1] -- [2, 1]]),
    io:format("~w~n", [[a, b, c] -- [d]]),
    io:format("~w ~w~n", [[] ++ [], [] ++ x]),
    io:format("improper ~w ~p~n", [[1 | 2], [1, 2 | 3]]),
    [H | T] = id(L),
    io:format("H=~w T=~w~n", [H, T]),
    [A, B | Rest] = id([x, y, z, w]),
    io:format("A=~w B=~w Rest=~w~n", [A, B, Rest]),
    io:format("len ~w ~w~n", [len(lists:seq(1, 1000), 0), length([])]),
    io:format("rev ~w~n", [rev([1, 2, 3, 4, 5], [])]),
    io:format("nested ~w~n", [[[1], [2, [3, [4]]], []]]),
    io:format("zipwith ~w~n", [zipwith(fun(X, Y) -> X * Y end, [1, 2, 3], [4, 5, 6])]),
    io:format("qsort ~w~n", [qsort([5, 3, 8, 1, 9, 2, 7, 3, 0])]),
    io:format("append chain ~w~n", [lists:seq(1, 3) ++ lists:seq(4, 6) ++ []]),
    io:format("subtract big ~w~n", [length(lists:seq(1, 2000) -- lists:seq(1, 2000, 2))]),
    io:format("mixed ~p~n", [[1, a, "s", <<"b">>, {t}, [x]]]),
    ok.

len([], N) -> N;
len([_ | T], N) -> len(T, N + 1).

rev([], Acc) -> Acc;
rev([H | T], Acc) -> rev(T, [H | Acc]).

zipwith(F, [X | Xs], [Y | Ys]) -> [F(X, Y) | zipwith(F, Xs, Ys)];
zipwith(_, [], []) -> [].

qsort([]) -> [];
qsort([P | Xs]) -> qsort([X || X <- Xs, X < P]) ++ [P] ++ qsort([X || X <- Xs, X >= P]).

id(X) -> X.
