-module(kv_call).
-export([main/0]).

%% A key-value server process with a call/reply protocol: each request carries a fresh make_ref()
%% and the caller waits for {Ref, Reply}; the caller monitors the server so a dead server gives
%% {error, noproc} or the crash reason instead of hanging; requests from many clients.
main() ->
    S = start(),
    io:format("put a: ~p~n", [call(S, {put, a, 1})]),
    io:format("put b: ~p~n", [call(S, {put, b, "bee"})]),
    io:format("put a again: ~p~n", [call(S, {put, a, 11})]),
    io:format("get a: ~p~n", [call(S, {get, a})]),
    io:format("get missing: ~p~n", [call(S, {get, zz})]),
    io:format("keys: ~p~n", [call(S, keys)]),
    io:format("delete b: ~p~n", [call(S, {delete, b})]),
    io:format("delete b again: ~p~n", [call(S, {delete, b})]),
    io:format("size: ~p~n", [call(S, size)]),
    io:format("unknown request: ~p~n", [call(S, {frobnicate, 1})]),
    %% Stale replies / unrelated messages in the caller's mailbox don't confuse call/2.
    self() ! {make_ref(), stale_reply},
    io:format("get a with junk queued: ~p~n", [call(S, {get, a})]),
    io:format("junk still queued: ~p~n", [receive {_, stale_reply} -> yes after 0 -> no end]),
    %% 20 clients each add 50 keys concurrently.
    Self = self(),
    Clients = [spawn_monitor(fun() ->
                                     [ok = call(S, {put, {C, K}, C * K}) || K <- lists:seq(1, 50)],
                                     Self ! {client_done, C}
                             end) || C <- lists:seq(1, 20)],
    [receive {client_done, C} -> ok end || C <- lists:seq(1, 20)],
    [receive {'DOWN', R, process, P, normal} -> ok end || {P, R} <- Clients],
    io:format("size after clients: ~p~n", [call(S, size)]),
    io:format("get {7, 6}: ~p~n", [call(S, {get, {7, 6}})]),
    io:format("sum of values: ~p~n", [call(S, sum)]),
    %% Crash the server through a request; the caller sees the reason via its monitor.
    io:format("crashing call: ~p~n", [call(S, {crash, bad_request})]),
    io:format("call to dead server: ~p~n", [call(S, {get, a})]),
    io:format("server alive: ~p~n", [is_process_alive(S)]),
    S2 = start(),
    io:format("new server get a: ~p~n", [call(S2, {get, a})]),
    Mon = monitor(process, S2),
    io:format("stop: ~p~n", [call(S2, stop)]),
    io:format("server exit: ~p~n", [receive {'DOWN', Mon, process, S2, W} -> W end]),
    io:format("after stop: ~p~n", [call(S2, size)]),
    ok.

start() -> spawn(fun() -> loop(#{}) end).

call(Server, Request) ->
    Mref = monitor(process, Server),
    Server ! {call, self(), Mref, Request},
    receive
        {Mref, Reply} ->
            demonitor(Mref, [flush]),
            Reply;
        {'DOWN', Mref, process, Server, noproc} ->
            {error, noproc};
        {'DOWN', Mref, process, Server, Reason} ->
            {error, {server_died, Reason}}
    end.

loop(Map) ->
    receive
        {call, From, Ref, Request} ->
            case handle(Request, Map) of
                {reply, Reply, NewMap} ->
                    From ! {Ref, Reply},
                    loop(NewMap);
                {stop, Reply} ->
                    From ! {Ref, Reply}
            end
    end.

handle({put, K, V}, M) -> {reply, ok, M#{K => V}};
handle({get, K}, M) ->
    case M of
        #{K := V} -> {reply, {ok, V}, M};
        _ -> {reply, not_found, M}
    end;
handle({delete, K}, M) ->
    case maps:is_key(K, M) of
        true -> {reply, deleted, maps:remove(K, M)};
        false -> {reply, not_found, M}
    end;
handle(keys, M) -> {reply, lists:sort(maps:keys(M)), M};
handle(size, M) -> {reply, map_size(M), M};
handle(sum, M) -> {reply, lists:sum([V || V <- maps:values(M), is_integer(V)]), M};
handle(stop, _M) -> {stop, stopped};
handle({crash, Why}, _M) -> exit(Why);
handle(Other, M) -> {reply, {error, {unknown, Other}}, M}.
