-module(trace_dead_tracer).
-export([main/0, f/1]).
-import(e2e_trace, [collector/0, messages/1, worker/0, run/2, stop_wait/2]).

%% Dead tracers. erlang:trace(W, true, [call, {tracer, T}]) with a T that has already exited
%% returns 1 (OTP 25, no badarg) but leaves W untraced ({flags, []}, {tracer, []}). When the
%% tracer of a traced process exits (normally or killed), the process stops being traced:
%% trace_info reports {flags, []} and {tracer, []} (right away and after it made a traced call,
%% which must not fail), and it can then be traced by another tracer.
f(X) -> X.

main() ->
    io:format("pattern: ~p~n", [erlang:trace_pattern({?MODULE, f, 1}, true)]),
    W = worker(),
    Dead = spawn(fun() -> ok end),
    stop_wait(Dead, none),
    io:format("trace with dead tracer: ~p~n", [erlang:trace(W, true, [call, {tracer, Dead}])]),
    info("  worker", W),
    io:format("  call: ~p~n", [run(W, fun() -> ?MODULE:f(1) end)]),
    info("  worker", W),
    %% A live tracer that then exits normally.
    T1 = collector(),
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
    T2 = collector(),
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

give(T) ->
    timer:sleep(10),
    [What || {trace, _, call, What} <- messages(T)].
