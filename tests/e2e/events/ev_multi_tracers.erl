-module(ev_multi_tracers).
-export([main/0]).
-import(e2e_trace, [collector/0, messages/1, stop_wait/2, name/2]).

%% Several tracers at once (OTP 25, legacy API).
%% - T1 traces W1 and T2 traces W2, both for [send, 'receive']: each tracer gets only the events
%%   of its own tracee ({trace, W, 'receive', Msg} then {trace, W, send, Msg, To}).
%% - Re-tracing W1, which has the live tracer T1, with {tracer, T2} raises error:badarg and changes
%%   nothing (erl also logs "** can only have one tracer per process"; the logger is silenced
%%   here because erl writes that report to stdout asynchronously). Adding a flag with the same
%%   tracer {tracer, T1} is fine.
%% - After T1 has been killed, W1 reports {flags, []} / {tracer, []} and trace(W1, true,
%%   [send, 'receive', {tracer, T2}]) returns 1: T2 now gets the events of both workers (per
%%   worker in order; grouped by worker here since there is no order between tracees).

main() ->
    quiet_logger(),
    Main = self(),
    T1 = collector(),
    T2 = collector(),
    W1 = spawn(fun worker/0),
    W2 = spawn(fun worker/0),
    Names = [{T1, t1}, {T2, t2}, {W1, w1}, {W2, w2}, {Main, main}],
    io:format("t1 traces w1: ~p~n", [erlang:trace(W1, true, [send, 'receive', {tracer, T1}])]),
    io:format("t2 traces w2: ~p~n", [erlang:trace(W2, true, [send, 'receive', {tracer, T2}])]),
    ping(W1, a), ping(W2, b), ping(W1, c), ping(W2, d),
    delivered(W1), delivered(W2),
    show(T1, t1, Names),
    show(T2, t2, Names),
    io:format("w1 with tracer t2: ~p~n", [t(fun() -> erlang:trace(W1, true, [send, {tracer, T2}]) end)]),
    io:format("w1 procs with tracer t2: ~p~n", [t(fun() -> erlang:trace(W1, true, [procs, {tracer, T2}]) end)]),
    info(W1, Names),
    io:format("w1 procs with tracer t1: ~p~n", [t(fun() -> erlang:trace(W1, true, [procs, {tracer, T1}]) end)]),
    info(W1, Names),
    ping(W1, e),
    delivered(W1),
    show(T1, t1, Names),
    show(T2, t2, Names),
    stop_wait(T1, kill),
    io:format("t1 killed~n"),
    info(W1, Names),
    io:format("w1 with tracer t2: ~p~n", [t(fun() -> erlang:trace(W1, true, [send, 'receive', {tracer, T2}]) end)]),
    info(W1, Names),
    ping(W1, f), ping(W2, g), ping(W1, h),
    delivered(W1), delivered(W2),
    show(T2, t2, Names),
    io:format("off w1: ~p~n", [erlang:trace(W1, false, [send, 'receive'])]),
    io:format("off w2: ~p~n", [erlang:trace(W2, false, [send, 'receive'])]),
    [stop_wait(X, stop) || X <- [W1, W2, T2]],
    ok.

%% erl's logger reports refused trace/3 calls on stdout, asynchronously; switch it off.
%% A VM without a logger module raises undef: ignored.
quiet_logger() ->
    try logger:set_primary_config(level, none) catch error:undef -> ok end.

ping(W, Msg) ->
    W ! {echo, self(), Msg},
    receive {echo, W, Msg} -> ok end.

worker() ->
    receive
        {echo, From, M} -> From ! {echo, self(), M}, worker();
        stop -> ok
    end.

delivered(P) ->
    Ref = erlang:trace_delivered(P),
    receive {trace_delivered, P, Ref} -> ok end.

show(T, Label, Names) ->
    Msgs = name(messages(T), Names),
    Tracees = lists:usort([element(2, X) || X <- Msgs]),
    io:format("~p got:~n", [Label]),
    [io:format("  ~p: ~p~n", [W, [X || X <- Msgs, element(2, X) =:= W]]) || W <- Tracees].

info(P, Names) ->
    {flags, Fl} = erlang:trace_info(P, flags),
    {tracer, Tr} = erlang:trace_info(P, tracer),
    io:format("  w1 flags ~p, tracer ~p~n", [lists:sort(Fl), name(Tr, Names)]).

t(F) -> try F() of V -> V catch C:R -> {C, R} end.
