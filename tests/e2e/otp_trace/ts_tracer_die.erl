-module(ts_tracer_die).
-export([main/0]).

%% Port of trace_SUITE:tracer_die (OTP-13928): erlang:trace/3 may be called on processes whose
%% tracer has died. Proc and Tracer are spawn_link'ed receivers. N = trace(existing, true,
%% [send, {tracer, Tracer}]); Proc has {flags, [send]}, {tracer, Tracer}. Tracer is killed
%% (unlink + exit(die); here we also wait for its 'DOWN' instead of the suite's sleep), which
%% leaves Proc with {flags, []}, {tracer, []}. A new Tracer2 replaces it: trace(existing, ...)
%% does not raise badarg and returns the same N (one process died, one was spawned), and Proc
%% has [send] with Tracer2. After Tracer2 dies, 1 = trace(Proc, true, [send, {tracer,
%% Tracer3}]) works as well. Only N2 =:= N is printed (counts depend on the VM). Results are
%% printed once every tracer is dead (main's own io would be traced while `existing` is on).

main() ->
    process_flag(trap_exit, true),
    Proc = spawn_link(fun receiver/0),
    Tracer = spawn_link(fun receiver/0),
    N = erlang:trace(existing, true, [send, {tracer, Tracer}]),
    I1 = info(Proc),
    kill(Tracer),
    I1b = info(Proc),
    Tracer2 = spawn_link(fun receiver/0),
    N2 = try erlang:trace(existing, true, [send, {tracer, Tracer2}]) catch C:R -> {C, R} end,
    I2 = info(Proc),
    kill(Tracer2),
    Tracer3 = spawn_link(fun receiver/0),
    R3 = try erlang:trace(Proc, true, [send, {tracer, Tracer3}]) catch C3:R3x -> {C3, R3x} end,
    I3 = info(Proc),
    kill(Tracer3),
    I3b = info(Proc),
    Names = [{Proc, proc}, {Tracer, tracer}, {Tracer2, tracer2}, {Tracer3, tracer3}],
    io:format("N is an integer >= 1: ~p~n", [is_integer(N) andalso N >= 1]),
    io:format("proc with tracer: ~p~n", [norm(I1, Names)]),
    io:format("proc after tracer died: ~p~n", [norm(I1b, Names)]),
    io:format("second trace(existing, ...) =:= N: ~p~n", [N2 =:= N]),
    io:format("proc with tracer2: ~p~n", [norm(I2, Names)]),
    io:format("trace(proc, true, [send, {tracer, tracer3}]): ~p~n", [R3]),
    io:format("proc with tracer3: ~p~n", [norm(I3, Names)]),
    io:format("proc after tracer3 died: ~p~n", [norm(I3b, Names)]),
    erlang:trace(all, false, [all]),
    ok.

info(P) -> {erlang:trace_info(P, flags), erlang:trace_info(P, tracer)}.

kill(T) ->
    unlink(T),
    Mon = erlang:monitor(process, T),
    exit(T, die),
    receive {'DOWN', Mon, _, _, _} -> ok end.

receiver() ->
    receive _ -> receiver() end.

norm(P, Names) when is_pid(P) ->
    case lists:keyfind(P, 1, Names) of {P, N} -> N; false -> other_pid end;
norm(T, Names) when is_tuple(T) -> list_to_tuple(norm(tuple_to_list(T), Names));
norm([H | T], Names) -> [norm(H, Names) | norm(T, Names)];
norm(X, _) -> X.
