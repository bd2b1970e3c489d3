-module(tuples).
-export([main/0]).

%% Tuple construction, matching, element access and large tuples.
main() ->
    T = {a, 1, "two", <<"three">>, {4}},
    io:format("~p~n~w~n", [T, T]),
    {A, B, C, D, {E}} = id(T),
    io:format("~w ~w ~s ~s ~w~n", [A, B, C, D, E]),
    io:format("size ~w ~w ~w~n", [tuple_size(T), tuple_size({}), size({1, 2})]),
    io:format("elem ~w ~w~n", [element(1, T), element(5, T)]),
    T2 = setelement(2, T, one),
    io:format("set ~p~n", [T2]),
    Big = list_to_tuple(lists:seq(1, 300)),
    io:format("big ~w ~w ~w~n", [tuple_size(Big), element(150, Big), element(300, Big)]),
    Big2 = setelement(300, Big, last),
    io:format("big2 ~w ~w~n", [element(300, Big2), element(300, Big)]),
    io:format("empty ~w ~p~n", [{}, {{}}]),
    io:format("swap ~w~n", [swap({left, right})]),
    io:format("nested ~w~n", [{{1, {2, {3, {4, {}}}}}}]),
    io:format("eq ~w ~w~n", [{1, 2} =:= {1, 2}, {1, 2} == {1.0, 2}]),
    io:format("points ~w~n", [[dist2(P) || P <- [{point, 3, 4}, {point, -1, 1}, {point, 0, 0}]]]),
    io:format("tag ~w~n", [[tag(X) || X <- [{ok, 1}, {error, bad}, {other}, {}]]]),
    ok.

swap({X, Y}) -> {Y, X}.
dist2({point, X, Y}) -> X * X + Y * Y.
tag({ok, V}) -> {good, V};
tag({error, R}) -> {bad, R};
tag(T) when tuple_size(T) < 2 -> small.

id(X) -> X.
