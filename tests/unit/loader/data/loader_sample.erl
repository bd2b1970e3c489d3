%% A small module whose .beam has every chunk the loader reads (AtU8, Code, ImpT, ExpT, LocT,
%% LitT, FunT, StrT, Line) and both kinds of jump table; beam_loader_test.cpp loads it,
%% truncates it and corrupts it.
-module(loader_sample).
-export([main/0, add/2, pick/1, kind/1]).

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

%% A select_val and a select_tuple_arity jump table, and get_map_elements.
kind(1) -> one;
kind(2) -> two;
kind(three) -> three;
kind({_}) -> tuple1;
kind({_, _}) -> tuple2;
kind(#{key := Value}) -> Value;
kind(_) -> other.
