-module(trace_set_on_link).
-export([main/0, f/1]).

%% set_on_link / set_on_first_link. With set_on_link, a process created by the traced process
%% with spawn_link inherits its flags (including set_on_link) and tracer; a plain spawn does not.
%% In OTP 25 a process that the traced process links to afterwards with link/1 does not get the
%% flags. set_on_first_link: only the first spawn_link child inherits (flags without
%% set_on_first_link) and the parent loses set_on_first_link.
f(X) -> X.

child(Tag) ->
    Parent = receive {parent, P} -> P end,
    ?MODULE:f(Tag),
    Parent ! {ready, self()},
    receive stop -> ok end.

main() ->
    io:format("pattern f/1: ~p~n", [erlang:trace_pattern({?MODULE, f, 1}, true)]),
    W = start_worker(),
    io:format("trace set_on_link: ~p~n", [erlang:trace(W, true, [call, set_on_link])]),
    io:format("worker flags: ~p~n", [flags(W)]),
    show("spawn_link", run(W, fun() -> check(spawn_link(fun() -> child(linked1) end)) end)),
    show("spawn", run(W, fun() -> check(spawn(fun() -> child(unlinked) end)) end)),
    show("link/1", run(W, fun() ->
        C = spawn(fun() -> child(linked_later) end),
        link(C),
        check(C) end)),
    show("spawn_link again", run(W, fun() -> check(spawn_link(fun() -> child(linked2) end)) end)),
    io:format("worker flags: ~p~n", [flags(W)]),
    io:format("trace off: ~p~n", [erlang:trace(W, false, [call, set_on_link])]),
    io:format("trace set_on_first_link: ~p~n", [erlang:trace(W, true, [call, set_on_first_link])]),
    io:format("worker flags: ~p~n", [flags(W)]),
    show("first spawn_link", run(W, fun() -> check(spawn_link(fun() -> child(first) end)) end)),
    io:format("worker flags: ~p~n", [flags(W)]),
    show("second spawn_link", run(W, fun() -> check(spawn_link(fun() -> child(second) end)) end)),
    io:format("trace off: ~p~n", [erlang:trace(W, false, [call])]),
    io:format("pattern off: ~p~n", [erlang:trace_pattern({?MODULE, '_', '_'}, false)]),
    stop_proc(W),
    ok.

%% In the worker: let child C make its call, return its flags, then stop it.
check(C) ->
    C ! {parent, self()},
    receive {ready, C} -> ok end,
    Flags = flags(C),
    stop_proc(C),
    {child_flags, Flags}.

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
    {R, collect(W)}.

%% Trace messages that arrived, in arrival order; pids other than the worker become child.
collect(W) ->
    receive
        {trace, P, call, What} ->
            N = case P of W -> worker; _ -> child end,
            [{trace, N, call, What} | collect(W)]
    after 20 -> []
    end.

stop_proc(P) ->
    Ref = monitor(process, P),
    P ! stop,
    receive {'DOWN', Ref, process, P, _} -> ok end.
