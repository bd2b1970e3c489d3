-module(otp_alias).
-export([main/0]).

%% Process aliases (OTP 24+): alias/0 and a message sent to it, unalias/1 (later messages to
%% the alias are dropped silently), alias([explicit_unalias]) and alias([reply]) (the first
%% message deactivates it), monitor(process, P, [{alias, explicit_unalias | demonitor |
%% reply_demonitor}]) where the monitor's reference is the alias (a reply through it removes
%% the monitor with reply_demonitor), demonitor/1 of an alias-monitor deactivating the alias,
%% a 'DOWN' for an alias monitor, erlang:send/2 and ! to an alias, and that references are
%% not aliases until made so. Nothing here prints a reference; every check for a dropped
%% message first synchronises with its sender (its later messages arrive in order).
main() ->
    %% alias/0 and unalias/1.
    A = alias(),
    echo(A, one),
    io:format("via alias: ~p~n", [recv()]),
    io:format("unalias: ~p~n", [unalias(A)]),
    echo(A, two),
    io:format("after unalias: ~p~n", [recv()]),
    io:format("unalias again: ~p~n", [unalias(A)]),
    io:format("unalias of a plain ref: ~p~n", [unalias(make_ref())]),

    %% alias([reply]): one message, then inactive.
    R = alias([reply]),
    echo(R, first),
    echo(R, second),
    io:format("reply alias: ~p then ~p~n", [recv(), recv()]),
    io:format("unalias after the reply: ~p~n", [unalias(R)]),

    %% alias([explicit_unalias]).
    E = alias([explicit_unalias]),
    echo(E, x), echo(E, y),
    io:format("explicit_unalias alias: ~p ~p~n", [recv(), recv()]),
    io:format("unalias: ~p~n", [unalias(E)]),

    %% A monitor whose reference is an alias: the server replies to the reference.
    S = spawn(fun server/0),
    M1 = monitor(process, S, [{alias, reply_demonitor}]),
    S ! {request, M1, ping},
    sync(S),
    io:format("reply_demonitor: ~p~n", [recv()]),
    S ! {request, M1, ping_again},
    sync(S),
    io:format("second reply dropped: ~p~n", [recv()]),
    io:format("monitor gone: ~p~n", [monitored(S)]),
    io:format("demonitor: ~p~n", [demonitor(M1, [info])]),

    M2 = monitor(process, S, [{alias, demonitor}]),
    S ! {request, M2, a}, S ! {request, M2, b},
    sync(S),
    io:format("demonitor alias, two replies: ~p ~p~n", [recv(), recv()]),
    io:format("monitor still there: ~p~n", [monitored(S)]),
    true = demonitor(M2),
    S ! {request, M2, c},
    sync(S),
    io:format("after demonitor: ~p, monitored: ~p~n", [recv(), monitored(S)]),

    M3 = monitor(process, S, [{alias, explicit_unalias}]),
    true = demonitor(M3),
    S ! {request, M3, d},
    sync(S),
    io:format("explicit_unalias survives demonitor: ~p~n", [recv()]),
    true = unalias(M3),

    %% The monitored process dies: a 'DOWN' with the alias as reference; the alias goes
    %% (option demonitor) and later messages to it are dropped.
    M4 = monitor(process, S, [{alias, demonitor}]),
    S ! stop,
    receive {'DOWN', M4, process, S, Why} -> io:format("DOWN with the alias: ~p~n", [Why]) end,
    M4 ! late,
    io:format("message after DOWN: ~p~n", [recv()]),

    %% A monitor of a dead process with an alias: immediate DOWN noproc.
    M5 = monitor(process, S, [{alias, reply_demonitor}]),
    receive {'DOWN', M5, process, S, W5} -> io:format("dead process: ~p~n", [W5]) end,
    io:format("plain refs are not aliases: ~p~n", [begin P = make_ref(), P ! hi, recv() end]),
    ok.

echo(Alias, Msg) ->
    Self = self(),
    Pid = spawn(fun() -> Alias ! {via_alias, Msg}, Self ! {done, self()} end),
    receive {done, Pid} -> ok end.

server() ->
    receive
        {request, Ref, Msg} -> erlang:send(Ref, {reply, Ref, Msg}), server();
        {sync, From} -> From ! {synced, self()}, server();
        stop -> ok
    end.

%% Once the server answers a sync, every reply it sent before is in the queue (or dropped).
sync(S) ->
    S ! {sync, self()},
    receive {synced, S} -> ok end.

%% The next message that came through an alias, if any.
recv() ->
    receive
        {via_alias, M} -> M;
        {reply, _, M} -> M
    after 0 -> nothing
    end.

monitored(P) ->
    {monitored_by, By} = process_info(P, monitored_by),
    lists:member(self(), By).
