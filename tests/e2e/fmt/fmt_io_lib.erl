-module(fmt_io_lib).
-export([main/0]).

%% io_lib:format returns (deep) char lists; flatten and print them.
main() ->
    S1 = io_lib:format("~w + ~w = ~w", [1, 2, 3]),
    io:format("~s~n", [S1]),
    io:format("~p~n", [lists:flatten(S1)]),
    io:format("flat ~w~n", [is_list(S1)]),
    S2 = lists:flatten(io_lib:format("~p", [[{a, 1}, {b, 2}]])),
    io:format("~s (~w chars)~n", [S2, length(S2)]),
    S3 = lists:flatten(io_lib:format("~p", [[{I, lists:seq(1, I)} || I <- lists:seq(1, 8)]])),
    io:format("~s~n", [S3]),
    io:format("lines ~w~n", [length([C || C <- S3, C =:= $\n]) + 1]),
    S4 = lists:flatten(io_lib:format("[~8.3f|~-6s|~5B]", [3.14159, "ab", 42])),
    io:format("~p~n", [S4]),
    Table = [io_lib:format("~-8s~8w~n", [Name, Score]) || {Name, Score} <- [{"ann", 90}, {"bob", 85}, {"cy", 7}]],
    io:format("~s", [Table]),
    io:put_chars(Table),
    Csv = lists:flatten(lists:join(",", [io_lib:format("~w", [X]) || X <- [1, a, 2.5, "s"]])),
    io:format("~s~n", [Csv]),
    Nested = io_lib:format("~s and ~s", [io_lib:format("~w", [inner]), "outer"]),
    io:format("~s~n", [Nested]),
    io:format("~p~n", [lists:flatten(io_lib:format("~c~c~n", [$o, $k]))]),
    io:format("~p~n", [lists:flatten(io_lib:format("~e", [12.5]))]),
    io:format("~p~n", [lists:flatten(io_lib:format("~.16B", [-48879]))]),
    io:format("~p~n", [lists:flatten(io_lib:format("~s", [<<"bin">>]))]),
    io:format("~p~n", [lists:flatten(io_lib:format("~10.3.0s", ["xy"]))]),
    Long = lists:flatten(io_lib:format("~p", [{very_long_tag, lists:seq(1, 30), "and a string", <<"and a binary">>}])),
    io:format("~s~n", [Long]),
    io:format("~w~n", [length(Long)]),
    ok.
