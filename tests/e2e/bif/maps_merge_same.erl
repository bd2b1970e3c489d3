%% maps:merge/2 with nothing to add answers the map itself, not a copy, for small and large
%% maps (maps_SUITE:t_merge_opt).
-module(maps_merge_same).
-export([main/0]).

main() ->
    Small = id(#{a => 1}),
    Large = maps:from_list([{I, I} || I <- lists:seq(1, 200)]),
    io:format("merge keeps the map: ~p~n",
              [[erts_debug:same(maps:merge(A, B), C) || {A, B, C} <- [{#{}, Small, Small}, {Small, #{}, Small},
                                                                      {Small, Small, Small}, {#{}, Large, Large},
                                                                      {Large, #{}, Large}, {Large, Large, Large}]]]),
    io:format("merge: ~p~n", [maps:merge(#{a => 1, b => 2}, #{b => 3, c => 4})]),
    io:format("badmap: ~p~n", [try maps:merge([a | b], #{}) catch error:R -> R end]),
    ok.

id(X) -> X.
