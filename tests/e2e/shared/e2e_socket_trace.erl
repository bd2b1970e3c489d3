%% tests/e2e/shared/e2e_socket_trace.erl — the scenario of the socket-tracing programs
%% (tests/e2e/net/tcp_port_trace, tcp_running_ports): new ports traced with Flags while a
%% client connects, is accepted, sends "ping", and both ends close; the events are printed in
%% order with the client's and server's sockets named, other pids and ports anonymous, time
%% stamps dropped, and the connect request's bytes (they hold the listener's port number)
%% left out. Not a test itself.
-module(e2e_socket_trace).
-export([run/1]).

run(Flags) ->
    {ok, L} = gen_tcp:listen(0, [binary, {ip, {127,0,0,1}}, {active, false}]),
    {ok, Port} = inet:port(L),
    Tracer = spawn(fun() -> collect([]) end),
    erlang:trace(new_ports, true, [{tracer, Tracer} | Flags]),
    {ok, C} = gen_tcp:connect({127,0,0,1}, Port, [binary, {active, false}]),
    {ok, S} = gen_tcp:accept(L),
    ok = gen_tcp:send(C, <<"ping">>),
    {ok, <<"ping">>} = gen_tcp:recv(S, 4),
    ok = gen_tcp:close(C),
    {error, closed} = gen_tcp:recv(S, 0),
    gen_tcp:close(S),
    timer:sleep(100),
    Tracer ! {dump, self()},
    receive {events, Es} -> [io:format("~p~n", [norm(E, C, S)]) || E <- Es] end,
    ok.

norm({control, {66167555, _}}, _, _) -> {control, connect_request};
norm({trace_ts, P, W, A, _}, C, S) -> norm({trace, P, W, A}, C, S);
norm(T, C, S) when is_tuple(T) -> list_to_tuple([norm(E, C, S) || E <- tuple_to_list(T)]);
norm(C, C, _) -> client;
norm(S, _, S) -> server;
norm(P, _, _) when is_pid(P) -> pid;
norm(P, _, _) when is_port(P) -> port;
norm(X, _, _) -> X.

collect(Acc) ->
    receive
        {dump, From} -> From ! {events, lists:reverse(Acc)};
        E -> collect([E | Acc])
    end.
