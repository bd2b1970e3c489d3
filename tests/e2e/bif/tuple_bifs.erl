-module(tuple_bifs).
-export([main/0]).

%% element/setelement/tuple_size/tuple_to_list/list_to_tuple/make_tuple and friends.
main() ->
    T = {a, b, c, d},
    io:format("~w ~w ~w~n", [element(1, T), element(4, T), tuple_size(T)]),
    io:format("~w~n", [setelement(1, T, z)]),
    io:format("~w~n", [setelement(4, setelement(2, T, y), w)]),
    io:format("~w ~w~n", [tuple_to_list(T), tuple_to_list({})]),
    io:format("~w ~w~n", [list_to_tuple([1, 2, 3]), list_to_tuple([])]),
    io:format("~w ~w~n", [erlang:make_tuple(3, x), erlang:make_tuple(5, 0, [{2, two}, {4, four}])]),
    io:format("~w~n", [erlang:append_element(T, e)]),
    io:format("~w ~w~n", [erlang:insert_element(1, T, first), erlang:insert_element(5, T, last)]),
    io:format("~w ~w~n", [erlang:delete_element(1, T), erlang:delete_element(4, T)]),
    io:format("size ~w ~w~n", [size(T), size(<<1, 2, 3>>)]),
    Errs = [fun() -> element(5, id(T)) end, fun() -> element(id(0), T) end, fun() -> setelement(9, id(T), x) end,
            fun() -> tuple_size(id([])) end, fun() -> list_to_tuple(id([a | b])) end,
            fun() -> erlang:make_tuple(-1, a) end, fun() -> element(id(a), T) end],
    io:format("errors ~w~n", [[try F() catch error:R -> R end || F <- Errs]]),
    Big = erlang:make_tuple(1000, filler),
    Big2 = lists:foldl(fun(I, Acc) -> setelement(I, Acc, I * I) end, Big, lists:seq(1, 1000, 7)),
    io:format("big ~w ~w ~w~n", [element(1, Big2), element(995, Big2), element(1000, Big2)]),
    io:format("sum ~w~n", [lists:sum([X || X <- tuple_to_list(Big2), is_integer(X)])]),
    ok.

id(X) -> X.
