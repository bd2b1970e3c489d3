-module(trace_set_on_spawn).
-export([main/0, f/1, child/1]).

%% set_on_spawn: processes spawned by a traced process inherit its trace flags (including
%% set_on_spawn itself, so grandchildren are traced too) and its tracer; their call trace
%% messages carry their own pid. A child started with spawn(M, F, Args) where M:F is traced
%% globally also reports its initial call {M, F, Args}. set_on_first_spawn: only the first
%% process spawned inherits the flags (without set_on_first_spawn); the parent then loses
%% set_on_first_spawn, and later children are not traced. Children run one at a time, so the
%% order of the messages is deterministic.
f(X) -> X.

%% Calls a traced function, optionally spawns a grandchild that does the same, then reports.
%% The parent pid arrives in a message, so the traced arguments contain no pid.
child({Tag, Grand}) ->
    Parent = receive {parent, P} -> P end,
    ?MODULE:f({Tag, called}),
    case Grand of
        true -> spawn_wait(fun() -> ?MODULE:f({grandchild, called}) end);
        false -> ok
    end,
    Parent ! {ready, self(), flags(self())},
    receive stop -> ok end.

main() ->
    io:format("pattern f/1: ~p~n", [erlang:trace_pattern({?MODULE, f, 1}, true)]),
    io:format("pattern child/1: ~p~n", [erlang:trace_pattern({?MODULE, child, 1}, true)]),
    W = start_worker(),
    io:format("trace set_on_spawn: ~p~n", [erlang:trace(W, true, [call, set_on_spawn])]),
    io:format("worker flags: ~p~n", [flags(W)]),
    show("fun child with grandchild", run(W, fun() ->
        ?MODULE:f(parent),
        C = spawn(fun() -> child({child1, true}) end),
        report(C) end)),
    show("spawn/3 child", run(W, fun() ->
        C = spawn(?MODULE, child, [{child2, false}]),
        report(C) end)),
    io:format("worker flags: ~p~n", [flags(W)]),
    io:format("trace off: ~p~n", [erlang:trace(W, false, [call, set_on_spawn])]),
    show("untraced parent", run(W, fun() ->
        C = spawn(fun() -> child({child3, false}) end),
        report(C) end)),
    io:format("trace set_on_first_spawn: ~p~n", [erlang:trace(W, true, [call, set_on_first_spawn])]),
    io:format("worker flags: ~p~n", [flags(W)]),
    show("first child", run(W, fun() ->
        C = spawn(fun() -> child({first, true}) end),
        report(C) end)),
    io:format("worker flags: ~p~n", [flags(W)]),
    show("second child", run(W, fun() ->
        ?MODULE:f(parent),
        C = spawn(fun() -> child({second, false}) end),
        report(C) end)),
    io:format("trace off: ~p~n", [erlang:trace(W, false, [call])]),
    io:format("pattern off: ~p~n", [erlang:trace_pattern({?MODULE, '_', '_'}, false)]),
    stop_worker(W),
    ok.

%% In the worker: wait until child C has made its calls, return its flags, then stop it.
report(C) ->
    C ! {parent, self()},
    receive {ready, C, Flags} -> ok end,
    stop_proc(C),
    {child_flags, Flags}.

spawn_wait(F) ->
    {P, Ref} = spawn_monitor(F),
    receive {'DOWN', Ref, process, P, _} -> ok end.

flags(P) ->
    {flags, L} = erlang:trace_info(P, flags),
    lists:sort(L).

show(Label, {Result, Msgs}) -> io:format("~s: ~p~n  ~p~n", [Label, Result, Msgs]).

%% ---- worker harness: the worker runs funs on request; main is the tracer.
start_worker() -> spawn(fun worker_loop/0).

worker_loop() ->
    receive
        {run, F, From} -> R = F(), From ! {done, self(), R}, worker_loop();
        stop -> ok
    end.

run(W, F) ->
    W ! {run, F, self()},
    R = receive {done, W, Res} -> Res end,
    {R, collect([{W, worker}])}.

%% Trace messages that arrived, in arrival order, with pids replaced by names: pids other than
%% the worker become child, grandchild... in order of first appearance.
collect(Names) ->
    receive
        {trace, P, call, What} ->
            Names1 = case lists:keymember(P, 1, Names) of
                         true -> Names;
                         false -> Names ++ [{P, new_name(length(Names))}]
                     end,
            {P, N} = lists:keyfind(P, 1, Names1),
            [{trace, N, call, What} | collect(Names1)]
    after 20 -> []
    end.

new_name(1) -> child;
new_name(2) -> grandchild;
new_name(_) -> other.

stop_proc(P) ->
    Ref = monitor(process, P),
    P ! stop,
    receive {'DOWN', Ref, process, P, _} -> ok end.

stop_worker(W) -> stop_proc(W).
