-module(lists_sort).
-export([main/0]).

%% lists: sort/1,2, usort/1,2, keysort, ukeysort, merge/2,3, umerge, rkeymerge-free.
main() ->
    L = [5, 3, 8, 1, 9, 2, 7, 3, 1, 6],
    io:format("~w~n", [lists:sort(L)]),
    io:format("~w~n", [lists:sort(fun(A, B) -> A >= B end, L)]),
    io:format("~w~n", [lists:usort(L)]),
    io:format("~w~n", [lists:usort(fun(A, B) -> A >= B end, L)]),
    Recs = [{bob, 25, x}, {alice, 30, y}, {carol, 25, z}, {dave, 20, w}, {alice, 22, v}],
    io:format("~w~n", [lists:keysort(1, Recs)]),
    io:format("~w~n", [lists:keysort(2, Recs)]),
    io:format("~w~n", [lists:ukeysort(1, Recs)]),
    io:format("~w~n", [lists:ukeysort(2, Recs)]),
    io:format("~w~n", [lists:sort(fun({_, A, _}, {_, B, _}) -> A =< B end, Recs)]),
    io:format("~w~n", [lists:merge([1, 4, 7], [2, 3, 8, 9])]),
    io:format("~w~n", [lists:merge([[1, 5], [2, 6], [0, 3, 4]])]),
    io:format("~w~n", [lists:merge(fun(A, B) -> A >= B end, [9, 5, 1], [8, 4, 2])]),
    io:format("~w~n", [lists:umerge([1, 2, 3], [2, 3, 4])]),
    io:format("~w~n", [lists:keymerge(1, [{1, a}, {3, c}], [{2, b}, {3, d}])]),
    Big = [(I * 7919) rem 1009 || I <- lists:seq(1, 2000)],
    S = lists:sort(Big),
    io:format("big ~w ~w ~w ~w~n", [length(S), hd(S), lists:last(S), length(lists:usort(Big))]),
    io:format("sorted ok ~w~n", [is_sorted(S)]),
    Strs = ["pear", "apple", "fig", "banana", "apple", "Cherry"],
    io:format("~p~n", [lists:sort(Strs)]),
    io:format("~p~n", [lists:usort(Strs)]),
    io:format("~p~n", [lists:sort(fun(A, B) -> length(A) =< length(B) end, Strs)]),
    io:format("stable ~w~n", [lists:keysort(2, [{a, 1}, {b, 0}, {c, 1}, {d, 0}, {e, 1}])]),
    %% No ==-equal integer/float pairs (see the note in lang/number_compare.erl).
    io:format("floats ~w~n", [lists:sort([2.5, 1, 1.5, 2, 0.5, -0.5, 0])]),
    io:format("rev ~w~n", [lists:reverse(lists:sort([c, a, b]))]),
    ok.

is_sorted([A, B | T]) when A =< B -> is_sorted([B | T]);
is_sorted([_, _ | _]) -> false;
is_sorted(_) -> true.
