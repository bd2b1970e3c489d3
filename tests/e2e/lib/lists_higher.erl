-module(lists_higher).
-export([main/0]).

%% lists: map, filter, foldl, foldr, foreach, all, any, dropwhile, takewhile, splitwith,
%% flatmap, filtermap, mapfoldl, mapfoldr, partition, zipwith, search.
main() ->
    L = lists:seq(1, 10),
    io:format("~w~n", [lists:map(fun(X) -> X * X end, L)]),
    io:format("~w~n", [lists:filter(fun(X) -> X rem 2 =:= 0 end, L)]),
    io:format("~w~n", [lists:foldl(fun(X, Acc) -> [X | Acc] end, [], L)]),
    io:format("~w~n", [lists:foldr(fun(X, Acc) -> [X | Acc] end, [], L)]),
    io:format("~w~n", [lists:foldl(fun(X, Acc) -> X - Acc end, 0, L)]),
    io:format("~w~n", [lists:foldr(fun(X, Acc) -> X - Acc end, 0, L)]),
    lists:foreach(fun(X) -> io:format("<~w>", [X]) end, [a, b, c]), io:nl(),
    io:format("~w ~w ~w~n", [lists:all(fun is_integer/1, L), lists:all(fun(X) -> X > 5 end, L), lists:all(fun(_) -> false end, [])]),
    io:format("~w ~w ~w~n", [lists:any(fun(X) -> X > 9 end, L), lists:any(fun is_atom/1, L), lists:any(fun(_) -> true end, [])]),
    io:format("~w~n", [lists:dropwhile(fun(X) -> X < 4 end, L)]),
    io:format("~w~n", [lists:takewhile(fun(X) -> X < 4 end, L)]),
    io:format("~w~n", [lists:splitwith(fun(X) -> X < 4 end, L)]),
    io:format("~w~n", [lists:flatmap(fun(X) -> [X, X * 10] end, [1, 2, 3])]),
    io:format("~w~n", [lists:filtermap(fun(X) when X rem 3 =:= 0 -> {true, X div 3}; (X) -> X rem 2 =:= 0 end, L)]),
    io:format("~w~n", [lists:mapfoldl(fun(X, Sum) -> {X * 2, Sum + X} end, 0, L)]),
    io:format("~w~n", [lists:mapfoldr(fun(X, Acc) -> {{X, Acc}, Acc + 1} end, 0, [a, b, c])]),
    io:format("~w~n", [lists:partition(fun(X) -> X > 3 end, [5, 1, 4, 2, 3, 6])]),
    io:format("~w~n", [lists:zipwith(fun(X, Y) -> X + Y end, [1, 2, 3], [10, 20, 30])]),
    io:format("~w~n", [lists:zipwith3(fun(X, Y, Z) -> {X, Y, Z} end, [1, 2], [a, b], ["x", "y"])]),
    io:format("~w ~w~n", [lists:search(fun(X) -> X > 4 end, L), lists:search(fun(X) -> X > 40 end, L)]),
    io:format("~w~n", [lists:map(fun erlang:integer_to_list/1, [1, 22, 333])]),
    io:format("~w~n", [lists:foldl(fun erlang:'+'/2, 0, L)]),
    io:format("~w~n", [lists:uniq([3, 1, 3, 2, 1, 4])]),
    ok.
