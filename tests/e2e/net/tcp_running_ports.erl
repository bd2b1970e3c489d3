%% running_ports on sockets: each control request, command and close is a turn of the port
%% (in/out with the operation, as erl names it); a passive socket that nobody reads from has no
%% I/O turn when data or a close arrives (inet selects nothing then), and opening one is no I/O
%% turn either (no spawn acknowledgement).
-module(tcp_running_ports).
-export([main/0]).
main() ->
    {ok, L} = gen_tcp:listen(0, [binary, {ip, {127,0,0,1}}, {active, false}]),
    {ok, Port} = inet:port(L),
    Self = self(),
    Tracer = spawn(fun() -> tracer(Self, []) end),
    erlang:trace(new_ports, true, [running_ports, {tracer, Tracer}]),
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
norm({trace_ts, P, W, A, _}, C, S) -> norm({trace, P, W, A}, C, S);
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
