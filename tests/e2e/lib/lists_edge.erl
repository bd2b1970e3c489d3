-module(lists_edge).
-export([main/0]).

%% Larger inputs and edge cases for lists functions (long lists, empty lists, nesting).
main() ->
    Big = lists:seq(1, 50000),
    io:format("~w ~w~n", [length(lists:reverse(Big)), hd(lists:reverse(Big))]),
    io:format("~w~n", [lists:foldl(fun(X, A) -> A + X end, 0, lists:map(fun(X) -> X * 2 end, Big))]),
    io:format("~w~n", [lists:foldr(fun(X, A) -> A + X end, 0, Big)]),
    io:format("~w~n", [length(lists:filter(fun(X) -> X rem 3 =:= 0 end, Big))]),
    io:format("~w~n", [lists:nth(25000, Big)]),
    io:format("~w~n", [length(lists:flatten([[X, [X]] || X <- lists:seq(1, 10000)]))]),
    io:format("~w~n", [lists:last(lists:sort(fun(A, B) -> A > B end, Big))]),
    {L1, L2} = lists:split(25000, Big),
    io:format("~w ~w~n", [lists:last(L1), hd(L2)]),
    io:format("~w~n", [lists:sum(lists:usort([X rem 100 || X <- Big]))]),
    io:format("~w~n", [length(lists:append([lists:seq(1, 100) || _ <- lists:seq(1, 100)]))]),
    io:format("~w~n", [lists:max(lists:zipwith(fun(A, B) -> A * B end, Big, lists:reverse(Big)))]),
    io:format("~w~n", [lists:keyfind(49999, 1, [{X, X * 2} || X <- Big])]),
    io:format("empties ~w~n", [[lists:reverse([]), lists:map(fun(X) -> X end, []), lists:sort([]),
                                lists:usort([]), lists:flatten([]), lists:append([]), lists:zip([], [])]]),
    io:format("~w~n", [lists:sublist(Big, 49998, 10)]),
    io:format("~w~n", [lists:sort([{b, 2}, {a, 1}, {b, 1}, {a, 2}])]),
    io:format("~w~n", [lists:usort([[1, 2], [1], [1, 2], [], [1]])]),
    io:format("~w~n", [lists:subtract(lists:seq(1, 20), lists:seq(2, 20, 2))]),
    ok.
