%% A small module whose .beam has every chunk the loader reads (AtU8, Code, ImpT, ExpT, LocT,
%% LitT, FunT, StrT, Line); beam_loader_test.cpp loads it, truncates it and corrupts it.
-module(loader_sample).
-export([main/0, add/2, pick/1]).

main() ->
    io:format("~p~n", [pick(add(1, 2))]).

add(A, B) -> A + B.

pick(N) ->
    Table = {alpha, [1, 2, 3], #{key => <<"value">>}},
    F = fun(X) -> X * N end,
    case <<"prefix", (integer_to_binary(N))/binary>> of
        <<"prefix", Rest/binary>> -> {F, Rest, Table, twice(N)};
        _ -> other
    end.

twice(N) -> 2 * N.
