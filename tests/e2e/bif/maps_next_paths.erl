%% maps:next/1 on iterators made by hand: a path past the map's end, a negative or huge path,
%% a non-map are badarg, as erts answers for maps up to 32 keys (map_SUITE:t_bif_map_next).
-module(maps_next_paths).
-export([main/0]).

main() ->
    Small = #{a => 1, b => 2, c => 3},
    Paths = [0, 1, 2, 3, 4, 5, -1, 16#FFFFFFFFFFFFFFFF, -16#FFFFFFFFFFFFFFFF, a],
    [io:format("[~p|Small]: ~p~n", [P, walk(catch maps:next([P | Small]))]) || P <- Paths],
    [io:format("[~p|#{}]: ~p~n", [P, walk(catch maps:next([P | #{}]))]) || P <- [0, 1, -1]],
    io:format("~p~n", [walk(catch maps:next(id(a)))]),
    io:format("~p~n", [walk(catch maps:next(id([a | Small])))]),
    io:format("~p~n", [walk(catch maps:iterator(id([{a, b}, b])))]),
    io:format("~p~n", [lists:sort(walk(maps:next(maps:iterator(Small))))]).

%% The pairs an iteration step leads to (all of them), or the error's reason.
walk({'EXIT', {Reason, _}}) -> {error, Reason};
walk(none) -> [];
walk({K, V, Iter}) -> [{K, V} | walk(maps:next(Iter))].

id(X) -> X.
