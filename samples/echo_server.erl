%% samples/echo_server.erl — a TCP echo server and three clients in one program, over
%% loopback, with its connections traced: sockets are ports, so tracing new ports shows each
%% one opening and closing (an accepted socket takes the flags without an open event, as on
%% erl). Run it with tools/run_sample.sh samples/echo_server.erl.
-module(echo_server).
-export([main/0]).

main() ->
    Tracer = spawn(fun() -> tracer([]) end),
    Session = trace:session_create(echo_sample, Tracer, []),
    trace:port(Session, new, true, [ports]),

    {ok, Listen} = gen_tcp:listen(0, [binary, {packet, line}, {active, false}, {ip, {127,0,0,1}}]),
    {ok, Port} = inet:port(Listen),
    io:format("echo server listening on 127.0.0.1:~p~n", [Port]),
    Server = spawn_link(fun() -> accept_loop(Listen) end),

    Clients = [spawn_monitor(fun() -> client(Port, N) end) || N <- [1, 2, 3]],
    [receive {'DOWN', Ref, process, Pid, normal} -> ok end || {Pid, Ref} <- Clients],
    unlink(Server),
    exit(Server, shutdown),
    gen_tcp:close(Listen),
    timer:sleep(50),

    trace:session_destroy(Session),
    Tracer ! {dump, self()},
    receive {events, Events} -> ok end,
    io:format("~p port events (the listener, 3 clients, 3 accepted sockets):~n", [length(Events)]),
    [io:format("  ~s~n", [describe(E)]) || E <- Events],
    ok.

accept_loop(Listen) ->
    case gen_tcp:accept(Listen) of
        {ok, Socket} ->
            Handler = spawn(fun() -> receive go -> echo(Socket) end end),
            ok = gen_tcp:controlling_process(Socket, Handler),
            Handler ! go,
            accept_loop(Listen);
        {error, closed} ->
            ok
    end.

echo(Socket) ->
    case gen_tcp:recv(Socket, 0) of
        {ok, Line} ->
            ok = gen_tcp:send(Socket, [<<"echo: ">>, Line]),
            echo(Socket);
        {error, closed} ->
            ok
    end.

client(Port, N) ->
    {ok, Socket} = gen_tcp:connect({127,0,0,1}, Port, [binary, {packet, line}, {active, false}]),
    Lines = [io_lib:format("client ~p says hello ~p~n", [N, I]) || I <- [1, 2]],
    Replies = [begin ok = gen_tcp:send(Socket, L), {ok, R} = gen_tcp:recv(Socket, 0), R end || L <- Lines],
    io:format("~s", [Replies]),
    gen_tcp:close(Socket).

tracer(Events) ->
    receive
        {dump, From} -> From ! {events, lists:reverse(Events)};
        {trace, Port, What, Arg} -> tracer([{Port, What, Arg} | Events]);
        {trace, Port, What, Arg, Extra} -> tracer([{Port, What, {Arg, Extra}} | Events])
    end.

describe({Port, open, {Pid, Driver}}) -> io_lib:format("~p opened by ~p (~p)", [Port, Pid, Driver]);
describe({Port, What, Arg}) -> io_lib:format("~p ~p ~p", [Port, What, Arg]).
