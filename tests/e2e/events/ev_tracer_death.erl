-module(ev_tracer_death).
-export([main/0]).
-import(e2e_trace, [stop_wait/2]).

%% A tracer that dies while trace events are in flight (OTP 25, legacy API).
%% - A worker traced for [send, 'receive'] by a collector T sends N messages to a sink; T is killed
%%   half way (the worker waits for main at the half-way point) or, in a second round, at an
%%   arbitrary moment while the worker runs freely. Either way: the worker is not affected, every
%%   one of its ordinary messages reaches the sink (exactly N), and trace_info(Worker, flags) /
%%   (Worker, tracer) are {flags, []} / {tracer, []}. On OTP 25 this holds right after the tracer's
%%   'DOWN' (before the worker generated any further event), and of course also after it.
%% - The same for the default tracer of new processes: after trace(new, true, [send, {tracer, T}])
%%   and T's death, trace_info(new, flags) is {flags, []} and a new process starts untraced.
%% - trace(P, true, [send, {tracer, DeadPid}]) returns 1 but P stays untraced.

-define(N, 2000).

main() ->
    Sink = spawn(fun() -> sink(0) end),
    %% Round 1: kill at a known point.
    T1 = spawn(fun tracer/0),
    W = spawn(fun worker/0),
    io:format("trace worker: ~p~n", [erlang:trace(W, true, [send, 'receive', {tracer, T1}])]),
    W ! {go, self(), Sink, ?N, ?N div 2},
    receive {half, W} -> ok end,
    info("worker at half way", W),
    stop_wait(T1, kill),
    info("tracer killed", W),
    W ! continue,
    receive {done, W} -> ok end,
    info("worker done", W),
    io:format("sink count: ~p~n", [count(Sink)]),
    io:format("worker alive: ~p, echo: ~p~n", [is_process_alive(W), echo(W)]),
    %% Round 2: kill while the worker runs freely.
    T2 = spawn(fun tracer/0),
    io:format("trace worker again: ~p~n", [erlang:trace(W, true, [send, 'receive', {tracer, T2}])]),
    info("traced again", W),
    W ! {go, self(), Sink, ?N, none},
    erlang:yield(),
    stop_wait(T2, kill),
    receive {done, W} -> ok end,
    info("after free run", W),
    io:format("sink count: ~p~n", [count(Sink)]),
    io:format("worker alive: ~p, echo: ~p~n", [is_process_alive(W), echo(W)]),
    %% Default tracer of new processes.
    T3 = spawn(fun tracer/0),
    io:format("trace new: ~p~n", [erlang:trace(new, true, [send, {tracer, T3}])]),
    io:format("new flags: ~p, tracer set ~p~n", [erlang:trace_info(new, flags), erlang:trace_info(new, tracer) =/= {tracer, []}]),
    stop_wait(T3, kill),
    io:format("new after kill: ~p ~p~n", [erlang:trace_info(new, flags), erlang:trace_info(new, tracer)]),
    C = spawn(fun worker/0),
    info("child spawned after", C),
    %% Dead tracer given to trace/3.
    Dead = spawn(fun() -> ok end),
    stop_wait(Dead, none),
    io:format("trace with dead tracer: ~p~n", [erlang:trace(C, true, [send, {tracer, Dead}])]),
    info("child", C),
    io:format("child echo: ~p~n", [echo(C)]),
    info("child after send", C),
    io:format("new off: ~p~n", [erlang:trace(new, false, [send])]),
    [stop_wait(X, stop) || X <- [W, C, Sink]],
    ok.

info(Label, P) ->
    {flags, Fl} = erlang:trace_info(P, flags),
    {tracer, Tr} = erlang:trace_info(P, tracer),
    io:format("~s: flags ~p, has tracer ~p~n", [Label, lists:sort(Fl), Tr =/= []]).

worker() ->
    receive
        {go, Main, To, N, Half} -> send_loop(Main, To, 1, N, Half), worker();
        {echo, From, M} -> From ! {echo, self(), M}, worker();
        stop -> ok
    end.

send_loop(Main, _To, I, N, _Half) when I > N -> Main ! {done, self()};
send_loop(Main, To, I, N, Half) ->
    To ! {n, I},
    case I of
        Half -> Main ! {half, self()}, receive continue -> ok end;
        _ -> ok
    end,
    send_loop(Main, To, I + 1, N, Half).

echo(W) ->
    W ! {echo, self(), ping},
    receive {echo, W, M} -> M end.

%% The tracer just accumulates what it gets (how much it got before dying is not deterministic).
tracer() -> tracer(0).
tracer(N) -> receive _ -> tracer(N + 1) end.

sink(N) ->
    receive
        {count, From} -> From ! {count, self(), N}, sink(0);
        stop -> ok;
        {n, _} -> sink(N + 1)
    end.

count(Sink) ->
    Sink ! {count, self()},
    receive {count, Sink, N} -> N end.
