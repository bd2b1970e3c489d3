-module(maps_large).
-export([main/0]).

%% Maps with more than 32 keys (hash maps): only order-independent results are printed.
main() ->
    M = maps:from_list([{I, I * I} || I <- lists:seq(1, 1000)]),
    io:format("size ~w~n", [map_size(M)]),
    io:format("get ~w ~w ~w~n", [maps:get(1, M), maps:get(500, M), maps:get(1000, M)]),
    io:format("sorted head ~w~n", [lists:sublist(lists:sort(maps:to_list(M)), 5)]),
    io:format("sum keys ~w sum values ~w~n", [lists:sum(maps:keys(M)), lists:sum(maps:values(M))]),
    io:format("fold ~w~n", [maps:fold(fun(K, V, Acc) -> Acc + K + V end, 0, M)]),
    M2 = maps:filter(fun(K, _) -> K rem 100 =:= 0 end, M),
    io:format("filtered ~p~n", [M2]),
    M3 = maps:map(fun(_, V) -> V rem 7 end, M),
    io:format("mapped count ~w~n", [length([x || {_, 0} <- maps:to_list(M3)])]),
    M4 = lists:foldl(fun(K, Acc) -> maps:remove(K, Acc) end, M, lists:seq(1, 990)),
    io:format("shrunk ~w ~p~n", [map_size(M4), lists:sort(maps:to_list(M4))]),
    Atoms = maps:from_list([{list_to_atom("key" ++ integer_to_list(I)), I} || I <- lists:seq(1, 50)]),
    io:format("atoms ~w ~w~n", [maps:get(key42, Atoms), map_size(Atoms)]),
    io:format("sorted keys ~p~n", [lists:sublist(lists:sort(maps:keys(Atoms)), 6)]),
    Strs = maps:from_list([{integer_to_list(I), I} || I <- lists:seq(1, 100)]),
    #{"77" := V77} = Strs,
    io:format("string key ~w~n", [V77]),
    Upd = Strs#{"77" := seventy_seven, "new" => 1},
    io:format("upd ~p ~w~n", [maps:get("77", Upd), map_size(Upd)]),
    io:format("eq ~w~n", [maps:from_list(lists:reverse(maps:to_list(M))) =:= M]),
    Merged = maps:merge(M, maps:from_list([{I, neg} || I <- lists:seq(-50, 50)])),
    io:format("merged ~w ~p ~p~n", [map_size(Merged), maps:get(-50, Merged), maps:get(50, Merged)]),
    Tuples = maps:from_list([{{I, I rem 3}, I} || I <- lists:seq(1, 40)]),
    io:format("tuple keys ~w~n", [maps:get({39, 0}, Tuples)]),
    ok.
