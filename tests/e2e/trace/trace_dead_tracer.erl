-module(trace_dead_tracer).
-export([main/0, f/1]).

%% Dead tracers. erlang:trace(W, true, [call, {tracer, T}]) with a T that has already exited
%% returns 1 (OTP 25, no badarg) but leaves W untraced ({flags, []}, {tracer, []}). When the
%% tracer of a traced process exits (normally or killed), the process stops being traced:
%% trace_info reports {flags, []} and {tracer, []} (right away and after it made a traced call,
%% which must not fail), and it can then be traced by another tracer.
f(X) -> X.

main() ->
    io:format("pattern: ~p~n", [erlang:trace_pattern({?MODULE, f, 1}, true)]),
    W = start_worker(),
    Dead = spawn(fun() -> ok end),
    stop_wait(Dead, none),
    io:format("trace with dead tracer: ~p~n", [erlang:trace(W, true, [call, {tracer, Dead}])]),
    info("  worker", W),
    io:format("  call: ~p~n", [run(W, fun() -> ?MODULE:f(1) end)]),
    info("  worker", W),
    %% A live tracer that then exits normally.
    T1 = spawn(fun() -> collector([]) end),
    io:format("trace by t1: ~p~n", [erlang:trace(W, true, [call, arity, {tracer, T1}])]),
    info("  worker", W),
    run(W, fun() -> ?MODULE:f(2) end),
    io:format("  t1 got ~p~n", [give(T1)]),
    stop_wait(T1, stop),
    io:format("t1 exited~n"),
    info("  worker", W),
    io:format("  call: ~p~n", [run(W, fun() -> ?MODULE:f(3) end)]),
    info("  worker", W),
    %% Another tracer can take over; then it is killed.
    T2 = spawn(fun() -> collector([]) end),
    io:format("trace by t2: ~p~n", [erlang:trace(W, true, [call, {tracer, T2}])]),
    info("  worker", W),
    run(W, fun() -> ?MODULE:f(4) end),
    io:format("  t2 got ~p~n", [give(T2)]),
    stop_wait(T2, kill),
    io:format("t2 killed~n"),
    info("  worker", W),
    io:format("  call: ~p~n", [run(W, fun() -> ?MODULE:f(5) end)]),
    info("  worker", W),
    %% The dead tracer's death does not affect the traced process itself.
    io:format("worker alive: ~p~n", [is_process_alive(W)]),
    io:format("pattern off: ~p~n", [erlang:trace_pattern({?MODULE, f, 1}, false)]),
    stop_wait(W, stop),
    ok.

info(Label, P) ->
    {flags, Fl} = erlang:trace_info(P, flags),
    {tracer, Tr} = erlang:trace_info(P, tracer),
    io:format("~s: flags ~p, tracer ~p~n", [Label, lists:sort(Fl), Tr =/= []]).

%% A tracer process: keeps the trace messages it gets until asked for them.
collector(Acc) ->
    receive
        {give, From} -> From ! {msgs, self(), lists:reverse(Acc)}, collector([]);
        stop -> ok;
        M -> collector([M | Acc])
    end.

give(T) ->
    timer:sleep(10),
    T ! {give, self()},
    receive {msgs, T, Msgs} -> [What || {trace, _, call, What} <- Msgs] end.

start_worker() -> spawn(fun worker_loop/0).

worker_loop() ->
    receive
        {run, F, From} -> R = F(), From ! {done, self(), R}, worker_loop();
        stop -> ok
    end.

run(W, F) ->
    W ! {run, F, self()},
    receive {done, W, R} -> R end.

%% Stop P (by message, by exit(P, kill), or just wait for it) and wait until it is dead.
stop_wait(P, How) ->
    Ref = monitor(process, P),
    case How of
        stop -> P ! stop;
        kill -> exit(P, kill);
        none -> ok
    end,
    receive {'DOWN', Ref, process, P, _} -> ok end.
