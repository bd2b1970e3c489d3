%% A socket is a port: new_ports tracing with ports, send and 'receive' shows prim_inet's
%% control requests and the driver's replies, the send command, the inet_async and inet_reply
%% messages, and the closes, as erl's tcp_inet reports them. An accepted socket takes the flags
%% but has no open event (OTP's driver_create_port).
-module(tcp_port_trace).
-export([main/0]).
main() ->
    {ok, L} = gen_tcp:listen(0, [binary, {ip, {127,0,0,1}}, {active, false}]),
    {ok, Port} = inet:port(L),
    Self = self(),
    Tracer = spawn(fun() -> tracer(Self, []) end),
    erlang:trace(new_ports, true, [ports, send, 'receive', {tracer, Tracer}]),
    {ok, C} = gen_tcp:connect({127,0,0,1}, Port, [binary, {active, false}]),
    {ok, S} = gen_tcp:accept(L),
    ok = gen_tcp:send(C, <<"ping">>),
    {ok, <<"ping">>} = gen_tcp:recv(S, 4),
    ok = gen_tcp:close(C),
    {error, closed} = gen_tcp:recv(S, 0),
    gen_tcp:close(S),
    timer:sleep(100),
    Tracer ! {dump, self()},
    receive {events, Es} -> [io:format("~p~n", [norm(E, C, S)]) || E <- Es] end.
%% (The connect request holds the listener's port number.)
norm({control, {66167555, _}}, _, _) -> {control, connect_request};
norm(T, C, S) when is_tuple(T) -> list_to_tuple([norm(E, C, S) || E <- tuple_to_list(T)]);
norm(C, C, _) -> client;
norm(S, _, S) -> server;
norm(P, _, _) when is_pid(P) -> pid;
norm(P, _, _) when is_port(P) -> port;
norm(X, _, _) -> X.
tracer(Main, Acc) ->
    receive
        {dump, From} -> From ! {events, lists:reverse(Acc)};
        E -> tracer(Main, [E | Acc])
    end.
