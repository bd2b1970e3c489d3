%% tests/e2e/sessions/session_procs.erl — procs events with two sessions on one process (as
%% trace_session_SUITE's procs and test_set_on_spawn do): each session's tracer gets every
%% event once; set_on_spawn passes each session's flags to the child, which reports spawned,
%% getting_linked, getting_unlinked and exit to both; register/unregister go to the
%% registered process's tracers; after one session turns its flags off, only the other one
%% traces the next child.
-module(session_procs).
-export([main/0]).

main() ->
    T1 = spawn(fun() -> collector([]) end),
    T2 = spawn(fun() -> collector([]) end),
    S1 = trace:session_create(s1, T1, []),
    S2 = trace:session_create(s2, T2, []),
    Tracee = spawn(fun worker/0),
    io:format("s1 procs: ~p~n", [trace:process(S1, Tracee, true, [procs, set_on_spawn])]),
    io:format("s2 procs: ~p~n", [trace:process(S2, Tracee, true, [procs, set_on_spawn])]),
    Child1 = run(Tracee, fun() -> child_cycle(self()) end),
    Names1 = [{Tracee, tracee}, {Child1, child}, {self(), main}],
    true = register(session_procs_name, Tracee),
    true = unregister(session_procs_name),
    sync([Tracee, Child1]),
    [begin io:format("~p got:~n", [N]), show(give(T), [Tracee, Child1], Names1) end || {N, T} <- [{s1, T1}, {s2, T2}]],
    io:format("s1 off: ~p~n", [trace:process(S1, Tracee, false, [procs, set_on_spawn])]),
    Child2 = run(Tracee, fun() -> child_cycle(self()) end),
    Names2 = [{Tracee, tracee}, {Child2, child}, {self(), main}],
    sync([Tracee, Child2]),
    [begin io:format("~p got:~n", [N]), show(give(T), [Tracee, Child2], Names2) end || {N, T} <- [{s1, T1}, {s2, T2}]],
    io:format("destroy: ~p ~p~n", [trace:session_destroy(S1), trace:session_destroy(S2)]),
    [stop(P) || P <- [Tracee, T1, T2]],
    ok.

%% In the tracee: spawn a child, link and unlink it, let it exit with die; return its pid.
child_cycle(_) ->
    Self = self(),
    C = spawn(fun() -> receive {die, From} -> From ! {dying, self()}, exit(die) end end),
    link(C),
    unlink(C),
    Ref = monitor(process, C),
    C ! {die, Self},
    receive {'DOWN', Ref, process, C, _} -> ok end,
    C.

worker() ->
    receive
        {run, F, From} -> From ! {done, self(), F()}, worker();
        stop -> ok
    end.

run(W, F) ->
    W ! {run, F, self()},
    receive {done, W, R} -> R end.

%% Every event of these processes is in its tracer's queue.
sync(Pids) ->
    [begin Ref = erlang:trace_delivered(P), receive {trace_delivered, P, Ref} -> ok end end || P <- Pids].

collector(Acc) ->
    receive
        {give, From} -> From ! {msgs, self(), lists:reverse(Acc)}, collector([]);
        stop -> ok;
        M -> collector([M | Acc])
    end.

give(T) ->
    T ! {give, self()},
    receive {msgs, T, Ms} -> Ms end.

%% Events grouped per tracee (only each tracee's own order is defined).
show(Msgs, Tracees, Names) ->
    [begin
         Mine = [name(M, Names) || M <- Msgs, element(2, M) =:= P],
         io:format("  ~p: ~p~n", [name(P, Names), Mine])
     end || P <- Tracees].

name(P, Names) when is_pid(P) ->
    case lists:keyfind(P, 1, Names) of
        {P, N} -> N;
        false -> other
    end;
name(F, _) when is_function(F) -> 'fun';
name(T, Names) when is_tuple(T) -> list_to_tuple(name(tuple_to_list(T), Names));
name(L, Names) when is_list(L) -> [name(E, Names) || E <- L];
name(X, _) -> X.

stop(P) ->
    Ref = monitor(process, P),
    P ! stop,
    receive {'DOWN', Ref, process, P, _} -> ok end.
