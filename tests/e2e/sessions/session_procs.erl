%% tests/e2e/sessions/session_procs.erl — procs events with two sessions on one process (as
%% trace_session_SUITE's procs and test_set_on_spawn do): each session's tracer gets every
%% event once; set_on_spawn passes each session's flags to the child, which reports spawned,
%% getting_linked, getting_unlinked and exit to both; register/unregister go to the
%% registered process's tracers; after one session turns its flags off, only the other one
%% traces the next child.
-module(session_procs).
-export([main/0]).
-import(e2e_trace, [collector/0, messages/1, worker/0, run/2, stop_wait/2, name/2]).

main() ->
    T1 = collector(),
    T2 = collector(),
    S1 = trace:session_create(s1, T1, []),
    S2 = trace:session_create(s2, T2, []),
    Tracee = worker(),
    io:format("s1 procs: ~p~n", [trace:process(S1, Tracee, true, [procs, set_on_spawn])]),
    io:format("s2 procs: ~p~n", [trace:process(S2, Tracee, true, [procs, set_on_spawn])]),
    Child1 = run(Tracee, fun() -> child_cycle(self()) end),
    Names1 = [{Tracee, tracee}, {Child1, child}, {self(), main}],
    true = register(session_procs_name, Tracee),
    true = unregister(session_procs_name),
    sync([Tracee, Child1]),
    [begin io:format("~p got:~n", [N]), show(messages(T), [Tracee, Child1], Names1) end || {N, T} <- [{s1, T1}, {s2, T2}]],
    io:format("s1 off: ~p~n", [trace:process(S1, Tracee, false, [procs, set_on_spawn])]),
    Child2 = run(Tracee, fun() -> child_cycle(self()) end),
    Names2 = [{Tracee, tracee}, {Child2, child}, {self(), main}],
    sync([Tracee, Child2]),
    [begin io:format("~p got:~n", [N]), show(messages(T), [Tracee, Child2], Names2) end || {N, T} <- [{s1, T1}, {s2, T2}]],
    io:format("destroy: ~p ~p~n", [trace:session_destroy(S1), trace:session_destroy(S2)]),
    [stop_wait(P, stop) || P <- [Tracee, T1, T2]],
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

%% Every event of these processes is in its tracer's queue.
sync(Pids) ->
    [begin Ref = erlang:trace_delivered(P), receive {trace_delivered, P, Ref} -> ok end end || P <- Pids].

%% Events grouped per tracee (only each tracee's own order is defined).
show(Msgs, Tracees, Names) ->
    [begin
         Mine = [name(M, Names) || M <- Msgs, element(2, M) =:= P],
         io:format("  ~p: ~p~n", [name(P, Names), Mine])
     end || P <- Tracees].
