%% samples/trace_messages.erl — traces the messages and lives of a few actors: a key-value
%% server and two clients, traced for send, 'receive' and procs (inherited by the clients
%% through set_on_spawn), with a send match spec that keeps only the replies, then scheduling
%% and garbage collection of the server. A tracer process prints each event with names
%% instead of pids.
-module(trace_messages).
-export([main/0]).

main() ->
    Self = self(),
    Tracer = spawn(fun() -> printer(#{}) end),
    Server = spawn(fun() -> server(#{}) end),
    Tracer ! {name, Server, server},
    Tracer ! {name, Self, main},
    io:format("== send, 'receive' and procs on the server, inherited by what it spawns~n"),
    1 = erlang:trace(Server, true, [send, 'receive', procs, set_on_spawn, {tracer, Tracer}]),
    ok = call(Server, {put, colour, blue}),
    blue = call(Server, {get, colour}),
    {ok, C1} = call(Server, {spawn_client, Self}),
    Tracer ! {name, C1, client},
    receive {client_done, C1} -> ok end,
    flush(Tracer),
    io:format("== a send match spec: only the server's replies~n"),
    1 = erlang:trace_pattern(send, [{['_', {reply, '_'}], [], []}], []),
    _ = call(Server, {get, colour}),
    _ = call(Server, {get, size}),
    flush(Tracer),
    1 = erlang:trace_pattern(send, true, []),
    io:format("== running and garbage_collection~n"),
    1 = erlang:trace(Server, false, [send, 'receive', procs, set_on_spawn]),
    1 = erlang:trace(Server, true, [running, garbage_collection, {tracer, Tracer}]),
    _ = call(Server, {get, colour}),
    true = erlang:garbage_collect(Server),
    flush(Tracer),
    1 = erlang:trace(Server, false, [running, garbage_collection]),
    Server ! stop,
    ok.

call(Server, Request) ->
    Server ! {call, self(), Request},
    receive {reply, Reply} -> Reply end.

server(State) ->
    receive
        {call, From, {put, K, V}} -> From ! {reply, ok}, server(State#{K => V});
        {call, From, {get, size}} -> From ! {reply, map_size(State)}, server(State);
        {call, From, {get, K}} -> From ! {reply, maps:get(K, State, undefined)}, server(State);
        {call, From, {spawn_client, Main}} ->
            Client = spawn(fun() -> client(self_of(From), Main) end),
            From ! {reply, {ok, Client}},
            server(State);
        stop -> ok
    end.

self_of(Pid) -> Pid.

%% The client spawned by the server: traced from birth (set_on_spawn).
client(_, Main) ->
    Main ! {client_done, self()}.

%% Waits until the tracer has printed everything generated so far.
flush(Tracer) ->
    Ref = erlang:trace_delivered(all),
    receive {trace_delivered, all, Ref} -> ok end,
    Tracer ! {flush, self()},
    receive flushed -> ok end.

printer(Names) ->
    receive
        {name, Pid, Name} -> printer(Names#{Pid => Name});
        {flush, From} -> From ! flushed, printer(Names);
        {trace, _, gc_major_start, _} = M -> show(setelement(4, M, info_list), Names), printer(Names);
        {trace, _, gc_major_end, _} = M -> show(setelement(4, M, info_list), Names), printer(Names);
        Trace -> show(Trace, Names), printer(Names)
    end.

show(Trace, Names) -> io:format("  ~p~n", [rename(Trace, Names)]).

rename(P, Names) when is_pid(P) -> maps:get(P, Names, P);
rename(F, _) when is_function(F) -> 'fun';
rename(T, Names) when is_tuple(T) -> list_to_tuple(rename(tuple_to_list(T), Names));
rename([H | T], Names) -> [rename(H, Names) | rename(T, Names)];
rename(X, _) -> X.
