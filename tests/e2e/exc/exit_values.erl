-module(exit_values).
-export([main/0]).

%% Arbitrary terms as throw/error/exit reasons, and values flowing out of handlers.
main() ->
    Reasons = [atom, 42, -1.5, "string", <<"bin">>, {tuple, 1}, [list, 2], #{k => v},
               [], {}, {nested, {deep, [1, {2, three}]}}, 1 bsl 100],
    lists:foreach(fun(R) ->
        T = try throw(R) catch throw:X -> X end,
        E = try erlang:error(R) catch error:Y -> Y end,
        X2 = try exit(R) catch exit:Z -> Z end,
        io:format("~p ~w~n", [R, {T =:= R, E =:= R, X2 =:= R}])
    end, Reasons),
    io:format("~p~n", [sum_safe([1, 2, x, 4, {5}, 6])]),
    io:format("~p~n", [parse_all(["1", "22", "x3", "", "-7"])]),
    io:format("~p~n", [first_ok([fun() -> throw(a) end, fun() -> exit(b) end, fun() -> {ok, c} end])]),
    io:format("~p~n", [count_failures(lists:seq(-3, 3))]),
    ok.

sum_safe(L) ->
    lists:foldl(fun(X, Acc) -> try Acc + X catch error:badarith -> Acc end end, 0, L).

parse_all(Strs) ->
    [try {ok, list_to_integer(S)} catch error:badarg -> {error, S} end || S <- Strs].

first_ok([F | Fs]) ->
    try F() catch _:_ -> first_ok(Fs) end;
first_ok([]) -> none.

count_failures(L) ->
    lists:foldl(fun(X, {Ok, Bad}) ->
                    try 10 div X of _ -> {Ok + 1, Bad} catch error:badarith -> {Ok, Bad + 1} end
                end, {0, 0}, L).
