-module(trace_basic).
-export([main/0, double/1, add/2, id/1]).

%% Basic legacy call tracing: erlang:trace(Pid, true, [call]) on a worker plus a global
%% trace_pattern on one exported function. Only traced functions called by a traced process
%% produce {trace, Pid, call, {M, F, Args}} messages (sent to the caller of trace/3, here main).
%% Return values: trace/3 on a pid -> 1, trace_pattern/2 on one existing function -> 1.
double(X) -> X * 2.
add(X, Y) -> X + Y.
id(X) -> X.

main() ->
    W = start_worker(),
    io:format("trace_pattern double/1: ~p~n", [erlang:trace_pattern({?MODULE, double, 1}, true)]),
    %% Pattern set but the process is not traced yet: no messages.
    show("untraced process", run(W, fun() -> ?MODULE:double(1) end)),
    io:format("trace worker: ~p~n", [erlang:trace(W, true, [call])]),
    show("traced call", run(W, fun() -> ?MODULE:double(2) end)),
    show("untraced function", run(W, fun() -> ?MODULE:add(1, 2) end)),
    show("two calls", run(W, fun() -> ?MODULE:double(?MODULE:double(3)) end)),
    io:format("trace_pattern add/2: ~p~n", [erlang:trace_pattern({?MODULE, add, 2}, true)]),
    io:format("trace_pattern id/1: ~p~n", [erlang:trace_pattern({?MODULE, id, 1}, true)]),
    show("term args", run(W, fun() -> ?MODULE:id([a, {b, 1.5}, <<"bin">>, "str", #{k => v}]) end)),
    show("both traced", run(W, fun() -> ?MODULE:add(?MODULE:double(4), 1) end)),
    %% A process that is not traced calling traced functions produces nothing.
    Other = start_worker(),
    show("other process", run(Other, fun() -> ?MODULE:double(5) end)),
    %% The traced process may be self(). With no {tracer, _} flag the caller becomes the tracer,
    %% and a process that is its own tracer gets no call trace messages (trace/3 still returns
    %% 1 and trace_info reports the process as its own tracer).
    io:format("trace self: ~p~n", [erlang:trace(self(), true, [call])]),
    io:format("own tracer: ~p~n", [erlang:trace_info(self(), tracer) =:= {tracer, self()}]),
    _ = ?MODULE:double(6),
    show("self traced by self", collect([{self(), self}])),
    io:format("trace self off: ~p~n", [erlang:trace(self(), false, [call])]),
    %% self() traced by another process: the messages go to that process.
    Me = self(),
    C = spawn(fun() -> receive {give, From} -> From ! {msgs, collect([{Me, self}])} end end),
    io:format("trace self to collector: ~p~n", [erlang:trace(self(), true, [call, {tracer, C}])]),
    _ = ?MODULE:double(7),
    _ = double(70),
    io:format("trace self off: ~p~n", [erlang:trace(self(), false, [call])]),
    _ = ?MODULE:double(8),
    C ! {give, self()},
    receive {msgs, CM} -> show("self traced by collector", CM) end,
    io:format("trace worker off: ~p~n", [erlang:trace(W, false, [call])]),
    show("worker untraced", run(W, fun() -> ?MODULE:double(9) end)),
    io:format("patterns off: ~p~n", [erlang:trace_pattern({?MODULE, '_', '_'}, false)]),
    stop_worker(W),
    stop_worker(Other),
    ok.

show(Label, Msgs) -> io:format("~s: ~p~n", [Label, Msgs]).

%% ---- worker harness: the worker runs funs on request; main is the tracer.
start_worker() -> spawn(fun worker_loop/0).

worker_loop() ->
    receive
        {run, F, From} -> F(), From ! {done, self()}, worker_loop();
        stop -> ok
    end.

run(W, F) ->
    W ! {run, F, self()},
    receive {done, W} -> ok end,
    collect([{W, worker}]).

%% Trace messages that arrived, in arrival order, with pids replaced by names.
collect(Names) ->
    receive
        {trace, P, call, What} -> [{trace, name(P, Names), call, What} | collect(Names)]
    after 20 -> []
    end.

name(P, Names) ->
    case lists:keyfind(P, 1, Names) of
        {P, N} -> N;
        false -> other
    end.

stop_worker(W) ->
    Ref = monitor(process, W),
    W ! stop,
    receive {'DOWN', Ref, process, W, _} -> ok end.
