-module(maps_basic).
-export([main/0]).

%% Map construction, update (=> and :=), access via matching, printing.
main() ->
    M0 = #{},
    M1 = M0#{a => 1, b => 2},
    M2 = M1#{a := 10, c => 3},
    io:format("~p ~p ~p~n", [M0, M1, M2]),
    io:format("~w~n", [M2]),
    #{a := A, c := C} = M2,
    io:format("A=~w C=~w~n", [A, C]),
    io:format("size ~w ~w~n", [map_size(M2), map_size(M0)]),
    Mixed = #{1 => int, 1.0 => float, "str" => list, <<"bin">> => binary, {t} => tuple,
              [] => nil, atom => atom, #{k => v} => map},
    io:format("~p~n", [Mixed]),
    io:format("~w ~w~n", [maps:get(1, Mixed), maps:get(1.0, Mixed)]),
    Bad = try (id(M1))#{zzz := 1} catch error:R -> R end,
    io:format("bad update ~p~n", [Bad]),
    K = id(key),
    M3 = #{K => value, {K, 2} => [1, 2]},
    io:format("var keys ~p~n", [M3]),
    io:format("nested ~p~n", [#{outer => #{inner => #{deep => 1}}}]),
    Big = maps:from_list([{I, I * I} || I <- lists:seq(1, 20)]),
    io:format("~p~n", [Big]),
    io:format("eq ~w ~w~n", [#{a => 1, b => 2} =:= #{b => 2, a => 1}, #{1 => a} == #{1.0 => a}]),
    Upd = lists:foldl(fun(I, Acc) -> Acc#{I rem 5 => I} end, #{}, lists:seq(1, 23)),
    io:format("fold ~w~n", [Upd]),
    io:format("is_map ~w ~w~n", [is_map(M1), is_map([])]),
    io:format("lookup ~w~n", [[lookup(X, M2) || X <- [a, b, c, d]]]),
    ok.

lookup(K, M) ->
    case M of
        #{K := V} -> {found, V};
        #{} -> missing
    end.

id(X) -> X.
