-module(ts_new_clear).
-export([main/0]).

%% Port of trace_SUITE:new_clear. erlang:trace(new, true, [send, {tracer, Tracer}]) returns 0
%% (no existing process is affected); trace_info(new, flags) is {flags, [send]} and
%% trace_info(new, tracer) is {tracer, Tracer}. When Tracer is killed (exit(Tracer, done),
%% wait for its 'DOWN') the `new` settings are cleared: {flags, []} and {tracer, []}.
%% Extra: a process spawned while `new` is on gets [send] with Tracer; after the tracer's
%% death that process reports {flags, []} and {tracer, []} too, and a process spawned then
%% is not traced.

main() ->
    process_flag(trap_exit, true),
    Tracer = spawn(fun receiver/0),
    Names = [{self(), main}, {Tracer, tracer}],
    R = erlang:trace(new, true, [send, {tracer, Tracer}]),
    Flags1 = erlang:trace_info(new, flags),
    Tracer1 = erlang:trace_info(new, tracer),
    Child1 = spawn(fun receiver/0),
    C1Flags1 = erlang:trace_info(Child1, flags),
    C1Tracer1 = erlang:trace_info(Child1, tracer),
    Mref = erlang:monitor(process, Tracer),
    Exit = exit(Tracer, done),
    receive {'DOWN', Mref, _, _, Why} -> ok end,
    Flags2 = erlang:trace_info(new, flags),
    Tracer2 = erlang:trace_info(new, tracer),
    C1Flags2 = erlang:trace_info(Child1, flags),
    C1Tracer2 = erlang:trace_info(Child1, tracer),
    Child2 = spawn(fun receiver/0),
    C2Flags = erlang:trace_info(Child2, flags),
    C2Tracer = erlang:trace_info(Child2, tracer),
    %% Printed only now: while `new` is on, io output could spawn traced processes.
    io:format("trace(new, true, [send, {tracer, T}]): ~p~n", [R]),
    io:format("new: ~p ~p~n", [Flags1, norm(Tracer1, Names)]),
    io:format("child1: ~p ~p~n", [C1Flags1, norm(C1Tracer1, Names)]),
    io:format("exit(tracer, done): ~p, 'DOWN' reason: ~p~n", [Exit, Why]),
    io:format("new after tracer died: ~p ~p~n", [Flags2, Tracer2]),
    io:format("child1 after tracer died: ~p ~p~n", [C1Flags2, C1Tracer2]),
    io:format("child2 spawned after: ~p ~p~n", [C2Flags, C2Tracer]),
    exit(Child1, kill),
    exit(Child2, kill),
    ok.

receiver() ->
    receive _ -> receiver() end.

norm({K, P}, Names) when is_pid(P) ->
    case lists:keyfind(P, 1, Names) of {P, N} -> {K, N}; false -> {K, other_pid} end;
norm(X, _) -> X.
