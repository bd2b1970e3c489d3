-module(maps_higher_api).
-export([main/0]).

%% maps: merge, map, filter, filtermap, fold, foreach, with, without, update_with/3,4,
%% from_keys, take, iterator/next, groups_from_list, merge_with, intersect.
main() ->
    M = #{a => 1, b => 2, c => 3, d => 4},
    io:format("~p~n", [maps:merge(M, #{c => 30, e => 5})]),
    io:format("~p~n", [maps:map(fun(K, V) -> {K, V * V} end, M)]),
    io:format("~p~n", [maps:filter(fun(_K, V) -> V rem 2 =:= 0 end, M)]),
    io:format("~p~n", [maps:filtermap(fun(a, _) -> false; (b, V) -> {true, V * 100}; (_, _) -> true end, M)]),
    io:format("~p~n", [maps:fold(fun(K, V, Acc) -> [{K, V} | Acc] end, [], M)]),
    io:format("~p~n", [maps:fold(fun(_, V, Acc) -> V + Acc end, 0, M)]),
    maps:foreach(fun(K, V) -> io:format("[~p=~p]", [K, V]) end, M), io:nl(),
    io:format("~p ~p~n", [maps:with([a, c, z], M), maps:without([a, c, z], M)]),
    io:format("~p~n", [maps:update_with(a, fun(V) -> V + 100 end, M)]),
    io:format("~p~n", [maps:update_with(z, fun(V) -> V + 100 end, 0, M)]),
    io:format("~p~n", [maps:update_with(a, fun(V) -> V + 100 end, 0, M)]),
    io:format("~p~n", [maps:from_keys([x, y, z], none)]),
    io:format("~p ~p~n", [maps:take(b, M), maps:take(zz, M)]),
    io:format("~p~n", [walk(maps:next(maps:iterator(M)))]),
    io:format("~p~n", [maps:next(maps:iterator(#{}))]),
    io:format("~p~n", [maps:groups_from_list(fun(X) -> X rem 3 end, lists:seq(1, 10))]),
    io:format("~p~n", [maps:groups_from_list(fun erlang:length/1, fun lists:reverse/1, ["ab", "cd", "e", "fgh", "i"])]),
    io:format("~p~n", [maps:merge_with(fun(_K, V1, V2) -> V1 + V2 end, #{a => 1, b => 2}, #{b => 10, c => 20})]),
    io:format("~p~n", [maps:intersect(#{a => 1, b => 2}, #{b => 3, c => 4})]),
    Words = ["the", "cat", "and", "the", "hat", "and", "the", "bat"],
    Freq = lists:foldl(fun(W, Acc) -> maps:update_with(W, fun(C) -> C + 1 end, 1, Acc) end, #{}, Words),
    io:format("~p~n", [Freq]),
    io:format("~p~n", [lists:sort(fun({_, A}, {_, B}) -> A >= B end, maps:to_list(Freq))]),
    Err = try maps:update_with(z, fun(V) -> V end, M) catch error:E -> E end,
    io:format("~p~n", [Err]),
    ok.

walk(none) -> [];
walk({K, V, I}) -> [{K, V} | walk(maps:next(I))].
