-module(maps_nested).
-export([main/0]).

%% Nested map manipulation using maps functions: update paths, deep merge, inversion.
main() ->
    Cfg = #{server => #{host => "localhost", port => 8080},
            db => #{pool => #{size => 5, timeout => 1000}, name => "main"},
            debug => false},
    io:format("~p~n", [get_in([db, pool, size], Cfg)]),
    io:format("~p~n", [get_in([db, missing, size], Cfg)]),
    C2 = put_in([db, pool, size], 20, Cfg),
    C3 = put_in([server, tls, enabled], true, C2),
    io:format("~p~n", [C3]),
    Over = #{server => #{port => 9090}, db => #{pool => #{timeout => 50}}, debug => true},
    io:format("~p~n", [deep_merge(Cfg, Over)]),
    Inv = maps:fold(fun(K, V, Acc) -> maps:update_with(V, fun(L) -> lists:sort([K | L]) end, [K], Acc) end,
                    #{}, #{a => 1, b => 2, c => 1, d => 3, e => 2}),
    io:format("~p~n", [Inv]),
    Counts = lists:foldl(fun(W, Acc) -> maps:update_with(length(W), fun(M) -> maps:update_with(W, fun(N) -> N + 1 end, 1, M) end, #{W => 1}, Acc) end,
                         #{}, ["a", "bb", "a", "cc", "ddd", "bb", "e"]),
    io:format("~p~n", [Counts]),
    io:format("~p~n", [flatten_keys(Cfg)]),
    ok.

get_in([], V) -> V;
get_in([K | Ks], M) when is_map(M) ->
    case maps:find(K, M) of
        {ok, V} -> get_in(Ks, V);
        error -> undefined
    end;
get_in(_, _) -> undefined.

put_in([K], V, M) -> M#{K => V};
put_in([K | Ks], V, M) -> M#{K => put_in(Ks, V, maps:get(K, M, #{}))}.

deep_merge(A, B) ->
    maps:fold(fun(K, VB, Acc) ->
                  case Acc of
                      #{K := VA} when is_map(VA), is_map(VB) -> Acc#{K := deep_merge(VA, VB)};
                      _ -> Acc#{K => VB}
                  end
              end, A, B).

flatten_keys(M) -> lists:sort(flatten_keys(M, [])).
flatten_keys(M, Path) ->
    lists:flatmap(fun({K, V}) when is_map(V) -> flatten_keys(V, Path ++ [K]);
                     ({K, V}) -> [{Path ++ [K], V}]
                  end, maps:to_list(M)).
