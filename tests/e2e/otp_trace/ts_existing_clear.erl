-module(ts_existing_clear).
-export([main/0]).

%% Port of trace_SUITE:existing_clear. N = erlang:trace(existing, true, [send, {tracer, T}])
%% counts all existing processes and ports, and INCLUDES the caller: main itself then has
%% {flags, [send]} and {tracer, T}. M = erlang:trace(all, false, [all]) (no tracer needed to
%% turn tracing off) returns the same count as N (not N + 1: since OTP 19 the tracer is
%% traced too). Afterwards main has {flags, []} and {tracer, []}. The counts depend on the
%% VM, so only M =:= N and N >= 1 are printed. The tracer has [send] with itself as tracer.
%% Nothing is printed while tracing is on (main's io requests would be traced).

main() ->
    process_flag(trap_exit, true),
    Self = self(),
    Tracer = spawn(fun receiver/0),
    Names = [{Self, main}, {Tracer, tracer}],
    N = erlang:trace(existing, true, [send, {tracer, Tracer}]),
    F1 = erlang:trace_info(Self, flags),
    T1 = erlang:trace_info(Self, tracer),
    TF1 = erlang:trace_info(Tracer, flags),
    TT1 = erlang:trace_info(Tracer, tracer),
    M = erlang:trace(all, false, [all]),
    F2 = erlang:trace_info(Self, flags),
    T2 = erlang:trace_info(Self, tracer),
    TF2 = erlang:trace_info(Tracer, flags),
    io:format("N is an integer >= 1: ~p~n", [is_integer(N) andalso N >= 1]),
    io:format("main while on: ~p ~p~n", [F1, norm(T1, Names)]),
    io:format("tracer while on: ~p ~p~n", [TF1, norm(TT1, Names)]),
    io:format("M =:= N: ~p~n", [M =:= N]),
    io:format("main after off: ~p ~p~n", [F2, T2]),
    io:format("tracer after off: ~p~n", [TF2]),
    exit(Tracer, kill),
    ok.

receiver() ->
    receive _ -> receiver() end.

norm({K, P}, Names) when is_pid(P) ->
    case lists:keyfind(P, 1, Names) of {P, N} -> {K, N}; false -> {K, other_pid} end;
norm(X, _) -> X.
