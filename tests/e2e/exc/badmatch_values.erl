-module(badmatch_values).
-export([main/0]).

%% The value carried by {badmatch,V} and {case_clause,V} for many kinds of terms.
main() ->
    Vals = [1, -1, 2.5, atom, "str", <<"bin">>, <<1:3>>, {t, 1}, [1, 2 | 3], #{a => 1}, [], {}, 1 bsl 65],
    lists:foreach(fun(V) ->
        B = try {never, _} = id(V) catch error:{badmatch, X} -> X end,
        C = try case id(V) of never -> x end catch error:{case_clause, Y} -> Y end,
        io:format("~p ~w ~w~n", [V, B =:= V, C =:= V])
    end, Vals),
    R1 = try [A, A] = id([1, 2]) catch error:E1 -> E1 end,
    io:format("~p~n", [R1]),
    R2 = try <<X:8, "z">> = id(<<1, "y">>), X catch error:E2 -> E2 end,
    io:format("~p~n", [R2]),
    R3 = try #{k := _} = id(#{j => 1}) catch error:E3 -> E3 end,
    io:format("~p~n", [R3]),
    R4 = try 0 = id(0.0) catch error:E4 -> E4 end,
    io:format("~p~n", [R4]),
    R5 = try "abc" ++ _ = id("abd") catch error:E5 -> E5 end,
    io:format("~p~n", [R5]),
    ok.

id(X) -> X.
