-module(maps_basic_api).
-export([main/0]).

%% maps: new, put, get/2,3, find, remove, update, keys, values, to_list, from_list, is_key, size.
main() ->
    M0 = maps:new(),
    M1 = maps:put(a, 1, M0),
    M2 = maps:put(b, 2, M1),
    M3 = maps:put(a, 10, M2),
    io:format("~p ~p ~p ~p~n", [M0, M1, M2, M3]),
    io:format("~p ~p ~p~n", [maps:get(a, M3), maps:get(z, M3, default), maps:get(b, M3, default)]),
    io:format("~p ~p~n", [maps:find(a, M3), maps:find(z, M3)]),
    io:format("~p ~p~n", [maps:remove(a, M3), maps:remove(z, M3)]),
    io:format("~p~n", [maps:update(b, 20, M3)]),
    io:format("~p ~p~n", [maps:keys(M3), maps:values(M3)]),
    io:format("~p~n", [maps:to_list(M3)]),
    io:format("~p~n", [maps:from_list([{x, 1}, {y, 2}, {x, 3}])]),
    io:format("~p ~p~n", [maps:is_key(a, M3), maps:is_key(q, M3)]),
    io:format("~p ~p~n", [maps:size(M3), maps:size(M0)]),
    M4 = maps:from_list([{I, I * 2} || I <- lists:seq(1, 32)]),
    io:format("~p~n", [M4]),
    io:format("keys ~w~n", [maps:keys(M4)]),
    io:format("values ~w~n", [maps:values(M4)]),
    Errs = [fun() -> maps:get(z, M3) end, fun() -> maps:update(z, 1, M3) end,
            fun() -> maps:get(a, id(not_a_map)) end, fun() -> maps:put(a, 1, []) end,
            fun() -> maps:from_list([a]) end],
    io:format("errors ~p~n", [[try F() catch error:E -> E end || F <- Errs]]),
    Keys = [1, 1.0, a, "a", <<"a">>, {1}, [1]],
    M5 = maps:from_list([{K, ok} || K <- Keys]),
    io:format("mixed keys ~p~n", [maps:keys(M5)]),
    ok.

id(X) -> X.
