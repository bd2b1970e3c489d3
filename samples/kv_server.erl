%% samples/kv_server.erl — a key-value store living in its own process, with a synchronous
%% call/reply protocol built from make_ref/0, monitor/2 and selective receive.
-module(kv_server).
-export([main/0]).

main() ->
    Server = start(),
    io:format("Started a key-value server.~n"),
    ok = call(Server, {put, language, "Erlang"}),
    ok = call(Server, {put, vm, beamlet}),
    ok = call(Server, {put, answer, 42}),
    io:format("get language -> ~p~n", [call(Server, {get, language})]),
    io:format("get answer   -> ~p~n", [call(Server, {get, answer})]),
    io:format("get missing  -> ~p~n", [call(Server, {get, missing})]),
    io:format("keys         -> ~p~n", [call(Server, keys)]),
    Self = self(),
    Clients = [spawn_monitor(fun() ->
                                     [call(Server, {put, {client, C, K}, K}) || K <- lists:seq(1, 100)],
                                     Self ! {client_done, C}
                             end) || C <- lists:seq(1, 10)],
    [receive {client_done, C} -> ok end || C <- lists:seq(1, 10)],
    [receive {'DOWN', R, process, _, _} -> ok end || {_, R} <- Clients],
    io:format("10 clients stored 100 keys each; the server now holds ~p keys.~n", [call(Server, size)]),
    Mon = monitor(process, Server),
    io:format("stop         -> ~p~n", [call(Server, stop)]),
    receive {'DOWN', Mon, process, Server, Why} -> io:format("The server exited (~p).~n", [Why]) end,
    io:format("call after stop -> ~p~n", [call(Server, size)]),
    ok.

start() -> spawn(fun() -> loop(#{}) end).

call(Server, Request) ->
    Ref = monitor(process, Server),
    Server ! {call, self(), Ref, Request},
    receive
        {Ref, Reply} -> demonitor(Ref, [flush]), Reply;
        {'DOWN', Ref, process, Server, Reason} -> {error, Reason}
    end.

loop(Store) ->
    receive
        {call, From, Ref, stop} ->
            From ! {Ref, stopped};
        {call, From, Ref, Request} ->
            {Reply, NewStore} = handle(Request, Store),
            From ! {Ref, Reply},
            loop(NewStore)
    end.

handle({put, K, V}, S) -> {ok, S#{K => V}};
handle({get, K}, S) -> {maps:find(K, S), S};
handle(keys, S) -> {lists:sort(maps:keys(S)), S};
handle(size, S) -> {map_size(S), S}.
