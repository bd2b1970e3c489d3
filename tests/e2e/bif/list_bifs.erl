-module(list_bifs).
-export([main/0]).

%% length/hd/tl and list-related BIFs.
main() ->
    L = [a, b, c],
    io:format("~w ~w ~w~n", [length(L), hd(L), tl(L)]),
    io:format("~w ~w~n", [tl([x]), hd([[1, 2], 3])]),
    io:format("~w ~w~n", [length([]), length(lists:seq(1, 12345))]),
    io:format("~w~n", [tl([1 | 2])]),
    io:format("errors ~w~n", [[try F() catch error:R -> R end ||
                                F <- [fun() -> hd(id([])) end, fun() -> tl(id([])) end, fun() -> length(id(a)) end,
                                      fun() -> length(id([1 | b])) end, fun() -> hd(id(<<>>)) end]]]),
    io:format("~w ~w~n", [erlang:'++'([1], [2]), erlang:'--'([1, 2, 1], [1])]),
    io:format("~w~n", [lists:reverse(L, [d, e])]),
    io:format("~w ~w~n", [lists:member(b, L), lists:keyfind(2, 1, [{1, a}, {2, b}])]),
    io:format("~w~n", [erlang:list_to_tuple(L)]),
    io:format("nested length ~w~n", [length([[1, 2], [3], []])]),
    io:format("iolist_size ~w~n", [iolist_size([<<"ab">>, $c, ["de", <<"f">>]])]),
    ok.

id(X) -> X.
